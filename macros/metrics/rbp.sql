{#- RBP@k, rank-biased precision (SPEC §6b): (1 - p) Σ over the relevant items at positions
    i <= k of p^(i - 1), p the persistence (plan.persistence: a user reads on from one position
    to the next with probability p). Relevance is binary, by the threshold, as everywhere; a
    user without relevant items scores 0. Under gain='graded' (_rbp_is_graded) the item at i
    weighs g / g_max instead, g its grade (at most g_max, and 0 for grades <= 0) and g_max
    ERR's: max_grade, or the largest grade in truth (rm_hits brings it as rm_max_grade). -#}

{% macro _per_user_rbp(plan, k='k', at='') -%}
    rm_rbp{{ at }}
{%- endmacro %}

{#- A relevant hit's term at `position`: an SQL expression, or a whole number (a hit pattern's
    bit), for which the term is written out as a literal. -#}
{% macro _rbp_term(plan, position) -%}
    {%- set p = plan.persistence -%}
    {%- set double = rank_metrics.type_double() -%}
    {%- if position is number -%}
    cast({{ rank_metrics._number_literal((1 - p) * p ** (position - 1), 'persistence') }} as {{ double }})
    {%- else -%}
    cast({{ rank_metrics._number_literal(1 - p, 'persistence') }} as {{ double }})
        * power(cast({{ rank_metrics._number_literal(p, 'persistence') }} as {{ double }}), cast({{ position }} - 1 as {{ double }}))
    {%- endif -%}
{%- endmacro %}

{#- 'true' when RBP is asked with graded relevance: each hit weighs its grade, so rm_hits brings
    g_max and the hit word does not determine RBP (unless every grade is 1 and g_max too: truth
    without grades, no max_grade and no relevance_threshold, which a grade of 1 may not meet). -#}
{% macro _rbp_is_graded(plan) -%}
    {{- 'true' if 'rbp' in plan.sums and plan.gain == 'graded' else 'false' -}}
{%- endmacro %}

{#- 'true' when the hit word determines RBP, as _pattern_sums reads it: RBP is not asked, or not
    graded, or graded with every weight 1 (truth without grades, no max_grade and no
    relevance_threshold). `sums`, `relevance` and `relevance_threshold`: the plan's, as it is made. -#}
{% macro _rbp_fits_the_word(plan, sums, relevance, relevance_threshold) -%}
    {{- 'false' if 'rbp' in sums and plan.gain == 'graded'
                   and (relevance is not none or plan.max_grade is not none or relevance_threshold is not none) else 'true' -}}
{%- endmacro %}

{#- 'true' when rm_hits carries each hit's grade over g_max for graded RBP: RBP is graded and not
    read off the hit word. -#}
{% macro _rbp_weights_per_hit(plan) -%}
    {{- 'true' if rank_metrics._rbp_is_graded(plan) | trim == 'true' and not plan.hit_patterns else 'false' -}}
{%- endmacro %}

{#- A row of rm_hits' term of the sum within k (_hit_term): a relevant hit's term at its position
    (under gain='graded', any hit with a grade > 0, weighed by its grade over rm_max_grade). -#}
{% macro _rbp_per_hit(plan, k) -%}
    {%- if rank_metrics._rbp_is_graded(plan) | trim == 'true' -%}
    {%- set double = rank_metrics.type_double() -%}
    case when rm_position <= {{ k }} and rm_grade > 0
        then {{ rank_metrics._rbp_term(plan, 'rm_position') }} * least(cast(rm_grade as {{ double }}), rm_max_grade) / rm_max_grade
        else 0 end
    {%- else -%}
    case when rm_position <= {{ k }} and rm_relevant = 1 then {{ rank_metrics._rbp_term(plan, 'rm_position') }} else 0 end
    {%- endif -%}
{%- endmacro %}

{#- RBP's sum within k from the word of relevant hit positions (bit r for a hit at r), over the
    positions after `after` (_pattern_sums takes k's sums in parts). -#}
{% macro _rbp_from_bits(plan, bits, k, after=0) -%}
    {%- for r in range(after + 1, k + 1) %}{{ '\n            + ' if not loop.first }}case when ({{ bits }} & {{ 2 ** r }}) <> 0 then {{ rank_metrics._rbp_term(plan, r) }} else 0 end
    {%- endfor -%}
{%- endmacro %}

{% macro default__rbp_at_k(predictions, truth, k) -%}
    {{ rank_metrics._metric_at_k('rbp', predictions, truth, k, kwargs) }}
{%- endmacro %}

{#- The public dbt macro (macros/dbt/entry_points.sql says how entry points read their arguments). -#}
{% macro rbp_at_k(predictions, truth, k) %}
    {%- if not execute %}{{ return(rank_metrics._while_parsing()) }}{% endif %}
    {{ return(rank_metrics._fits_its_view(adapter.dispatch('rbp_at_k', 'rank_metrics')(**rank_metrics._dbt_arguments(predictions, truth, k, kwargs, varargs)))) }}
{% endmacro %}
