-- the worked examples' predictions list-shaped: a row per case and user, the items in rank order
{{ config(materialized='table') }}
select case_id, user_id, {{ ordered_list('item_id', 'rank') }} as item_id
from {{ ref('spec_predictions') }}
group by case_id, user_id
