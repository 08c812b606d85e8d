-- a truth view with a NULL item (builds only when asked, as bad_data_duplicates)
{{ config(materialized='view', enabled=var('rank_metrics_bad_data', false)) }}
select case_id, user_id, nullif(item_id, (select min(item_id) from {{ ref('spec_truth') }})) as item_id
from {{ ref('spec_truth') }}
