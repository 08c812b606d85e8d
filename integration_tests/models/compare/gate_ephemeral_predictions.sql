-- an ephemeral predictions model, where the data checks cannot run: a gate over a misspelt
-- baseline must still fail (asked for by tests/test_gates.py with rank_metrics_silent_gates)
{{ config(materialized='ephemeral') }}
select model, user_id, item_id, rank from {{ ref('compare_predictions') }}
