-- SPEC §7's worked example: model a against baseline b, paired per user (t test, SQL p-value)
{{ rank_metrics.compare(predictions=ref('compare_predictions'), truth=ref('compare_truth'), k=4,
                        metrics=['map'], by='model', baseline='b') }}
