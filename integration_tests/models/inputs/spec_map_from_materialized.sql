-- a materialized view as input, its columns looked up (no rank= or truth_by= named); a table, so
-- that rebuilding the view (drop … cascade) leaves it alone
{{ config(materialized='table') }}
{{ rank_metrics.map_at_k(predictions=ref('spec_predictions_materialized'), truth=ref('spec_truth'), k=[4, 5, 6],
                         by='case_id') }}
