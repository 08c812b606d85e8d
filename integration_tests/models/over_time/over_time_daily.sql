-- the README's daily metrics: incremental, each run computing the days that are new, incomplete
-- or whose window received a label loaded since (loaded_at), as a full rebuild would, keyed on the
-- period alone (r_precision's rows have k NULL, which a key naming k never matches). Spark's
-- Parquet tables have no delete: each recomputed day's partition is overwritten instead
{% set spark = target.type == 'spark' %}
{{ config(materialized='incremental',
          incremental_strategy='insert_overwrite' if spark else 'delete+insert',
          partition_by=['period'] if spark else none,
          unique_key=none if spark else ['period'],
          enabled=var('rank_metrics_over_time', false)) }}
{{ rank_metrics.evaluate_over_time(ref('over_time_lists'), ref('over_time_labels'), k=[1, 3],
     period='period', time='label_time', window=7, loaded_at='loaded_at',
     by='model', rank='rank', metrics=['map', 'ndcg', 'recall', 'r_precision'], users='predictions') }}
