-- SPEC §2 worked examples, one row per case, user and k; users='union' keeps the user who has
-- no relevant item (case c8), whose AP must be 0.
{{ rank_metrics.average_precision_at_k(
    predictions=ref('spec_predictions'), truth=ref('spec_truth'), k=[1, 2, 3, 4, 5, 6, 7],
    user='user_id', item='item_id', rank='rank', by=['case_id'], users='union') }}
