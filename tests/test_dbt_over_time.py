"""Quality over time in dbt (SPEC §8): the README's incremental daily model on DuckDB and
PostgreSQL. Built, then run again after late labels arrive, it holds the full rebuild's rows,
each the Python API's number on the same tables; an empty run first leaves nothing behind."""

import contextlib
import re

import duckdb
import pandas as pd
import pytest

import rank_metrics

OVER_TIME = "{rank_metrics_over_time: true, rank_metrics_examples: false}"
LATE = "{rank_metrics_over_time: true, rank_metrics_examples: false, rank_metrics_late_labels: true}"
KEYS = ["period", "model", "metric", "k"]


def sorted_by_keys(frame):
    """The rows in KEYS' order, k as a float (NaN for r_precision's k NULL, which each engine's
    driver gives as None, NaN or <NA>)."""
    frame = frame.assign(k=pd.to_numeric(frame["k"]).astype("float64"))
    return frame.sort_values(KEYS).reset_index(drop=True)
first_columns = ["period", "model", "metric", "k", "value", "std_error", "ci_low", "ci_high", "n_users", "complete",
                 "labels_loaded_through"]


@pytest.mark.parametrize("target", ["duckdb", "postgres", "spark"])
def test_late_labels_give_the_full_rebuilds_rows(target, request):
    if target == "spark":
        spark = request.getfixturevalue("spark")
        project = request.getfixturevalue("dbt_spark")
    elif target == "duckdb":
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

    def table(name):
        if target == "spark":
            frame = spark.table(f"rank_metrics_it.{name}").toPandas()
            frame["period"] = pd.to_datetime(frame["period"])
            return sorted_by_keys(frame)[list(first_columns)]
        with connect() as con:
            if target == "duckdb":
                frame = con.table(name).df()
            else:
                with con.cursor() as cursor:
                    cursor.execute(f"select * from {schema}{name}")
                    frame = pd.DataFrame(cursor.fetchall(), columns=[column.name for column in cursor.description])
        frame["period"] = pd.to_datetime(frame["period"])
        return sorted_by_keys(frame)

    def python():
        options = dict(k=[1, 3], window=7, loaded_at="loaded_at", by="model", rank="rank",
                       metrics=["map", "ndcg", "recall", "r_precision"], users="predictions")
        if target == "spark":
            frame = rank_metrics.evaluate_over_time(spark.table("rank_metrics_it.over_time_lists"),
                                                    spark.table("rank_metrics_it.over_time_labels"), **options)
        else:
            with connect() as con:
                frame = rank_metrics.evaluate_over_time(f"{schema}over_time_lists", f"{schema}over_time_labels",
                                                        con=con, **options)
        frame["period"] = pd.to_datetime(frame["period"])
        return sorted_by_keys(frame)

    def same(built, expected):
        assert built[KEYS + ["n_users", "complete"]].equals(expected[KEYS + ["n_users", "complete"]])
        assert built.value.tolist() == pytest.approx(expected.value.tolist(), rel=1e-12, nan_ok=True)
        assert pd.to_datetime(built.labels_loaded_through).tolist() == \
            pd.to_datetime(expected.labels_loaded_through).tolist()

    # a first run with --empty (dbt's inputs empty on purpose) must not keep later runs empty
    assert project.invoke("build", "-s", "+over_time_daily", "--full-refresh", "--empty", "--vars", OVER_TIME).success
    assert project.invoke("build", "-s", "+over_time_daily", "--vars", OVER_TIME).success
    first = table("over_time_daily")
    assert len(first) == 6 * 2 * (3 * 2 + 1)   # days, models, metrics at each k and r_precision (k NULL)
    same(first, python())
    # the late labels arrive (their times in old windows, loaded later): an incremental run
    assert project.invoke("build", "-s", "over_time_late_labels", "over_time_labels", "over_time_daily", "--vars", LATE).success
    incremental = table("over_time_daily")
    expected = python()
    same(incremental, expected)
    changed = incremental.period[(incremental.value - first.value).abs() > 1e-12].dt.date.unique()
    assert len(changed) >= 2   # the late labels changed days whose windows had closed
    assert project.invoke("build", "-s", "over_time_daily", "--full-refresh", "--vars", LATE).success
    same(table("over_time_daily"), expected)
    if target == "spark":   # dbt-spark's microbatch is not tried here
        return
    # a microbatch model: dbt-postgres' needs a unique_key, which dbt-duckdb's refuses
    microbatch = "over_time_microbatch" if target == "duckdb" else "over_time_microbatch_keyed"
    assert project.invoke("build", "-s", microbatch, "--full-refresh", "--vars", LATE).success
    same(table(microbatch), expected)


@pytest.mark.dbt
def test_gates_judge_the_built_table_and_say_what_failed(dbt_project):
    """metric_at_least without truth, and the trend gate, read the built metric table; a failing
    one names each group, metric, k and period in dbt's output, not only "Got n results"."""
    said = []

    def listen(event):
        said.append(event.info.msg)

    failing = "{rank_metrics_over_time: true, rank_metrics_examples: false, rank_metrics_failing_gates: true}"
    build = dbt_project.invoke("build", "-s", "+over_time_daily", "--full-refresh", "--vars", failing, callbacks=[listen])
    assert not build.success
    status = {result.node.name: str(result.status) for result in build.result.results
              if result.node.resource_type == "test"}
    failed = {name for name, value in status.items() if value == "fail"}
    assert failed == {"over_time_map_at_least_0_99", "over_time_map_at_a_k_not_built", "over_time_no_drop_at_alpha_0_9999"}, status
    assert [value for name, value in status.items() if name not in failed] == ["pass", "pass"], status
    with duckdb.connect(str(dbt_project.database)) as con:
        table = con.table("over_time_daily").df()
    # a complete period with no evaluated user has no value to judge, and fails as one below
    low = table[(table.metric == "map") & table.k.isin([1, 3]) & table.complete
                & ((table.n_users == 0) | table.value.isna() | (table.value < 0.99))]
    logged = [text for text in said if text.startswith("rank_metrics: metric_at_least failed: ")]
    # the gate at k [3, 7] on a table built at k [1, 3]: its one failing row says what it lacks
    assert [text for text in logged if "no row of metric map at k 7" in text] == [
        "rank_metrics: metric_at_least failed: the table has no "
        "row of metric map at k 7, so there is no value to judge (is it built with this metric and k?)"]
    assert len(logged) == len(low) + 1 and len(low) > 0
    first = low.sort_values(["period", "model", "k"]).iloc[0]
    assert any(f"period {first.period.date()}" in text and f"model {first.model}" in text and "metric map" in text
               for text in logged), logged[:3]
    # the trend gate: each group's latest complete period against the 3 before, in numbers
    trend = [text for text in said if text.startswith("rank_metrics: no_significant_drop failed: model ")]
    assert trend and all(", base " in text and ", z " in text and ", p_value " in text for text in trend), trend
    # numbers to six significant digits, as the docs show them (they were every digit, with 6.0E-45)
    numbers = re.findall(r"\d+\.\d+(?:[eE][-+]?\d+)?", " ".join(trend + logged))
    assert numbers and all(len(re.sub(r"[eE].*|\.", "", number).lstrip("0")) <= 6 and "E" not in number for number in numbers), \
        numbers
    expected = rank_metrics.no_significant_drop(table, periods=3, alpha=0.9999)
    assert len(trend) == len(expected)


def test_the_daily_model_on_snowflake(tmp_path):
    """dbt-snowflake against the fakesnow emulator: the daily model's build, and its rebuild with
    the late labels, are the Python API's rows on the same tables, and its gates pass. (fakesnow
    cannot create the temporary relation dbt-snowflake's incremental runs write first, "TEMPORARY
    table names can only use the temp catalog", so the incremental run itself is DuckDB's,
    PostgreSQL's and Spark's test above.)"""
    import fakesnow
    import snowflake.connector
    import yaml
    from test_dbt_warehouses import PROFILES, invoke

    (tmp_path / "profiles.yml").write_text(yaml.safe_dump(
        {"rank_metrics_integration_tests": {"target": "snowflake", "outputs": PROFILES}}))
    (tmp_path / "db").mkdir()

    def python(con):
        frame = rank_metrics.evaluate_over_time("over_time_lists", "over_time_labels", k=[1, 3], window=7,
                                                loaded_at="loaded_at", by="model", rank="rank",
                                                metrics=["map", "ndcg", "recall", "r_precision"], users="predictions",
                                                con=con)
        return sorted_by_keys(frame)

    with fakesnow.patch(create_database_on_connect=True, create_schema_on_connect=True, db_path=str(tmp_path / "db")):
        for variables, refresh in ((OVER_TIME, []), (LATE, ["--full-refresh"])):
            built = invoke(tmp_path, tmp_path, "snowflake", "build", "-s", "+over_time_daily", "over_time_late_labels",
                           *refresh, "--vars", variables)
            assert built.success, [(result.node.name, result.message) for result in built.result.results]
            con = snowflake.connector.connect(database="analytics", schema="rank_metrics_it")
            cursor = con.cursor()
            cursor.execute("select * from over_time_daily")
            table = pd.DataFrame(cursor.fetchall(), columns=[column.name.lower() for column in cursor.description])
            table = sorted_by_keys(table)
            expected = python(con)
            con.close()
            assert table[KEYS + ["n_users", "complete"]].astype(str).values.tolist() == \
                expected[KEYS + ["n_users", "complete"]].astype(str).values.tolist()
            assert table.value.astype(float).tolist() == pytest.approx(expected.value.tolist(), rel=1e-12, nan_ok=True)


@pytest.mark.dbt
def test_a_unique_key_naming_k_is_refused_with_a_cutoff_free_metric(dbt_project, tmp_path):
    """r_precision's rows have k NULL, which delete+insert's key never matches: keyed on
    (period, model, metric, k) each run kept their old rows beside the new (a user's trial), so
    the model fails saying what to key on; keyed on the period it builds, and a second run
    replaces the periods it computes again, every row once. The trend gate on it without
    period: names the argument."""
    from conftest import ROOT
    from test_dbt_inputs import messages

    (tmp_path / "dbt_project.yml").write_text(
        "name: a_users_project\nversion: '1.0.0'\nconfig-version: 2\nprofile: rank_metrics_integration_tests\n")
    (tmp_path / "packages.yml").write_text(f"packages:\n  - local: {ROOT}\n")
    (tmp_path / "seeds").mkdir()
    (tmp_path / "seeds" / "lists.csv").write_text(
        "user_id,item_id,rank,day,model\n1,10,1,2024-03-01,a\n1,11,2,2024-03-01,a\n2,20,1,2024-03-02,a\n")
    (tmp_path / "seeds" / "labels.csv").write_text(
        "user_id,item_id,label_time\n1,11,2024-03-01 15:00:00\n2,20,2024-03-03 09:00:00\n")
    (tmp_path / "models").mkdir()
    call = ("{{ rank_metrics.evaluate_over_time(ref('lists'), ref('labels'), k=2, period='day', by='model', "
            "metrics=['map', 'r_precision'], users='predictions') }}\n")
    for name, key in (("keyed_on_k", "['day', 'model', 'metric', 'k']"), ("keyed_on_the_day", "['day']")):
        (tmp_path / "models" / f"{name}.sql").write_text(
            f"{{{{ config(materialized='incremental', incremental_strategy='delete+insert', unique_key={key}) }}}}\n" + call)
    assert dbt_project.invoke("deps", project=tmp_path).success
    assert dbt_project.invoke("seed", project=tmp_path).success
    refused = dbt_project.invoke("run", "--select", "keyed_on_k", project=tmp_path)
    assert not refused.success
    assert ("rank_metrics: evaluate_over_time: unique_key ['day', 'model', 'metric', 'k'] names k, but the rows of r_precision "
            "have k NULL (no cutoff), which a unique_key never matches: each run would keep their old rows beside the new. "
            "Key on the period alone, unique_key=['day'] with delete+insert") in messages(refused)
    for _ in range(2):   # the second run computes the incomplete day again
        assert dbt_project.invoke("run", "--select", "keyed_on_the_day", project=tmp_path).success
    with duckdb.connect(str(dbt_project.database)) as con:
        rows = con.execute("select day, metric, k from keyed_on_the_day order by all").fetchall()
    assert [(str(day), metric, k) for day, metric, k in rows] == [
        ("2024-03-01", "map", 2), ("2024-03-01", "r_precision", None),
        ("2024-03-02", "map", 2), ("2024-03-02", "r_precision", None)]
    # the trend gate on a table whose period column is not named period says how to name it
    (tmp_path / "models" / "gates.yml").write_text(
        "version: 2\nmodels:\n  - name: keyed_on_the_day\n    data_tests:\n"
        "      - rank_metrics.no_significant_drop:\n          arguments: {periods: 7, alpha: 0.01}\n")
    gate = dbt_project.invoke("test", "--select", "keyed_on_the_day", project=tmp_path)
    assert not gate.success
    assert ("rank_metrics: no_significant_drop: the model has no column 'period' (name the table's period column with "
            "period:, as in period: day)") in messages(gate)
