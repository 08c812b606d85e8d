-- the baseline alone (a candidate that wrote nothing): no comparison is no pass (asked for by
-- tests/test_gates.py with rank_metrics_silent_gates)
select model, user_id, item_id, rank from {{ ref('compare_predictions') }} where model = 'b'
