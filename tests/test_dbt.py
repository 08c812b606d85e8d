"""The dbt side: the integration project builds and its assertions pass on DuckDB, dbt compiles
the same SQL as Python renders, bad input fails the build with our message, and the example
models stay out of a user's project unless asked for."""

import contextlib
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
                  "assert_family_examples", "assert_map_from_other_inputs", "map_of_two_users")
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


@pytest.mark.parametrize("target", ["duckdb", "postgres"])
def test_the_readmes_daily_recipe_survives_an_empty_run(target, request):
    """The README's incremental daily metrics stayed empty for ever after `dbt run --empty` (or a
    first run before any data): the filter `day >= max(day) - 6 days` of an empty table is NULL,
    and kept no row; and its `interval 6 day` is no PostgreSQL (a new user's trial). Built,
    emptied and run again, it holds every row, and each is the Python API's number on the same
    tables."""
    daily = "{rank_metrics_daily: true, rank_metrics_examples: false}"
    if target == "duckdb":
        project = request.getfixturevalue("dbt_project")

        def connect():
            return duckdb.connect(str(project.database))
        schema = ""
    else:
        import psycopg2

        port = request.getfixturevalue("postgres_port")
        project = request.getfixturevalue("dbt_postgres")

        def connect():
            return contextlib.closing(psycopg2.connect(host="127.0.0.1", port=port, user="postgres", dbname="postgres"))
        schema = "rank_metrics_it."

    def rows():
        with connect() as con:
            if target == "duckdb":
                frame = con.table("daily_quality").df()
            else:
                with con.cursor() as cursor:
                    cursor.execute(f"select * from {schema}daily_quality")
                    frame = pd.DataFrame(cursor.fetchall(), columns=[column.name for column in cursor.description])
        return frame.sort_values(["model", "day", "k", "metric"]).reset_index(drop=True)

    assert project.invoke("build", "-s", "+daily_quality", "--full-refresh", "--vars", daily).success
    built = rows()
    with connect() as con:
        python = rank_metrics.evaluate(f"{schema}daily_recs", f"{schema}daily_truth_7d", k=[2, 4],
                                       metrics=["ndcg", "recall", "map"], by=["model", "day"], rank="rank", con=con,
                                       check=True)
    python = python.sort_values(["model", "day", "k", "metric"]).reset_index(drop=True)
    assert len(built) == len(python) == 2 * 10 * 2 * 3
    assert built[["model", "k", "metric"]].equals(python[["model", "k", "metric"]])
    assert built.n_users.tolist() == python.n_users.tolist()
    assert built.value.tolist() == pytest.approx(python.value.tolist(), rel=1e-12)
    # the truth model too: as the README wrote it, PostgreSQL refused dbt's `--empty` subquery of
    # a ref() with an alias of its own (`… _dbt_limit_subq_purchases as p`; a user's trial)
    assert project.invoke("run", "-s", "+daily_quality", "--full-refresh", "--empty", "--vars", daily).success
    assert len(rows()) == 0
    for _ in range(2):   # then incremental runs: the first fills every day, the next keeps one row per key
        assert project.invoke("run", "-s", "+daily_quality", "--vars", daily).success
        again = rows()
        assert again[["model", "day", "k", "metric"]].equals(built[["model", "day", "k", "metric"]])
        assert again.value.tolist() == pytest.approx(built.value.tolist(), rel=1e-12)
