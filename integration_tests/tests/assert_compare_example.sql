-- SPEC §7's worked example through evaluate and compare: a's mean 0.55, std_error 0.2, 95% CI
-- [0.158007, 0.941993]; a - b: difference 0.15, std_error 0.1, t 1.5, df 4, p 0.133614 (normal)
with checks as (
    select 'value' as what, value as actual, 0.55 as expected from {{ ref('compare_evaluate') }} where model = 'a'
    union all select 'std_error', std_error, 0.2 from {{ ref('compare_evaluate') }} where model = 'a'
    union all select 'ci_low', ci_low, 0.158007 from {{ ref('compare_evaluate') }} where model = 'a'
    union all select 'ci_high', ci_high, 0.941993 from {{ ref('compare_evaluate') }} where model = 'a'
    union all select 'difference', difference, 0.15 from {{ ref('compare_models') }} where model = 'a'
    union all select 'compare std_error', std_error, 0.1 from {{ ref('compare_models') }} where model = 'a'
    union all select 't', t, 1.5 from {{ ref('compare_models') }} where model = 'a'
    union all select 'df', df, 4 from {{ ref('compare_models') }} where model = 'a'
    union all select 'p_value', p_value, 0.133614 from {{ ref('compare_models') }} where model = 'a'
    union all select 'n_users', n_users, 5 from {{ ref('compare_models') }} where model = 'a'
)
select what, actual, expected
from checks
where actual is null or abs(actual - expected) > 0.000001
union all
-- and each check has its row (unless the seeds are empty, as under dbt build --empty)
select 'rows', count(*), 10 from checks
having count(*) <> 10 and (select count(*) from {{ ref('compare_truth') }}) > 0
