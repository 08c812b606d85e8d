-- the same daily metrics as a microbatch model: dbt filters the lists (event_time period) to each
-- batch; the labels carry no event_time, so each period sees its whole window
{{ config(materialized='incremental', incremental_strategy='microbatch', event_time='period', batch_size='month',
          begin='2026-02-01', enabled=var('rank_metrics_over_time', false) and target.type == 'duckdb') }}
{{ rank_metrics.evaluate_over_time(ref('over_time_lists'), ref('over_time_labels'), k=[1, 3],
     period='period', time='label_time', window=7, loaded_at='loaded_at',
     by='model', rank='rank', metrics=['map', 'ndcg', 'recall', 'r_precision'], users='predictions') }}
