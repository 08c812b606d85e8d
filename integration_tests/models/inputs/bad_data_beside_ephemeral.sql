-- an ephemeral input beside a relation with a NULL item: the relation is still checked (its
-- checks were skipped with the ephemeral one's, and the model built: a user's trial)
{{ config(enabled=var('rank_metrics_bad_data', false)) }}
{{ rank_metrics.map_at_k(predictions=ref('spec_predictions_ephemeral'), truth=ref('bad_data_truth_with_null'), k=3,
                         rank='rank', by='case_id', relevance=none) }}
