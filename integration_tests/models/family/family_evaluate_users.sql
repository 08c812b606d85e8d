-- SPEC §6's worked examples: each variant a call of evaluate_users on the seeds of one case.
-- A table: as a view its SQL would be longer than Spark's metastore keeps (32,700 characters).
{{ config(materialized='table') }}
{%- set variants = [
    ('defaults', 'graded', 'graded', [1, 3, 5], {}),
    ('exponential', 'graded', 'graded', [3, 5], {'gain': 'exponential'}),
    ('binary', 'graded', 'binary', [3, 5], {}),
    ('threshold_2', 'graded', 'graded', [3, 5], {'relevance_threshold': 2}),
    ('listed', 'short', 'short', [3], {'truth_scope': 'listed'}),
    ('list_length', 'short', 'short', [5], {'precision_denominator': 'list_length'}),
    ('recall_min_m_k', 'graded', 'graded', [1], {'recall_denominator': 'min_m_k'}),
    ('repeats_first', 'repeats', 'repeats', [4], {'duplicates': 'first'}),
    ('repeats_all', 'repeats', 'repeats', [4], {'duplicates': 'all'}),
] %}
{%- for variant, list_case, truth_case, ks, options in variants %}
select '{{ variant }}' as variant, r.*
from (
{{ rank_metrics.evaluate_users(
    predictions='(select user_id, item_id, rank from ' ~ ref('family_predictions') ~ " where case_id = '" ~ list_case ~ "')",
    truth='(select user_id, item_id, relevance from ' ~ ref('family_truth') ~ " where case_id = '" ~ truth_case ~ "')",
    k=ks, rank='rank', relevance='relevance', **options) }}
) as r
{{ 'union all' if not loop.last }}
{%- endfor %}
