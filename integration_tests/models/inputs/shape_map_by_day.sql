-- MAP@3 over shape_two_days per day, on the last day's repeated row: dbt logs the repeat
{{ config(enabled=var('rank_metrics_shape_data', false)) }}
{{ rank_metrics.map_at_k(predictions=ref('shape_two_days'), truth=ref('shape_judged'), k=3, rank='rank', by='day') }}
