-- evaluate over every case at once, grouped by case (SPEC §6's defaults)
{{ rank_metrics.evaluate(predictions=ref('family_predictions'), truth=ref('family_truth'), k=[1, 3, 5],
                         by='case_id') }}
