{{ config(enabled=var('rank_metrics_examples', false)) }}
-- Several metrics at 5 and 12 for each of three recommenders, from one pass (SPEC §6).
{{ rank_metrics.evaluate(
    predictions=ref('example_recommendations'), truth=ref('example_purchases'), k=[5, 12],
    metrics=['map', 'ndcg', 'precision', 'recall', 'mrr', 'hit_rate'],
    user='customer_id', item='article_id', rank='rank', by=['model']) }}
