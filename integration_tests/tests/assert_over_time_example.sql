-- SPEC §8's worked example: 2024-03-01 MAP 0.375 over 2 users, complete (as_of 2024-03-08 00:00 =
-- start + 7 days); 2024-03-02 0.5 over 1 user, not complete; under users='truth' 0.25 over 2 users
-- on 2024-03-02; with the late label (user 1 item 10 at 2024-03-02 10:00) 0.75 and 0.25
with expected as (
    select 'predictions' as example, cast('2024-03-01' as date) as period, 0.375 as value, 2 as n_users, true as complete
    union all select 'predictions', cast('2024-03-02' as date), 0.5, 1, false
    union all select 'truth', cast('2024-03-01' as date), 0.375, 2, true
    union all select 'truth', cast('2024-03-02' as date), 0.25, 2, false
    union all select 'late label', cast('2024-03-01' as date), 0.75, 2, true
    union all select 'late label', cast('2024-03-02' as date), 0.25, 1, false
),
got as (
    select example, cast(period as date) as period, value, n_users, complete
    from {{ ref('over_time_example') }}
    where model = 'a' and metric = 'map' and k = 2
)
select e.example, e.period, g.value, e.value as expected_value
from expected as e
left join got as g
    on g.example = e.example and g.period = e.period
where (g.value is null or abs(g.value - e.value) > 0.000000000001 or g.n_users <> e.n_users or g.complete <> e.complete)
    -- (unless the seeds are empty, as under dbt build --empty)
    and (select count(*) from {{ ref('over_time_example_lists') }}) > 0
union all
-- and no row more (unless the seeds are empty, as under dbt build --empty)
select 'rows', cast(null as date), count(*), 6 from got
having count(*) <> 6 and (select count(*) from {{ ref('over_time_example_lists') }}) > 0
