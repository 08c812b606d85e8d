-- the labels as they stand: the seed's, and once rank_metrics_late_labels is set, late ones
{{ config(materialized='table', enabled=var('rank_metrics_over_time', false)) }}
select * from {{ ref('over_time_labels_seed') }}
{%- if var('rank_metrics_late_labels', false) %}
union all
select * from {{ ref('over_time_late_labels') }}
{%- endif %}
