{{ rank_metrics.ndcg_at_k(predictions=ref('family_predictions'), truth=ref('family_truth'), k=[3, 5],
                          by='case_id', gain='exponential') }}
