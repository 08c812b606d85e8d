-- SPEC §6b's worked examples (models/ir_family): each value within 1e-12 (or NULL where
-- expected: AUC of no user), each n_users, R-precision's and bpref's rows with k NULL, ties by expectation, and no row more
-- (unless the seeds are empty, as under dbt build --empty, which builds every model empty)
with expected as (
    select 'rbp_at_k' as entry_point, 'rbp' as metric, 5 as k, 0.2624 as value, 1 as n_users
    union all select 'rbp_at_k graded', 'rbp', 5, 0.1408, 1
    union all select 'err_at_k', 'err', 5, 0.20703125, 1
    union all select 'rbp_residual_at_k', 'rbp_residual', 5, 0.4096, 1
    union all select 'evaluate', 'rbp', 2, 0.25, 1
    union all select 'evaluate', 'rbp', 5, 0.3125, 1
    union all select 'evaluate', 'err', 2, 0.09375, 1
    union all select 'evaluate', 'err', 5, 0.1064453125, 1
    union all select 'evaluate', 'auc', 2, 0, 1
    union all select 'evaluate', 'auc', 5, 0.5, 1
    union all select 'auc_at_k', 'auc', 1, null, 0
    union all select 'auc_at_k', 'auc', 5, 0.5, 1
    union all select 'evaluate geometric', 'map', 5, 0.0018257418583505537, 2
    union all select 'r_precision', 'r_precision', null, 0.333333333333333333, 1
    union all select 'evaluate', 'r_precision', null, 0.333333333333333333, 1
    union all select 'bpref', 'bpref', null, 0.166666666666666667, 1
    union all select 'evaluate', 'bpref', null, 0.166666666666666667, 1
    union all select 'evaluate ties', 'ndcg', 2, 0.315464876785728650, 1
    union all select 'evaluate ties', 'ndcg', 4, 0.565464876785728650, 1
    union all select 'evaluate ties', 'precision', 2, 0.25, 1
    union all select 'evaluate ties', 'precision', 4, 0.25, 1
    union all select 'evaluate ties', 'hit_rate', 2, 0.5, 1
    union all select 'evaluate ties', 'hit_rate', 4, 1, 1
)
select e.entry_point, e.metric, e.k, g.value, e.value as expected_value
from expected as e
left join {{ ref('ir_family_examples') }} as g
    on g.entry_point = e.entry_point and g.metric = e.metric and (g.k = e.k or (g.k is null and e.k is null))
where (g.entry_point is null or g.n_users <> e.n_users or (e.value is null and g.value is not null)
        or (e.value is not null and (g.value is null or abs(g.value - e.value) > 0.000000000001)))
    and (select count(*) from {{ ref('family_predictions') }}) > 0
union all
select 'rows', 'all', count(*), null, 23 from {{ ref('ir_family_examples') }}
having count(*) <> 23 and (select count(*) from {{ ref('family_predictions') }}) > 0
