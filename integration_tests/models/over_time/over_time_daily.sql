-- the README's daily metrics: incremental, each run computing the days that are new, incomplete
-- or whose window received a label loaded since (loaded_at), as a full rebuild would
{{ config(materialized='incremental', unique_key=['period', 'model', 'metric', 'k'], incremental_strategy='delete+insert',
          enabled=var('rank_metrics_over_time', false)) }}
{{ rank_metrics.evaluate_over_time(ref('over_time_lists'), ref('over_time_labels'), k=[1, 3],
     period='period', time='label_time', window=7, loaded_at='loaded_at',
     by='model', rank='rank', metrics=['map', 'ndcg', 'recall'], users='predictions') }}
