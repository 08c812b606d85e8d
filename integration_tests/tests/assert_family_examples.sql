-- every value of SPEC §6's worked examples, through evaluate_users, evaluate and ndcg_at_k
with actual as (
    {%- for column in ['precision', 'recall', 'ndcg', 'reciprocal_rank', 'hit', 'average_precision'] %}
    select variant, k, '{{ column }}' as metric_column, {{ column }} as value from {{ ref('family_evaluate_users') }}
    union all
    {%- endfor %}
    {%- for metric, column in [('precision', 'precision'), ('recall', 'recall'), ('ndcg', 'ndcg'), ('mrr', 'reciprocal_rank'), ('hit_rate', 'hit'), ('map', 'average_precision')] %}
    select 'evaluate:defaults' as variant, k, '{{ column }}' as metric_column, value
    from {{ ref('family_evaluate') }} where case_id = 'graded' and metric = '{{ metric }}'
    union all
    {%- endfor %}
    select 'ndcg_at_k:exponential' as variant, k, 'ndcg' as metric_column, ndcg_at_k as value
    from {{ ref('family_ndcg_at_k') }} where case_id = 'graded'
),
expected as (
    select variant, k, metric_column, value from {{ ref('family_expected') }}
    union all
    select 'evaluate:defaults', k, metric_column, value from {{ ref('family_expected') }} where variant = 'defaults'
    union all
    select 'ndcg_at_k:exponential', k, metric_column, value from {{ ref('family_expected') }} where variant = 'exponential'
)
select e.variant, e.k, e.metric_column, e.value as expected, a.value as actual
from expected as e
left join actual as a
    on a.variant = e.variant and a.k = e.k and a.metric_column = e.metric_column
where a.value is null or abs(a.value - e.value) > 0.000001
