{{ config(materialized='table') }}
-- the inputs are Parquet files, passed as table expressions (no columns to look up: the order
-- column is named), or with predictions_table and truth_table the names of tables or views
-- (bench/engines.py's cached Spark inputs)
{{ rank_metrics.map_at_k(
    predictions=var('predictions_table', none) or "read_parquet('" ~ var('predictions') ~ "')",
    truth=var('truth_table', none) or "read_parquet('" ~ var('truth') ~ "')",
    k=var('k') | int,
    rank='rank' if var('order') == 'rank' else none,
    score='score' if var('order') == 'score' else none) }}
