{{ rank_metrics.average_precision_at_k(predictions=ref('example_recommendations'),
                                       truth=ref('example_purchases'), k=12, user='customer_id',
                                       item='article_id', by='model', normalization='m',
                                       users='union', duplicates='collapse', tie_break='item_desc') }}
