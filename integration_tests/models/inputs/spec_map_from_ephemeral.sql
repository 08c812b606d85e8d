-- an ephemeral model as input: its columns cannot be looked up, so rank is named
{{ rank_metrics.map_at_k(predictions=ref('spec_predictions_ephemeral'), truth=ref('spec_truth'), k=[4, 5, 6],
                         rank='rank', by='case_id', truth_by=['case_id']) }}
