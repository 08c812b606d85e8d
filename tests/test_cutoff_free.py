"""SPEC §6b's metrics that take no k, R-precision and bpref: the worked example on every engine,
trec_eval's Rprec and bpref on its own test data (binary and with -l2), lists longer than the
largest k (R past it), the row of k NULL in evaluate, evaluate_users, compare and over time, and
the command line. ranx's r-precision and bpref on random data are in tests/test_peers.py; the
dbt package's run of the worked example in integration_tests/models/ir_family."""

import datetime
import math

import pandas as pd
import pytest
from engine_tables import ENGINES, on_engine
from test_auc import warehouses_give_the_reference
from test_cli import run
from test_trec_eval import read

import rank_metrics
from rank_metrics import RankMetricsError, reference

# the list a, b, c, d, e; truth a:0, b:2, c:0, d:1, f:3: R = 3 (b, d, f), and among the first 3
# positions (a, b, c) only b: R-precision 1/3. N = 2 (a, c): b has a above it (1 - 1/2), d both
# (1 - 2/2), e is unjudged and f not listed: bpref (1/2 + 0) / 3 = 1/6
LIST = pd.DataFrame({"user_id": [1] * 5, "item_id": list("abcde"), "rank": [1, 2, 3, 4, 5]})
TRUTH = pd.DataFrame({"user_id": [1] * 5, "item_id": list("abcdf"), "relevance": [0, 2, 0, 1, 3]})
# trec_eval's test/out.test.aq (binary: grade > 0) and out.test.aql (-l2 on qrels.rel_level):
# Rprec per topic and over all three
RPREC = {"301": 0.1456, "302": 0.5065, "303": 0.0}
RPREC_L2 = {"301": 0.0, "302": 0.5065, "303": 0.0}
BPREF = {"301": 0.1230, "302": 0.4712, "303": 0.0}
BPREF_L2 = {"301": 0.0, "302": 0.4712, "303": 0.0}


@pytest.mark.parametrize("engine", ENGINES)
def test_the_worked_example(engine, request):
    tables = on_engine(engine, request, "rp", predictions=LIST, truth=TRUTH)
    assert rank_metrics.r_precision(**tables, relevance="relevance") == pytest.approx(1 / 3, rel=1e-12)
    assert rank_metrics.bpref(**tables, relevance="relevance") == pytest.approx(1 / 6, rel=1e-12)
    # a row of each k for the other metrics, and one of k NULL for each metric that takes none
    evaluated = rank_metrics.evaluate(**tables, k=[2, 5], relevance="relevance", metrics=["map", "r_precision", "bpref"])
    assert evaluated.metric.tolist() == ["map", "map", "r_precision", "bpref"]
    assert evaluated.k.tolist()[:2] == [2, 5] and evaluated.k.isna().tolist() == [False, False, True, True]
    assert evaluated.value.tolist() == pytest.approx([0.25, 1 / 3, 1 / 3, 1 / 6], rel=1e-12)
    assert evaluated.n_users.tolist() == [1, 1, 1, 1]
    users = rank_metrics.evaluate_users(**tables, k=5, relevance="relevance", metrics=["map", "r_precision", "bpref"])
    assert users.k.isna().tolist() == [False, True]
    assert math.isnan(users.r_precision[0]) and users.r_precision[1] == pytest.approx(1 / 3, rel=1e-12)
    assert math.isnan(users.bpref[0]) and users.bpref[1] == pytest.approx(1 / 6, rel=1e-12)
    assert math.isnan(users.average_precision[1]) and users.n_relevant.tolist() == [3, 3]


def test_trec_eval_rprec_and_bpref_on_its_own_test_data(trec_eval_data):
    """R-precision and bpref per topic and their means, as trec_eval prints them: with binary
    judgments, and with -l2 (relevance_threshold=2) on its graded qrels, where grades 0 and 1 are
    judged non-relevant and -1 judges nothing (its rows are all of topic 303's, whose bpref is 0
    either way: test_a_negative_grade_judges_nothing has the difference)."""
    results, qrels = read(trec_eval_data)
    graded = pd.read_csv(trec_eval_data / "qrels.rel_level", sep=r"\s+", header=None,
                         names=["topic", "iteration", "doc", "relevance"], dtype={"topic": str})
    options = dict(user="topic", item="doc", score="score", convention="trec_eval", check=True)
    for truth, rprec, bpref, threshold in ((qrels, RPREC, BPREF, None), (graded, RPREC_L2, BPREF_L2, 2)):
        per_topic = rank_metrics.evaluate_users(results, truth, k=1, metrics=["r_precision", "bpref"],
                                                relevance_threshold=threshold, **options)
        assert dict(zip(per_topic.topic, per_topic.r_precision)) == pytest.approx(rprec, abs=5e-5)
        assert dict(zip(per_topic.topic, per_topic.bpref)) == pytest.approx(bpref, abs=5e-5)
        assert rank_metrics.r_precision(results, truth, relevance_threshold=threshold, **options) == \
            pytest.approx(sum(rprec.values()) / 3, abs=5e-5)
    # trec_eval's "all" lines
    assert rank_metrics.r_precision(results, qrels, **options) == pytest.approx(0.2174, abs=5e-5)
    assert rank_metrics.r_precision(results, graded, relevance_threshold=2, **options) == pytest.approx(0.1688, abs=5e-5)
    assert rank_metrics.bpref(results, qrels, **options) == pytest.approx(0.1981, abs=5e-5)
    assert rank_metrics.bpref(results, graded, relevance_threshold=2, **options) == pytest.approx(0.1571, abs=5e-5)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_negative_grade_judges_nothing(engine, request):
    """trec_eval's qrels grade -1 is a document not in the pool: its bpref counts only grades from 0
    up as judged non-relevant (m_bpref.c), and pytrec_eval gives 1.0 here, where counting a as
    judged gave 0. RBP's residual reads the same judgments: a is unjudged."""
    predictions = pd.DataFrame({"q": [1, 1, 1], "doc": list("abd"), "score": [3.0, 2.0, 1.0]})
    truth = pd.DataFrame({"q": [1] * 4, "doc": list("abcd"), "rel": [-1, 1, 0, 0]})
    tables = on_engine(engine, request, "negative", predictions=predictions, truth=truth)
    options = dict(user="q", item="doc", score="score", relevance="rel")
    assert rank_metrics.bpref(**tables, convention="trec_eval", **options) == 1.0
    got = rank_metrics.evaluate(**tables, k=3, metrics=["bpref", "rbp_residual"], **options)
    # residual: a's position and the weight past k, 0.2 + 0.8^3
    assert got.value.tolist() == pytest.approx([0.712, 1.0], rel=1e-12)
    # a threshold at or below -1 makes a relevant, and so judged: every row is (R = 4, N = 0), and
    # three of the four are listed
    assert rank_metrics.bpref(**tables, relevance_threshold=-1, **options) == 0.75
    per_user, _ = reference.evaluate(predictions.to_dict("records"), truth.to_dict("records"), [3], metrics=["bpref", "rbp_residual"],
                                     **options, options=reference.resolve_options())
    assert [(row["k"], row["bpref"], row["rbp_residual"]) for row in per_user] == [(3, None, pytest.approx(0.712)), (None, 1.0, None)]


def test_r_past_the_largest_k_and_the_hit_word():
    """R-precision reads positions up to each user's R, past the largest k and past the 64-bit
    hit word's 61 positions, while the metrics at k beside it keep their cut: both equal the
    reference."""
    items = [f"i{n}" for n in range(80)]
    predictions = pd.DataFrame({"user_id": [1] * 80 + [2] * 80, "item_id": items * 2, "rank": list(range(1, 81)) * 2})
    # user 1: R = 70, hits at 1, 65 and 75 (two within R); user 2: R = 2, hits at 2 and 3
    truth = pd.DataFrame({"user_id": [1] * 70 + [2, 2],
                          "item_id": ["i0", "i64", "i74"] + [f"x{n}" for n in range(67)] + ["i1", "i2"]})
    got = rank_metrics.evaluate(predictions, truth, k=[5, 10], metrics=["r_precision", "map", "precision"], check=True)
    assert got[got.metric == "r_precision"].value.tolist() == pytest.approx([(2 / 70 + 1 / 2) / 2], rel=1e-12)
    assert got.n_users.tolist() == [2] * 5
    # the metrics at k counted per hit pattern, R-precision per user beside them (one query)
    plan = rank_metrics.sql("p", "t", k=[5, 10], macro="evaluate", metrics=["r_precision", "map"]).splitlines()[2]
    assert "counted once" in plan and "R-precision is averaged per user beside the patterns" in plan
    users = rank_metrics.evaluate_users(predictions, truth, k=[5, 10], metrics=["r_precision", "hit_rate"], check=True)
    assert users[users.k.isna()].r_precision.tolist() == pytest.approx([2 / 70, 1 / 2], rel=1e-12)


def test_snowflake_and_the_other_warehouses_give_the_reference():
    """Their rows of k NULL beside MAP's rows, on Snowflake's emulator and transpiled back from
    every other warehouse's SQL."""
    warehouses_give_the_reference(["r_precision", "map", "bpref"], "relevance")


def test_compare_pairs_the_rows_of_k_null():
    """compare's rows for R-precision and bpref have k NULL, paired like the others, by the t
    test's SQL and the resampled tests in Python alike (check=True: the reference's differences)."""
    two = pd.concat([LIST.assign(model="a"), LIST.assign(model="b", rank=LIST["rank"][::-1].values),
                     LIST.assign(model="a", user_id=2), LIST.assign(model="b", user_id=2)])
    truth = pd.concat([TRUTH, TRUTH.assign(user_id=2)])
    for test in ("t", "permutation"):
        got = rank_metrics.compare(two, truth, k=5, by="model", baseline="a", metrics=["map", "r_precision", "bpref"],
                                   relevance="relevance", test=test, check=True)
        assert got.metric.tolist() == ["map", "r_precision", "bpref"] and got.k.isna().tolist() == [False, True, True]
        # b's first list is e, d, c, b, a: d among its first 3, as b was in a's: the same 1/3
        row = got[got.metric == "r_precision"].iloc[0]
        assert (row.baseline_value, row.value, row.difference, row.n_users) == pytest.approx((1 / 3, 1 / 3, 0.0, 2))
        # bpref: in b's first list e is unjudged, so no judged non-relevant item is above d (1), and c
        # is above b (1 - 1/2): (1 + 1/2) / 3 = 1/2, beside 1/6 for its second list and each of a's
        row = got[got.metric == "bpref"].iloc[0]
        assert (row.baseline_value, row.value, row.difference, row.n_users) == pytest.approx((1 / 6, 1 / 3, 1 / 6, 2))


def test_over_time_reports_it_with_k_null():
    lists = pd.concat([LIST.assign(period=datetime.date(2026, 1, day)) for day in (1, 2)])
    labels = TRUTH.assign(label_time=datetime.datetime(2026, 1, 1, 12))
    got = rank_metrics.evaluate_over_time(lists, labels, k=5, window=1, metrics=["map", "r_precision", "bpref"],
                                          relevance="relevance")
    first = got[got.period == pd.Timestamp(2026, 1, 1)]
    assert first.metric.tolist() == ["map", "r_precision", "bpref"] and first.k.isna().tolist() == [False, True, True]
    assert first.value.tolist() == pytest.approx([1 / 3, 1 / 3, 1 / 6], rel=1e-12)
    want = reference.evaluate_over_time(lists.to_dict("records"), labels.to_dict("records"), [5], period="period",
                                        time="label_time", window=1, metrics=["map", "r_precision"], rank="rank",
                                        relevance="relevance")
    assert [(row["metric"], row["k"], row["n_users"]) for row in want if row["period"] == datetime.date(2026, 1, 2)] == \
        [("map", 5, 0), ("r_precision", None, 0)]


def test_the_command_line(tmp_path):
    LIST.to_csv(tmp_path / "p.csv", index=False)
    TRUTH.to_csv(tmp_path / "t.csv", index=False)
    files = [str(tmp_path / "p.csv"), str(tmp_path / "t.csv")]
    code, out, err = run("r-precision", *files, "--format", "csv")
    assert (code, err) == (0, "") and out.splitlines() == ["k,r_precision,n_users", ",0.3333333333333333,1"]
    # a -k is read, to say why it takes none, as Python does (it was "unrecognized arguments": a user's trial)
    code, _, err = run("r-precision", *files, "-k", "5")
    assert code == 2 and err.startswith("rank-metrics: error: r_precision takes no k: each user's cutoff is its R") and \
        err.rstrip().endswith("got 5"), err
    code, _, err = run("bpref", *files, "-k", "5", "10")
    assert code == 2 and "bpref takes no k: it reads each user's whole list" in err and err.rstrip().endswith("got [5, 10]"), err
    code, out, err = run("bpref", *files, "--format", "csv")
    assert (code, err) == (0, "") and out.splitlines() == ["k,bpref,n_users", ",0.16666666666666666,1"]
    code, out, err = run("evaluate", *files, "-k", "5", "--metrics", "map", "r_precision", "bpref", "--format", "csv")
    assert (code, err) == (0, "") and out.splitlines()[2].startswith(",r_precision,0.333333")
    assert out.splitlines()[3].startswith(",bpref,0.166666")
    assert "-k" not in run("r-precision", "--help")[1]
    # its SQL, printed with no -k; other macros still need one
    code, out, err = run("sql", "recs", "truth", "--macro", "r_precision")
    assert (code, err) == (0, "") and out.startswith("-- rank_metrics 0.2.0: r_precision\n-- options: metrics=['r_precision']")
    code, _, err = run("sql", "recs", "truth", "--macro", "r_precision", "-k", "5")
    assert code == 2 and "--macro r_precision takes no -k" in err
    code, _, err = run("sql", "recs", "truth", "--macro", "map_at_k")
    assert code == 2 and "the following arguments are required: -k" in err


def test_it_takes_no_k():
    with pytest.raises(RankMetricsError, match=r"r_precision takes no k: each user's cutoff is its R.*; got 5$"):
        rank_metrics.r_precision(LIST, TRUTH, k=5)
    with pytest.raises(RankMetricsError, match=r"bpref takes no k: it reads each user's whole list.*; got 10$"):
        rank_metrics.bpref(LIST, TRUTH, k=10)
    # a k by position was Python's TypeError naming an inner function (a new user's trial)
    with pytest.raises(RankMetricsError, match=r"^rank_metrics: r_precision takes 2 arguments by position \(predictions, "
                                               r"truth\), the others by keyword; got 3$"):
        rank_metrics.r_precision(LIST, TRUTH, 5)
    with pytest.raises(RankMetricsError, match="metrics: unknown metric 'rprec'"):
        rank_metrics.evaluate(LIST, TRUTH, k=5, metrics="rprec")
    # the printed SQL takes no k (one given is the plan's, unread), and its header shows none
    assert rank_metrics.sql("p", "t", macro="r_precision") == rank_metrics.sql("p", "t", k=5, macro="r_precision")
    assert rank_metrics.sql("p", "t", macro="r_precision").splitlines()[1].startswith("-- options: metrics=['r_precision']")
    with pytest.raises(RankMetricsError, match="k is required for macro 'evaluate'"):
        rank_metrics.sql("p", "t", macro="evaluate")


def test_check_on_a_sample_of_users():
    """Past 100,000 rows check=True compares a sample of users and the means of every user's SQL
    values: R-precision's row of k NULL and AUC's own n_users among them."""
    import numpy as np

    draw = np.random.default_rng(0)
    users = 12_000
    predictions = pd.DataFrame({"user_id": np.repeat(np.arange(users), 10), "item_id": draw.integers(0, 50, users * 10),
                                "rank": np.tile(np.arange(1, 11), users)}).drop_duplicates(["user_id", "item_id"])
    truth = pd.DataFrame({"user_id": np.repeat(np.arange(users), 3), "item_id": draw.integers(0, 50, users * 3)}).drop_duplicates()
    assert len(predictions) + len(truth) > 100_000
    assert 0 < rank_metrics.r_precision(predictions, truth, check=True) < 1
    got = rank_metrics.evaluate(predictions, truth, k=5, metrics=["map", "auc", "r_precision"], check=True)
    assert got.metric.tolist() == ["map", "auc", "r_precision"] and got.n_users[0] == got.n_users[2] > got.n_users[1]
