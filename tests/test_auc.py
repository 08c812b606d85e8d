"""SPEC §6b's AUC@k and its mean over users, GAUC: the worked example and random users through
the Python API on every engine, the Snowflake emulator and the other warehouses' SQL, the command
line, and what a user without a relevant or without a non-relevant item within k gets (no value,
not counted). scikit-learn's roc_auc_score, user by user, is in tests/test_peers.py; the dbt
package's run of the worked example in integration_tests/models/ir_family."""

import math
import random

import duckdb
import pandas as pd
import pytest
import sqlglot
from engine_tables import ENGINES, on_engine
from test_cli import run

import rank_metrics
from rank_metrics import RankMetricsError, reference
from rank_metrics.api import DIALECTS

# the list a, b, c, d, e; truth a:0, b:2, c:0, d:1, f:3: b and d relevant at 2 and 4, a, c, e not
LIST = pd.DataFrame({"user_id": [1] * 5, "item_id": list("abcde"), "rank": [1, 2, 3, 4, 5]})
TRUTH = pd.DataFrame({"user_id": [1] * 5, "item_id": list("abcdf"), "relevance": [0, 2, 0, 1, 3]})


def random_users(seed=7):
    """Two models' lists for 40 users of a 12-item catalog, some with repeated items and some
    users without a list; truth with grades 0..3 (0: judged, not relevant), some users without
    any. Among them users whose first k items are all relevant, or none."""
    draw = random.Random(seed)
    predictions, truth = [], []
    for user in range(1, 41):
        for model in ("a", "b"):
            if draw.random() < 0.9:
                listed = [f"i{draw.randrange(12)}" for _ in range(draw.randint(1, 7))]
                predictions += [(model, user, item, rank) for rank, item in enumerate(listed, start=1)]
        if draw.random() < 0.85:
            truth += [(user, f"i{item}", draw.randint(0, 3)) for item in draw.sample(range(12), draw.randint(1, 8))]
    return (pd.DataFrame(predictions, columns=["model", "user_id", "item_id", "rank"]),
            pd.DataFrame(truth, columns=["user_id", "item_id", "relevance"]))


@pytest.mark.parametrize("engine", ENGINES)
def test_the_worked_example(engine, request):
    # AUC@5: b comes before c and e, d before e: 3 of the 2 x 3 pairs; AUC@2: a before b, 0 of 1;
    # AUC@1: a alone, no relevant item, so no value and no user counted
    tables = on_engine(engine, request, "auc", predictions=LIST, truth=TRUTH)
    assert rank_metrics.auc_at_k(**tables, k=5, relevance="relevance") == 0.5
    got = rank_metrics.auc_at_k(**tables, k=[1, 2, 5], relevance="relevance")
    assert math.isnan(got.auc_at_k[0]) and got.auc_at_k[1:].tolist() == [0.0, 0.5]
    assert got.n_users.tolist() == [0, 1, 1]
    evaluated = rank_metrics.evaluate(**tables, k=[1, 5], relevance="relevance", metrics=["map", "auc"])
    assert evaluated[["k", "metric", "n_users"]].values.tolist() == [[1, "map", 1], [1, "auc", 0], [5, "map", 1],
                                                                     [5, "auc", 1]]
    assert math.isnan(evaluated.value[1]) and evaluated.value[3] == 0.5
    users = rank_metrics.evaluate_users(**tables, k=[1, 5], relevance="relevance", metrics="auc")
    assert list(users.columns) == ["user_id", "k", "auc", "n_relevant", "n_hits"]
    assert math.isnan(users.auc[0]) and users.auc[1] == 0.5


@pytest.mark.parametrize("engine", ENGINES)
def test_many_hits_within_k(engine, request):
    """12 relevant items and more within k: DuckDB's bit_count is a TINYINT, and AUC's pairs,
    n_hits x (n_hits - 1), overflowed it at 12 hits (a raw OutOfRangeException; a dbt user's trial).
    A list of 61 items, all relevant but the 7th: AUC@13 6 of 12 pairs, AUC@61 6 of 60; every
    metric against the reference (check=True)."""
    predictions = pd.DataFrame({"user_id": [1] * 61, "item_id": range(1, 62), "rank": range(1, 62)})
    truth = pd.DataFrame({"user_id": [1] * 60, "item_id": [item for item in range(1, 62) if item != 7]})
    tables = on_engine(engine, request, "auc_hits", predictions=predictions, truth=truth)
    got = rank_metrics.evaluate(**tables, k=[13, 61], metrics=list(rank_metrics.api.METRICS), check=True)
    auc = got[got.metric == "auc"]
    assert auc.k.tolist() == [13, 61] and auc.value.tolist() == [pytest.approx(0.5), pytest.approx(0.1)]


@pytest.mark.parametrize("engine", ENGINES)
def test_random_users_equal_the_reference(engine, request):
    """Users without a positive or without a negative left out of each k's mean and n_users alike,
    with grades (rows of hits) and without (hit patterns), under each rule for repeated items, a
    geometric mean, and compare's t test pairing only the users with a value on both sides."""
    predictions, truth = random_users()
    tables = on_engine(engine, request, "auc", predictions=predictions, truth=truth)
    ks = [1, 3, 7]
    # on Spark, whose every query takes seconds to plan, one rule (its batched property test draws the others)
    for duplicates in ("first", "all", "collapse") if engine != "spark" else ("all",):
        for relevance in ("relevance", False):
            got = rank_metrics.evaluate(**tables, k=ks, by="model", metrics=["auc", "precision"], duplicates=duplicates,
                                        relevance=relevance, check=True)
            assert set(got.metric) == {"auc", "precision"}
            auc = got[got.metric == "auc"]
            assert (auc.n_users < got[got.metric == "precision"].n_users.values).all()
            # k 1: one item, never both kinds, so no user and no value
            assert (auc.n_users[auc.k == 1] == 0).all() and auc.value[auc.k == 1].isna().all()
            assert (auc.n_users[auc.k > 1] > 0).all() and auc.value[auc.k > 1].between(0, 1).all()
    geometric = rank_metrics.evaluate(**tables, k=ks, by="model", metrics="auc", relevance="relevance",
                                      mean="geometric", check=True)
    assert geometric.value[geometric.k > 1].notna().all()
    # GAUC weighing each user by its list length: the same users, another mean (the reference's)
    weighted = rank_metrics.evaluate(**tables, k=ks, by="model", metrics=["auc", "map"], relevance="relevance",
                                     auc_weight="impressions", check=True)
    plain = rank_metrics.evaluate(**tables, k=ks, by="model", metrics=["auc", "map"], relevance="relevance")
    assert weighted.n_users.tolist() == plain.n_users.tolist()
    # MAP's values are the same sums in another query: on Spark, whose sum of doubles follows the
    # order the partitions arrive in, equal to the last bit or two (a run gave 0.1839080459770115
    # against 0.18390804597701152)
    assert weighted[weighted.metric == "map"].value.tolist() == pytest.approx(plain[plain.metric == "map"].value.tolist(),
                                                                                rel=1e-12)
    assert (weighted[weighted.metric == "auc"].value.fillna(-1) != plain[plain.metric == "auc"].value.fillna(-1)).any()
    compared = rank_metrics.compare(**tables, k=ks[1:], by="model", baseline="a", metrics=["auc", "map"],
                                    relevance="relevance", check=True)
    auc, ap = compared[compared.metric == "auc"], compared[compared.metric == "map"]
    assert (auc.n_users.values < ap.n_users.values).all() and (auc.n_users > 0).all()


def test_repeated_items_count_as_the_rule_for_repeats_says():
    """List a, b, a with a relevant: under duplicates='first' the second a is no hit, so a
    negative (a before b and the second a: 1); under 'all' both are positives (the first before
    b, the second after it: 1/2); under 'collapse' the list is a, b (1)."""
    predictions = pd.DataFrame({"user_id": [1, 1, 1], "item_id": ["a", "b", "a"], "rank": [1, 2, 3]})
    truth = pd.DataFrame({"user_id": [1], "item_id": ["a"]})
    for duplicates, want in (("first", 1.0), ("all", 0.5), ("collapse", 1.0)):
        assert rank_metrics.auc_at_k(predictions, truth, k=3, duplicates=duplicates, check=True) == want, duplicates


def test_the_reference_counts_the_pairs_one_by_one():
    options = reference.resolve_options()
    grades = dict(zip(TRUTH.item_id, TRUTH.relevance))
    assert reference.user_metrics(list("abcde"), grades, 5, options)["auc"] == 0.5
    assert reference.user_metrics(list("abcde"), grades, 1, options)["auc"] is None
    assert reference.user_metrics(list("bd"), grades, 5, options)["auc"] is None   # no negative
    means = reference.group_means({"auc": [None, 0.25, 0.75]})
    assert (means["auc_at_k"], means["auc_at_k_n_users"], means["n_users"]) == (0.5, 2, 3)


@pytest.mark.parametrize("relevance", ["relevance", False])
def test_snowflake_sql_runs_on_the_emulator_and_every_dialect_transpiled_to_duckdb_gives_the_reference(relevance):
    """With grades (rows of hits) and without (relevance=False, every truth row relevant: hit
    patterns, in each warehouse's bit functions)."""
    warehouses_give_the_reference(["auc", "map"], relevance)


def warehouses_give_the_reference(metrics, relevance, tied=False, **options):
    """evaluate's SQL for `metrics` (under `options`) on Snowflake's emulator, and every other
    dialect's transpiled back to DuckDB by sqlglot (parsed in its own dialect with errors raised
    first), each equal to the Python API's numbers, checked against the reference. `tied`: the
    ranks cut to half as many values, so that the lists hold ties."""
    import fakesnow
    import snowflake.connector

    predictions, truth = random_users(3)
    if tied:
        predictions = predictions.assign(rank=(predictions["rank"] + 1) // 2)
    arguments = dict(k=[2, 5], by="model", metrics=metrics, relevance=relevance, rank="rank", **options)

    def keyed(frame):
        frame = frame.rename(columns=str.lower)
        return {(row.model, None if pd.isna(row.k) else int(row.k), row.metric, column): float(getattr(row, column))
                for row in frame.itertuples() for column in ("value", "n_users")}

    want = keyed(rank_metrics.evaluate(predictions, truth, check=True, **arguments))
    with fakesnow.patch():
        con = snowflake.connector.connect(database="analytics", schema="public")
        cursor = con.cursor()
        cursor.execute("create database if not exists analytics")
        cursor.execute("create schema if not exists analytics.public")
        cursor.execute("create or replace table recs (model varchar, user_id integer, item_id varchar, rank integer)")
        cursor.execute("create or replace table purchases (user_id integer, item_id varchar, relevance integer)")
        cursor.executemany("insert into recs values (%s, %s, %s, %s)", predictions.values.tolist())
        cursor.executemany("insert into purchases values (%s, %s, %s)", truth.values.tolist())
        cursor.execute(rank_metrics.sql("recs", "purchases", dialect="snowflake", macro="evaluate", **arguments))
        got = pd.DataFrame(cursor.fetchall(), columns=[column[0] for column in cursor.description])
        con.close()
    assert keyed(got) == pytest.approx(want, rel=1e-9, nan_ok=True)

    con = duckdb.connect()
    # as in test_warehouses: Trino's bitwise_left_shift, which sqlglot does not read back into <<
    con.execute("create macro bitwise_left_shift(value, shift) as value << shift")
    con.register("recs", predictions)
    con.register("purchases", truth)
    for dialect in DIALECTS:
        if dialect in ("duckdb", "snowflake"):
            continue
        text = rank_metrics.sql("recs", "purchases", dialect=dialect, macro="evaluate", **arguments)
        sqlglot.parse(text, read=dialect, error_level=sqlglot.ErrorLevel.RAISE)
        if dialect == "postgres":
            # PostgreSQL's SQL runs on PostgreSQL itself in the suite: its means are exact sums in
            # its unbounded numeric, which sqlglot writes as DuckDB's DECIMAL(18, 3)
            continue
        back = sqlglot.transpile(text, read=dialect, write="duckdb")[0]
        assert keyed(con.execute(back).df()) == pytest.approx(want, rel=1e-9, nan_ok=True), dialect


def test_gauc_weighs_users_by_their_impressions(tmp_path):
    """auc_weight='impressions': each user's AUC weighs its list length in the group's mean, and
    the standard error is that of a weighted mean; what gives a row per user or compares users'
    arithmetic means refuses it."""
    predictions = pd.DataFrame({"user_id": [1] * 5 + [2] * 2 + [3] * 3, "item_id": list("abcde") + list("ab") + list("abc"),
                                "rank": [1, 2, 3, 4, 5, 1, 2, 1, 2, 3]})
    truth = pd.DataFrame({"user_id": [1, 1, 2, 3], "item_id": ["b", "d", "b", "a"]})
    # AUC@5: user 1 (b, d among five) 3/6, user 2 (b after a) 0, user 3 (a first) 1
    assert rank_metrics.auc_at_k(predictions, truth, k=5) == pytest.approx(0.5, rel=1e-12)
    assert rank_metrics.auc_at_k(predictions, truth, k=5, auc_weight="impressions", check=True) == \
        pytest.approx((5 * 0.5 + 2 * 0 + 3 * 1) / 10, rel=1e-12)
    got = rank_metrics.evaluate(predictions, truth, k=5, metrics="auc", auc_weight="impressions", check=True).iloc[0]
    deviations = [(5, 0.5 - 0.55), (2, 0 - 0.55), (3, 1 - 0.55)]
    assert got.std_error == pytest.approx((3 / 2 * sum(w * w * d * d for w, d in deviations)) ** 0.5 / 10, rel=1e-12)
    assert got.n_users == 3
    for call in (lambda: rank_metrics.evaluate_users(predictions, truth, k=5, metrics="auc", auc_weight="impressions"),
                 lambda: rank_metrics.compare(predictions.assign(model="a"), truth, k=5, by="model", baseline="a",
                                              metrics="auc", auc_weight="impressions")):
        with pytest.raises(RankMetricsError, match=r"takes no auc_weight='impressions': it weights a group's mean of AUC "
                                                   r"by each user's list length"):
            call()
    with pytest.raises(RankMetricsError, match="auc_weight must be one of 'users', 'impressions'; got 'clicks'"):
        rank_metrics.auc_at_k(predictions, truth, k=5, auc_weight="clicks")
    predictions.to_csv(tmp_path / "p.csv", index=False)
    truth.to_csv(tmp_path / "t.csv", index=False)
    code, out, err = run("auc-at-k", str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "5", "--auc-weight", "impressions",
                         "--format", "csv")
    assert (code, err) == (0, "") and out.splitlines()[1].startswith("5,0.55,3")


def test_the_command_line(tmp_path):
    LIST.to_csv(tmp_path / "p.csv", index=False)
    TRUTH.to_csv(tmp_path / "t.csv", index=False)
    files = [str(tmp_path / "p.csv"), str(tmp_path / "t.csv")]
    code, out, err = run("auc-at-k", *files, "-k", "1", "2", "5", "--relevance", "relevance", "--format", "csv")
    assert code == 0 and out.splitlines() == ["k,auc_at_k,n_users", "1,,0", "2,0.0,1", "5,0.5,1"]
    assert "has no value for any user" not in err
    code, out, err = run("auc-at-k", *files, "-k", "1", "--relevance", "relevance", "--format", "csv")
    assert code == 0 and out.splitlines() == ["k,auc_at_k,n_users", "1,,0"]
    assert "no evaluated user has both a relevant and a non-relevant item within the first 1 items" in err
    code, out, err = run("evaluate", *files, "-k", "5", "--relevance", "relevance", "--metrics", "auc", "--format", "csv")
    assert (code, err) == (0, "") and out.splitlines()[1].startswith("5,auc,0.5,1,")
