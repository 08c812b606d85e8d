"""SPEC §6b, the rest of the IR family: RBP@k (rank-biased precision) with its persistence, ERR@k
(expected reciprocal rank) with its max_grade, and mean='geometric', through the Python API on
every engine, the command line and its errors. (The dbt package's run of the
worked example is integration_tests/models/ir_family, asserted on every engine's build.)"""

import math

import pandas as pd
import pytest
from engine_tables import ENGINES, on_engine
from test_auc import warehouses_give_the_reference
from test_cli import run

import rank_metrics
from rank_metrics import RankMetricsError, reference

# SPEC §6b's worked example: the list a, b, c, d, e; truth a:0, b:2, c:0, d:1, f:3 (e unjudged;
# b and d relevant, at positions 2 and 4)
LIST = pd.DataFrame({"user_id": [1] * 5, "item_id": list("abcde"), "rank": [1, 2, 3, 4, 5]})
TRUTH = pd.DataFrame({"user_id": [1] * 5, "item_id": list("abcdf"), "relevance": [0, 2, 0, 1, 3]})


@pytest.mark.parametrize("engine", ENGINES)
def test_the_worked_example(engine, request):
    # RBP(0.8)@5 = 0.2 (0.8 + 0.512) = 0.2624; with p = 0.5, 0.5 * 0.5 = 0.25 at k 2 and
    # 0.5 (0.5 + 0.125) = 0.3125 at k 5
    tables = on_engine(engine, request, "ir", predictions=LIST, truth=TRUTH)
    assert rank_metrics.rbp_at_k(**tables, k=5, relevance="relevance") == pytest.approx(0.2624, rel=1e-12)
    halves = rank_metrics.rbp_at_k(**tables, k=[2, 5], relevance="relevance", persistence=0.5)
    assert halves.rbp_at_k.tolist() == pytest.approx([0.25, 0.3125], rel=1e-12)
    assert halves.n_users.tolist() == [1, 1]
    evaluated = rank_metrics.evaluate(**tables, k=[2, 5], relevance="relevance", metrics=["map", "rbp"], persistence=0.5)
    assert evaluated[["k", "metric"]].values.tolist() == [[2, "map"], [2, "rbp"], [5, "map"], [5, "rbp"]]
    assert evaluated[evaluated.metric == "rbp"].value.tolist() == pytest.approx([0.25, 0.3125], rel=1e-12)
    users = rank_metrics.evaluate_users(**tables, k=5, relevance="relevance", metrics="rbp")
    assert list(users.columns) == ["user_id", "k", "rbp", "n_relevant", "n_hits"]
    assert users.rbp.tolist() == pytest.approx([0.2624], rel=1e-12)
    # the residual: e (position 5) is unjudged, 0.2 * 0.8^4, and the weight past k, 0.8^5; at k 2
    # both positions are judged (a: grade 0), and only 0.8^2 is left
    residual = rank_metrics.rbp_residual_at_k(**tables, k=[2, 5], relevance="relevance")
    assert residual.rbp_residual_at_k.tolist() == pytest.approx([0.64, 0.4096], rel=1e-12)
    users = rank_metrics.evaluate_users(**tables, k=5, relevance="relevance", metrics=["rbp", "rbp_residual"])
    assert users[["rbp", "rbp_residual"]].values[0].tolist() == pytest.approx([0.2624, 0.4096], rel=1e-12)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_err_example(engine, request):
    # g_max 3 (the largest grade): R_b = 3/8, R_d = 1/8; ERR@5 = (3/8)/2 + (5/8)(1/8)/4 = 0.20703125;
    # gdeval's g_max 4: R_b = 3/16, R_d = 1/16, ERR@2 = 3/32 and ERR@5 = 3/32 + (13/16)(1/16)/4
    tables = on_engine(engine, request, "ir", predictions=LIST, truth=TRUTH)
    assert rank_metrics.err_at_k(**tables, k=5, relevance="relevance") == pytest.approx(0.20703125, rel=1e-12)
    gdeval = rank_metrics.err_at_k(**tables, k=[2, 5], relevance="relevance", max_grade=4)
    assert gdeval.err_at_k.tolist() == pytest.approx([3 / 32, 3 / 32 + 13 / 16 / 16 / 4], rel=1e-12)
    # without grades every truth item stops the reader with probability 1/2 (a, b, c, d at 1-4)
    binary = rank_metrics.evaluate(**{**tables, "truth": tables["truth"]}, k=[5, 70], metrics=["err"],
                                   relevance=False)
    assert binary.value.tolist() == pytest.approx([0.5 + 0.25 / 2 + 0.125 / 3 + 0.0625 / 4] * 2, rel=1e-12)
    users = rank_metrics.evaluate_users(**tables, k=5, relevance="relevance", metrics=["rbp", "err"])
    assert users[["rbp", "err"]].values[0].tolist() == pytest.approx([0.2624, 0.20703125], rel=1e-12)


@pytest.mark.parametrize("engine", ENGINES)
def test_graded_rbp_weighs_each_grade(engine, request):
    """gain='graded': the item at position i weighs its grade over g_max (truth's largest grade, 3,
    unless max_grade is given; a grade above it counts as it), whatever the threshold; grade-0
    rows add nothing. NDCG reads graded as linear (the same ratio)."""
    tables = on_engine(engine, request, "ir", predictions=LIST, truth=TRUTH)
    # b (2) at 2 and d (1) at 4: 0.2 (2/3 * 0.8 + 1/3 * 0.8^3)
    assert rank_metrics.rbp_at_k(**tables, k=5, relevance="relevance", gain="graded") == pytest.approx(0.1408, rel=1e-12)
    assert rank_metrics.rbp_at_k(**tables, k=5, relevance="relevance", gain="graded",
                                 relevance_threshold=2) == pytest.approx(0.1408, rel=1e-12)
    assert rank_metrics.rbp_at_k(**tables, k=5, relevance="relevance", relevance_threshold=2) == pytest.approx(0.16, rel=1e-12)
    # max_grade 1: both weigh 1, binary RBP's numbers; max_grade 2: b weighs 1, d 1/2
    capped = rank_metrics.rbp_at_k(**tables, k=[2, 5], relevance="relevance", gain="graded", max_grade=1)
    assert capped.rbp_at_k.tolist() == pytest.approx([0.16, 0.2624], rel=1e-12)
    users = rank_metrics.evaluate_users(**tables, k=5, relevance="relevance", gain="graded", max_grade=2,
                                        metrics=["rbp", "ndcg", "err"])
    linear = rank_metrics.evaluate_users(**tables, k=5, relevance="relevance", max_grade=2, metrics=["ndcg", "err"])
    assert users.rbp.tolist() == pytest.approx([0.2112], rel=1e-12)
    assert users[["ndcg", "err"]].values[0].tolist() == pytest.approx(linear[["ndcg", "err"]].values[0].tolist(), rel=1e-12)


@pytest.mark.parametrize("relevance", ["relevance", False])
def test_snowflake_and_the_other_warehouses_give_the_reference(relevance):
    """RBP, its residual and ERR beside MAP, on Snowflake's emulator and transpiled back from every
    other dialect: with grades (ERR's terms per hit) and without (every metric off the hit word, in
    each warehouse's bit functions)."""
    warehouses_give_the_reference(["rbp", "rbp_residual", "err", "map"], relevance)


@pytest.mark.parametrize("relevance, options", [("relevance", {}), ("relevance", {"max_grade": 2}),
                                                (False, {"max_grade": 2})])
def test_graded_rbp_on_snowflake_and_the_other_warehouses(relevance, options):
    """gain='graded': each hit's grade over g_max (truth's largest, or max_grade) in every
    warehouse's SQL; without grades every weight is grade 1 over max_grade."""
    warehouses_give_the_reference(["rbp", "ndcg", "err"], relevance, gain="graded", **options)


def test_a_grade_above_max_grade_counts_as_max_grade():
    """With max_grade=1, b (grade 2) stops the reader as a grade of 1 would, R = 1/2: ERR@5 =
    0.5/2 + 0.5 * 0.5/4, the reference's too; and the max grade of truth is the largest grade of
    any user's, not the user's own."""
    assert rank_metrics.err_at_k(LIST, TRUTH, k=5, relevance="relevance", max_grade=1,
                                 check=True) == pytest.approx(0.25 + 0.0625, rel=1e-12)
    other = pd.concat([TRUTH, pd.DataFrame({"user_id": [2], "item_id": ["z"], "relevance": [5]})])
    lists = pd.concat([LIST, pd.DataFrame({"user_id": [2], "item_id": ["y"], "rank": [1]})])
    per_user = rank_metrics.evaluate_users(lists, other, k=5, relevance="relevance", metrics="err", check=True)
    assert per_user.err.tolist() == pytest.approx([3 / 32 / 2 + 29 / 32 / 32 / 4, 0.0], rel=1e-12)


def test_the_reference_agrees_and_a_threshold_decides_relevance():
    """The reference's RBP (SPEC §6b, one position at a time), with check=True comparing the SQL
    with it; relevance_threshold=2 leaves b alone relevant: 0.2 * 0.8 = 0.16."""
    options = reference.resolve_options(persistence=0.8)
    grades = dict(zip(TRUTH.item_id, TRUTH.relevance))
    assert reference.user_metrics(list("abcde"), grades, 5, options)["rbp"] == pytest.approx(0.2624, rel=1e-15)
    assert rank_metrics.rbp_at_k(LIST, TRUTH, k=5, relevance="relevance", check=True) == pytest.approx(0.2624)
    assert rank_metrics.rbp_at_k(LIST, TRUTH, k=5, relevance="relevance", relevance_threshold=2,
                                 check=True) == pytest.approx(0.16, rel=1e-12)


def test_past_the_64_bit_word_and_in_hit_patterns_alike():
    """k above 61 sums the hits row by row (power() in SQL), k within it from the word of hit
    positions (literal terms): both equal the reference on lists of 70, hits far down included."""
    items = [f"i{n}" for n in range(70)]
    predictions = pd.DataFrame({"user_id": [1] * 70 + [2] * 70, "item_id": items * 2, "rank": list(range(1, 71)) * 2})
    truth = pd.DataFrame({"user_id": [1, 1, 2, 2], "item_id": ["i0", "i64", "i3", "i40"]})
    for k in (5, 50, 70):
        want = [reference.user_metrics(items, {item: 1 for item in truth[truth.user_id == user].item_id}, k,
                                       reference.resolve_options(persistence=0.9))["rbp"] for user in (1, 2)]
        got = rank_metrics.rbp_at_k(predictions, truth, k=k, persistence=0.9, check=True)
        assert got == pytest.approx(sum(want) / 2, rel=1e-12), k


def test_evaluate_leaves_it_out_unless_named():
    """Without metrics= evaluate, evaluate_users and compare compute SPEC §6's family, as before."""
    assert "rbp" not in set(rank_metrics.evaluate(LIST, TRUTH, k=5).metric)
    assert "rbp" not in rank_metrics.evaluate_users(LIST, TRUTH, k=5).columns
    models = pd.concat([LIST.assign(model="a"), LIST.assign(model="b", rank=LIST["rank"][::-1].values)])
    compared = rank_metrics.compare(models, TRUTH, k=5, by="model", baseline="a", metrics=["rbp"], test="permutation")
    assert compared.metric.tolist() == ["rbp"]
    # b's list is e, d, c, b, a: d at 2 and b at 4 again, so the same RBP, a difference of 0
    assert compared[["baseline_value", "value", "difference"]].values[0].tolist() == pytest.approx([0.2624, 0.2624, 0.0])


@pytest.mark.parametrize("value, shown", [(0, "0"), (1, "1"), (1.5, "1.5"), (-0.2, "-0.2"), (math.nan, "nan"),
                                          ("0.5", "'0.5'"), (True, "True")])
def test_a_persistence_outside_0_1_is_an_error_naming_it(value, shown):
    with pytest.raises(RankMetricsError, match=r"persistence") as error:
        rank_metrics.rbp_at_k(LIST, TRUTH, k=5, persistence=value)
    assert "must be a number between 0 and 1, both excluded" in str(error.value)
    assert f"got {shown}" in str(error.value)


@pytest.mark.parametrize("value, shown", [(0, "0"), (-1, "-1"), (math.inf, "inf"), ("4", "'4'"), (False, "False")])
def test_a_max_grade_that_is_not_positive_is_an_error_naming_it(value, shown):
    with pytest.raises(RankMetricsError, match=r"max_grade") as error:
        rank_metrics.err_at_k(LIST, TRUTH, k=5, relevance="relevance", max_grade=value)
    assert "must be a positive number" in str(error.value) and f"got {shown}" in str(error.value)


def test_the_command_line(tmp_path):
    LIST.to_csv(tmp_path / "p.csv", index=False)
    TRUTH.to_csv(tmp_path / "t.csv", index=False)
    files = [str(tmp_path / "p.csv"), str(tmp_path / "t.csv")]
    code, out, err = run("rbp-at-k", *files, "-k", "2", "5", "--persistence", "0.5", "--format", "csv")
    assert (code, err) == (0, "")
    assert out.splitlines() == ["k,rbp_at_k,n_users", "2,0.25,1", "5,0.3125,1"]
    code, out, _ = run("evaluate", *files, "-k", "5", "--metrics", "rbp", "--format", "csv")
    assert code == 0 and out.splitlines()[1].startswith("5,rbp,0.26239")
    # RBP's residual reads the persistence too
    code, out, err = run("rbp-residual-at-k", *files, "-k", "2", "5", "--persistence", "0.5", "--format", "csv")
    assert (code, err) == (0, "") and out.splitlines() == ["k,rbp_residual_at_k,n_users", "2,0.25,1", "5,0.0625,1"]
    # a command of another metric refuses an option it would not read
    code, out, err = run("map-at-k", *files, "-k", "5", "--persistence", "0.5")
    assert code == 2 and ("--persistence changes rbp and rbp_residual only (rbp-at-k, rbp-residual-at-k, or evaluate with "
                          "rbp or rbp_residual); map-at-k does not read it") in err
    code, _, err = run("rbp-at-k", *files, "-k", "5", "--persistence", "1")
    assert code == 2 and "persistence" in err and "between 0 and 1" in err
    assert "--persistence" in run("rbp-at-k", "--help")[1] and "--persistence" not in run("map-at-k", "--help")[1]
    code, out, err = run("err-at-k", *files, "-k", "5", "--max-grade", "4", "--format", "csv")
    assert (code, err) == (0, "") and out.splitlines()[1].startswith("5,0.1064453125,")
    # graded RBP: each item weighs its grade over --max-grade (the largest grade in truth unless given)
    code, out, err = run("rbp-at-k", *files, "-k", "5", "--gain", "graded", "--max-grade", "2", "--format", "csv")
    assert (code, err) == (0, "") and out.splitlines()[1].startswith("5,0.2111999")
    code, out, err = run("map-at-k", *files, "-k", "5", "--max-grade", "4")
    assert code == 2 and ("--max-grade changes rbp and err only (rbp-at-k, err-at-k, or evaluate with rbp or err); "
                          "map-at-k does not read it") in err


def test_the_sql_header_names_the_persistence_where_rbp_is_asked():
    assert "persistence=0.9" in rank_metrics.sql("p", "t", k=5, macro="rbp_at_k", persistence=0.9).splitlines()[1]
    assert "max_grade=4" in rank_metrics.sql("p", "t", k=5, macro="err_at_k", max_grade=4).splitlines()[1]
    options = rank_metrics.sql("p", "t", k=5, macro="evaluate").splitlines()[1]
    assert "persistence" not in options and "max_grade" not in options


@pytest.mark.parametrize("engine", ENGINES)
def test_the_geometric_mean(engine, request):
    """Two users with AP 1 and 0.25 (and one with AP 0, counted as 1e-5): the geometric mean is
    exp(mean(ln)), through map_at_k and evaluate alike; a perfect model's is exactly 1."""
    predictions = pd.DataFrame({"user_id": [1, 2, 2, 3], "item_id": ["a", "x", "b", "z"], "rank": [1, 1, 2, 1]})
    truth = pd.DataFrame({"user_id": [1, 2, 2, 3], "item_id": ["a", "b", "y", "c"]})
    tables = on_engine(engine, request, "gm", predictions=predictions, truth=truth)
    want = math.exp((math.log(1) + math.log(0.25) + math.log(1e-5)) / 3)
    assert rank_metrics.map_at_k(**tables, k=2, mean="geometric") == pytest.approx(want, rel=1e-12)
    (row,) = rank_metrics.evaluate(**tables, k=2, metrics="map", mean="geometric").itertuples()
    logs = [0.0, math.log(0.25), math.log(1e-5)]
    error = reference.std_error(logs)
    assert (row.value, row.std_error) == pytest.approx((want, want * error), rel=1e-12)
    z = reference.normal_quantile_of_confidence(0.95)
    assert (row.ci_low, row.ci_high) == pytest.approx((want * math.exp(-z * error), want * math.exp(z * error)), rel=1e-12)
    perfect = rank_metrics.map_at_k(**{**tables, "truth": tables["predictions"]}, k=2, mean="geometric")
    assert perfect == 1.0


def test_a_geometric_mean_is_refused_where_there_is_no_group_mean(tmp_path):
    for function in (rank_metrics.evaluate_users, rank_metrics.average_precision_at_k):
        with pytest.raises(RankMetricsError, match="takes no mean='geometric'"):
            function(LIST, TRUTH, k=5, mean="geometric")
    models = pd.concat([LIST.assign(model="a"), LIST.assign(model="b")])
    for test in ("t", "permutation", "bootstrap"):   # the resampled tests as the t test's SQL says it
        with pytest.raises(RankMetricsError, match="compare takes no mean='geometric'.*arithmetic means"):
            rank_metrics.compare(models, TRUTH, k=5, by="model", baseline="a", mean="geometric", test=test)
    with pytest.raises(RankMetricsError, match="mean must be one of 'arithmetic', 'geometric'; got 'median'"):
        rank_metrics.evaluate(LIST, TRUTH, k=5, mean="median")
    LIST.to_csv(tmp_path / "p.csv", index=False)
    TRUTH.to_csv(tmp_path / "t.csv", index=False)
    code, out, err = run("map-at-k", str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "5", "--mean", "geometric",
                         "--format", "csv")
    # one user, AP (1/2 + 2/4) / 3 = 1/3: its geometric mean is itself
    assert (code, err) == (0, "") and out.splitlines() == ["k,map_at_k,n_users", "5,0.3333333333333333,1"]
