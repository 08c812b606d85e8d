"""Prints the example model's MAP@k per model, after `make demo` has built it."""

import sys

import duckdb

path = sys.argv[1] if len(sys.argv) > 1 else "rank_metrics_integration.duckdb"
with duckdb.connect(path, read_only=True) as con:
    frame = con.table("example_map_at_k_by_model").df().sort_values(["k", "map_at_k"], ascending=[True, False])
print("MAP@k of the example recommenders (models/examples/example_map_at_k_by_model.sql):")
print(frame.to_string(index=False, float_format=lambda value: f"{value:.6f}"))
