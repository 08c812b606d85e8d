-- Every option and convention over one small input with a tie, a repeated item, a user only in
-- predictions (u2) and one only in truth (u3); expected values are in seeds/options_expected.csv.
-- A table: as a view its SQL is longer than Spark's Hive metastore keeps. validate=false: the
-- same two inputs need checking once, not sixteen times (the spec models check them).
{{ config(materialized='table') }}
{%- set variants = [
    ('defaults', {'rank': 'rank'}),
    ('normalization_m', {'rank': 'rank', 'normalization': 'm'}),
    ('normalization_hits', {'rank': 'rank', 'normalization': 'hits'}),
    ('duplicates_all', {'rank': 'rank', 'duplicates': 'all'}),
    ('duplicates_collapse', {'rank': 'rank', 'duplicates': 'collapse'}),
    ('tie_break_item_desc', {'rank': 'rank', 'tie_break': 'item_desc'}),
    ('users_predictions', {'rank': 'rank', 'users': 'predictions'}),
    ('users_both', {'rank': 'rank', 'users': 'both'}),
    ('users_union', {'rank': 'rank', 'users': 'union'}),
    ('score', {'score': 'score'}),
    ('relevance_grade', {'rank': 'rank', 'relevance': 'grade'}),
    ('convention_ml_metrics', {'rank': 'rank', 'convention': 'ml_metrics'}),
    ('convention_spark', {'rank': 'rank', 'convention': 'spark'}),
    ('convention_recommenders', {'rank': 'rank', 'convention': 'recommenders'}),
    ('convention_ranx', {'rank': 'rank', 'convention': 'ranx'}),
    ('convention_torchmetrics', {'rank': 'rank', 'convention': 'torchmetrics'}),
] %}
{%- for variant, options in variants %}
select '{{ variant }}' as variant, v.* from (
{{ rank_metrics.average_precision_at_k(predictions=ref('options_predictions'), truth=ref('options_truth'),
                                       k=[3, 5], validate=false, **options) }}
) as v
{{ 'union all' if not loop.last }}
{%- endfor %}
