-- compare_beyond_accuracy's example (models/beyond_accuracy): y against x, each number within
-- 1e-12 (the p-value within 1e-6: the normal approximation's series), and no row more (unless refs
-- read no rows, as under dbt build --empty)
with expected as (
    select 'arp' as metric, 1.0 as baseline_value, 2.0 as value, 1.0 as difference, 0.5773502691896258 as std_error
    union all select 'arp_normalized', 0.3333333333333333, 0.6666666666666666, 0.3333333333333333, 0.19245008972987526
)
select e.metric, g.difference, g.std_error, g.t, g.p_value
from expected as e
full outer join {{ ref('compare_beyond_accuracy_example') }} as g
    on g.metric = e.metric and g.model = 'y' and g.k = 2
where (g.metric is null or e.metric is null
        or abs(g.baseline_value - e.baseline_value) > 1e-12 or abs(g.value - e.value) > 1e-12
        or abs(g.difference - e.difference) > 1e-12 or abs(g.std_error - e.std_error) > 1e-12
        or abs(g.t - 1.7320508075688772) > 1e-12 or g.df <> 2 or abs(g.p_value - 0.08326451666355043) > 1e-6
        or g.n_users <> 3 or g.n_only_model <> 0 or g.n_only_baseline <> 0)
    and (select count(*) from {{ ref('family_predictions') }}) > 0
