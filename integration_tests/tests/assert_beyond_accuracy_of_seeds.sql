-- beyond_accuracy over refs (models/beyond_accuracy/beyond_accuracy_of_seeds.sql): each value
-- within 1e-12, each n_users, and no row more (unless refs read no rows, as under --empty)
with expected as (
    select 'a' as model, 'catalog_coverage' as metric, 1.6 as value, 5 as n_users
    union all select 'a', 'arp', 1.0, 3
    union all select 'b', 'catalog_coverage', 1.4, 5
    union all select 'b', 'arp', 1.0, 3
)
select e.model, e.metric, g.value, e.value as expected_value
from expected as e
full outer join {{ ref('beyond_accuracy_of_seeds') }} as g
    on g.model = e.model and g.metric = e.metric and g.k = 3
where (g.metric is null or e.metric is null or abs(g.value - e.value) > 1e-12 or g.n_users <> e.n_users)
    and (select count(*) from {{ ref('family_predictions') }}) > 0
