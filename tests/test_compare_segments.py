"""compare within segments (issue 43 item 13): by=['model', 'segment', ...] compares each model
with the baseline model inside each segment, pairing a user's values within one segment, on
every engine and with every test; each segment's rows are what comparing that segment's
predictions alone gives, and the correction's family is one metric at one k in one segment."""

import random
import warnings

import duckdb
import pandas as pd
import pytest

import rank_metrics

from engine_tables import ENGINES, to_postgres, to_spark
from test_cli import run

COLUMNS = ["model", "k", "metric", "baseline_value", "value", "difference", "std_error", "p_value", "p_value_adjusted",
           "significant", "n_users", "n_only_model", "n_only_baseline"]


def data():
    """60 users in two segments (one in three new), lists of 5 of 12 items from models a, b and c
    (c better than b on the new users), 3 relevant items each; truth has the segment column too,
    so that each segment's truth is its users' (matched as a by column truth has)."""
    chance = random.Random(5)
    rows, truth = [], []
    for user in range(60):
        segment = "new" if user % 3 == 0 else "old"
        relevant = sorted(chance.sample(range(12), 3))
        truth += [(segment, user, item) for item in relevant]
        for model in ("a", "b", "c"):
            items = chance.sample(range(12), 5)
            if model == "c" and segment == "new":
                items = relevant + [item for item in items if item not in relevant][:2]
            rows += [(model, segment, user, item, rank) for rank, item in enumerate(items, 1)]
    return (pd.DataFrame(rows, columns=["model", "segment", "user_id", "item_id", "rank"]),
            pd.DataFrame(truth, columns=["segment", "user_id", "item_id"]))


PREDICTIONS, TRUTH = data()


def expected(segment, **options):
    """The segment's own comparison: its predictions alone, by model."""
    alone = rank_metrics.compare(PREDICTIONS[PREDICTIONS.segment == segment].drop(columns="segment"),
                                 TRUTH[TRUTH.segment == segment].drop(columns="segment"),
                                 by="model", baseline="b", **options)
    return alone[COLUMNS].reset_index(drop=True)


def assert_segments(got, **options):
    assert list(got.columns[:3]) == ["model", "segment", "k"]
    assert sorted(set(got.segment)) == ["new", "old"]
    for segment in ("new", "old"):
        mine = got[got.segment == segment][COLUMNS].reset_index(drop=True)
        pd.testing.assert_frame_equal(mine, expected(segment, **options), check_exact=False, rtol=1e-9, atol=1e-12)


OPTIONS = dict(k=[1, 5], metrics=["map", "ndcg", "hit_rate"])


@pytest.mark.parametrize("users", ["truth", "predictions"])
@pytest.mark.parametrize("test", ["t", "permutation", "bootstrap"])
def test_each_segment_is_compared_on_its_own(test, users):
    got = rank_metrics.compare(PREDICTIONS, TRUTH, by=["model", "segment"], baseline="b", test=test, users=users,
                               check=True, **OPTIONS)
    assert_segments(got, test=test, users=users, **OPTIONS)
    # c is better than b on the new users only
    new_c = got[(got.model == "c") & (got.segment == "new") & (got.metric == "map") & (got.k == 5)].iloc[0]
    assert new_c.difference > 0 and new_c.significant == 1


@pytest.mark.parametrize("engine", ENGINES)
def test_segments_on_every_engine(engine, request):
    if engine == "duckdb":
        con = duckdb.connect()
        con.register("segment_recs", PREDICTIONS)
        con.register("segment_truth", TRUTH)
        given = dict(predictions="segment_recs", truth="segment_truth", con=con)
    elif engine == "postgres":
        con = request.getfixturevalue("postgres")
        given = dict(predictions=to_postgres(con, "segment_recs", PREDICTIONS),
                     truth=to_postgres(con, "segment_truth", TRUTH), con=con)
    else:
        spark = request.getfixturevalue("spark")
        given = dict(predictions=to_spark(spark, PREDICTIONS), truth=to_spark(spark, TRUTH))
    got = rank_metrics.compare(**given, by=["model", "segment"], baseline="b", check=True, **OPTIONS)
    assert_segments(got, **OPTIONS)


def test_the_family_is_one_metric_at_one_k_in_one_segment():
    got = rank_metrics.compare(PREDICTIONS, TRUTH, by=["model", "segment"], baseline="b", **OPTIONS)
    everything = rank_metrics.compare(PREDICTIONS, TRUTH, by=["model", "segment"], baseline="b", family="all", **OPTIONS)
    # two models a family by default; every row under family='all', so no adjusted p is smaller
    assert (everything.p_value_adjusted >= got.p_value_adjusted - 1e-15).all()
    assert (everything.p_value_adjusted > got.p_value_adjusted).any()


def test_the_baseline_of_each_segment_is_not_said_to_be_missing():
    """The rows leave out the baseline in every segment, as without segments: no warning that
    those groups have no evaluated user (a first trial of segments said so of ('b', 'new'))."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rank_metrics.compare(PREDICTIONS, TRUTH, by=["model", "segment"], baseline="b", test="permutation", **OPTIONS)


def test_the_command_line_takes_segments(tmp_path):
    PREDICTIONS.to_csv(tmp_path / "recs.csv", index=False)
    TRUTH.to_csv(tmp_path / "truth.csv", index=False)
    code, out, err = run("compare", str(tmp_path / "recs.csv"), str(tmp_path / "truth.csv"), "-k", "5", "--by", "model",
                         "segment", "--baseline", "b", "--metrics", "hit_rate", "--format", "csv")
    assert code == 0, err
    shown = pd.read_csv(__import__("io").StringIO(out))
    assert list(shown.columns[:3]) == ["model", "segment", "k"] and len(shown) == 4


def test_the_sql_compares_within_segments():
    con = duckdb.connect()
    con.register("segment_recs", PREDICTIONS)
    con.register("segment_truth", TRUTH)
    # con: the columns are looked up, so that truth's segment column is matched, as in Python
    text = rank_metrics.sql("segment_recs", "segment_truth", macro="compare", by=["model", "segment"], baseline="b",
                            con=con, **OPTIONS)
    got = con.execute(text).df().sort_values(["model", "segment", "k", "metric"]).reset_index(drop=True)
    python = rank_metrics.compare(PREDICTIONS, TRUTH, by=["model", "segment"], baseline="b", **OPTIONS)
    python = python.sort_values(["model", "segment", "k", "metric"]).reset_index(drop=True)
    assert list(got.difference) == pytest.approx(list(python.difference), abs=1e-12)
    assert list(got.n_users) == list(python.n_users)


def test_a_baseline_missing_from_a_segment_is_said():
    lopsided = PREDICTIONS[~((PREDICTIONS.model == "b") & (PREDICTIONS.segment == "new"))]
    # the warning names the segment: the models are compared in the others (a user's trial read
    # "model 'a' and the baseline 'b' have no evaluated user in common" as nothing compared)
    with pytest.warns(rank_metrics.RankMetricsWarning, match=r"model 'a', 'c' and the baseline 'b' have no evaluated user in "
                                                             r"common in segment 'new', so nothing is paired there"):
        got = rank_metrics.compare(lopsided, TRUTH, by=["model", "segment"], baseline="b", users="predictions", **OPTIONS)
    assert set(got[got.segment == "new"].n_users) == {0}
