-- SPEC §7's worked example: each model's MAP@4 with its standard error and 95% interval
{{ rank_metrics.evaluate(predictions=ref('compare_predictions'), truth=ref('compare_truth'), k=4,
                         metrics=['map'], by='model') }}
