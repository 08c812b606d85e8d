{#- RBP@k, rank-biased precision (SPEC §6b): (1 - p) Σ over the relevant items at positions
    i <= k of p^(i - 1), p the persistence (plan.persistence: a user reads on from one position
    to the next with probability p). Relevance is binary, by the threshold, as everywhere; a
    user without relevant items scores 0. -#}

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

{#- A row of rm_hits' term of the sum within k (_hit_term): a relevant hit's term at its position. -#}
{% macro _rbp_per_hit(plan, k) -%}
    case when rm_position <= {{ k }} and rm_relevant = 1 then {{ rank_metrics._rbp_term(plan, 'rm_position') }} else 0 end
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
