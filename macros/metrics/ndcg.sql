{#- NDCG@k (SPEC §6): DCG@k / IDCG@k, 0 when IDCG@k = 0. DCG sums each hit's gain over
    log2(position + 1); IDCG is the DCG of the user's truth items largest gain first (options
    gain, gain_from, relevance_threshold, truth_scope). -#}

{% macro _per_user_ndcg(plan, k='k', at='') -%}
    case when rm_idcg{{ at }} > 0 then rm_dcg{{ at }} / rm_idcg{{ at }} else 0 end
{%- endmacro %}

{% macro default__ndcg_at_k(predictions, truth, k) -%}
    {{ rank_metrics._metric_at_k('ndcg', predictions, truth, k, kwargs) }}
{%- endmacro %}

{#- The public dbt macro (macros/dbt/entry_points.sql says how entry points read their arguments). -#}
{% macro ndcg_at_k(predictions, truth, k) %}
    {%- if not execute %}{{ return(rank_metrics._while_parsing()) }}{% endif %}
    {{ return(rank_metrics._fits_its_view(adapter.dispatch('ndcg_at_k', 'rank_metrics')(**rank_metrics._dbt_arguments(predictions, truth, k, kwargs, varargs)))) }}
{% endmacro %}
