{#- AP@k per evaluated user, one row per group, user and k:
    <by columns>, <user>, k, average_precision, n_relevant, n_hits.
    The dbt entry point is macros/dbt/average_precision_at_k.sql. -#}
{% macro default__average_precision_at_k(predictions, truth, k, user='user_id', item='item_id',
                                         rank=none, score=none, relevance=none, by=none,
                                         truth_by=none, normalization=none, users=none,
                                         duplicates=none, tie_break=none, convention=none,
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
select {{ by }}rm_user as {{ plan.user }}, k, average_precision, n_relevant, n_hits
from rm_average_precision
{%- endmacro %}
