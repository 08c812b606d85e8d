{#- Precision@k (SPEC §6): hits@k / k, or hits@k / min(k, n(u)) under
    precision_denominator='list_length' (0 when the user has no list). -#}

{% macro _per_user_precision(plan, k='k', at='') -%}
    {%- set double = rank_metrics.type_double() -%}
    {%- if plan.precision_denominator == 'k' -%}
        rm_n_hits{{ at }} / cast({{ k }} as {{ double }})
    {%- else -%}
        case when rm_list_length > 0 then rm_n_hits{{ at }} / cast(least({{ k }}, rm_list_length) as {{ double }}) else 0 end
    {%- endif -%}
{%- endmacro %}

{% macro default__precision_at_k(predictions, truth, k) -%}
    {{ rank_metrics._metric_at_k('precision', predictions, truth, k, kwargs) }}
{%- endmacro %}

{#- The public dbt macro (macros/dbt/entry_points.sql says how entry points read their arguments). -#}
{% macro precision_at_k(predictions, truth, k) %}
    {%- if not execute %}{{ return(rank_metrics._while_parsing()) }}{% endif %}
    {{ return(rank_metrics._fits_its_view(adapter.dispatch('precision_at_k', 'rank_metrics')(**rank_metrics._dbt_arguments(predictions, truth, k, kwargs, varargs)))) }}
{% endmacro %}
