-- data that fails the checks (a repeated item under duplicates='error'): builds only when
-- asked, by tests/test_dbt_inputs.py, to show the checks fail the run and never the compile
{{ config(enabled=var('rank_metrics_bad_data', false)) }}
{{ rank_metrics.map_at_k(predictions=ref('options_predictions'), truth=ref('options_truth'), k=3,
                         rank='rank', duplicates='error') }}
