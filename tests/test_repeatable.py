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
    """The means (baseline_value, value, difference) are exact; the standard error is summed
    around the mean difference (tests/test_exactness.py tries it at scale)."""
    def call(con):
        result = rank_metrics.compare(str(SEEDS / "compare_predictions.csv"), str(SEEDS / "compare_truth.csv"),
                                      k=4, metrics=["map", "ndcg"], by="model", baseline="b", con=con)
        return result[["model", "k", "metric", "baseline_value", "value", "difference"]]
    assert len(distinct_results(call, 40)) == 1


def test_each_users_values_are_the_same_every_run():
    """A user's DCG, ideal DCG and AP's precision sum are sums over the user's rows, and DuckDB
    may add the rows of one user in two threads: 400 users with 600 graded hits each gave 15
    different results in 15 runs (a new user saw compare's difference change in its last digit,
    once in 60 runs) before those sums were exact too."""
    import numpy as np
    import pandas as pd

    users, items = 400, 600
    predictions = pd.DataFrame({"user_id": np.repeat(np.arange(users), items), "item_id": np.tile(np.arange(items), users),
                                "rank": np.tile(np.arange(1, items + 1), users)})
    truth = predictions.sample(frac=0.5, random_state=1)[["user_id", "item_id"]]
    truth = truth.assign(relevance=np.random.default_rng(1).integers(1, 4, size=len(truth)))

    def call(con):
        con.execute("set threads = 4")
        result = rank_metrics.evaluate_users(predictions, truth, k=[items], metrics=["ndcg", "map"], con=con)
        return result.sort_values("user_id").reset_index(drop=True)
    assert len(distinct_results(call, 8)) == 1


def test_beyond_accuracy_gives_the_same_digits_every_run():
    """Beyond accuracy's means and sums per user (ARP, novelty, diversity, serendipity) and per
    group (distributional coverage's and novelty's sums of logs) are exact sums too: with avg,
    stddev_samp and sum of doubles, 3,000 users' lists of two models gave 6 results in 6 runs
    under either convention (a dbt user's trial saw three table hashes in three runs)."""
    import numpy as np
    import pandas as pd

    draw = np.random.default_rng(1)
    users = 3000
    lists = pd.DataFrame({"model": draw.choice(["a", "b"], users * 10), "user_id": np.repeat(np.arange(users), 10),
                          "item_id": draw.integers(0, 500, users * 10)}).drop_duplicates(["model", "user_id", "item_id"])
    lists["rank"] = lists.groupby(["model", "user_id"]).cumcount() + 1
    train = pd.DataFrame({"user_id": draw.integers(0, users, 40000), "item_id": draw.integers(0, 500, 40000)})
    truth = train.sample(5000, random_state=1)
    for convention in (None, "evidently"):
        results = distinct_results(lambda con: rank_metrics.beyond_accuracy(
            lists, train, [5, 10], by="model", convention=convention, truth=truth, similarity="cooccurrence", con=con), 4)
        assert len(results) == 1, convention


def test_a_weighted_metric_leaves_the_others_spread_exact():
    """GAUC weighted by impressions sums its spread as doubles where a term is out of the exact
    sums' range; in evaluate's long form (a row per k and metric) that sum had become every
    metric's, so RBP's residual's standard error differed between one thread and two (a dbt user's
    trial: dbt-duckdb's one thread against Python's two)."""
    import numpy as np
    import pandas as pd

    draw = np.random.default_rng(7)
    lists = pd.DataFrame({"run": np.repeat(["a", "b"], 1100), "query_id": np.tile(np.repeat(np.arange(110), 10), 2),
                          "doc_id": draw.integers(0, 60, 2200), "score": draw.random(2200)})
    lists = lists.drop_duplicates(["run", "query_id", "doc_id"])
    judgments = pd.DataFrame({"query_id": draw.integers(0, 110, 900), "doc_id": draw.integers(0, 60, 900),
                              "grade": draw.integers(0, 4, 900)}).drop_duplicates(["query_id", "doc_id"])

    def call(threads):
        def run(con):
            con.execute(f"set threads={threads}")
            return rank_metrics.evaluate(lists, judgments, [5, 10], con=con, user="query_id", item="doc_id", score="score",
                                         relevance="grade", by="run", users="union", auc_weight="impressions",
                                         metrics=["map", "ndcg", "rbp", "rbp_residual", "auc", "bpref"])
        return run
    assert len(distinct_results(call(1), 2) | distinct_results(call(2), 3)) == 1
