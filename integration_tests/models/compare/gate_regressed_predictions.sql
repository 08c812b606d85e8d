-- baseline b, and a model c that never finds the purchased item: c fails both gates (asked
-- for by tests/test_gates.py with the var rank_metrics_failing_gates)
select model, user_id, item_id, rank from {{ ref('compare_predictions') }} where model = 'b'
union all
select 'c' as model, user_id, 999 as item_id, 1 as rank from {{ ref('compare_truth') }}
