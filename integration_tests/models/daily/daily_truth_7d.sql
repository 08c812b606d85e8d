-- the README's daily recipe ("A daily metric, incrementally"), as written there (asked for by
-- tests/test_dbt.py with the var rank_metrics_daily): each day's truth, the purchases of the
-- seven days from it
{{ config(materialized='table', enabled=var('rank_metrics_daily', false)) }}
select d.day, p.user_id, p.item_id, p.quantity
from (select distinct day from {{ ref('daily_recs') }}) as d
join {{ ref('daily_purchases') }} as p
    on p.day between d.day and d.day + interval '6 days'
