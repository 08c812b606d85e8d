"""The dbt side: the integration project builds and its assertions pass on DuckDB, dbt compiles
the same SQL as Python renders, bad input fails the build with our message, and the example
models stay out of a user's project unless asked for."""

import re

import duckdb
import pandas as pd
import pytest

import rank_metrics

from conftest import ROOT


def normalized(sql: str) -> str:
    return re.sub(r"\s+", " ", sql).strip()


def test_build_passes_every_assertion(dbt_project):
    build = dbt_project.build
    assert build.success, build.exception
    statuses = {result.node.name: str(result.status) for result in build.result.results}
    assertions = ("assert_spec_average_precision", "assert_spec_map", "assert_options_average_precision",
                  "assert_family_examples", "assert_map_from_other_inputs", "map_of_two_users", "assert_over_time_example",
                  "assert_ir_family_examples", "assert_beyond_accuracy_example",
                  "assert_compare_beyond_accuracy_example", "assert_beyond_accuracy_of_seeds")
    assert {name: statuses.get(name) for name in assertions} == dict.fromkeys(assertions, "pass")
    assert all(status in ("pass", "success") for status in statuses.values()), statuses


@pytest.mark.parametrize("model, macro, tables, arguments", [
    ("parity_map_at_k", "map_at_k", ("spec_predictions", "spec_truth"), dict(k=[2, 5], by=["case_id"])),
    ("parity_average_precision_at_k", "average_precision_at_k", ("options_predictions", "options_truth"),
     dict(k=[3, 5], rank="rank", relevance="grade", normalization="m", users="union",
          duplicates="collapse", tie_break="item_desc")),
])
def test_dbt_compiles_the_sql_python_renders(dbt_project, model, macro, tables, arguments):
    database = dbt_project.database.stem
    with duckdb.connect(str(dbt_project.database)) as con:
        python_sql = rank_metrics.sql(*(f"{database}.main.{table}" for table in tables),
                                      con=con, macro=macro, **arguments)
    assert normalized(dbt_project.compiled(model)) == normalized(python_sql)


def test_dbt_model_rows_equal_the_python_api(dbt_project):
    with duckdb.connect(str(dbt_project.database)) as con:
        built = con.table("parity_map_at_k").df().sort_values(["case_id", "k"]).reset_index(drop=True)
        python = rank_metrics.map_at_k("spec_predictions", "spec_truth", k=[2, 5], by=["case_id"],
                                       con=con, check=True)
    pd.testing.assert_frame_equal(built, python)


def compile_inline(dbt_project, sql):
    """Compile SQL in the integration project; (success, every error message dbt kept)."""
    result = dbt_project.invoke("compile", "--inline", sql)
    messages = [str(result.exception), str(getattr(result.exception, "__context__", ""))]
    messages += [str(getattr(node, "message", "")) for node in (result.result.results if result.result else [])]
    return result.success, " ".join(messages)


def test_bad_argument_fails_with_our_message(dbt_project):
    ok, text = compile_inline(dbt_project, "{{ rank_metrics.map_at_k(predictions=ref('spec_predictions'), "
                                           "truth=ref('spec_truth'), k=0) }}")
    assert not ok
    assert "k must be a positive integer or a non-empty list of them; got 0" in text


def test_missing_column_is_named_in_dbt(dbt_project):
    ok, text = compile_inline(dbt_project, "{{ rank_metrics.map_at_k(predictions=ref('spec_predictions'), "
                                           "truth=ref('spec_truth'), k=3, item='article') }}")
    assert not ok
    assert "column article (argument item) is not in predictions; its columns are: case_id, user_id, item_id, rank" in text


def test_compare_beyond_accuracy_names_what_sql_cannot_do(dbt_project):
    """The permutation test, and a comparison of only the metrics of a whole group's lists, are
    our messages at compile time (the example model compares in SQL on every target)."""
    call = ("{{{{ rank_metrics.compare_beyond_accuracy(predictions=ref('compare_predictions'), train=ref('compare_truth'), "
            "k=3, by='model', baseline='a', {}) }}}}")
    ok, text = compile_inline(dbt_project, call.format("test='permutation'"))
    assert not ok and ("compare_beyond_accuracy: SQL has only the t test (test='t', its p-value the normal approximation); "
                       "got test='permutation': the permutation and bootstrap tests run in Python "
                       "(rank_metrics.compare_beyond_accuracy, rank-metrics beyond-accuracy --baseline)") in text, text
    ok, text = compile_inline(dbt_project, call.format("metrics=['gini', 'personalization']"))
    assert not ok and ("asks only for metrics of a whole group's lists: gini (evidently), personalization (evidently)"
                       in text), text
    # a misspelt keyword changed nothing and the model built (a new user's trial): now named
    ok, text = compile_inline(dbt_project, call.format("simlarity='features'"))
    assert not ok and "unknown argument 'simlarity' (did you mean 'similarity'?)" in text, text
    ok, text = compile_inline(dbt_project, call.format("seed=3"))
    assert not ok and "seed is an argument of the permutation and bootstrap tests, which run in Python" in text, text
    users = ("{{ rank_metrics.beyond_accuracy_users(predictions=ref('compare_predictions'), train=ref('compare_truth'), "
             "k=3, metrics='gini') }}")
    ok, text = compile_inline(dbt_project, users)
    assert not ok and "beyond_accuracy_users gives the users' values of the per-user metrics" in text, text


def test_examples_stay_out_of_a_users_project(dbt_project, tmp_path):
    (tmp_path / "dbt_project.yml").write_text(
        "name: a_users_project\nversion: '1.0.0'\nconfig-version: 2\nprofile: rank_metrics_integration_tests\n")
    (tmp_path / "packages.yml").write_text(f"packages:\n  - local: {ROOT}\n")
    assert dbt_project.invoke("deps", project=tmp_path).success
    listed = dbt_project.invoke("ls", "--resource-type", "model", "seed", "test", "--output", "name",
                                project=tmp_path)
    assert listed.success
    assert listed.result == []
    asked = dbt_project.invoke("ls", "--resource-type", "model", "seed", "--output", "name",
                               "--vars", "{rank_metrics_examples: true}", project=tmp_path)
    assert sorted(asked.result) == ["example_average_precision_by_customer", "example_map_at_k_by_model",
                                    "example_metrics_by_model",
                                    "example_purchases", "example_recommendations"]


