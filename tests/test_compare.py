"""Uncertainty and paired comparison (SPEC §7): the worked example through Python, the CLI and
the SQL of every engine; the SQL's normal p-value, z and corrections against exact values;
random inputs against the reference's per-user values; the permutation and t tests against
ranx's own (from the bench venv); and the errors that name the culprit."""

import json
import math
import random
import re

import duckdb
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats as scipy_stats

import rank_metrics
from rank_metrics import reference, stats
from rank_metrics._render import namespace

from conftest import INTEGRATION, examples, peer_numbers
from engine_tables import to_postgres, to_spark
from test_cli import run
from test_properties import cases, tables

SEEDS = INTEGRATION / "seeds"
PREDICTIONS = pd.read_csv(SEEDS / "compare_predictions.csv")   # SPEC §7: a = 1, .5, .25, 0, 1; b = .5, .5, 0, 0, 1
TRUTH = pd.read_csv(SEEDS / "compare_truth.csv")


def test_worked_example_evaluate_has_the_standard_error_and_interval():
    got = rank_metrics.evaluate(PREDICTIONS, TRUTH, k=4, metrics="map", by="model", check=True)
    a = got[got.model == "a"].iloc[0]
    assert (a.value, a.n_users) == (pytest.approx(0.55), 5)
    assert a.std_error == pytest.approx(0.2)
    assert (round(a.ci_low, 6), round(a.ci_high, 6)) == (0.158007, 0.941993)
    narrower = rank_metrics.evaluate(PREDICTIONS, TRUTH, k=4, metrics="map", by="model", confidence=0.9, check=True)
    assert narrower[narrower.model == "a"].ci_low.iloc[0] == pytest.approx(0.55 - 1.6448536269514722 * 0.2, abs=1e-12)


def test_worked_example_compare_in_python():
    t = rank_metrics.compare(PREDICTIONS, TRUTH, k=4, metrics="map", by="model", baseline="b", check=True)
    row = t.iloc[0]
    assert (row.model, row.k, row.metric, row.n_users, row.n_only_model, row.n_only_baseline) == ("a", 4, "map", 5, 0, 0)
    assert (row.baseline_value, row.value, row.difference) == (pytest.approx(0.4), pytest.approx(0.55), pytest.approx(0.15))
    assert (row.std_error, row.t, row.df) == (pytest.approx(0.1), pytest.approx(1.5), 4)
    assert row.p_value == pytest.approx(0.20800, abs=5e-6)      # Student t, 4 df (SPEC: 0.208)
    assert row.relative_difference == pytest.approx(0.375)
    assert row.significant == 0
    flips = rank_metrics.compare(PREDICTIONS, TRUTH, k=4, metrics="map", by="model", baseline="b", test="permutation")
    assert flips.p_value.iloc[0] == 0.5                          # all 32 sign flips, exactly
    boot = rank_metrics.compare(PREDICTIONS, TRUTH, k=4, metrics="map", by="model", baseline="b", test="bootstrap", seed=7)
    again = rank_metrics.compare(PREDICTIONS, TRUTH, k=4, metrics="map", by="model", baseline="b", test="bootstrap", seed=7)
    assert boot.p_value.iloc[0] == again.p_value.iloc[0] and 0 < boot.p_value.iloc[0] < 1


def test_worked_example_compare_in_sql_has_the_normal_p_value():
    con = duckdb.connect()
    con.register("p", PREDICTIONS)
    con.register("t", TRUTH)
    text = rank_metrics.sql("p", "t", k=4, con=con, macro="compare", metrics=["map"], by="model", baseline="b")
    (row,) = con.execute(text).df().to_dict("records")
    assert (row["difference"], row["std_error"], row["t"], row["df"]) == (
        pytest.approx(0.15), pytest.approx(0.1), pytest.approx(1.5), 4)
    assert row["p_value"] == pytest.approx(0.133614, abs=5e-7)


def test_worked_example_through_the_cli(tmp_path):
    PREDICTIONS.to_csv(tmp_path / "p.csv", index=False)
    TRUTH.to_csv(tmp_path / "t.csv", index=False)
    code, out, err = run("compare", str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "4", "--metrics", "map",
                         "--by", "model", "--baseline", "b", "--format", "json")
    assert code == 0, err
    (row,) = json.loads(out)
    assert (row["difference"], row["std_error"], row["t"], row["df"]) == (
        pytest.approx(0.15), pytest.approx(0.1), pytest.approx(1.5), 4)
    assert row["p_value"] == pytest.approx(0.208, abs=5e-4)
    code, out, err = run("evaluate", str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "4", "--metrics", "map",
                         "--by", "model", "--format", "json")
    a = next(row for row in json.loads(out) if row["model"] == "a")
    assert (a["std_error"], round(a["ci_low"], 6), round(a["ci_high"], 6)) == (pytest.approx(0.2), 0.158007, 0.941993)


def test_every_test_gives_float64_columns_with_nan_where_there_is_no_value():
    # under users='predictions': model "one" pairs one user (no standard error), "none" no user
    predictions = pd.concat([PREDICTIONS, PREDICTIONS[(PREDICTIONS.model == "a") & (PREDICTIONS.user_id == 1)].assign(
        model="one"), pd.DataFrame(dict(model=["none"], user_id=[99], item_id=[1], rank=[1]))])
    got = {test: rank_metrics.compare(predictions, TRUTH, k=4, metrics="map", by="model", baseline="b",
                                      users="predictions", test=test, seed=1)
           for test in ("t", "permutation", "bootstrap")}
    numbers = ["baseline_value", "value", "difference", "relative_difference", "std_error", "t", "df", "p_value",
               "p_value_adjusted"]
    for test, result in got.items():
        assert {column: str(result[column].dtype) for column in numbers} == dict.fromkeys(numbers, "float64"), test
        assert {column: str(result[column].dtype) for column in ("significant", "n_users")} == dict.fromkeys(
            ("significant", "n_users"), "int64"), test
        rows = result.set_index("model")
        assert rows.loc["one", ["std_error", "t", "p_value", "p_value_adjusted"]].isna().all(), test
        assert (rows.loc["one", "df"], rows.loc["one", "n_users"]) == (0, 1)
        assert rows.loc["none", numbers].isna().all() and rows.loc["none", "n_users"] == 0, test
        # the tests differ in their p-values only
        pd.testing.assert_frame_equal(result.drop(columns=["p_value", "p_value_adjusted", "significant"]),
                                      got["t"].drop(columns=["p_value", "p_value_adjusted", "significant"]))


def test_equal_differences_keep_each_tests_own_p_value():
    """Every user gains exactly 1 (s_d = 0): SPEC §7's rule gives the t test p = 0; the
    permutation test enumerates its 2^3 sign flips, two of which reach |mean| 1 (p = 0.25); the
    centred bootstrap draws only means of 0 (p = 0). A statistician's trial found the permutation
    test at 0, the t test's rule applied to it."""
    predictions = pd.DataFrame({"model": ["a"] * 3 + ["b"] * 3, "user_id": [1, 2, 3] * 2,
                                "item_id": [10, 20, 30, 99, 99, 99], "rank": 1})
    truth = pd.DataFrame({"user_id": [1, 2, 3], "item_id": [10, 20, 30]})
    got = {test: rank_metrics.compare(predictions, truth, k=1, metrics="hit_rate", by="model", baseline="b",
                                      test=test, seed=1).iloc[0] for test in ("t", "permutation", "bootstrap")}
    assert {test: row.p_value for test, row in got.items()} == {"t": 0.0, "permutation": 0.25, "bootstrap": 0.0}
    assert all(row.difference == 1 and row.std_error == 0 and math.isnan(row.t) for row in got.values())


@pytest.mark.parametrize("table_format", ["table", "markdown", "latex", "csv"])
def test_cli_compare_formats_mark_significant_results(tmp_path, table_format):
    # 30 users; b finds each one's item at rank 1 or 2, a does the same, c never: c is
    # significantly worse, a no different
    truth = pd.DataFrame({"user_id": range(30), "item_id": 1})
    found = pd.DataFrame({"user_id": range(30), "item_id": 1, "rank": [1 + user % 3 // 2 for user in range(30)]})
    predictions = pd.concat([found.assign(model="b"), found.assign(model="a"),
                             truth.assign(model="c", item_id=2, rank=1)])
    predictions.to_csv(tmp_path / "p.csv", index=False)
    truth.to_csv(tmp_path / "t.csv", index=False)
    code, out, err = run("compare", str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "4", "--metrics", "map",
                         "--by", "model", "--baseline", "b", "--test", "permutation", "--seed", "1",
                         "--correction", "none", "--format", table_format)
    assert code == 0, err
    if table_format == "csv":
        rows = pd.read_csv(pd.io.common.StringIO(out))
        assert rows.set_index("model").significant.to_dict() == {"a": 0, "c": 1}
        return
    line_c = next(line for line in out.splitlines() if " c " in f" {line} " or line.startswith("c"))
    assert "▼" in line_c or "\\triangledown" in line_c
    assert "significantly" in out
    if table_format == "latex":
        assert out.startswith(r"\begin{tabular}{lrlrrrrrrr}")


def test_cli_compare_fails_if_a_model_is_worse_when_asked(tmp_path):
    """--fail-if-worse: a release gate for CI outside dbt (a user's trial: the command exited 0
    with a row marked ▼). c never finds the item; a finds it as b does."""
    truth = pd.DataFrame({"user_id": range(30), "item_id": 1})
    found = pd.DataFrame({"user_id": range(30), "item_id": 1, "rank": [1 + user % 3 // 2 for user in range(30)]})
    pd.concat([found.assign(model="b"), found.assign(model="a"), truth.assign(model="c", item_id=2, rank=1)]) \
        .to_csv(tmp_path / "p.csv", index=False)
    truth.to_csv(tmp_path / "t.csv", index=False)
    common = [str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "2", "4", "--metrics", "map", "ndcg",
              "--by", "model", "--format", "csv"]
    code, out, err = run("compare", *common, "--baseline", "b", "--fail-if-worse")
    assert code == 4 and len(pd.read_csv(pd.io.common.StringIO(out))) == 8   # the table is still printed
    assert err == "rank-metrics: worse than the baseline 'b': c map@2, c ndcg@2, c map@4, c ndcg@4\n"
    assert run("compare", *common, "--baseline", "b")[0] == 0              # not asked
    assert run("compare", *common, "--baseline", "c", "--fail-if-worse")[0] == 0   # a and b are better than c


def test_cli_compare_escapes_latex_and_markdown(tmp_path):
    # every character LaTeX reads as a command, and Markdown's cell separator, in a model's name
    name = "A&B$C#D_E%F{G}H\\I|J"
    PREDICTIONS.replace({"model": {"a": name}}).to_csv(tmp_path / "p.csv", index=False)
    TRUTH.to_csv(tmp_path / "t.csv", index=False)
    rows = {}
    for table_format in ("latex", "markdown"):
        code, out, err = run("compare", str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "4", "--metrics", "map",
                             "--by", "model", "--baseline", "b", "--format", table_format)
        assert code == 0, err
        rows[table_format] = next(line for line in out.splitlines() if line.startswith(("A", "| A")))
    assert rows["latex"] == (r"A\&B\$C\#D\_E\%F\{G\}H\textbackslash{}I|J & 4 & map & 0.400000 & 0.550000 & "
                             r"+0.150000 & +37.5\% & 0.2080 & 0.2080 & 5 \\")
    # Markdown: & < > as entities; a backslash, | ` * _ ~ [ ] behind a backslash (a value cannot end its cell
    # or carry markup: tests/test_report_security.py)
    assert rows["markdown"] == r"| A&amp;B$C#D\_E%F{G}H\\I\|J | 4 | map | 0.400000 | 0.550000 | +0.150000 | +37.5% | 0.2080 | 0.2080 | 5 |"


def test_latex_prints_a_p_value_below_the_resamples_in_text():
    # < and > in LaTeX's default text encoding (OT1) print as ¡ and ¿
    from rank_metrics._tables import _latex, cell

    assert _latex(cell("p_value", 0.0, 1 / 10_000)) == r"\textless{}0.0001"
    assert _latex("a>b") == r"a\textgreater{}b"


def test_cli_sql_compare_runs_and_gives_the_normal_p_value():
    code, out, err = run("sql", "p", "t", "-k", "4", "--macro", "compare", "--metrics", "map", "--by", "model",
                         "--baseline", "b", "--test", "t", "--correction", "bonferroni", "--alpha", "0.2")
    assert code == 0, err
    con = duckdb.connect()
    con.register("p", PREDICTIONS)
    con.register("t", TRUTH)
    (row,) = con.execute(out).df().to_dict("records")
    assert (row["model"], row["t"], row["df"]) == ("a", pytest.approx(1.5), 4)
    assert row["p_value"] == pytest.approx(0.133614, abs=5e-7)
    assert row["significant"] == 1                                # --alpha 0.2 reached the SQL


@pytest.mark.parametrize("option, message", [
    (["--test", "permutation"], "compare: SQL has only the t test (--test t, its p-value the normal approximation); "
                                "got --test permutation"),
    (["--correction", "fdr"], "compare: --correction must be one of 'holm', 'bonferroni', 'none'; got 'fdr'"),
])
def test_cli_sql_compare_names_a_bad_comparison_option(option, message):
    code, out, err = run("sql", "p", "t", "-k", "4", "--macro", "compare", "--by", "model", "--baseline", "b", *option)
    assert (code, out) == (2, "")
    assert message in err and len(err.splitlines()) == 1


def test_sql_compare_has_only_the_t_test():
    with pytest.raises(rank_metrics.RankMetricsError, match=r"compare: SQL has only the t test \(test='t', .*\); "
                                                            r"got test='permutation': the permutation and bootstrap"):
        rank_metrics.sql("p", "t", k=4, macro="compare", by="model", baseline="b", test="permutation")
    assert "rm_tests" in rank_metrics.sql("p", "t", k=4, macro="compare", by="model", baseline="b", test="t")


@settings(max_examples=examples(200))
@given(t=st.floats(min_value=0, max_value=40))
def test_sql_normal_p_value_is_within_1e_6_of_the_exact_one(t):
    expression = namespace("duckdb")._two_sided_normal_p(repr(t))
    ((got,),) = duckdb.sql(f"select {expression}").fetchall()
    assert abs(got - stats.normal_p_value(t)) < 1e-6


@pytest.mark.parametrize("confidence", [1e-6, 0.999, 1 - 1e-12])
def test_intervals_of_extreme_confidences_are_checked(confidence):
    """check=True compared the SQL's z with the quantile of the rounded (1 + confidence) / 2:
    at 1 - 1e-12 the two were 7e-6 apart, and check failed on right SQL."""
    got = rank_metrics.evaluate(PREDICTIONS, TRUTH, k=4, by="model", metrics=["map"], confidence=confidence, check=True)
    assert (got.ci_low < got.value).all() and (got.value < got.ci_high).all()


@given(confidence=st.one_of(st.floats(min_value=1e-12, max_value=1 - 1e-12),
                           st.sampled_from([1e-12, 1e-6, 0.95, 0.997, 0.998, 0.999, 0.99999, 1 - 1e-9, 1 - 1e-12])))
def test_z_of_the_interval_matches_the_normal_quantile(confidence):
    """Within 1e-12 for every confidence (it was 1e-9 off past 0.997, and (1 + confidence) / 2
    rounded away the digits of a confidence near 0 or 1; a check of SPEC §7 found them): against
    erfinv, and the reference's own z."""
    from scipy.special import erfcinv, erfinv

    z = float(namespace("duckdb")._normal_quantile_of_confidence(confidence))
    exact = 2 ** 0.5 * (erfinv(confidence) if confidence < 0.5 else erfcinv(1 - confidence))
    assert abs(z - exact) <= 1e-12 * exact
    assert abs(reference.normal_quantile_of_confidence(confidence) - exact) <= 1e-14 * exact


def test_holm_and_bonferroni_in_sql_equal_pythons():
    """m4 pairs one user with the baseline, so its rows have no p-value, and none adjusted: SQL's
    Bonferroni gave them 1 (least() passes over a NULL; a check against SPEC §7 found it)."""
    draw = random.Random(3)
    rows = [(model, user, f"i{item}", rank)
            for model in ("base", "m1", "m2", "m3", "m4") for user in (range(40) if model != "m4" else [0])
            for rank, item in enumerate(draw.sample(range(12), 5), start=1)]
    predictions = pd.DataFrame(rows, columns=["model", "user_id", "item_id", "rank"])
    truth = pd.DataFrame([(user, f"i{item}") for user in range(40) for item in draw.sample(range(12), 3)],
                         columns=["user_id", "item_id"])
    con = duckdb.connect()
    con.register("p", predictions)
    con.register("t", truth)
    for correction in ("holm", "bonferroni", "none"):
        text = rank_metrics.sql("p", "t", k=[3, 5], con=con, macro="compare", by="model", baseline="base",
                                correction=correction, users="predictions")
        got = con.execute(text).df()
        p_values = [None if math.isnan(p) else p for p in got.p_value]
        want = stats.adjust(p_values, correction)
        assert len(got) == 4 * 2 * 6 and got.p_value.isna().sum() == 2 * 6
        for row_got, row_want in zip(got.p_value_adjusted, want):
            assert (math.isnan(row_got) and row_want is None) or row_got == pytest.approx(row_want, abs=1e-15)


def test_python_corrections_hand_computed():
    assert stats.adjust([0.01, 0.04, 0.03, None], "holm") == [pytest.approx(0.03), pytest.approx(0.06),
                                                               pytest.approx(0.06), None]
    assert stats.adjust([0.01, 0.04, 0.5], "bonferroni") == [pytest.approx(0.03), pytest.approx(0.12), 1.0]


@settings(max_examples=examples(150))
@given(case=cases())
def test_compare_equals_the_reference_on_random_inputs(case):
    check_compare(case)


@settings(max_examples=examples(60))
@given(case=cases())
def test_compare_on_postgres_equals_the_reference(case, postgres):
    check_compare(case, lambda predictions, truth: (to_postgres(postgres, "predictions", predictions),
                                                    to_postgres(postgres, "truth", truth)), con=postgres)


@settings(max_examples=examples(25))
@given(case=cases())
def test_compare_on_spark_equals_the_reference(case, spark):
    check_compare(case, lambda predictions, truth: (to_spark(spark, predictions), to_spark(spark, truth)))


def check_compare(case, load=lambda predictions, truth: (predictions, truth), con=None):
    """Pairs, counts, differences and standard errors against the reference's per-user values
    (check=True), with users missing on either side under users='predictions' and 'union'; the
    p-values against scipy's paired t test on those per-user values. `load` gives the tables as
    the engine of `con` reads them."""
    if case["grouping"] == "none" or not case["predictions"]:
        return
    predictions, truth = tables(case)
    models = sorted({row[0] for row in case["predictions"]})
    options = {name: case[name] for name in ("normalization", "users", "duplicates", "tie_break", "convention",
                                               "gain", "gain_from", "truth_scope", "relevance_threshold")
               if case[name] is not None}
    options.update({case["order"]: case["order"]})
    if case["grouping"] == "matched":
        options["truth_by"] = ["model"]
    if case["graded"]:
        options["relevance"] = "grade"
    try:
        got = rank_metrics.compare(*load(predictions, truth), k=case["k"], by="model", baseline=models[0],
                                   check=True, con=con, **options)
    except rank_metrics.RankMetricsError as error:   # bad data the checks name, or one model only
        assert "rank_metrics:" in str(error)
        return
    assert set(got.model) <= set(models[1:])
    users = rank_metrics.evaluate_users(predictions, truth, k=case["k"], by="model", check=True, **options)
    for row in got.itertuples():
        # above rounding: differences all equal but for their last bits have no t worth comparing
        if row.n_users >= 2 and row.std_error > 1e-9:
            column = rank_metrics.api.METRICS[row.metric][2]
            side = {model: users[(users.model == model) & (users.k == row.k)] for model in (row.model, models[0])}
            paired = side[row.model].merge(side[models[0]], on=["user_id", "k"], suffixes=("", "_baseline"))
            want = scipy_stats.ttest_rel(paired[column], paired[column + "_baseline"]).pvalue
            assert row.p_value == pytest.approx(want, rel=1e-6, abs=1e-12)
        assert row.p_value_adjusted >= row.p_value or math.isnan(row.p_value)


@pytest.mark.parametrize("test", ["permutation", "bootstrap"])
def test_resampled_p_values_are_reproducible_by_seed(test):
    """40 users: 2^40 sign flips are far more than the 10,000 drawn, so both tests sample; the same
    seed draws the same p-value, other seeds other ones."""
    draw = random.Random(5)
    truth = pd.DataFrame([(user, f"i{item}") for user in range(40) for item in draw.sample(range(10), 2)],
                         columns=["user_id", "item_id"])
    predictions = pd.DataFrame([(model, user, f"i{item}", rank) for model in ("base", "new") for user in range(40)
                                for rank, item in enumerate(draw.sample(range(10), 4), start=1)],
                               columns=["model", "user_id", "item_id", "rank"])

    def p_value(seed):
        return rank_metrics.compare(predictions, truth, k=4, metrics="map", by="model", baseline="base", test=test,
                                    seed=seed).p_value.iloc[0]

    first = p_value(1)
    assert 0 < first < 1
    assert p_value(1) == first
    assert len({first, *(p_value(seed) for seed in (2, 3, 4))}) > 1


def test_agrees_with_ranx_student_and_fisher():
    """On per-user values rank_metrics computes, ranx's own tests give the same p-values: the
    Student t exactly, the randomization test within four Monte-Carlo standard errors of the
    difference of two estimates (ours from 10,000 sign flips, ranx's from 20,000), where the
    means differ at all."""
    draw = random.Random(11)
    predictions, truth, pairs = [], [], []
    for user in range(60):
        truth += [(user, f"i{item}") for item in draw.sample(range(20), 3)]
        for model in ("base", "new"):
            predictions += [(model, user, f"i{item}", rank)
                            for rank, item in enumerate(draw.sample(range(20), 8), start=1)]
    predictions = pd.DataFrame(predictions, columns=["model", "user_id", "item_id", "rank"])
    truth = pd.DataFrame(truth, columns=["user_id", "item_id"])
    # map and ndcg: recall and precision take few values (thirds here), where many flips land
    # exactly on the observed |mean|; ours counts them (a tolerance of 1e-12), ranx compares
    # float means that differ in the last bits and misses some (p 0.990 for our exact 1.0)
    users = rank_metrics.evaluate_users(predictions, truth, k=[5, 8], by="model", metrics=["map", "ndcg"])
    ours = {}
    for test in ("t", "permutation"):
        ours[test] = rank_metrics.compare(predictions, truth, k=[5, 8], by="model", baseline="base", test=test,
                                          seed=5, metrics=["map", "ndcg"])
    keys = list(ours["t"][["k", "metric"]].itertuples(index=False, name=None))
    for k, metric in keys:
        column = rank_metrics.api.METRICS[metric][2]
        side = {model: users[(users.model == model) & (users.k == k)].sort_values("user_id")[column].tolist()
                for model in ("base", "new")}
        pairs.append({"model": side["new"], "baseline": side["base"]})
    for (k, metric), theirs in zip(keys, peer_numbers("ranx_compare.py", pairs, niceness=0)):
        student = ours["t"].set_index(["k", "metric"]).p_value[(k, metric)]
        assert student == pytest.approx(theirs["student"], abs=1e-9), (k, metric)
        flips = ours["permutation"].set_index(["k", "metric"]).p_value[(k, metric)]
        if ours["t"].set_index(["k", "metric"]).difference[(k, metric)] == pytest.approx(0, abs=1e-12):
            # no difference: every flip is as far from it, p = 1 (ranx compares means that
            # differ in the last bits, and counts a few flips as nearer)
            assert flips == 1.0
            continue
        p = theirs["fisher"]
        tolerance = 4 * math.sqrt(max(p * (1 - p), 1e-4) * (1 / 10_000 + 1 / theirs["resamples"]))
        assert abs(flips - p) <= tolerance, (k, metric, flips, p)


@pytest.mark.parametrize("arguments, message", [
    (dict(baseline="nope"), "baseline: predictions has no rows with model = 'nope'; baseline must be one of the "
                            "values of by (model): 'a', 'b'$"),
    # (more columns are segments: tests/test_compare_segments.py)
    (dict(baseline="b", by=None), "compare: by must name the column whose values are the models "
                                  "(baseline is one of them), then any segment columns; got no column$"),
    (dict(baseline="b", test="wilcoxon"), "compare: test must be one of 't', 'permutation', 'bootstrap'"),
    (dict(baseline="b", correction="fdr"), "compare: correction must be one of 'holm', 'bonferroni', 'none'"),
    (dict(baseline="b", alpha=1.5), "compare: alpha must be a number between 0 and 1"),
    # the resampled tests too: they compared p with 1.5 and failed a gate on p = 0.5 (a new user's trial)
    (dict(baseline="b", test="permutation", alpha=1.5), "compare: alpha must be a number between 0 and 1; got 1.5$"),
    (dict(baseline="b", test="bootstrap", alpha=0), "compare: alpha must be a number between 0 and 1; got 0$"),
    (dict(baseline="b", test="permutation", alpha=float("nan")), "compare: alpha must be a number between 0 and 1; got nan$"),
    (dict(baseline="b", test="permutation", alpha=True), "compare: alpha must be a number between 0 and 1; got True$"),
    (dict(baseline="b", alpha="0.05"), "compare: alpha must be a number between 0 and 1; got '0.05'$"),
    (dict(baseline="b", test="bootstrap", seed=-1), "seed must be an integer of 0 or more (or None); got -1$"),
    (dict(baseline="b", test="permutation", seed=1.5), "seed must be an integer of 0 or more (or None); got 1.5$"),
    (dict(baseline="b", metrics=["gauc"]), "metrics: unknown metric 'gauc'"),
    # checked whichever test runs, so that a bad value is not found only when the test changes
    (dict(baseline="b", resamples=-5), "resamples must be a positive integer; got -5$"),
    (dict(baseline="b", tests="t"), "unknown argument 'tests' (did you mean 'test'\\?); the arguments are baseline, "
                                    "metrics, test, correction, family, alpha, seed, resamples, user, item,"),
    # the engine's own failed cast, before
    (dict(baseline=1), "baseline 1 is a number, but by column model is VARCHAR: give the baseline as text, '1', "
                       "one of the column's values$"),
])
def test_bad_compare_arguments_name_the_culprit(arguments, message):
    arguments = dict(dict(by="model"), **arguments)
    with pytest.raises(rank_metrics.RankMetricsError, match=message.replace("(", r"\(").replace(")", r"\)")):
        rank_metrics.compare(PREDICTIONS, TRUTH, k=4, **arguments)


@pytest.mark.parametrize("engine", ["duckdb", "postgres", "spark"])
def test_an_unknown_baseline_lists_the_values_of_by(engine, request):
    """The check that fires first (the SQL data checks, on every engine) lists the first ten
    values in order, then …; numbers unquoted."""
    many = pd.concat([PREDICTIONS.assign(model=f"m{index:02}") for index in range(12)])
    numbered = PREDICTIONS.assign(model=PREDICTIONS.model.map({"a": 10, "b": 9}))
    load, con = lambda name, frame: frame, None
    if engine == "postgres":
        from engine_tables import to_postgres

        con = request.getfixturevalue("postgres")
        load = lambda name, frame: to_postgres(con, name, frame)   # noqa: E731
    elif engine == "spark":
        from engine_tables import to_spark

        spark = request.getfixturevalue("spark")
        load = lambda name, frame: to_spark(spark, frame)   # noqa: E731
    truth = load("compare_truth", TRUTH)
    for name, predictions, baseline, values in [
            ("many_models", many, "z", "'m00', 'm01', 'm02', 'm03', 'm04', 'm05', 'm06', 'm07', 'm08', 'm09', …"),
            ("numbered_models", numbered, 3, "9, 10"),
            # text that spells a number names a number of a numeric column: values unquoted too (a new user's trial)
            ("numbered_models", numbered, "3", "9, 10")]:
        with pytest.raises(rank_metrics.RankMetricsError) as error:
            rank_metrics.compare(load(name, predictions), truth, k=4, by="model", baseline=baseline, con=con)
        assert str(error.value) == (f"rank_metrics: baseline: predictions has no rows with model = {baseline!r}; "
                                    f"baseline must be one of the values of by (model): {values}")


def test_a_baseline_left_out_is_said_in_our_words():
    """Python's own TypeError said "compare() missing 1 required keyword-only argument" (a README walkthrough)."""
    with pytest.raises(rank_metrics.RankMetricsError, match=r"^rank_metrics: compare: baseline is required: the value of model that each "
                                               r"other model is compared with \(baseline='popularity'\)$"):
        rank_metrics.compare(PREDICTIONS, TRUTH, k=4, by="model")


def test_a_baseline_no_user_is_evaluated_for_lists_the_evaluated_values():
    with pytest.raises(rank_metrics.RankMetricsError) as error:
        rank_metrics.comparison._require_baseline("model", "z", [f"m{index:02}" for index in range(12)])
    assert str(error.value) == ("rank_metrics: compare: baseline 'z' is not a value of column model among the users "
                                "evaluated; its values are: 'm00', 'm01', 'm02', 'm03', 'm04', 'm05', 'm06', 'm07', "
                                "'m08', 'm09', …")


def test_numbered_models_take_a_baseline_spelt_as_text(tmp_path):
    """The command line's --baseline is text: for a numeric by column, text that spells a number
    is that number (each test, and the check); other text is refused with the column's type."""
    numbered = PREDICTIONS.assign(model=PREDICTIONS.model.map({"a": 10, "b": 9}))
    numbered.to_csv(tmp_path / "p.csv", index=False)
    TRUTH.to_csv(tmp_path / "t.csv", index=False)
    for test in ("t", "permutation"):
        want = rank_metrics.compare(numbered, TRUTH, k=4, metrics="map", by="model", baseline=9, test=test)
        code, out, err = run("compare", str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "4", "--metrics", "map",
                             "--by", "model", "--baseline", "9", "--test", test, "--check", "--format", "json")
        assert code == 0, err
        got = json.loads(out)[0]
        assert (got["model"], got["difference"], got["p_value"]) == (10, pytest.approx(0.15), want.p_value.iloc[0])
    code, _, err = run("compare", str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "4", "--by", "model",
                       "--baseline", "b")
    assert code == 2 and err.strip() == ("rank-metrics: error: --baseline 'b' is text, but by column model is BIGINT: "
                                         "give the baseline as a number, one of the column's values")
    with pytest.raises(rank_metrics.RankMetricsError, match=r"baseline 'b' \(text, where the column's values are "
                                                            r"numbers\) is not a value of column model"):
        rank_metrics.compare(numbered, TRUTH, k=4, by="model", baseline="b", test="permutation")


def test_truth_with_a_column_of_the_models_name_says_truth_by():
    """A by column that truth has too is matched with it: truth's own `model` (a split's name,
    say) then meets no group, and the warning and the error say so, and what to pass."""
    truth = TRUTH.assign(model="holdout")
    with pytest.warns(rank_metrics.RankMetricsWarning, match=r"users meet, but never with the same 'model': truth "
                      r"has the by column 'model' too.*pass truth_by=\[\]"):
        with pytest.raises(rank_metrics.RankMetricsError, match="compare: no user is evaluated for any value of "
                                                                "column model, so nothing can be compared"):
            rank_metrics.compare(PREDICTIONS, truth, k=4, metrics="map", by="model", baseline="b")
    shared = rank_metrics.compare(PREDICTIONS, truth, k=4, metrics="map", by="model", baseline="b", truth_by=[])
    assert shared.difference.iloc[0] == pytest.approx(0.15)


def test_truth_by_with_no_column_on_the_command_line(tmp_path):
    PREDICTIONS.to_csv(tmp_path / "p.csv", index=False)
    TRUTH.assign(model="holdout").to_csv(tmp_path / "t.csv", index=False)
    code, out, err = run("map-at-k", str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "4", "--by", "model",
                         "--format", "json")
    assert code == 0 and "pass --truth-by with no column" not in err and "(on the command line, --truth-by with no column)" in err
    assert json.loads(out) == []   # no group meets truth's 'holdout' rows
    code, out, err = run("map-at-k", str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "4", "--by", "model",
                         "--format", "json", "--truth-by")
    assert code == 0, err
    assert [(row["model"], row["map_at_k"]) for row in json.loads(out)] == [("a", pytest.approx(0.55)), ("b", pytest.approx(0.4))]


def test_differences_equal_but_for_rounding_have_no_standard_deviation():
    """Precision@5 of 0.2, 0.4, 0.6, 0.8 against 0, 0.2, 0.4, 0.6: every difference is 0.2, as
    doubles 0.2, 0.2, 0.19999999999999996, 0.20000000000000007. SPEC §7's s_d = 0 rule gave t
    8e15 instead (and the resampled tests a std_error of 2e-17 for bit-equal differences, where
    the t test gave 0): a check of SPEC §7 found it. Under every test and in SQL, std_error is 0
    and t is missing; the t test's p is 0 (a difference that is not 0)."""
    rows, judged = [], []
    for user in range(4):
        relevant = [1000 * user + place for place in range(5)]
        judged += [(user, item) for item in relevant]
        for model, met in (("base", user), ("m", user + 1)):
            rows += [(model, user, relevant[place] if place < met else 5000 + place, place + 1) for place in range(5)]
    predictions = pd.DataFrame(rows, columns=["model", "user_id", "item_id", "rank"])
    truth = pd.DataFrame(judged, columns=["user_id", "item_id"])
    arguments = dict(k=5, by="model", baseline="base", metrics=["precision"])
    for test in ("t", "permutation", "bootstrap"):
        (row,) = rank_metrics.compare(predictions, truth, **arguments, test=test, seed=1, check=True).to_dict("records")
        assert row["difference"] == pytest.approx(0.2) and row["std_error"] == 0 and math.isnan(row["t"]), test
        assert test != "t" or row["p_value"] == 0
    con = duckdb.connect()
    con.register("p", predictions)
    con.register("t", truth)
    (row,) = con.execute(rank_metrics.sql("p", "t", con=con, macro="compare", **arguments)).df().to_dict("records")
    assert (row["std_error"], math.isnan(row["t"]), row["p_value"]) == (0, True, 0)


@pytest.mark.parametrize("engine", ["duckdb", "postgres", "spark"])
def test_the_sql_and_python_take_one_rounding(engine):
    """The SQL's rounding (the macro _rounding) and Python's (stats.ROUNDING, which the resampled
    tests and the reference use) are one number, so the s_d = 0 rule fires alike in both."""
    assert float(str(namespace(engine)._rounding())) == stats.ROUNDING


@pytest.mark.parametrize("test", ["t", "permutation"])
def test_a_uuid_model_column_takes_its_baseline_as_text_or_uuid(test):
    """A UUID by column: check=True did not find a text baseline among the UUIDs (reference NaN,
    CheckFailed), and a uuid.UUID baseline was refused (a user's trial)."""
    import uuid

    con = duckdb.connect()
    con.execute("create table p (user_id int, item_id int, rank int, model uuid)")
    first, second = "00000000-0000-0000-0000-000000000001", "00000000-0000-0000-0000-00000000000A"
    con.execute(f"insert into p values (1, 10, 1, '{first}'), (1, 11, 1, '{second}'), (2, 20, 1, '{first}'), "
                f"(2, 21, 1, '{second}'), (3, 30, 1, '{first}'), (3, 30, 1, '{second}')")
    con.execute("create table t (user_id int, item_id int); insert into t values (1, 10), (2, 21), (3, 30)")
    for baseline in (second, second.lower(), uuid.UUID(second)):
        result = rank_metrics.compare("p", "t", k=1, by="model", baseline=baseline, metrics=["map"], con=con,
                                      test=test, seed=1, check=True)
        assert (str(result.model.iloc[0]), result.difference.iloc[0], result.n_users.iloc[0]) == (first, 0.0, 3)


@pytest.mark.parametrize("test", ["t", "permutation"])
@pytest.mark.parametrize("by, baseline, message", [
    ("as_struct", "x", r"compare: by column as_struct (is STRUCT\(m VARCHAR\)|holds values such as \{'m': '\w'\}), and a "
                       r"baseline is a text, a number, a boolean or a date"),
    ("model", b"x", r"compare: baseline must be a text, a number, a boolean or a date \(a value of the by column\); got b'x'$"),
    ("model", ["x"], r"got \['x'\]$"),
])
def test_a_baseline_no_value_of_the_by_column_can_equal_is_named(test, by, baseline, message):
    """A struct by column met the baseline as the engine's raw cast error (Spark's and DuckDB's),
    and bytes were shown as 120, the code of b'x' (a user's trial)."""
    predictions = PREDICTIONS.assign(as_struct=[{"m": model} for model in PREDICTIONS.model])
    with pytest.raises(rank_metrics.RankMetricsError, match=message):
        rank_metrics.compare(predictions, TRUTH, k=4, by=by, baseline=baseline, test=test, seed=1)


def test_models_with_no_user_in_common_warn():
    apart = PREDICTIONS.assign(user_id=PREDICTIONS.user_id + PREDICTIONS.model.map({"a": 0, "b": 100}))
    truth = pd.concat([TRUTH, TRUTH.assign(user_id=TRUTH.user_id + 100)])
    for test in ("t", "permutation"):
        with pytest.warns(rank_metrics.RankMetricsWarning, match="compare: model 'a' and the baseline 'b' have no "
                                                                 "evaluated user in common, so nothing is paired"):
            result = rank_metrics.compare(apart, truth, k=4, metrics="map", by="model", baseline="b",
                                          users="predictions", test=test)
        assert (result.n_users.iloc[0], result.n_only_model.iloc[0], result.n_only_baseline.iloc[0]) == (0, 5, 5)
        assert math.isnan(result.p_value.iloc[0])


@pytest.mark.parametrize("confidence", [0, 1, 1.5, "high", True])
def test_bad_confidence_is_named(confidence):
    with pytest.raises(rank_metrics.RankMetricsError, match="confidence must be a number between 0 and 1"):
        rank_metrics.evaluate(PREDICTIONS, TRUTH, k=4, confidence=confidence)


MISSING_SCIPY = ("rank_metrics: the t test's exact p-value (test='t', the default; test='permutation' and "
                 "test='bootstrap' need no scipy) needs the scipy package, which is not installed: "
                 "pip install 'rank-metrics[stats]'")


def test_missing_scipy_is_one_line_naming_the_extra(monkeypatch, tmp_path):
    monkeypatch.setitem(__import__("sys").modules, "scipy", None)
    monkeypatch.setitem(__import__("sys").modules, "scipy.stats", None)
    with pytest.raises(rank_metrics.RankMetricsError) as error:
        stats.student_p_value(1.5, 4)
    assert str(error.value) == MISSING_SCIPY
    # the same words from the command line: nothing there is "in Python"
    PREDICTIONS.to_csv(tmp_path / "p.csv", index=False)
    TRUTH.to_csv(tmp_path / "t.csv", index=False)
    code, out, err = run("compare", str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "4", "--by", "model",
                         "--baseline", "b")
    in_flags = MISSING_SCIPY.removeprefix("rank_metrics: ").replace("test='t'", "--test t").replace(
        "test='permutation'", "--test permutation").replace("test='bootstrap'", "--test bootstrap")
    assert (code, out, err) == (2, "", f"rank-metrics: error: {in_flags}\n")
    code, out, err = run("compare", str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "4", "--by", "model",
                         "--baseline", "b", "--test", "permutation")   # as the message says: no scipy needed
    assert (code, err) == (0, "") and "test permutation" in out   # (and exact on 5 users: no warning of few)


@pytest.mark.parametrize("test", ["t", "permutation"])
def test_a_model_no_user_is_evaluated_for_is_named(test):
    """Under users='both' a model whose every list is for a user truth lacks has no evaluated
    user and no row: it vanished without a word, and a gate passed it (a new user's trial)."""
    truth = pd.DataFrame({"user_id": [1, 2, 3], "item_id": [10, 20, 30]})
    predictions = pd.DataFrame({"model": ["b"] * 3 + ["c"] * 2 + ["d"] * 3, "user_id": [1, 2, 3, 8, 9, 1, 2, 3],
                                "item_id": [10, 99, 30, 1, 2, 10, 20, 30], "rank": [1] * 8})
    with pytest.warns(rank_metrics.RankMetricsWarning, match=r"compare: model 'c' of predictions has no evaluated user, so it "
                                                             r"has no row \(under users='both', a user counts only with a "
                                                             r"list and a truth row\)") as caught:
        result = rank_metrics.compare(predictions, truth, k=1, by="model", baseline="b", metrics=["hit_rate"],
                                      users="both", test=test, seed=1)
    # and, for the t test, that 3 paired users are few (test_comparisons_honest.py)
    assert [warning.filename for warning in caught] == [__file__] * (2 if test == "t" else 1)
    assert result.model.tolist() == ["d"] and result.n_users.tolist() == [3]


@pytest.mark.parametrize("test", ["t", "permutation"])
@pytest.mark.parametrize("other", [[], ["c", "c"]], ids=["baseline alone", "a model no user is evaluated for"])
def test_nothing_to_compare_with_the_baseline_is_an_error(test, other):
    """The error said "column model has no value but the baseline" of predictions that have
    another model, one no user is evaluated for (users='both'): it now says which users count."""
    truth = pd.DataFrame({"user_id": [1, 2], "item_id": [10, 20]})
    predictions = pd.DataFrame({"model": ["b", "b", *other], "user_id": [1, 2, 8, 9][:2 + len(other)],
                                "item_id": [10, 99, 10, 20][:2 + len(other)], "rank": [1] * (2 + len(other))})
    with pytest.raises(rank_metrics.RankMetricsError) as error:
        rank_metrics.compare(predictions, truth, k=1, by="model", baseline="b", users="both", test=test, seed=1)
    assert str(error.value) == ("rank_metrics: compare: only the baseline 'b' has evaluated users; no other value of "
                                "column model has any, so nothing is compared with it")


@pytest.mark.parametrize("test", ["t", "permutation", "bootstrap"])
def test_every_test_takes_the_same_baselines(test):
    """The t test's SQL and the resampled tests in Python read a baseline alike: a boolean column
    took 'true' under t only, and True under permutation only; '1e0' named model 1 under
    permutation only (a new user's trial)."""
    truth = pd.DataFrame({"user_id": [1, 2, 3], "item_id": [10, 20, 30]})
    predictions = pd.DataFrame({"model": [True] * 3 + [False] * 3, "user_id": [1, 2, 3] * 2,
                                "item_id": [10, 99, 30, 98, 20, 97], "rank": [1] * 6})
    results = [rank_metrics.compare(predictions, truth, k=1, by="model", baseline=baseline, metrics=["hit_rate"],
                                    test=test, seed=1) for baseline in (True, "true", "1", " TRUE ")]
    for result in results:
        assert result.model.tolist() == [False] and result.difference.tolist() == pytest.approx([-1 / 3])
    numbered = predictions.assign(model=predictions.model.map({True: 1, False: 2}))
    for spelt in ("1e0", "+1"):
        with pytest.raises(rank_metrics.RankMetricsError, match=re.escape(f"baseline '{spelt}' ")):
            rank_metrics.compare(numbered, truth, k=1, by="model", baseline=spelt, metrics=["hit_rate"], test=test, seed=1)
    assert rank_metrics.compare(numbered, truth, k=1, by="model", baseline="1", metrics=["hit_rate"], test=test,
                                seed=1).model.tolist() == [2]


@pytest.mark.parametrize("engine", ["duckdb", "postgres", "spark"])
def test_days_as_models_take_a_baseline_as_text_or_a_date(engine, request):
    """A by column of dates (compare day against day): the t test refused a date baseline, the
    permutation test refused one spelt as text, and check=True failed on PostgreSQL and Spark
    (a new user's trial). Every test now takes either, on every engine, with the check."""
    import datetime as dt

    days = (dt.date(2024, 1, 1), dt.date(2024, 1, 2))
    rows = [(day, user, item, rank) for day in days for user in range(4)
            for rank, item in enumerate([(user + (day == days[1])) % 3, 5, 7], 1)]
    truth_rows = [(user, user % 3) for user in range(4)]
    predictions = pd.DataFrame(rows, columns=["model", "user_id", "item_id", "rank"])
    truth, con = pd.DataFrame(truth_rows, columns=["user_id", "item_id"]), None
    if engine == "duckdb":
        con = duckdb.connect()
        con.execute("create table day_predictions as select cast(model as date) as model, user_id, item_id, rank "
                    "from predictions")
        predictions = "day_predictions"
    elif engine == "postgres":
        con = request.getfixturevalue("postgres")
        with con.cursor() as cursor:
            cursor.execute("drop table if exists day_predictions, day_truth;"
                           "create table day_predictions (model date, user_id bigint, item_id bigint, rank int);"
                           "create table day_truth (user_id bigint, item_id bigint)")
            cursor.executemany("insert into day_predictions values (%s, %s, %s, %s)", rows)
            cursor.executemany("insert into day_truth values (%s, %s)", truth_rows)
        con.commit()
        predictions, truth = "day_predictions", "day_truth"
    else:
        spark = request.getfixturevalue("spark")
        predictions = spark.createDataFrame(rows, "model date, user_id bigint, item_id bigint, rank int")
        truth = spark.createDataFrame(truth_rows, "user_id bigint, item_id bigint")
    for baseline in ("2024-01-02", days[1]):
        for test in ("t", "permutation"):
            got = rank_metrics.compare(predictions, truth, k=3, metrics=["map"], by="model", baseline=baseline,
                                       test=test, seed=1, con=con, check=True)
            assert got.difference.tolist() == [1.0], (baseline, test)
    # text that spells no date as the SQL reads one is refused by every test alike (the t test's
    # SQL would have failed to cast it, in the engine's words; the permutation test took
    # '2024-1-2', which the t test refuses: a user's trial)
    for spelt in ("soon", "2024-1-2") if engine == "duckdb" else ("soon",):
        for test in ("t", "permutation"):
            with pytest.raises(rank_metrics.RankMetricsError, match=rf"baseline '{spelt}' is text, but by column model "
                                                                    r"(is (DATE|date)|holds dates): give the baseline as a "
                                                                    r"date, such as '2024-01-02'"):
                rank_metrics.compare(predictions, truth, k=3, by="model", baseline=spelt, test=test, con=con)
