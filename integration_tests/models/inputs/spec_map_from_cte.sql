-- CTE names as inputs: the model's own query defines them
with recs as (select * from {{ ref('spec_predictions') }}),
     purchases as (select * from {{ ref('spec_truth') }})
select * from (
{{ rank_metrics.map_at_k(predictions='recs', truth='purchases', k=[4, 5, 6], rank='rank', by='case_id',
                         truth_by=['case_id'], relevance=none) }}
) as rm_result
