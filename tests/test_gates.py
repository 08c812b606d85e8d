"""The release gates of SPEC §7 as dbt generic tests, on DuckDB, PostgreSQL and Spark: the
integration project's seed passes both (its `dbt build` passes, test_dbt and test_engines);
gate_regressed_predictions, whose model c never finds the purchased item, fails both, each
with one row that names c."""

import pytest

from conftest import DbtProject
from test_dbt_inputs import messages

FAILING = "{rank_metrics_failing_gates: true, rank_metrics_examples: false}"


def failed_gates(project):
    """{gate: its stored failing rows as dicts}, after building the model the gates fail on."""
    build = project.invoke("build", "-s", "+gate_regressed_predictions", "compare_truth", "--indirect-selection",
                           "cautious", "--vars", FAILING)
    assert not build.success
    gates = {}
    for result in build.result.results:
        if result.node.resource_type != "test":
            continue
        if "gate_regressed_predictions" not in result.node.name:   # the seed's gates, which pass
            assert str(result.status) == "pass", (result.node.name, result.status, result.message)
        else:
            assert str(result.status) == "fail", (result.node.name, result.status, result.message)
            shown = project.invoke("show", "--inline", f"select * from {result.node.relation_name}",
                                   "--vars", FAILING)
            assert shown.success, shown.exception
            table = shown.result.results[0].agate_table
            gates[result.node.test_metadata.name] = [dict(zip(table.column_names, row)) for row in table.rows]
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


def test_gates_fail_with_a_row_per_offending_model(dbt_project):
    assert_gates_name_the_regressed_model(failed_gates(dbt_project))


@pytest.mark.parametrize("target", ["postgres", "spark"])
def test_gates_fail_on_the_engine(target, request, tmp_path_factory):
    request.getfixturevalue("postgres_port" if target == "postgres" else "spark")
    project = DbtProject(tmp_path_factory.mktemp(f"dbt_gates_{target}"), target)
    assert project.invoke("deps").success
    assert_gates_name_the_regressed_model(failed_gates(project))


def test_a_gate_checks_its_inputs_under_dbt_test(dbt_project):
    """`dbt test` runs the gates without building anything: a misspelt baseline must fail its
    gate, not leave it with no failing row to report (it passed green: a new user's report)."""
    misspelt = "{rank_metrics_misspelt_gate: true, rank_metrics_examples: false}"
    assert dbt_project.invoke("seed", "-s", "compare_predictions", "compare_truth", "--vars", misspelt).success
    result = dbt_project.invoke("test", "-s", "compare_predictions", "--vars", misspelt)
    assert not result.success
    assert "rank_metrics: baseline: predictions has no rows with model = 'bb'" in messages(result)
