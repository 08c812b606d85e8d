"""The release gates of SPEC §7 as dbt generic tests, on DuckDB, PostgreSQL and Spark: the
integration project's seed passes both (its `dbt build` passes, test_dbt and test_engines);
gate_regressed_predictions, whose model c never finds the purchased item, fails both, each
with one row that names c."""

import pytest

from conftest import ENGINE_BUILD
from test_dbt_inputs import messages

# Every failing gate the tests below look at, enabled together: one build a target of the gate
# models and compare_truth, not one per test. On DuckDB with the models' seeds and the seed's own
# gates (which pass); on PostgreSQL and Spark, where a gate takes seconds, on the seeds the
# integration build loaded (test_engines; its gates pass there).
GATES = ("{rank_metrics_failing_gates: true, rank_metrics_silent_gates: true, rank_metrics_empty_gates: true, "
         "rank_metrics_examples: false}")
GATE_MODELS = {"duckdb": ["+gate_regressed_predictions", "+gate_unevaluated_predictions", "+gate_empty_predictions",
                          "+gate_ephemeral_predictions", "+gate_baseline_only_predictions"],
               "postgres": ["gate_regressed_predictions", "gate_unevaluated_predictions"],
               "spark": ["gate_regressed_predictions", "gate_unevaluated_predictions"]}


def gate_build(project):
    """The build that ran the gates."""
    if project.target != "duckdb":
        assert project.invoke_once(*ENGINE_BUILD).success
    return project.invoke_once("build", "-s", *GATE_MODELS[project.target], "compare_truth", "--indirect-selection",
                               "cautious", "--vars", GATES)


def gate_results(project, model):
    """The build's results for the gates on `model`, after checking that the seed's gates passed."""
    build = gate_build(project)
    assert not build.success
    tests = [result for result in build.result.results if result.node.resource_type == "test"]
    for result in tests:
        if "gate_" not in result.node.name:   # the seed's gates (and on an engine, the assertions)
            assert str(result.status) == "pass", (result.node.name, result.status, result.message)
    return [result for result in tests if model in result.node.name]


def stored_rows(project, result):
    """The failing rows a gate stored, as dicts."""
    shown = project.invoke("show", "--inline", f"select * from {result.node.relation_name}", "--vars", GATES)
    assert shown.success, shown.exception
    table = shown.result.results[0].agate_table
    return [dict(zip(table.column_names, row)) for row in table.rows]


def failed_gates(project):
    """{gate: its stored failing rows as dicts}, after building the model the gates fail on."""
    gates = {}
    for result in gate_results(project, "gate_regressed_predictions"):
        assert str(result.status) == "fail", (result.node.name, result.status, result.message)
        gates[result.node.test_metadata.name] = stored_rows(project, result)
    return gates


def assert_gates_name_the_regressed_model(gates):
    assert sorted(gates) == ["metric_at_least", "no_significant_regression"]
    (below,) = gates["metric_at_least"]
    assert (below["model"], below["k"], below["metric"]) == ("c", 4, "map")
    assert float(below["value"]) == 0.0 and float(below["min_value"]) == pytest.approx(0.3)
    (worse,) = gates["no_significant_regression"]
    assert (worse["model"], worse["k"], worse["metric"]) == ("c", 4, "map")
    # b's AP@4 per user: 0.5, 0.5, 0, 0, 1; c's: 0 everywhere
    assert float(worse["difference"]) == pytest.approx(-0.4)
    assert float(worse["std_error"]) == pytest.approx((0.175 / 5) ** 0.5)
    assert float(worse["p_value_one_sided"]) < 0.05 and float(worse["alpha"]) == pytest.approx(0.05)
    assert float(worse["p_value_two_sided"]) == pytest.approx(2 * float(worse["p_value_one_sided"]))
    # compare's own verdict is two-sided: a failing row must not carry significant = 0
    assert "significant" not in worse and "p_value_adjusted" not in worse


def assert_the_log_says_the_regression(project):
    """dbt prints only "Got 1 result"; the gate says in dbt's log which model regressed, and by how much."""
    logged = (project.workdir / "logs" / "dbt.log").read_text(encoding="utf-8")
    said = [line for line in logged.splitlines() if "rank_metrics: no_significant_regression failed:" in line]
    assert said and all("failed: model 'c' at k 4, metric map: 0" in line and " against 0.4" in line
                        and "for the baseline 'b' on 5 paired users (difference -0.4" in line
                        and "< alpha 0.05)" in line for line in said), said


def test_gates_fail_with_a_row_per_offending_model(dbt_project):
    assert_gates_name_the_regressed_model(failed_gates(dbt_project))
    assert_the_log_says_the_regression(dbt_project)


@pytest.mark.parametrize("target", ["postgres", "spark"])
def test_gates_fail_on_the_engine(target, request):
    project = request.getfixturevalue(f"dbt_{target}")
    assert_gates_name_the_regressed_model(failed_gates(project))
    assert_the_log_says_the_regression(project)


def test_a_gate_checks_its_inputs_under_dbt_test(dbt_project):
    """`dbt test` runs the gates without building anything: a misspelt baseline must fail its
    gate, not leave it with no failing row to report (it passed green: a new user's report)."""
    misspelt = "{rank_metrics_misspelt_gate: true, rank_metrics_examples: false}"
    assert dbt_project.invoke("seed", "-s", "compare_predictions", "compare_truth", "--vars", misspelt).success
    result = dbt_project.invoke("test", "-s", "compare_predictions", "--vars", misspelt)
    assert not result.success
    assert "rank_metrics: baseline: predictions has no rows with model = 'bb'" in messages(result)


def test_gates_on_empty_predictions_fail(dbt_project):
    """An empty predictions model left both gates without a failing row, so they passed (a new
    user's report): metric_at_least now fails with a row that says why, and compare's data
    checks fail no_significant_regression (the baseline has no rows)."""
    gates = {result.node.test_metadata.name: result for result in gate_results(dbt_project, "gate_empty_predictions")}
    assert sorted(gates) == ["metric_at_least", "no_significant_regression"]
    assert str(gates["metric_at_least"].status) == "fail" and gates["metric_at_least"].failures == 1
    (row,) = stored_rows(dbt_project, gates["metric_at_least"])
    assert row["problem"] == "no user is evaluated, so there is no value to judge" and row["value"] is None
    assert str(gates["no_significant_regression"].status) == "error"
    assert ("rank_metrics: baseline: predictions has no rows, so none with model = 'b' to compare with"
            in gates["no_significant_regression"].message)


def test_no_significant_regression_fails_when_nothing_is_compared(dbt_project):
    """Two ways the gate had no row to fail on, so it passed (a new user's trial): a misspelt
    baseline over an ephemeral predictions model (whose data checks cannot run), and predictions
    that hold the baseline alone (a candidate that wrote nothing). Each now fails with one row."""
    gates = {result.node.name: result for model in ("gate_ephemeral_predictions", "gate_baseline_only_predictions")
             for result in gate_results(dbt_project, model)}
    assert len(gates) == 2 and {result.node.test_metadata.name for result in gates.values()} == {"no_significant_regression"}
    problems = {}
    for name, result in gates.items():
        assert str(result.status) == "fail" and result.failures == 1, (name, result.status, result.message)
        (row,) = stored_rows(dbt_project, result)
        problems["ephemeral" if "gate_ephemeral" in name else "baseline only"] = row["problem"]
    assert problems == {
        "ephemeral": "predictions has no rows with model = 'bb', so nothing is compared with the baseline",
        "baseline only": "predictions has no model but the baseline 'b', so nothing is compared with it"}


@pytest.mark.parametrize("arguments, message", [
    ("metric='ndgc', min_value=0.3", "rank_metrics: metric_at_least: metric must name one metric, one of 'map', 'ndcg', "
                                     "'precision', 'recall', 'mrr', 'hit_rate', 'rbp', 'rbp_residual', 'err', 'auc', "
                                     "'r_precision', 'bpref'; got 'ndgc' (did you mean 'ndcg'?)"),
    ("min_value=0.3", "rank_metrics: metric_at_least: metric must name one metric, one of 'map'"),
    ("metric='map'", "rank_metrics: metric_at_least: min_value must be a number (min_value: 0.3); got none"),
    ("metric='map', min_value='0.2'", "min_value must be a number (min_value: 0.3); got '0.2'"),
    ("metric='map', min_value=0.3, baseline='b'", "rank_metrics: metric_at_least takes no baseline (no_significant_regression takes it)"),
    # a misspelt or misplaced argument is named before the missing one it leaves (a new user's report)
    ("metrics=['ndcg'], min_value=0.3", "rank_metrics: metric_at_least takes no metrics (a gate judges one metric: metric)"),
    ("metric='map', min_val=0.3", "rank_metrics: metric_at_least: unknown argument 'min_val' (did you mean 'min_value'?); "
                                  "its arguments are truth, k, "
                                  "metric, min_value, by and the options of the metric macros (user, item, rank,"),
])
def test_metric_at_least_names_its_own_arguments(dbt_project, arguments, message):
    """A new user's misspelt `metric: ndgc` read `metrics: unknown metric`, and `baseline:` read
    `evaluate takes no baseline`: names of the macros under the gate, not the gate's."""
    from test_dbt import compile_inline

    ok, text = compile_inline(dbt_project, "{{ rank_metrics.test_metric_at_least(model=ref('compare_predictions'), "
                                           f"truth=ref('compare_truth'), k=4, by='model', {arguments}) }}}}")
    assert not ok and message in text


@pytest.mark.parametrize("arguments, message", [
    ("metric='map', baseline='b'", "rank_metrics: no_significant_regression: by must name the column of models and "
                                   "baseline the model to compare with (by: model, baseline: popularity); got by none, baseline 'b'"),
    ("metric='map', by='model'", "got by 'model', baseline none"),
    ("metric='mapp', by='model', baseline='b'", "rank_metrics: no_significant_regression: metric must name one metric"),
    ("metric='map', by='model', baseline='b', test='t'", "no_significant_regression takes no test (the gate is the one-sided t test)"),
    # compare's name for a bad alpha was the gate's message (a new user's trial)
    ("metric='map', by='model', baseline='b', alpha='0.05'", "rank_metrics: no_significant_regression: alpha must be a number "
                                                             "between 0 and 1 (alpha: 0.05); got '0.05'"),
    ("metric='map', by='model', baseline='b', alpha=5", "alpha must be a number between 0 and 1 (alpha: 0.05); got 5"),
])
def test_no_significant_regression_names_its_own_arguments(dbt_project, arguments, message):
    from test_dbt import compile_inline

    ok, text = compile_inline(dbt_project, "{{ rank_metrics.test_no_significant_regression(model=ref('compare_predictions'), "
                                           f"truth=ref('compare_truth'), k=4, {arguments}) }}}}")
    assert not ok and message in text


@pytest.mark.parametrize("gate", ["metric_at_least", "no_significant_regression"])
def test_a_gates_truth_given_as_text_is_looked_up(dbt_project, gate):
    """YAML's `truth: compare_truth` (no ref()) is text, which the SQL read as a bare name: off
    PostgreSQL's search path, the database's raw "relation does not exist" (a user's trial). A
    table of that name in the target's schema is read; none is our error, with the ref()."""
    from test_dbt import compile_inline

    arguments = "metric='map', min_value=0.1" if gate == "metric_at_least" else "metric='map', by='model', baseline='b'"
    call = "{{{{ rank_metrics.test_{gate}(model=ref('compare_predictions'), truth='{truth}', k=4, {arguments}) }}}}"
    ok, text = compile_inline(dbt_project, call.format(gate=gate, truth="compare_truth", arguments=arguments))
    assert ok, text
    ok, text = compile_inline(dbt_project, call.format(gate=gate, truth="compare_turth", arguments=arguments))
    assert not ok and (f"rank_metrics: {gate}: truth is the text 'compare_turth', and no table or view of that name is in "
                       "schema main: name a model as truth: ref('compare_turth')") in text


@pytest.mark.parametrize("gate, arguments", [("metric_at_least", "min_value=0.3"),
                                             ("no_significant_regression", "by='model', baseline='b'")])
def test_a_gate_names_itself_for_a_k_in_quotes(dbt_project, gate, arguments):
    # YAML's k: '10' is text; the message named no gate (a dbt user's trial)
    from test_dbt import compile_inline

    ok, text = compile_inline(dbt_project, f"{{{{ rank_metrics.test_{gate}(model=ref('compare_predictions'), "
                                           f"truth=ref('compare_truth'), k='4', metric='map', {arguments}) }}}}")
    assert not ok and (f"rank_metrics: {gate}: k must be a positive integer or a non-empty list of them; got '4' "
                       "(in YAML: k: 10, or k: [5, 10], unquoted)") in text


@pytest.mark.parametrize("call, message", [
    ("rank_metrics.map_at_k(predictions=ref('compare_predictions'), k=4)", "rank_metrics: truth is required (truth=ref('purchases'))"),
    ("rank_metrics.evaluate(truth=ref('compare_truth'), k=4)", "rank_metrics: predictions is required (predictions=ref('recs'))"),
    ("rank_metrics.map_at_k(predictions=ref('compare_predictions'), truth=ref('compare_truth'))",
     "rank_metrics: k is required (k=12 or k=[5, 10, 20])"),
    ("rank_metrics.test_metric_at_least(model=ref('compare_predictions'), k=4, metric='map', min_value=0.3)",
     "rank_metrics: truth is required"),
])
def test_a_left_out_input_or_k_is_named(dbt_project, call, message):
    """Left out, truth was pasted into the SQL as nothing: `from  as rm_t`, a syntax error at run
    time (a new user's trial)."""
    from test_dbt import compile_inline

    ok, text = compile_inline(dbt_project, "{{ " + call + " }}")
    assert not ok and message in text


def test_dbt_compare_says_seed_is_for_the_python_tests(dbt_project):
    """`seed` was an unknown argument to dbt's compare, though it is compare's in Python (a new
    user's trial)."""
    from test_dbt import compile_inline

    ok, text = compile_inline(dbt_project, "{{ rank_metrics.compare(predictions=ref('compare_predictions'), "
                                           "truth=ref('compare_truth'), k=4, by='model', baseline='b', seed=1) }}")
    assert not ok and ("rank_metrics: seed is an argument of the permutation and bootstrap tests, which run in "
                       "Python (rank_metrics.compare, rank-metrics compare); SQL has only the t test") in text


def test_gates_fail_for_a_model_no_user_is_evaluated_for(dbt_project):
    """A model whose every list is for a user truth lacks has no evaluate or compare row under
    users='both', and one whose users the baseline's never are (users='predictions') has no
    p-value: each gate passed them without a word (a new user's trial). Each now fails with a
    row for the model that says why; so does a baseline no user is evaluated for."""
    rows = {}
    for result in gate_results(dbt_project, "gate_unevaluated_predictions"):
        arguments = result.node.test_metadata.kwargs
        if arguments["metric"] == "auc":
            # AUC@1 has no value for either model (no list has both kinds of item within 1)
            assert str(result.status) == "fail" and result.failures == 2, (result.node.name, result.status)
            problems = {(row["model"], row["k"], row["value"], row["n_users"], row["problem"])
                        for row in stored_rows(dbt_project, result)}
            why = "no evaluated user has both a relevant and a non-relevant item within k, so auc has no value to judge"
            assert problems == {("b", 1, None, 0, why), ("c", 1, None, 0, why)}
            continue
        assert str(result.status) == "fail" and result.failures == 1, (result.node.name, result.status, result.message)
        (row,) = stored_rows(dbt_project, result)
        rows[(result.node.test_metadata.name, arguments.get("baseline"), arguments["users"])] = row
    assert sorted(rows) == [("metric_at_least", None, "both"), ("no_significant_regression", "b", "both"),
                            ("no_significant_regression", "b", "predictions"),
                            ("no_significant_regression", "c", "both")]
    below = rows[("metric_at_least", None, "both")]
    assert (below["model"], below["k"], below["value"]) == ("c", None, None)
    why = ("under users='both' every list of it is for a user truth lacks; with a by column truth has too, truth has no "
           "row of its value")
    assert below["problem"] == f"no user is evaluated for this model ({why}), so there is no value to judge"
    unevaluated = rows[("no_significant_regression", "b", "both")]
    assert (unevaluated["model"], unevaluated["k"]) == ("c", None)
    assert unevaluated["problem"] == f"no user is evaluated for this model ({why}), so nothing is compared with the baseline"
    unpaired = rows[("no_significant_regression", "b", "predictions")]
    assert (unpaired["model"], unpaired["k"], unpaired["n_users"], unpaired["n_only_model"], unpaired["n_only_baseline"]) \
        == ("c", 4, 0, 5, 5)
    assert unpaired["problem"] == "this model and the baseline share no evaluated user, so nothing is compared"
    no_baseline = rows[("no_significant_regression", "c", "both")]
    assert (no_baseline["model"], no_baseline["n_users"], no_baseline["n_only_baseline"]) == ("b", 0, 0)
    assert no_baseline["problem"] == "no user is evaluated for the baseline 'c', so nothing is compared with it"


@pytest.mark.parametrize("target", ["postgres", "spark"])
def test_gates_fail_for_a_model_no_user_is_evaluated_for_on_the_engine(target, request):
    test_gates_fail_for_a_model_no_user_is_evaluated_for(request.getfixturevalue(f"dbt_{target}"))
