-- A table: Spark's metastore keeps at most 32,700 characters of a view's text.
{{ config(materialized='table') }}
-- The beyond-accuracy worked example (docs/definitions.md), k = 2: train u1 {a, b}, u2 {a, c},
-- u3 {a}; lists u1 [c, d], u2 [b, d], u3 [b, c]. recommenders: catalog coverage 1, distributional
-- coverage log2 3, novelty (4 log2 5) / 6, diversity 1, serendipity 0.711325 (co-occurrence);
-- evidently: catalog coverage 2/3, Gini 0, personalization 0.5, novelty log2 3, ARP 1, normalized 1/3.
{%- set predictions %}(
    select 'u1' as user_id, 'c' as item_id, 1 as rank
    union all select 'u1', 'd', 2 union all select 'u2', 'b', 1 union all select 'u2', 'd', 2
    union all select 'u3', 'b', 1 union all select 'u3', 'c', 2
){% endset %}
{%- set train %}(
    select 'u1' as user_id, 'a' as item_id
    union all select 'u1', 'b' union all select 'u2', 'a' union all select 'u2', 'c' union all select 'u3', 'a'
){% endset %}
select 'recommenders' as convention, k, metric, value, std_error, n_users
from (
{{ rank_metrics.beyond_accuracy(predictions, train, k=2, convention='recommenders') }}
) as r
union all
select 'evidently', k, metric, value, std_error, n_users
from (
{{ rank_metrics.beyond_accuracy(predictions, train, k=2, convention='evidently',
                                metrics=['catalog_coverage', 'gini', 'personalization', 'novelty', 'arp', 'arp_normalized']) }}
) as e
