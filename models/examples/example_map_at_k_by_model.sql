{{ config(enabled=var('rank_metrics_examples', false)) }}
-- MAP@5 and MAP@12 of three recommenders against the customers' purchases (seeds/).
{{ rank_metrics.map_at_k(
    predictions=ref('example_recommendations'), truth=ref('example_purchases'), k=[5, 12],
    user='customer_id', item='article_id', rank='rank', by=['model']) }}
