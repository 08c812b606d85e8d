{{ config(enabled=var('rank_metrics_examples', false)) }}
-- AP@12 per model and customer, for looking into who a model serves well.
{{ rank_metrics.average_precision_at_k(
    predictions=ref('example_recommendations'), truth=ref('example_purchases'), k=12,
    user='customer_id', item='article_id', rank='rank', by=['model']) }}
