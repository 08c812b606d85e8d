{#- MAP@k (SPEC §1): AP@k per user, the mean over the evaluated users per group and k.
    map_at_k renders <by columns>, k, map_at_k, n_users; average_precision_at_k a row per user
    and k: <by columns>, <user>, k, average_precision, n_relevant, n_hits. The dbt entry points
    are in macros/dbt/. -#}

{#- AP@k of one user: the precision at each relevant hit within k, over D(u) (normalization). -#}
{% macro _per_user_map(plan, k='k', at='') -%}
    {%- set double = rank_metrics.type_double() -%}
    {%- if plan.normalization == 'min_m_k' -%}
        case when rm_n_relevant > 0 then rm_precision_sum{{ at }} / cast(least(rm_n_relevant, {{ k }}) as {{ double }}) else 0 end
    {%- elif plan.normalization == 'm' -%}
        case when rm_n_relevant > 0 then rm_precision_sum{{ at }} / cast(rm_n_relevant as {{ double }}) else 0 end
    {%- else -%}
        case when rm_n_relevant > 0 and rm_n_hits{{ at }} > 0 then rm_precision_sum{{ at }} / cast(rm_n_hits{{ at }} as {{ double }}) else 0 end
    {%- endif -%}
{%- endmacro %}

{% macro default__map_at_k(predictions, truth, k) -%}
    {{ rank_metrics._metric_at_k('map', predictions, truth, k, kwargs) }}
{%- endmacro %}

{% macro default__average_precision_at_k(predictions, truth, k) -%}
    {%- do rank_metrics._macro_arguments('average_precision_at_k', kwargs) -%}
    {{ rank_metrics._evaluate_users(predictions, truth, k, dict(kwargs, metrics=['map']), 'average_precision_at_k') }}
{%- endmacro %}

{#- The public dbt macro (macros/dbt/entry_points.sql says how entry points read their arguments). -#}
{% macro map_at_k(predictions, truth, k) %}
    {%- if not execute %}{{ return(rank_metrics._while_parsing()) }}{% endif %}
    {{ return(rank_metrics._fits_its_view(adapter.dispatch('map_at_k', 'rank_metrics')(**rank_metrics._dbt_arguments(predictions, truth, k, kwargs, varargs)))) }}
{% endmacro %}
