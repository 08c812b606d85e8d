{#- ERR@k, expected reciprocal rank (SPEC §6b): a reader stops at position r with probability
    R_r = (2^g - 1) / 2^g_max, g the grade of the item there (0 for an item truth does not grade,
    a grade above g_max counted as g_max so that R < 1), and ERR@k = Σ over r <= k of
    (1/r) R_r Π over i < r of (1 - R_i). g_max is plan.max_grade, or the largest grade in truth
    (1 without grades). Only hits have R > 0, so the sums run over the hits. -#}

{% macro _per_user_err(plan, k='k', at='') -%}
    rm_err{{ at }}
{%- endmacro %}

{#- 'true' when the hit word determines ERR, as _pattern_sums reads it: ERR is not asked, or
    truth has no grades (every hit's grade 1). `sums`: the plan's. -#}
{% macro _err_fits_the_word(sums, relevance) -%}
    {{- 'true' if 'err' not in sums or relevance is none else 'false' -}}
{%- endmacro %}

{#- 'true' when rm_hits carries each hit's ERR term (_err_term): ERR is asked and not read off
    the hit word. -#}
{% macro _err_terms_per_hit(plan) -%}
    {{- 'true' if 'err' in plan.sums and not plan.hit_patterns else 'false' -}}
{%- endmacro %}

{#- R for a grade (an SQL expression), with g_max the SQL expression `max_grade`, written as
    2^(g - g_max) - 2^-g_max: the same number, and no 2^g to overflow for a grade of 1e20. An
    exponent below -1022 is taken as -1022 (2^-1022 is 2.2e-308: nothing next to the other terms),
    because PostgreSQL's power() fails where a result would underflow to 0. -#}
{% macro _err_stop(grade, max_grade) -%}
    {%- set double = rank_metrics.type_double() -%}
    case when {{ grade }} > 0
        then power(cast(2 as {{ double }}), greatest(least(cast({{ grade }} as {{ double }}), {{ max_grade }}) - {{ max_grade }}, -1022))
            - power(cast(2 as {{ double }}), greatest(-{{ max_grade }}, -1022))
        else 0 end
{%- endmacro %}

{#- The join that brings rm_hits (`hits`: its alias) g_max as rm_g.rm_max_grade (ERR's, and graded
    RBP's): the given
    max_grade, or the largest grade of truth's rows the lists can meet (those that add gain or
    are relevant; a largest grade of 0 or less leaves every R at 0 all the same), per value of
    the by columns truth is matched on: a group's truth is its own, as everywhere. -#}
{% macro _err_max_grade(plan, truth_rows, hits) -%}
    {%- set double = rank_metrics.type_double() -%}
    {%- if plan.max_grade is not none -%}
    cross join (select cast({{ rank_metrics._number_literal(plan.max_grade, 'max_grade') }} as {{ double }}) as rm_max_grade) as rm_g
    {%- elif not plan.truth_by -%}
    cross join (select cast(max(rm_grade) as {{ double }}) as rm_max_grade from {{ truth_rows }} as rm_t) as rm_g
    {%- else -%}
    {#- truth's by columns renamed, so that rm_hits' own names stay unambiguous -#}
    inner join (
        select {% for column in plan.truth_by %}{{ column }} as rm_key_{{ loop.index }}, {% endfor -%}
            cast(max(rm_grade) as {{ double }}) as rm_max_grade
        from {{ truth_rows }} as rm_t
        group by {{ plan.truth_by | join(', ') }}
    ) as rm_g
        on {% for column in plan.truth_by %}{{ ' and ' if not loop.first }}{{ hits }}.{{ column }} = rm_g.rm_key_{{ loop.index }}{% endfor %}
    {%- endif -%}
{%- endmacro %}

{#- A hit's term of ERR before the 1/r: R times the chance that no hit before it stopped the
    reader, exp of the sum of ln(1 - R_i) over the earlier hits. A column of rm_hits. R_i is
    below 1 but may round to 1 (a g_max past 53), and PostgreSQL's ln(0) and an exp() that
    underflows fail: 1 - R is taken as at least 1e-300 and the sum as at least -700 (e^-700 is
    1e-304, where the exact chance is 0). -#}
{% macro _err_term(plan) -%}
    {%- set by = rank_metrics._column_prefix(plan.by) -%}
    {%- set stop = rank_metrics._err_stop('rm_grade', 'rm_g.rm_max_grade') -%}
    ({{ stop }}) * exp(greatest(coalesce(sum(ln(greatest(1 - ({{ stop }}), 1e-300))) over (
            partition by {{ by }}rm_user order by rm_position rows between unbounded preceding and 1 preceding), 0), -700))
{%- endmacro %}

{#- A row of rm_hits' term of the sum within k (_hit_term): its stop chance and the chance of
    reading that far (rm_err_term, _err_term), over its position. -#}
{% macro _err_per_hit(plan, k) -%}
    case when rm_position <= {{ k }} then rm_err_term / rm_position else 0 end
{%- endmacro %}

{#- ERR's sum within k from the word of hit positions, when every hit has one grade (truth
    without grades: 1): R is then one number, and the j-th hit's term (1/r) R (1 - R)^(j - 1),
    j - 1 the bits below r. -#}
{% macro _err_from_bits(plan, bits, k, after=0) -%}
    {%- set double = rank_metrics.type_double() -%}
    {%- set max_grade = 1 if plan.max_grade is none else plan.max_grade | float -%}
    {%- set grade = [1, max_grade] | min -%}
    {%- set stop = 2.0 ** (grade - max_grade) - 2.0 ** (-max_grade) -%}
    {%- for r in range(after + 1, k + 1) %}{{ '\n            + ' if not loop.first }}case when ({{ bits }} & {{ 2 ** r }}) <> 0 then cast({{ rank_metrics._number_literal(stop / r, 'max_grade') }} as {{ double }}) * power(cast({{ rank_metrics._number_literal(1 - stop, 'max_grade') }} as {{ double }}), cast({{ rank_metrics.bit_count(bits ~ ' & ' ~ (2 ** r - 2)) }} as {{ double }})) else 0 end
    {%- endfor -%}
{%- endmacro %}

{% macro default__err_at_k(predictions, truth, k) -%}
    {{ rank_metrics._metric_at_k('err', predictions, truth, k, kwargs) }}
{%- endmacro %}

{#- The public dbt macro (macros/dbt/entry_points.sql says how entry points read their arguments). -#}
{% macro err_at_k(predictions, truth, k) %}
    {%- if not execute %}{{ return(rank_metrics._while_parsing()) }}{% endif %}
    {{ return(rank_metrics._fits_its_view(adapter.dispatch('err_at_k', 'rank_metrics')(**rank_metrics._dbt_arguments(predictions, truth, k, kwargs, varargs)))) }}
{% endmacro %}
