{#- MRR@k (SPEC §6): the reciprocal of the first position within k of a relevant hit, 0 when
    there is none; per user the column is reciprocal_rank. -#}

{% macro _per_user_mrr(plan, k='k', at='') -%}
    case when rm_first_hit <= {{ k }} then 1 / cast(rm_first_hit as {{ rank_metrics.type_double() }}) else 0 end
{%- endmacro %}

{% macro default__mrr_at_k(predictions, truth, k) -%}
    {{ rank_metrics._metric_at_k('mrr', predictions, truth, k, kwargs) }}
{%- endmacro %}

{#- The public dbt macro (macros/dbt/entry_points.sql says how entry points read their arguments). -#}
{% macro mrr_at_k(predictions, truth, k) %}
    {%- if not execute %}{{ return(rank_metrics._while_parsing()) }}{% endif %}
    {{ return(rank_metrics._fits_its_view(adapter.dispatch('mrr_at_k', 'rank_metrics')(**rank_metrics._dbt_arguments(predictions, truth, k, kwargs, varargs)))) }}
{% endmacro %}
