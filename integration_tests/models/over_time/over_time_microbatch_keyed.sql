-- the microbatch model as dbt-postgres needs it: its microbatch merges on a unique_key (dbt-duckdb's
-- refuses one), so it is built on PostgreSQL only
{{ config(materialized='incremental', incremental_strategy='microbatch', event_time='period', batch_size='month',
          begin='2026-02-01', unique_key=['period', 'model', 'metric', 'k'],
          enabled=var('rank_metrics_over_time', false) and target.type == 'postgres') }}
{{ rank_metrics.evaluate_over_time(ref('over_time_lists'), ref('over_time_labels'), k=[1, 3],
     period='period', time='label_time', window=7, loaded_at='loaded_at',
     by='model', rank='rank', metrics=['map', 'ndcg', 'recall', 'r_precision'], users='predictions') }}
