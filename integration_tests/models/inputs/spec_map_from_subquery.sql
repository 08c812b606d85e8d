-- subqueries as inputs (without an alias: the macros name them)
{{ rank_metrics.map_at_k(predictions='(select * from ' ~ ref('spec_predictions') ~ ')',
                         truth='(select * from ' ~ ref('spec_truth') ~ ')',
                         k=[4, 5, 6], rank='rank', by='case_id', truth_by=['case_id'], relevance=none) }}
