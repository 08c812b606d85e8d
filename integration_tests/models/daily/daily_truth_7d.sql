-- the README's daily recipe ("A daily metric, incrementally"), as written there (asked for by
-- tests/test_dbt.py with the var rank_metrics_daily): each day's truth, the purchases of the
-- seven days from it
{{ config(materialized='table', enabled=var('rank_metrics_daily', false)) }}
with days as (select distinct day from {{ ref('daily_recs') }}),
purchases as (select * from {{ ref('daily_purchases') }})
select days.day, purchases.user_id, purchases.item_id, purchases.quantity
from days
join purchases
    on purchases.day between days.day and days.day + interval '6 days'
