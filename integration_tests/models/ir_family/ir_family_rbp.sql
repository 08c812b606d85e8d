-- A table: Spark's metastore keeps at most 32,700 characters of a view's text.
{{ config(materialized='table') }}
-- SPEC §6b's worked example, RBP: the list a, b, c, d, e; truth a:0, b:2, c:0, d:1, f:3 (b and d
-- relevant, at positions 2 and 4). RBP(0.8)@5 = 0.2 (0.8 + 0.512) = 0.2624; with p = 0.5,
-- RBP@2 = 0.25 and RBP@5 = 0.3125. Through rbp_at_k and evaluate.
{%- set predictions %}(
    select 1 as user_id, 'a' as item_id, 1 as rank
    union all select 1, 'b', 2 union all select 1, 'c', 3 union all select 1, 'd', 4 union all select 1, 'e', 5
){% endset %}
{%- set truth %}(
    select 1 as user_id, 'a' as item_id, 0 as relevance
    union all select 1, 'b', 2 union all select 1, 'c', 0 union all select 1, 'd', 1 union all select 1, 'f', 3
){% endset %}
select 'rbp_at_k' as entry_point, 0.8 as persistence, k, rbp_at_k as value, n_users
from (
{{ rank_metrics.rbp_at_k(predictions=predictions, truth=truth, k=5, relevance='relevance') }}
) as r
union all
select 'evaluate', 0.5, k, value, n_users
from (
{{ rank_metrics.evaluate(predictions=predictions, truth=truth, k=[2, 5], relevance='relevance', metrics=['rbp'], persistence=0.5) }}
) as r
