{#- MAP@k: the mean of AP@k over the evaluated users, one row per group and k:
    <by columns>, k, map_at_k, n_users. The dbt entry point is macros/dbt/map_at_k.sql. -#}
{% macro default__map_at_k(predictions, truth, k, user='user_id', item='item_id', rank=none,
                           score=none, relevance=none, by=none, truth_by=none, normalization=none,
                           users=none, duplicates=none, tie_break=none, convention=none,
                           predictions_columns=none, truth_columns=none) %}
{%- set plan = {} -%}
{%- do rank_metrics._plan(plan, predictions, truth, k, user, item, rank, score, relevance, by, truth_by,
                          normalization, users, duplicates, tie_break, convention,
                          predictions_columns, truth_columns) -%}
{%- set by = rank_metrics._column_prefix(plan.by) -%}
with
{{ rank_metrics._ranked_hits(plan) }},
{{ rank_metrics._evaluated_users(plan) }},
{{ rank_metrics._average_precision(plan) }}
select {{ by }}k,
    avg(average_precision) as map_at_k,
    cast(count(*) as bigint) as n_users
from rm_average_precision
group by {{ by }}k
{%- endmacro %}
