"""The same input gives the same digits on every run (DuckDB, the embedded default). DuckDB adds
its threads' partial sums in whatever order they finish: before the means were exact sums
(macros/engine/sum_of_values.sql), evaluate on the example data gave two results in ten runs,
and compare on SPEC §7's five users two in twelve, differing in the last digit."""

import duckdb

import rank_metrics
from conftest import INTEGRATION
from test_cli import PURCHASES, RECOMMENDATIONS

SEEDS = INTEGRATION / "seeds"


def distinct_results(call, runs):
    """How many different results `runs` calls give, each on a new connection, as exact text."""
    return {call(duckdb.connect()).to_csv(index=False) for _ in range(runs)}


def test_evaluate_gives_the_same_digits_every_run():
    results = distinct_results(lambda con: rank_metrics.evaluate(
        RECOMMENDATIONS, PURCHASES, k=[5, 12], by="model", user="customer_id", item="article_id", con=con), 20)
    assert len(results) == 1


def test_compare_gives_the_same_means_every_run():
    """The means (baseline_value, value, difference) are exact sums; the standard error is
    DuckDB's stddev_samp, which can still differ in its last digit at scale (README)."""
    def call(con):
        result = rank_metrics.compare(str(SEEDS / "compare_predictions.csv"), str(SEEDS / "compare_truth.csv"),
                                      k=4, metrics=["map", "ndcg"], by="model", baseline="b", con=con)
        return result[["model", "k", "metric", "baseline_value", "value", "difference"]]
    assert len(distinct_results(call, 40)) == 1
