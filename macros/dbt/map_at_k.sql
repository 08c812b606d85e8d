{#- dbt entry point (dbt-only: dispatch, run_query, return). The SQL is default__map_at_k. -#}
{% macro map_at_k(predictions, truth, k, user='user_id', item='item_id', rank=none, score=none,
                  relevance=none, by=none, truth_by=none, normalization=none, users=none,
                  duplicates=none, tie_break=none, convention=none, validate=true) %}
    {%- set arguments = rank_metrics._dbt_arguments(predictions, truth, k, user, item, rank, score,
            relevance, by, truth_by, normalization, users, duplicates, tie_break, convention, validate) -%}
    {{ return(adapter.dispatch('map_at_k', 'rank_metrics')(**arguments)) }}
{% endmacro %}
