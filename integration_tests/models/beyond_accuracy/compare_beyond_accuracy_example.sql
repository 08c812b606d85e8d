-- A table: Spark's metastore keeps at most 32,700 characters of a view's text.
{{ config(materialized='table') }}
-- compare_beyond_accuracy on the worked example's train (u1 {a, b}, u2 {a, c}, u3 {a}: a has 3
-- users, b and c 1, d none), k = 2: model x lists u1 [c, d], u2 [b, d], u3 [b, c] (ARP 1, 1, 1);
-- model y u1 [a, b], u2 [a, d], u3 [c, d] (ARP 2, 3, 1). y - x: 1, 2, 0, mean 1, s_d 1, standard
-- error 1/sqrt 3, t = sqrt 3 on 2 df, p = erfc(sqrt 3 / sqrt 2) = 0.0833 (the normal approximation);
-- normalized ARP the same over 3.
{%- set predictions %}(
    select 'x' as model, 'u1' as user_id, 'c' as item_id, 1 as rank
    union all select 'x', 'u1', 'd', 2 union all select 'x', 'u2', 'b', 1 union all select 'x', 'u2', 'd', 2
    union all select 'x', 'u3', 'b', 1 union all select 'x', 'u3', 'c', 2
    union all select 'y', 'u1', 'a', 1 union all select 'y', 'u1', 'b', 2 union all select 'y', 'u2', 'a', 1
    union all select 'y', 'u2', 'd', 2 union all select 'y', 'u3', 'c', 1 union all select 'y', 'u3', 'd', 2
){% endset %}
{%- set train %}(
    select 'u1' as user_id, 'a' as item_id
    union all select 'u1', 'b' union all select 'u2', 'a' union all select 'u2', 'c' union all select 'u3', 'a'
){% endset %}
{{ rank_metrics.compare_beyond_accuracy(predictions, train, k=2, by='model', baseline='x', convention='evidently',
                                        metrics=['arp', 'arp_normalized']) }}
