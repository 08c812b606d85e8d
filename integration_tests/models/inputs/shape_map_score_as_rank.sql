-- MAP@2 of lists whose order column holds scores, passed as rank=: dbt logs that it looks like a
-- score (tests/test_dbt_inputs.py)
{{ config(enabled=var('rank_metrics_shape_data', false)) }}
{{ rank_metrics.map_at_k(predictions=ref('shape_scores'), truth=ref('shape_judged'), k=2, rank='pred') }}
