-- beyond-accuracy metrics over shape_two_days without by='day', with shape_judged as train: dbt
-- logs that lists were merged and that train's ids have spaces predictions' have not
{{ config(enabled=var('rank_metrics_shape_data', false)) }}
{{ rank_metrics.beyond_accuracy(predictions=ref('shape_two_days'), train=ref('shape_judged'), k=3,
                                metrics=['catalog_coverage', 'novelty'], rank='rank') }}
