-- SPEC §8's worked example (W = 7 days, k = 2, MAP, model a): under users='predictions', under
-- users='truth', and with the late label (tests/assert_over_time_example.sql checks the values)
{{ config(materialized='table') }}
{% set arguments = dict(k=2, rank='rank', by='model', metrics=['map'], period='period', time='label_time', window=7) %}
select 'predictions' as example, r.* from (
{{ rank_metrics.evaluate_over_time(ref('over_time_example_lists'), ref('over_time_example_labels'), users='predictions', **arguments) }}
) as r
union all
select 'truth' as example, r.* from (
{{ rank_metrics.evaluate_over_time(ref('over_time_example_lists'), ref('over_time_example_labels'), users='truth', **arguments) }}
) as r
union all
select 'late label' as example, r.* from (
{{ rank_metrics.evaluate_over_time(ref('over_time_example_lists'), ref('over_time_example_late_labels'), users='predictions', **arguments) }}
) as r
