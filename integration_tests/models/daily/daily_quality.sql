-- the README's incremental daily metrics, as written there (asked for by tests/test_dbt.py
-- with the var rank_metrics_daily): a run recomputes the last seven days
{{ config(materialized='incremental', unique_key=['model', 'day', 'k', 'metric'], incremental_strategy='delete+insert',
          enabled=var('rank_metrics_daily', false)) }}
{% set recent %}{% if is_incremental() %} where coalesce(day >= (select max(day) - interval '6 days' from {{ this }}), true){% endif %}{% endset %}
{{ rank_metrics.evaluate(
     predictions='(select * from ' ~ ref('daily_recs') ~ recent ~ ')',
     truth='(select * from ' ~ ref('daily_truth_7d') ~ recent ~ ')',
     k=[2, 4], metrics=['ndcg', 'recall', 'map'], by=['model', 'day'],
     truth_by=['day'], rank='rank', relevance=none) }}
