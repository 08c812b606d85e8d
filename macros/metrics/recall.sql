{#- Recall@k (SPEC §6): hits@k / m, or hits@k / min(m, k) under recall_denominator='min_m_k';
    0 when m = 0. -#}

{% macro _per_user_recall(plan, k='k', at='') -%}
    {%- set double = rank_metrics.type_double() -%}
    case when rm_n_relevant > 0 then rm_n_hits{{ at }} / cast({{ 'rm_n_relevant' if plan.recall_denominator == 'm' else 'least(rm_n_relevant, ' ~ k ~ ')' }} as {{ double }}) else 0 end
{%- endmacro %}

{% macro default__recall_at_k(predictions, truth, k) -%}
    {{ rank_metrics._metric_at_k('recall', predictions, truth, k, kwargs) }}
{%- endmacro %}

{#- The public dbt macro (macros/dbt/entry_points.sql says how entry points read their arguments). -#}
{% macro recall_at_k(predictions, truth, k) %}
    {%- if not execute %}{{ return(rank_metrics._while_parsing()) }}{% endif %}
    {{ return(rank_metrics._fits_its_view(adapter.dispatch('recall_at_k', 'rank_metrics')(**rank_metrics._dbt_arguments(predictions, truth, k, kwargs, varargs)))) }}
{% endmacro %}
