{#- Hit rate@k (SPEC §6): 1 when a relevant item is within the first k positions, else 0; per
    user the column is hit. Under tie_break='average', the expected hits within k, at most 1. -#}

{% macro _per_user_hit_rate(plan, k='k', at='') -%}
    {%- if plan.tie_break == 'average' -%}
    {#- SPEC §6b: a tie group adds its relevant items times its share of positions within k -#}
    least(rm_n_hits{{ at }}, cast(1 as {{ rank_metrics.type_double() }}))
    {%- else -%}
    case when rm_n_hits{{ at }} > 0 then cast(1 as {{ rank_metrics.type_double() }}) else 0 end
    {%- endif -%}
{%- endmacro %}

{% macro default__hit_rate_at_k(predictions, truth, k) -%}
    {{ rank_metrics._metric_at_k('hit_rate', predictions, truth, k, kwargs) }}
{%- endmacro %}

{#- The public dbt macro (macros/dbt/entry_points.sql says how entry points read their arguments). -#}
{% macro hit_rate_at_k(predictions, truth, k) %}
    {%- if not execute %}{{ return(rank_metrics._while_parsing()) }}{% endif %}
    {{ return(rank_metrics._fits_its_view(adapter.dispatch('hit_rate_at_k', 'rank_metrics')(**rank_metrics._dbt_arguments(predictions, truth, k, kwargs, varargs)))) }}
{% endmacro %}
