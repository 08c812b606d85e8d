"""Quality over time (SPEC §8): evaluate_over_time's worked examples on every engine, its rows
against the reference's on random inputs, its incremental recomputation against a full
rebuild, its errors, and the trend gate's worked example."""

import datetime
import math
import warnings

import duckdb
import pandas as pd
import pytest
from conftest import examples
from engine_tables import ENGINES, on_engine
from hypothesis import given, settings
from hypothesis import strategies as st

import rank_metrics
from rank_metrics import reference
from rank_metrics import _render
from rank_metrics._render import render

DAY = datetime.date(2024, 3, 1)
# SPEC §8's worked example: W = 7 days, k = 2, MAP, model a
LISTS = pd.DataFrame({"user_id": [1, 1, 2, 2, 1, 1], "item_id": [10, 11, 20, 21, 11, 12], "rank": [1, 2, 1, 2, 1, 2],
                      "period": [DAY] * 4 + [DAY + datetime.timedelta(days=1)] * 2, "model": "a"})
LABELS = pd.DataFrame({"user_id": [1, 1, 2, 2], "item_id": [11, 12, 21, 20],
                       "label_time": [datetime.datetime(2024, 3, 1, 15), datetime.datetime(2024, 3, 3, 9),
                                      datetime.datetime(2024, 3, 7, 23, 59, 59), datetime.datetime(2024, 3, 8)]})
LATE = pd.concat([LABELS, pd.DataFrame({"user_id": [1], "item_id": [10],
                                        "label_time": [datetime.datetime(2024, 3, 2, 10)]})], ignore_index=True)


def values(result):
    return [(row.period, row.value if not math.isnan(row.value) else None, row.n_users, row.complete)
            for row in result.itertuples()]


@pytest.mark.parametrize("engine", ENGINES)
def test_the_worked_example(engine, request):
    second = DAY + datetime.timedelta(days=1)
    options = dict(k=2, rank="rank", by="model", metrics="map", window=7)
    tables = on_engine(engine, request, "over_time", predictions=LISTS, truth=LABELS)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = rank_metrics.evaluate_over_time(**tables, users="predictions", **options)
    assert list(result.columns) == ["period", "model", "metric", "k", "value", "std_error", "ci_low", "ci_high",
                                    "n_users", "complete"]
    assert [pd.Timestamp(day).date() for day in result.period] == [DAY, second]
    assert [(row.value, row.n_users, row.complete) for row in result.itertuples()] == [(0.375, 2, True), (0.5, 1, False)]
    # users='truth': user 2 counts on 2024-03-02 (item 20 is in its window), with AP 0
    truth_users = rank_metrics.evaluate_over_time(**tables, users="truth", **options)
    assert list(truth_users.value) == [0.375, 0.25]
    # a late label, user 1 item 10 at 2024-03-02 10:00, counts for both periods
    late_tables = on_engine(engine, request, "over_time_late", predictions=LISTS, truth=LATE)
    late = rank_metrics.evaluate_over_time(**late_tables, users="predictions", **options)
    assert list(late.value) == [0.75, 0.25]
    assert list(late.complete) == [True, False]


def test_as_of_as_text_is_read_by_the_macro():
    """dbt passes as_of as YAML or Jinja gives it, text included (Python passes a datetime): a
    date or a time spelt out is a timestamp literal, anything else an error naming as_of."""
    namespace = _render.namespace("duckdb")
    for text in ("2024-03-08", "2024-03-08 00:00:00", " 2024-03-08T06:30:00 "):
        literal = str(namespace._timestamp_literal(text, "as_of")).strip()
        assert duckdb.connect().execute(f"select {literal}").fetchone()[0] == datetime.datetime.fromisoformat(text.strip())
    for text in ("yesterday", "2024-03-08; drop table x", "08/03/2024"):
        with pytest.raises(rank_metrics.RankMetricsError, match=r"as_of must be a date or a time"):
            namespace._timestamp_literal(text, "as_of")


def test_as_of_decides_complete_and_a_period_without_labels_is_a_row():
    # as_of before the first window closes: nothing complete; labels only on the first day
    early = LABELS[LABELS.label_time < datetime.datetime(2024, 3, 2)]
    result = rank_metrics.evaluate_over_time(LISTS, early, 2, rank="rank", metrics="map", users="truth",
                                             as_of="2024-03-08 00:00:00")
    # 2024-03-02: no user has a label in its window yet, so no user is evaluated under users='truth'
    assert [(row.value if not math.isnan(row.value) else None, row.n_users, row.complete)
            for row in result.itertuples()] == [(0.5, 1, True), (None, 0, False)]
    result = rank_metrics.evaluate_over_time(LISTS, early, 2, rank="rank", metrics="map", users="truth",
                                             as_of=datetime.date(2024, 3, 7))
    assert list(result.complete) == [False, False]
    # labels with no row at all: every period a row, none complete, none an error
    empty = LABELS.iloc[:0]
    result = rank_metrics.evaluate_over_time(LISTS, empty, 2, rank="rank", metrics="map", users="truth")
    assert list(result.n_users) == [0, 0] and list(result.complete) == [False, False]


def test_a_label_time_that_is_a_date_is_its_midnight():
    # a date on the window's last day counts; one on the day after it does not
    labels = pd.DataFrame({"user_id": [1, 1], "item_id": [10, 11],
                           "label_time": [datetime.date(2024, 3, 7), datetime.date(2024, 3, 8)]})
    result = rank_metrics.evaluate_over_time(LISTS[LISTS.period == DAY], labels, 2, rank="rank", metrics="map",
                                             users="predictions")
    assert list(result.value) == [0.5]   # user 1: item 10 at rank 1 of 2 relevant items; user 2: 0


# --- the reference on random inputs ---------------------------------------------------------

DAYS = [DAY + datetime.timedelta(days=offset) for offset in range(4)]
# times on and around the days' midnights, so that windows' ends are met exactly
TIMES = st.builds(lambda day, seconds: datetime.datetime.combine(day, datetime.time()) + datetime.timedelta(seconds=seconds),
                  st.sampled_from(DAYS + [DAY + datetime.timedelta(days=offset) for offset in range(4, 7)]),
                  st.sampled_from([0, 1, 3600 * 12, 86399]))
OPTION = {"users": ["truth", "predictions", "judged", "both", "union"], "normalization": ["min_m_k", "m", "hits"],
          "duplicates": ["first", "collapse", "all"]}


@st.composite
def over_time_cases(draw):
    lists = draw(st.lists(st.tuples(st.sampled_from(DAYS), st.sampled_from(["m1", "m2"]), st.integers(1, 3),
                                    st.sampled_from("abcd"), st.integers(1, 4)), min_size=1, max_size=30))
    labels = draw(st.lists(st.tuples(st.integers(1, 4), st.sampled_from("abcde"), TIMES), max_size=20))
    options = {name: draw(st.sampled_from(choices)) for name, choices in OPTION.items() if draw(st.booleans())}
    return dict(lists=lists, labels=labels, options=options, window=draw(st.integers(1, 3)),
                k=draw(st.sampled_from([1, 2, 3, [1, 3]])),
                as_of=draw(st.one_of(st.none(), st.sampled_from([datetime.datetime(2024, 3, 3), datetime.datetime(2024, 3, 9)]))))


@settings(max_examples=examples(60))
@given(case=over_time_cases())
def test_every_period_equals_the_reference(case):
    predictions = pd.DataFrame(case["lists"], columns=["period", "model", "user_id", "item_id", "rank"])
    labels = pd.DataFrame(case["labels"], columns=["user_id", "item_id", "label_time"])
    if labels.empty:
        labels = labels.astype({"user_id": "int64", "item_id": "object", "label_time": "datetime64[us]"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rank_metrics.RankMetricsWarning)
        result = rank_metrics.evaluate_over_time(predictions, labels, case["k"], rank="rank", by="model",
                                                 window=case["window"], as_of=case["as_of"], **case["options"])
    ks = case["k"] if isinstance(case["k"], list) else [case["k"]]
    expected = reference.evaluate_over_time(
        predictions.to_dict("records"), [dict(row, label_time=row["label_time"].to_pydatetime()) for row in labels.to_dict("records")],
        ks, period="period", time="label_time", window=case["window"], as_of=case["as_of"], by=["model"],
        rank="rank", options=reference.resolve_options(**case["options"]))
    order = {metric: index for index, metric in enumerate(reference.METRICS)}
    expected.sort(key=lambda row: (row["period"], row["model"], order[row["metric"]], row["k"]))
    assert len(result) == len(expected)
    for got, want in zip(result.to_dict("records"), expected):
        assert (pd.Timestamp(got["period"]).date(), got["model"], got["metric"], got["k"]) == \
            (want["period"], want["model"], want["metric"], want["k"])
        assert (got["n_users"], got["complete"]) == (want["n_users"], want["complete"])
        if want["value"] is None:
            assert math.isnan(got["value"])
        else:
            assert got["value"] == pytest.approx(want["value"], abs=1e-12)
            if want["std_error"] is None:
                assert math.isnan(got["std_error"])
            else:
                assert got["std_error"] == pytest.approx(want["std_error"], abs=1e-12)


# --- incremental runs -----------------------------------------------------------------------

def _over_time_sql(con, **options):
    columns = {table: [{"name": name, "data_type": data_type} for name, data_type in con.execute(
        "select column_name, data_type from information_schema.columns where table_name = ? order by ordinal_position",
        [table]).fetchall()] for table in ("lists", "labels")}
    return render("evaluate_over_time", predictions="lists", truth="labels", k=2, rank="rank", metrics=["map"],
                  by="model", users="predictions", predictions_columns=columns["lists"], truth_columns=columns["labels"],
                  **options)


def _incremental_run(con, **options):
    """What dbt's incremental model does: the periods the macro computes again, given the table
    built before, replace that table's rows of those periods."""
    new = con.execute(_over_time_sql(con, previous="built", **options)).df()
    con.register("rm_new", new)
    con.execute("delete from built where period in (select period from rm_new)")
    con.execute("insert into built by name select * from rm_new")
    con.unregister("rm_new")
    return sorted(new.period.dt.date.unique()) if len(new) else []


@pytest.mark.parametrize("loaded", [True, False])
def test_an_incremental_run_gives_the_full_rebuilds_rows(loaded):
    con = duckdb.connect()
    con.register("lists_frame", LISTS)
    con.execute("create table lists as select * from lists_frame")
    load = ", timestamp '2024-03-08 01:00:00' as loaded_at" if loaded else ""
    con.execute(f"create table labels as select *{load} from (select * from LABELS)")
    options = dict(loaded_at="loaded_at") if loaded else {}
    con.execute(f"create table built as {_over_time_sql(con, **options)}")

    def rebuilt():
        return con.execute(_over_time_sql(con, **options) + " order by period").df()

    # nothing new: the incomplete period only is computed again
    assert _incremental_run(con, **options) == [DAY + datetime.timedelta(days=1)]
    # a late label for 2024-03-01, a complete period, loaded later
    late = ", timestamp '2024-03-09 06:00:00'" if loaded else ""
    con.execute(f"insert into labels values (1, 10, timestamp '2024-03-02 10:00:00'{late})")
    recomputed = _incremental_run(con, **options)
    built = con.execute("select * from built order by period").df()
    if loaded:
        # with a load time, the late label's periods are computed again: the full rebuild's rows
        assert recomputed == [DAY, DAY + datetime.timedelta(days=1)]
        pd.testing.assert_frame_equal(built, rebuilt())
        assert list(built.value) == [0.75, 0.25]
    else:
        # without one, a complete period is not revisited (the README says so)
        assert recomputed == [DAY + datetime.timedelta(days=1)]
        assert list(built.value) == [0.375, 0.25]
    # a new period's lists: computed, the rest left alone
    con.execute("insert into lists values (2, 20, 1, date '2024-03-05', 'a')")
    assert _incremental_run(con, **options) == [DAY + datetime.timedelta(days=1), datetime.date(2024, 3, 5)]
    # another model's lists for a complete period (a model backfilled): that period computed again
    con.execute("insert into lists values (1, 11, 1, date '2024-03-01', 'b'), (1, 10, 2, date '2024-03-01', 'b')")
    assert _incremental_run(con, **options) == [DAY, DAY + datetime.timedelta(days=1), datetime.date(2024, 3, 5)]
    built = con.execute("select * from built order by period, model").df()
    assert list(built.model) == ["a", "b", "a", "a"]
    if loaded:
        pd.testing.assert_frame_equal(built, con.execute(_over_time_sql(con, **options) + " order by period, model").df())


# --- errors ---------------------------------------------------------------------------------

@pytest.mark.parametrize("options, message", [
    (dict(period="day"), r"column day \(argument period\) is not in predictions; its columns are: user_id, item_id, rank, period, model"),
    (dict(time="at"), r"column at \(argument time\) is not in truth"),
    (dict(window=0), r"window must be a whole number of days from 1 to 36500 .*; got 0"),
    (dict(window=10**11), r"window must be a whole number of days from 1 to 36500 .*; got 100000000000"),
    (dict(window=1.5), r"window must be a whole number of days from 1 to 36500 .*; got 1.5"),
    (dict(as_of="yesterday"), r"as_of must be a date or a time \('2024-03-08', '2024-03-08 00:00:00', a datetime\); got 'yesterday'"),
    (dict(by=["model", "period"]), r"by names the period column 'period', which evaluate_over_time groups by already"),
    (dict(check=True), r"evaluate_over_time takes no check= \(each period is evaluate's query"),
    (dict(windw=3), r"unknown argument 'windw' \(did you mean 'window'\?\)"),
])
def test_bad_arguments_are_named(options, message):
    with pytest.raises(rank_metrics.RankMetricsError, match=message):
        rank_metrics.evaluate_over_time(LISTS, LABELS, 2, rank="rank", **options)


def test_a_time_column_of_text_and_a_null_time_are_named():
    text = LABELS.assign(label_time=LABELS.label_time.astype(str))
    with pytest.raises(rank_metrics.RankMetricsError,
                       match=r"column label_time \(argument time\) of truth is VARCHAR; time values must be dates or timestamps"):
        rank_metrics.evaluate_over_time(LISTS, text, 2, rank="rank")
    missing = LABELS.astype({"label_time": "object"})
    missing.loc[0, "label_time"] = None
    missing["label_time"] = pd.to_datetime(missing.label_time)
    with pytest.raises(rank_metrics.RankMetricsError,
                       match=r"time: truth has 1 row with NULL in column \"label_time\"; time values must not be NULL"):
        rank_metrics.evaluate_over_time(LISTS, missing, 2, rank="rank")


def test_an_item_in_a_users_lists_of_two_days_is_no_repeat():
    """duplicates='error' (the trec_eval and sklearn conventions') refuses an item twice in one
    list, a period's: it refused user 1's item 11, listed on both days, as a repeat."""
    got = rank_metrics.evaluate_over_time(LISTS, LABELS, 2, rank="rank", duplicates="error")
    assert got.equals(rank_metrics.evaluate_over_time(LISTS, LABELS, 2, rank="rank"))
    repeated = pd.concat([LISTS, LISTS.head(1).assign(rank=3)], ignore_index=True)
    with pytest.raises(rank_metrics.RankMetricsError, match=r"^rank_metrics: duplicates: user 1 has item 10 more than once "
                                                            r"in predictions \(period = 2024-03-01\), which duplicates='error' refuses"):
        rank_metrics.evaluate_over_time(repeated, LABELS, 2, rank="rank", duplicates="error")


# --- the trend gate -------------------------------------------------------------------------

def _trend(latest=0.30):
    days = [DAY + datetime.timedelta(days=offset) for offset in range(4)]
    return pd.DataFrame({"period": days, "model": "a", "metric": "map", "k": 12,
                         "value": [0.40, 0.42, 0.38, latest], "std_error": [0.03, 0.03, 0.02, 0.03],
                         "ci_low": 0.0, "ci_high": 1.0, "n_users": [100, 100, 200, 150], "complete": True})


def test_the_trend_gates_worked_example():
    failed = rank_metrics.no_significant_drop(_trend())
    assert len(failed) == 1
    row = failed.iloc[0]
    assert (row.model, row.metric, row.k, row.period) == ("a", "map", 12, DAY + datetime.timedelta(days=3))
    assert row.base == pytest.approx(0.395, abs=1e-12)
    assert row.z == pytest.approx(-2.84822, abs=1e-5)
    assert row.p_value == pytest.approx(0.0021982, abs=1e-7)
    # the same drop, below min_drop; a smaller drop, not significant; an incomplete latest period, not judged
    assert rank_metrics.no_significant_drop(_trend(), min_drop=0.1).empty
    assert rank_metrics.no_significant_drop(_trend(latest=0.37)).empty
    incomplete = _trend()
    incomplete.loc[3, "complete"] = False
    assert rank_metrics.no_significant_drop(incomplete).empty
    # the trailing periods are the `periods` before the latest: only 0.38 (n 200, s 0.02)
    one = rank_metrics.no_significant_drop(_trend(), periods=1, alpha=0.05).iloc[0]
    assert one.base == pytest.approx(0.38) and one.z == pytest.approx(-0.08 / math.sqrt(0.03 ** 2 + 0.02 ** 2))


def test_the_trend_gate_judges_evaluate_over_times_rows():
    result = rank_metrics.evaluate_over_time(LISTS, LATE, 2, rank="rank", by="model", users="predictions")
    assert rank_metrics.no_significant_drop(result).empty   # one complete period: nothing to judge against
    with pytest.raises(rank_metrics.RankMetricsError, match=r"alpha must be a number between 0 and 1; got 2"):
        rank_metrics.no_significant_drop(result, alpha=2)
    with pytest.raises(rank_metrics.RankMetricsError, match=r"reads evaluate_over_time's rows; the table has no column 'complete'"):
        rank_metrics.no_significant_drop(result.drop(columns="complete"))


# --- the command line -----------------------------------------------------------------------

def test_the_command_line(tmp_path, capsys):
    from rank_metrics.cli import main

    LISTS.to_csv(tmp_path / "lists.csv", index=False)
    LATE.to_csv(tmp_path / "labels.csv", index=False)
    files = [str(tmp_path / "lists.csv"), str(tmp_path / "labels.csv")]
    assert main(["over-time", *files, "-k", "2", "--rank", "rank", "--by", "model", "--metrics", "map",
                 "--users", "predictions", "--format", "csv"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "period,model,metric,k,value,std_error,ci_low,ci_high,n_users,complete"
    assert [line.split(",")[4] for line in out[1:]] == ["0.75", "0.25"]
    assert [line.split(",")[-1] for line in out[1:]] == ["True", "False"]
    # as of 2024-03-09 both periods are complete, and 0.125 after 0.75 is a drop at alpha 0.9
    assert main(["over-time", *files, "-k", "2", "--rank", "rank", "--metrics", "map", "--as-of", "2024-03-09",
                 "--fail-if-drop", "--alpha", "0.9"]) == 4
    said = capsys.readouterr().err
    assert "rank-metrics: drop: map@2 on 2024-03-02: 0.125 against 0.75 before (z -2.236, p 0.0127 < alpha 0.9)" in said
    assert main(["over-time", *files, "-k", "2", "--rank", "rank", "--metrics", "map", "--as-of", "2024-03-09",
                 "--fail-if-drop"]) == 0   # p 0.0127, above the default alpha 0.01
    capsys.readouterr()
    assert main(["over-time", *files, "-k", "2", "--rank", "rank", "--time", "at"]) == 2
    assert "rank-metrics: error: column at (--time) is not in truth" in capsys.readouterr().err


def test_the_worked_example_on_a_snowflake_connection():
    """con= a Snowflake connector connection (fakesnow's emulator, which runs the Snowflake SQL on
    DuckDB): the late-label example's numbers, through snowflake__days_after's dateadd."""
    import fakesnow
    import snowflake.connector

    with fakesnow.patch():
        con = snowflake.connector.connect(database="analytics", schema="public")
        cursor = con.cursor()
        cursor.execute("create database if not exists analytics")
        cursor.execute("create schema if not exists analytics.public")
        cursor.execute("use schema analytics.public")
        cursor.execute("create table lists (user_id int, item_id int, rank int, period date, model varchar)")
        cursor.executemany("insert into lists values (%s, %s, %s, %s, %s)",
                           [(row.user_id, row.item_id, row.rank, str(row.period), row.model) for row in LISTS.itertuples()])
        cursor.execute("create table labels (user_id int, item_id int, label_time timestamp)")
        cursor.executemany("insert into labels values (%s, %s, %s)",
                           [(row.user_id, row.item_id, str(row.label_time)) for row in LATE.itertuples()])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)   # fakesnow's own, of its Arrow copies
            result = rank_metrics.evaluate_over_time("lists", "labels", 2, rank="rank", by="model", metrics="map",
                                                     users="predictions", con=con)
        con.close()
    assert [(row.value, row.n_users, row.complete) for row in result.itertuples()] == [(0.75, 2, True), (0.25, 1, False)]


@settings(max_examples=examples(60))
@given(rows=st.lists(st.tuples(st.floats(0, 1), st.one_of(st.none(), st.floats(0, 0.2)), st.integers(1, 300),
                               st.booleans()), min_size=2, max_size=10),
       periods=st.integers(1, 4), alpha=st.sampled_from([0.01, 0.2, 0.9]))
def test_the_trend_gates_query_equals_the_reference(rows, periods, alpha):
    """The gate's SQL (Python runs it on DuckDB, dbt on the warehouse) against reference.trend_drop:
    the latest complete period of the rows with users against the `periods` before it."""
    days = [DAY + datetime.timedelta(days=offset) for offset in range(len(rows))]
    frame = pd.DataFrame({"period": days, "model": "a", "metric": "map", "k": 3,
                          "value": [row[0] for row in rows], "std_error": [row[1] for row in rows],
                          "ci_low": 0.0, "ci_high": 1.0, "n_users": [row[2] for row in rows],
                          "complete": [row[3] for row in rows]})
    got = rank_metrics.no_significant_drop(frame, periods=periods, alpha=alpha)
    judged = [row for row in frame.to_dict("records") if row["complete"]]
    expected = None
    if len(judged) >= 2:
        latest, before = judged[-1], judged[-1 - periods:-1]
        expected = reference.trend_drop((latest["value"], None if pd.isna(latest["std_error"]) else latest["std_error"]),
                                        [(row["value"], None if pd.isna(row["std_error"]) else row["std_error"],
                                          row["n_users"]) for row in before])
    fails = expected is not None and expected["p_value"] is not None and expected["p_value"] < alpha \
        and expected["base"] >= expected["value"]
    # the SQL's normal tail is Abramowitz and Stegun's (absolute error below 1e-7): a p that close to alpha may go either way
    if expected is not None and expected["p_value"] is not None and abs(expected["p_value"] - alpha) < 1e-6:
        return
    assert len(got) == int(fails)
    if fails:
        row = got.iloc[0]
        assert (row.period, row.base, row.z) == (latest["period"], pytest.approx(expected["base"], abs=1e-12),
                                                 pytest.approx(expected["z"], rel=1e-9))
        assert row.p_value == pytest.approx(expected["p_value"], abs=1e-7)


def test_two_lists_a_user_in_one_period_are_said_without_naming_the_period():
    """Lists of two sources in one period, read as one list: warned (strict: an error), and the
    advice is by='src', since the period is grouped by already (by=['period', 'src'] would fail)."""
    merged = pd.concat([LISTS.assign(src="x"), LISTS.assign(src="y", item_id=LISTS.item_id + 100)])
    said = r"lists merged: user 1 has two rows at rank 1 within one period, .* pass by='src' for a row per src"
    with pytest.warns(rank_metrics.RankMetricsWarning, match=said):
        rank_metrics.evaluate_over_time(merged.drop(columns="model"), LABELS, 2, rank="rank", metrics="map")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        per_source = rank_metrics.evaluate_over_time(merged.drop(columns="model"), LABELS, 2, rank="rank", metrics="map",
                                                     by="src")
    assert len(per_source) == 4
