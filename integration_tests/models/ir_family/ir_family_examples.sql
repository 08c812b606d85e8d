-- A table: Spark's metastore keeps at most 32,700 characters of a view's text.
{{ config(materialized='table') }}
-- SPEC §6b's worked examples: the list a, b, c, d, e; truth a:0, b:2, c:0, d:1, f:3 (b and d
-- relevant, at positions 2 and 4). RBP(0.8)@5 = 0.2 (0.8 + 0.512) = 0.2624; with p = 0.5,
-- RBP@2 = 0.25 and RBP@5 = 0.3125; graded (gain='graded', each grade over g_max 3, truth's
-- largest): 0.2 (2/3 * 0.8 + 1/3 * 0.512) = 0.1408; RBP(0.8)'s residual at 5, e unjudged: 0.2 * 0.8^4 + 0.8^5 = 0.4096. ERR@5 with g_max 3 (truth's largest grade) = 0.20703125;
-- with max_grade 4 (gdeval's), ERR@2 = 3/32 and ERR@5 = 0.1064453125. With a second user whose
-- list misses (AP 0, counted as 1e-5), MAP@5's geometric mean is sqrt(1/3 * 1e-5). AUC@5: of the
-- 2 x 3 pairs of a relevant (b, d) and a non-relevant item (a, c, e), b comes before c and e, d
-- before e: 3/6 = 0.5; AUC@2 0 (a before b); AUC@1 has no value (no relevant item: n_users 0).
-- R-precision, which takes no k: R = 3 (b, d, f), and among a, b, c only b: 1/3, with k NULL;
-- bpref, nor does it: N = 2 (a, c), a above b (1 - 1/2), a and c above d (0): (1/2 + 0) / 3.
-- Ties by expectation (tie_break='average'): scores x 0.9, y 0.5, z 0.5, w 0.1, z relevant: nDCG@4
-- 0.565465 (the mean of y's and z's orders), nDCG@2 0.315465, P@2 0.25, hit rate@2 0.5.
{%- set predictions %}(
    select 1 as user_id, 'a' as item_id, 1 as rank
    union all select 1, 'b', 2 union all select 1, 'c', 3 union all select 1, 'd', 4 union all select 1, 'e', 5
){% endset %}
{%- set truth %}(
    select 1 as user_id, 'a' as item_id, 0 as relevance
    union all select 1, 'b', 2 union all select 1, 'c', 0 union all select 1, 'd', 1 union all select 1, 'f', 3
){% endset %}
select 'rbp_at_k' as entry_point, 'rbp' as metric, k, rbp_at_k as value, n_users
from (
{{ rank_metrics.rbp_at_k(predictions=predictions, truth=truth, k=5, relevance='relevance') }}
) as r
union all
select 'rbp_at_k graded', 'rbp', k, rbp_at_k, n_users
from (
{{ rank_metrics.rbp_at_k(predictions=predictions, truth=truth, k=5, relevance='relevance', gain='graded') }}
) as r
union all
select 'rbp_residual_at_k', 'rbp_residual', k, rbp_residual_at_k, n_users
from (
{{ rank_metrics.rbp_residual_at_k(predictions=predictions, truth=truth, k=5, relevance='relevance') }}
) as r
union all
select 'err_at_k', 'err', k, err_at_k, n_users
from (
{{ rank_metrics.err_at_k(predictions=predictions, truth=truth, k=5, relevance='relevance') }}
) as r
union all
select 'auc_at_k', 'auc', k, auc_at_k, n_users
from (
{{ rank_metrics.auc_at_k(predictions=predictions, truth=truth, k=[1, 5], relevance='relevance') }}
) as r
union all
select 'r_precision', 'r_precision', k, r_precision, n_users
from (
{{ rank_metrics.r_precision(predictions=predictions, truth=truth, relevance='relevance') }}
) as r
union all
select 'bpref', 'bpref', k, bpref, n_users
from (
{{ rank_metrics.bpref(predictions=predictions, truth=truth, relevance='relevance') }}
) as r
union all
select 'evaluate ties', metric, k, value, n_users
from (
{{ rank_metrics.evaluate(predictions="(select 1 as user_id, 'x' as item_id, 0.9 as score union all select 1, 'y', 0.5
                                       union all select 1, 'z', 0.5 union all select 1, 'w', 0.1)",
                         truth="(select 1 as user_id, 'z' as item_id)", k=[2, 4], metrics=['ndcg', 'precision', 'hit_rate'],
                         score='score', convention='sklearn') }}
) as r
union all
select 'evaluate geometric', metric, k, value, n_users
from (
{{ rank_metrics.evaluate(predictions='(select * from ' ~ predictions ~ ' as p union all select 2, \'x\', 1)',
                         truth='(select * from ' ~ truth ~ ' as t union all select 2, \'y\', 1)',
                         k=5, relevance='relevance', metrics=['map'], mean='geometric') }}
) as r
union all
select 'evaluate', metric, k, value, n_users
from (
{{ rank_metrics.evaluate(predictions=predictions, truth=truth, k=[2, 5], relevance='relevance', metrics=['rbp', 'err', 'auc', 'r_precision', 'bpref'],
                         persistence=0.5, max_grade=4) }}
) as r
