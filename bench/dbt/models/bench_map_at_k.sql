{{ config(materialized='table') }}
-- the inputs are Parquet files, passed as table expressions (no columns to look up: the order
-- column is named)
{{ rank_metrics.map_at_k(
    predictions="read_parquet('" ~ var('predictions') ~ "')",
    truth="read_parquet('" ~ var('truth') ~ "')",
    k=var('k') | int,
    rank='rank' if var('order') == 'rank' else none,
    score='score' if var('order') == 'score' else none) }}
