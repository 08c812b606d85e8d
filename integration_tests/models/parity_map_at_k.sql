{{ rank_metrics.map_at_k(predictions=ref('spec_predictions'), truth=ref('spec_truth'),
                         k=[2, 5], user='user_id', item='item_id', by=['case_id']) }}
