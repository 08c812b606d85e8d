"""SPEC §1's exactness (issue 40): a mean of equal values is that value, with a standard error of
exactly 0 (a perfect model scores 1.0: DuckDB's cast of 5.0 to decimal(38, 24) had made it
0.9999999999999998 for 14 of the user counts 1-100), a mean is the double nearest the exact mean
to within an ulp, and the same inputs give the same bits from run to run, standard errors and
intervals included."""

import math
import random
from fractions import Fraction

import duckdb
import numpy as np
import pandas as pd
import pytest

import rank_metrics
from rank_metrics import _render
from engine_tables import to_postgres, to_spark

METRICS = ["map", "ndcg", "precision", "recall", "mrr", "hit_rate"]


def perfect(users: int, graded: bool = False):
    """Every user's one relevant item at rank 1."""
    predictions = pd.DataFrame({"user_id": range(users), "item_id": range(users), "rank": 1})
    truth = pd.DataFrame({"user_id": range(users), "item_id": range(users)})
    return predictions, truth.assign(relevance=3) if graded else truth


def perfect_groups(counts, graded: bool = False):
    """perfect(n) for each user count n, in one table: group n (column n) holds n users."""
    frames = [(predictions.assign(n=n), truth.assign(n=n)) for n in counts for predictions, truth in [perfect(n, graded)]]
    return pd.concat([p for p, _ in frames], ignore_index=True), pd.concat([t for _, t in frames], ignore_index=True)


def assert_perfect(result, users):
    for row in result.itertuples():
        assert row.value == (1 / row.k if row.metric == "precision" else 1.0), (users, row)
        if users >= 2:
            assert row.std_error == 0.0 and row.ci_low == row.value == row.ci_high, (users, row)


def assert_perfect_groups(result, counts):
    """Each group n of evaluate(by='n') as assert_perfect has it for n users."""
    assert sorted(set(result.n)) == sorted(counts) and (result.n_users == result.n).all()
    for users, rows in result.groupby("n"):
        assert_perfect(rows, users)


@pytest.mark.parametrize("k, graded", [([1, 5, 12], False), ([100], False), ([5, 12], True)],
                         ids=["hit patterns", "a row per user (k > 61)", "graded"])
def test_a_perfect_model_scores_exactly_one_on_duckdb(k, graded):
    """Every user count 1-100 as a group of one query (by='n', a mean and standard error per
    group), and every eleventh alone (one group, no by)."""
    counts = range(1, 101)
    predictions, truth = perfect_groups(counts, graded)
    assert_perfect_groups(rank_metrics.evaluate(predictions, truth, k=k, metrics=METRICS, by="n"), counts)
    assert rank_metrics.map_at_k(predictions, truth, k=k[-1], by="n").map_at_k.tolist() == [1.0] * len(counts)
    for users in range(1, 101, 11):
        predictions, truth = perfect(users, graded)
        assert_perfect(rank_metrics.evaluate(predictions, truth, k=k, metrics=METRICS), users)
        assert rank_metrics.map_at_k(predictions, truth, k=k[-1]) == 1.0


@pytest.mark.parametrize("engine", ["postgres", "spark"])
def test_a_perfect_model_scores_exactly_one_on_the_other_engines(engine, request):
    """The user counts as groups of one query per k (Spark pays seconds a query), and one alone."""
    counts = (5, 10, 49, 98)

    def tables(predictions, truth):
        if engine == "postgres":
            con = request.getfixturevalue("postgres")
            return (to_postgres(con, "perfect_preds", predictions), to_postgres(con, "perfect_truth", truth)), con
        spark = request.getfixturevalue("spark")
        return (to_spark(spark, predictions), to_spark(spark, truth)), None

    for k, graded in (([5, 12], False), ([100], False), ([5], True)):
        inputs, con = tables(*perfect_groups(counts, graded))
        assert_perfect_groups(rank_metrics.evaluate(*inputs, k=k, metrics=METRICS, by="n", con=con), counts)
    inputs, con = tables(*perfect(counts[0]))
    assert_perfect(rank_metrics.evaluate(*inputs, k=[5, 12], metrics=METRICS, con=con), counts[0])


@pytest.mark.parametrize("engine", ["duckdb", "postgres", "spark"])
def test_the_mean_is_the_nearest_double_within_an_ulp(engine, request):
    """The engine's mean and weighted mean (hit patterns) against the exact mean of the same
    doubles. PostgreSQL's avg had given 1-3 ulp off (a user's trial; below, the first case), and
    Spark's sum / count depended on the order its partitions arrived in."""
    namespace = _render.namespace(engine)
    mean, weighted = str(namespace.mean("v")), str(namespace.weighted_mean("v", "w"))
    if engine == "duckdb":
        con = duckdb.connect()

        def query(values, weights):
            con.execute("create or replace table t as select * from (select unnest(?) as v, unnest(?) as w)", [values, weights])
            return con.execute(f"select {mean}, {weighted} from t").fetchone()
    elif engine == "postgres":
        cursor = request.getfixturevalue("postgres").cursor()

        def query(values, weights):
            cursor.execute("select " + mean + ", " + weighted + " from unnest(%s::double precision[], %s::bigint[]) as t(v, w)",
                           [values, weights])
            return cursor.fetchone()
    generator = random.Random(40)
    # precision@10 of 27 users with these hits: PostgreSQL's avg gave 0.5074074074074075, 1.1 ulp
    # from the exact 137/270
    hits = [1, 3, 9, 3, 3, 2, 8, 7, 1, 1, 5, 8, 7, 1, 4, 8, 4, 1, 8, 5, 8, 3, 9, 8, 9, 4, 7]
    cases = [[hit / 10 for hit in hits]] + [[generator.choice([generator.random(), 1 / 3, 2 / 3, 0.1, generator.random() * 1e-9, 1.0, 0.0])
                                              for _ in range(generator.randint(1, 60))] for _ in range(200)]
    drawn = [(values, [generator.randint(1, 10**6) for _ in values]) for values in cases]
    if engine == "spark":   # Spark pays seconds a query: every case in one, grouped by its number
        spark = request.getfixturevalue("spark")
        rows = [(number, value, weight) for number, (values, weights) in enumerate(drawn) for value, weight in zip(values, weights)]
        spark.createDataFrame(rows, "case_id int, v double, w bigint").createOrReplaceTempView("mean_cases")
        query = f"select case_id, {mean}, {weighted} from mean_cases group by case_id"
        got = {row[0]: (row[1], row[2]) for row in spark.sql(query).collect()}
        results = [got[number] for number in range(len(drawn))]
    else:
        results = [query(values, weights) for values, weights in drawn]
    for (values, weights), (got, got_weighted) in zip(drawn, results):
        exact = sum(map(Fraction, values)) / len(values)
        exact_weighted = sum(Fraction(v) * w for v, w in zip(values, weights)) / sum(weights)
        assert abs(got - float(exact)) <= math.ulp(float(exact)), values
        assert abs(got_weighted - float(exact_weighted)) <= math.ulp(float(exact_weighted)), (values, weights)


def distinct_results(call, runs):
    return {call().to_csv(index=False) for _ in range(runs)}


def test_graded_standard_errors_are_the_same_every_run():
    """Graded truth takes a row per user: stddev_samp's sums in DuckDB's threads differed by ~1e-18."""
    generator = np.random.default_rng(40)
    users, items = 60000, 8
    predictions = pd.DataFrame({"user_id": np.repeat(np.arange(users), items), "item_id": np.tile(np.arange(items), users),
                                "rank": np.tile(np.arange(1, items + 1), users)})
    truth = predictions.sample(frac=0.3, random_state=40)[["user_id", "item_id"]]
    truth = truth.assign(relevance=generator.integers(1, 4, size=len(truth)))

    def call():
        con = duckdb.connect()
        con.execute("set threads = 4")
        return rank_metrics.evaluate(predictions, truth, k=[3, 8], con=con)
    assert len(distinct_results(call, 10)) == 1


def test_compare_standard_errors_are_the_same_every_run():
    generator = np.random.default_rng(41)
    users, items = 30000, 6
    frames = []
    for model in ("a", "b"):
        frames.append(pd.DataFrame({"model": model, "user_id": np.repeat(np.arange(users), items),
                                    "item_id": generator.permuted(np.tile(np.arange(items), (users, 1)), axis=1).ravel(),
                                    "rank": np.tile(np.arange(1, items + 1), users)}))
    predictions = pd.concat(frames)
    truth = pd.DataFrame({"user_id": np.arange(users), "item_id": generator.integers(0, items, size=users)})

    def call():
        con = duckdb.connect()
        con.execute("set threads = 4")
        return rank_metrics.compare(predictions, truth, k=[3, 6], by="model", baseline="b", con=con)
    assert len(distinct_results(call, 10)) == 1


def test_check_compares_the_mean_of_equal_values_bit_for_bit(monkeypatch):
    """check=True holds the SQL to the reference exactly where the reference is exact: a perfect
    model's 0.9999999999999998 (what DuckDB's decimal sums gave) is within 1e-9 of 1.0, and passed."""
    import rank_metrics._run as run

    predictions, truth = perfect(5)
    for users in (1, 5, 49, 98):
        assert_perfect(rank_metrics.evaluate(*perfect(users), k=[5, 100], metrics=METRICS, check=True), users)
    original = run.render

    def one_ulp_low(name, *args, **kwargs):
        sql = original(name, *args, **kwargs)
        return f"select * replace (value - 2e-16 * value as value) from ({sql}) as rm_wrong" if name == "evaluate" else sql
    monkeypatch.setattr(run, "render", one_ulp_low)
    with pytest.raises(rank_metrics.CheckFailed, match=r"SQL 0\.9999999999999998, reference 1\.0 exactly \(the mean of equal "):
        rank_metrics.evaluate(predictions, truth, k=5, metrics="map", check=True)
