-- SPEC §2 worked examples that state a MAP@k; case_id is in truth too, so it is matched on.
{{ rank_metrics.map_at_k(
    predictions=ref('spec_predictions'), truth=ref('spec_truth'), k=[4, 5, 6],
    user='user_id', item='item_id', rank='rank', by='case_id') }}
