-- baseline b, and a model c whose lists are all for users truth lacks: under users='both' no user
-- is evaluated for c, and under users='predictions' c shares none with b. Each gate on it must
-- fail with a row for c, not leave c out and pass (asked for by tests/test_gates.py with
-- rank_metrics_silent_gates)
select model, user_id, item_id, rank from {{ ref('compare_predictions') }} where model = 'b'
union all
select 'c' as model, user_id + 900 as user_id, item_id, rank from {{ ref('compare_predictions') }} where model = 'b'
