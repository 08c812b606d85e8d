{{ rank_metrics.average_precision_at_k(predictions=ref('options_predictions'),
                                       truth=ref('options_truth'), k=[3, 5], rank='rank',
                                       relevance='grade', normalization='m', users='union',
                                       duplicates='collapse', tie_break='item_desc') }}
