-- a baseline that is no model's: builds only when asked, by tests/test_dbt_inputs.py, to show
-- the rows' check fails the run, naming the models, and never the compile
{{ config(enabled=var('rank_metrics_bad_data', false)) }}
{{ rank_metrics.compare_beyond_accuracy(predictions=ref('compare_predictions'), train=ref('compare_truth'), k=3, by='model',
                                        baseline='zz', metrics=['arp']) }}
