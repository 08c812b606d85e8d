"""Values a caller gives reach SQL only as literals that read the same whatever the session's
settings, or as validated numbers (SPEC §4, issue 40): PostgreSQL with standard_conforming_strings
off reads a backslash in '…' as an escape, and a table name or a baseline broke out of its literal
there (a table dropped, a server file read into an error message); Spark with
spark.sql.parser.escapedStringLiterals on, or its ${…} substitution, read a quote or a dollar
otherwise. Numbers that are no plain decimal (--1, 1/3, NaN, complex) were pasted as they are."""

import math
from decimal import Decimal
from fractions import Fraction

import pytest

import rank_metrics
from engine_tables import to_postgres, to_spark
from rank_metrics import RankMetricsError
from test_compare import PREDICTIONS, TRUTH
from test_engines import every_engine, engine_inputs_postgres, engine_inputs_spark  # noqa: F401 (fixtures)

# the break-outs of the issue: a quote after a backslash, which ends the literal where a backslash escapes
DROP_CANARY = "x\\'||chr(34)); drop table canary; --"
READ_A_FILE = "x\\' || (select pg_read_file('/etc/hostname')) || '"
# model names a literal must carry as they are, on every engine and setting
ODD_NAMES = ["o'brien\\", "\\'; select 1; --", "${env:HOME}", "a\\nb"]


@pytest.fixture
def loose_postgres(postgres_port):
    """A connection whose session reads backslashes in '…' as escapes."""
    import psycopg2

    con = psycopg2.connect(host="127.0.0.1", port=postgres_port, user="postgres", dbname="postgres")
    with con.cursor() as cursor:
        cursor.execute("set standard_conforming_strings = off")
        cursor.execute("set escape_string_warning = off")
        cursor.execute("drop table if exists canary")
        cursor.execute("create table canary (x int)")
    con.commit()
    yield con
    con.close()


def canary_stands(con) -> bool:
    with con.cursor() as cursor:
        cursor.execute("select count(*) from pg_tables where tablename = 'canary'")
        return cursor.fetchone()[0] == 1


def renamed(names):
    """The SPEC §7 example with models a and b renamed."""
    return PREDICTIONS.replace({"model": names})


def test_a_table_name_cannot_break_out_on_postgres(loose_postgres):
    to_postgres(loose_postgres, "truth", TRUTH)
    with pytest.raises(RankMetricsError, match="no table"):
        rank_metrics.map_at_k(DROP_CANARY, "truth", k=4, con=loose_postgres)
    loose_postgres.rollback()
    assert canary_stands(loose_postgres)


def test_a_baseline_cannot_break_out_on_postgres(loose_postgres):
    to_postgres(loose_postgres, "preds", PREDICTIONS)
    to_postgres(loose_postgres, "truth", TRUTH)
    for baseline in (READ_A_FILE, DROP_CANARY):
        with pytest.raises(RankMetricsError) as raised:
            rank_metrics.compare("preds", "truth", k=4, metrics="map", by="model", baseline=baseline, con=loose_postgres)
        # the value is looked for as a model, and is none: the message says so, with the models there are
        assert "predictions has no rows with model = " in str(raised.value) and "'a', 'b'" in str(raised.value)
        with open("/etc/hostname") as hostname:
            assert hostname.read().strip() not in str(raised.value).replace(baseline, "")
        loose_postgres.rollback()
    assert canary_stands(loose_postgres)


@pytest.mark.parametrize("name", ODD_NAMES)
def test_odd_model_names_compare_right_under_loose_settings(name, loose_postgres, spark):
    """The same rows on DuckDB, on PostgreSQL with standard_conforming_strings off and on Spark with
    escapedStringLiterals on: the baseline named by a text holding quotes, backslashes, dollars."""
    predictions = renamed({"b": name})
    want = rank_metrics.compare(predictions, TRUTH, k=4, metrics="map", by="model", baseline=name)
    assert want.difference.tolist() == [pytest.approx(0.15)]
    got_postgres = rank_metrics.compare(to_postgres(loose_postgres, "preds", predictions), to_postgres(loose_postgres, "truth", TRUTH),
                                        k=4, metrics="map", by="model", baseline=name, con=loose_postgres)
    spark.conf.set("spark.sql.parser.escapedStringLiterals", "true")
    try:
        got_spark = rank_metrics.compare(to_spark(spark, predictions), to_spark(spark, TRUTH),
                                         k=4, metrics="map", by="model", baseline=name)
    finally:
        spark.conf.unset("spark.sql.parser.escapedStringLiterals")
    for got in (got_postgres, got_spark):
        assert got.model.tolist() == ["a"]
        assert got.difference.tolist() == pytest.approx(want.difference.tolist(), abs=1e-12)
        assert got.std_error.tolist() == pytest.approx(want.std_error.tolist(), abs=1e-12)


def test_a_spark_dollar_is_not_substituted(spark):
    """Spark replaces ${…} in a query's text, literals included: a model named ${spark.app.name}
    would have met a baseline spelt as the app's name."""
    predictions = renamed({"b": "${spark.app.name}"})
    got = rank_metrics.compare(to_spark(spark, predictions), to_spark(spark, TRUTH), k=4, metrics="map", by="model",
                               baseline="${spark.app.name}")
    assert got.difference.tolist() == [pytest.approx(0.15)]
    with pytest.raises(RankMetricsError, match="predictions has no rows with model = "):
        rank_metrics.compare(to_spark(spark, predictions), to_spark(spark, TRUTH), k=4, metrics="map", by="model",
                             baseline=spark.conf.get("spark.app.name"))


@pytest.mark.parametrize("baseline", ["--1", "1; drop table canary", "1/2", "nan", "0x1"])
def test_a_baseline_for_a_numeric_column_must_spell_a_number(baseline, every_engine):  # noqa: F811
    """--baseline=--1 was pasted unquoted: `= --1` made the rest of the line a comment."""
    load, con = every_engine
    predictions = PREDICTIONS.replace({"model": {"a": 1, "b": 2}}).astype({"model": "int64"})
    with pytest.raises(RankMetricsError, match=f"baseline '{baseline}' is text, but by column model is .*: give the baseline as a number"):
        rank_metrics.compare(load("preds", predictions), load("truth", TRUTH), k=4, metrics="map", by="model", baseline=baseline, con=con)


def test_a_baseline_for_a_numeric_column_spelt_as_a_number_compares(every_engine):  # noqa: F811
    """Text that spells a number (spaces around it, a minus) is that number: once per engine, not
    once per refused spelling above (Spark pays seconds a query)."""
    load, con = every_engine
    predictions = PREDICTIONS.replace({"model": {"a": 1, "b": 2}}).astype({"model": "int64"})
    got = rank_metrics.compare(load("preds", predictions), load("truth", TRUTH), k=4, metrics="map", by="model", baseline=" 2 ", con=con)
    assert got.model.tolist() == [1] and got.difference.tolist() == [pytest.approx(0.15)]
    negative = PREDICTIONS.replace({"model": {"a": 1, "b": -1}}).astype({"model": "int64"})
    got = rank_metrics.compare(load("preds", negative), load("truth", TRUTH), k=4, metrics="map", by="model", baseline="-1", con=con)
    assert got.model.tolist() == [1] and got.difference.tolist() == [pytest.approx(0.15)]


@pytest.mark.parametrize("baseline", [math.nan, math.inf, Fraction(1, 2), 1 + 2j, Decimal("NaN")])
def test_a_baseline_that_is_no_finite_number_is_refused(baseline):
    predictions = PREDICTIONS.replace({"model": {"a": 1, "b": 2}}).astype({"model": "float64"})
    with pytest.raises(RankMetricsError, match=r"rank_metrics: baseline must be a finite number \(such as 2 or 0.5\); got "):
        rank_metrics.compare(predictions, TRUTH, k=4, metrics="map", by="model", baseline=baseline)


def test_numbers_of_every_python_kind_are_read_as_numbers():
    """A Decimal or a numpy number is the number it holds."""
    import numpy as np

    predictions = PREDICTIONS.replace({"model": {"a": 1, "b": 2}}).astype({"model": "float64"})
    for baseline in (2, 2.0, Decimal("2"), np.int64(2), np.float64(2.0)):
        got = rank_metrics.compare(predictions, TRUTH, k=4, metrics="map", by="model", baseline=baseline)
        assert got.difference.tolist() == [pytest.approx(0.15)], baseline
    truth = TRUTH.assign(relevance=[2, 1] * (len(TRUTH) // 2) + [2] * (len(TRUTH) % 2))
    for threshold in (2, Decimal("2"), np.int64(2), 1.5):
        assert rank_metrics.map_at_k(PREDICTIONS[PREDICTIONS.model == "a"], truth, k=4, relevance_threshold=threshold) \
            == rank_metrics.map_at_k(PREDICTIONS[PREDICTIONS.model == "a"], truth[truth.relevance >= 2][["user_id", "item_id"]], k=4)


def test_a_nul_in_a_text_is_said_on_postgres(postgres):
    to_postgres(postgres, "preds", PREDICTIONS)
    to_postgres(postgres, "truth", TRUTH)
    with pytest.raises(RankMetricsError, match=r"holds a NUL character \(\\x00\), which PostgreSQL text cannot hold"):
        rank_metrics.compare("preds", "truth", k=4, metrics="map", by="model", baseline="a\x00b", con=postgres)



# the functions the metric SQL calls (ln, sqrt, chr, …) get an overload for each of these types in a
# schema of the caller's search path, which answers 0.5 (chr: 'b')
NUMERIC_TYPES = ("double precision", "numeric", "bigint", "integer")


@pytest.fixture
def hijacking_postgres(postgres_port):
    """A connection whose search path puts a schema of overloads of the metric SQL's functions
    before pg_catalog, and whose session sends doubles rounded to 2 digits (extra_float_digits)."""
    import psycopg2

    con = psycopg2.connect(host="127.0.0.1", port=postgres_port, user="postgres", dbname="postgres")
    with con.cursor() as cursor:
        cursor.execute("drop schema if exists hijack cascade; create schema hijack")
        for name in ("ln", "sqrt", "floor", "round", "sign", "exp", "abs"):
            for kind in NUMERIC_TYPES:
                cursor.execute(f"create function hijack.{name}(x {kind}) returns {kind} language sql as "
                               f"$$ select cast(0.5 as {kind}) $$")
        for kind in NUMERIC_TYPES:
            for other in NUMERIC_TYPES:
                for name in ("power", "div"):
                    cursor.execute(f"create function hijack.{name}(x {kind}, y {other}) returns numeric language sql as "
                                   f"$$ select 0.5::numeric $$")
            cursor.execute(f"create function hijack.chr(x {kind}) returns text language sql as $$ select 'b'::text $$")
    con.commit()
    yield con
    con.rollback()
    with con.cursor() as cursor:
        cursor.execute("drop schema hijack cascade")
    con.commit()
    con.close()


@pytest.mark.postgres
@pytest.mark.parametrize("autocommit", [False, True])
def test_the_callers_search_path_and_float_digits_change_nothing_on_postgres(hijacking_postgres, postgres, autocommit):
    """A schema before pg_catalog on the search path answered ln, sqrt and chr in pg_catalog's
    place (every value 5.05e-29, every std_error 1.0, a baseline's chr() rewritten), and
    extra_float_digits = -15 rounded every double sent back (MAP 0.3 for 0.274…): a new user's
    trial. Each query now puts pg_catalog first and sets the digits for itself alone (div's
    arguments made pg_catalog's types, which an overload of another type had beaten), and the
    caller's session keeps its own settings."""
    predictions = renamed({"b": "a\\'b"})
    to_postgres(postgres, "hijack_preds", predictions)
    to_postgres(postgres, "hijack_truth", TRUTH)
    postgres.commit()
    arguments = dict(k=[1, 4], by="model", metrics=["map", "ndcg", "err", "rbp", "auc", "bpref"])
    plain = rank_metrics.evaluate("hijack_preds", "hijack_truth", con=postgres, **arguments)
    plain_compare = rank_metrics.compare("hijack_preds", "hijack_truth", baseline="a\\'b", con=postgres, **arguments)
    con = hijacking_postgres
    with con.cursor() as cursor:
        cursor.execute("set search_path = hijack, pg_catalog, public")
        cursor.execute("set extra_float_digits = -15")
    con.commit()
    con.autocommit = autocommit
    got = rank_metrics.evaluate("hijack_preds", "hijack_truth", con=con, **arguments)
    compared = rank_metrics.compare("hijack_preds", "hijack_truth", baseline="a\\'b", con=con, **arguments)
    assert got.equals(plain) and compared.equals(plain_compare)
    assert got.value.notna().any() and 0 < got.value.max() < 1
    with con.cursor() as cursor:
        # the caller's settings are theirs still
        cursor.execute("select current_setting('search_path'), current_setting('extra_float_digits')")
        assert cursor.fetchone() == ("hijack, pg_catalog, public", "-15")


@pytest.mark.postgres
def test_views_over_the_callers_path_and_an_open_transaction_under_autocommit(postgres, postgres_port):
    """What the queries' own settings must leave alone (a user's trial of a first version that ran
    them on pg_catalog's path alone, and rolled back under autocommit): a view whose function
    names a table without its schema, and one that reads current_schema(), resolve on the
    caller's path (they were a raw UndefinedTable, and no rows: MAP 0.0); and under autocommit, a
    transaction the caller opened goes on (its insert was rolled back with our query)."""
    import psycopg2

    want = rank_metrics.map_at_k(PREDICTIONS[PREDICTIONS.model == "a"].drop(columns="model"), TRUTH, k=4)
    with postgres.cursor() as cursor:
        cursor.execute("drop schema if exists tenant cascade; create schema tenant")
    postgres.commit()
    con = psycopg2.connect(host="127.0.0.1", port=postgres_port, user="postgres", dbname="postgres")
    try:
        con.autocommit = True
        with con.cursor() as cursor:
            cursor.execute("set search_path = tenant, public")
        to_postgres(con, "recs", PREDICTIONS[PREDICTIONS.model == "a"].drop(columns="model"))
        to_postgres(con, "truth", TRUTH)
        with con.cursor() as cursor:
            cursor.execute("create function tenant.visible_truth() returns setof tenant.truth language sql stable "
                           "as 'select * from truth'")
            cursor.execute("create view tenant.v_truth as select * from tenant.visible_truth()")
            cursor.execute("create view tenant.my_recs as select * from tenant.recs where current_schema() = 'tenant'")
            cursor.execute("create table tenant.kept (x int)")
            cursor.execute("begin")
            cursor.execute("insert into tenant.kept values (1)")
        assert rank_metrics.map_at_k("my_recs", "v_truth", k=4, con=con) == pytest.approx(want)
        with con.cursor() as cursor:
            cursor.execute("commit")
            cursor.execute("select count(*) from tenant.kept")
            assert cursor.fetchone()[0] == 1
            cursor.execute("select current_setting('search_path')")
            assert cursor.fetchone()[0] == "tenant, public"
    finally:
        con.close()
        with postgres.cursor() as cursor:
            cursor.execute("drop schema tenant cascade")
        postgres.commit()
