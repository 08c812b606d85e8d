"""Prints the example models' metrics per model, after `make demo` has built them."""

import sys

import duckdb

path = sys.argv[1] if len(sys.argv) > 1 else "rank_metrics_integration.duckdb"
with duckdb.connect(path, read_only=True) as con:
    frame = con.table("example_map_at_k_by_model").df().sort_values(["k", "map_at_k"], ascending=[True, False])
    metrics = con.table("example_metrics_by_model").df()
print("MAP@k of the example recommenders (models/examples/example_map_at_k_by_model.sql):")
print(frame.to_string(index=False, float_format=lambda value: f"{value:.6f}"))
order = ["map", "ndcg", "precision", "recall", "mrr", "hit_rate"]
table = metrics.pivot_table(index=["k", "model"], columns="metric", values="value")[order].reset_index()
print("\nEvery metric, one pass (models/examples/example_metrics_by_model.sql):")
print(table.to_string(index=False, float_format=lambda value: f"{value:.6f}"))
