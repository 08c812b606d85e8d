-- MAP@3 over shape_two_days without by='day': dbt logs that lists were merged and that truth's
-- ids have spaces predictions' have not
{{ config(enabled=var('rank_metrics_shape_data', false)) }}
{{ rank_metrics.map_at_k(predictions=ref('shape_two_days'), truth=ref('shape_judged'), k=3, rank='rank') }}
