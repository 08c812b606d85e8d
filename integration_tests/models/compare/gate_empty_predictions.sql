-- no prediction row at all (an upstream model that came out empty): every gate on it must fail,
-- not find no failing row and pass (asked for by tests/test_gates.py with rank_metrics_empty_gates)
select model, user_id, item_id, rank from {{ ref('compare_predictions') }} where 1 = 0
