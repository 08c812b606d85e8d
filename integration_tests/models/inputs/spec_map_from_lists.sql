-- list-shaped predictions: the item column is a list (detected), unnested in SQL
{{ rank_metrics.map_at_k(predictions=ref('spec_predictions_lists'), truth=ref('spec_truth'), k=[4, 5, 6],
                         by='case_id') }}
