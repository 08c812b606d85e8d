-- The beyond-accuracy worked example (models/beyond_accuracy): each value within 1e-12, each
-- n_users, and no row more (unless refs read no rows, as under dbt build --empty, which reads
-- every model empty)
with expected as (
    select 'recommenders' as convention, 'catalog_coverage' as metric, 1.0 as value, 3 as n_users
    union all select 'recommenders', 'distributional_coverage', 1.584962500721156, 3
    union all select 'recommenders', 'novelty', 1.5479520632582415, 3
    union all select 'recommenders', 'diversity', 1.0, 3
    union all select 'recommenders', 'serendipity', 0.7113248654051871, 3
    union all select 'evidently', 'catalog_coverage', 0.6666666666666666, 3
    union all select 'evidently', 'gini', 0.0, 3
    union all select 'evidently', 'personalization', 0.5, 3
    union all select 'evidently', 'novelty', 1.584962500721156, 3
    union all select 'evidently', 'arp', 1.0, 3
    union all select 'evidently', 'arp_normalized', 0.3333333333333333, 3
)
select e.convention, e.metric, g.value, e.value as expected_value
from expected as e
full outer join {{ ref('beyond_accuracy_example') }} as g
    on g.convention = e.convention and g.metric = e.metric and g.k = 2
where (g.metric is null or e.metric is null
        or abs(g.value - e.value) > 1e-12 or g.n_users <> e.n_users)
    and (select count(*) from {{ ref('family_predictions') }}) > 0
