{{ rank_metrics.map_at_k(predictions=ref('example_recommendations'), truth=ref('example_purchases'),
                         k=[5, 12], user='customer_id', item='article_id', by=['model']) }}
