"""SQL for the warehouses the package does not run on itself: identifiers as each warehouse
resolves them, the Snowflake SQL run on a Snowflake emulator (fakesnow) against tables created
the ordinary way, and every dialect's SQL, transpiled back to DuckDB by sqlglot, giving the
reference's numbers."""

import duckdb
import pandas as pd
import pytest
import sqlglot

import rank_metrics
from rank_metrics.api import DIALECTS

from conftest import INTEGRATION

WAREHOUSES = ["snowflake", "bigquery", "trino", "redshift", "databricks"]
ARGUMENTS = dict(k=[2, 5], rank="rank", by="case_id", truth_by=["case_id"])


def seeds():
    def read(name):
        return pd.read_csv(INTEGRATION / "seeds" / f"{name}.csv", dtype={"item_id": str, "case_id": str})
    return read("spec_predictions"), read("spec_truth")


def expected(macro):
    predictions, truth = seeds()
    function = {"map_at_k": rank_metrics.map_at_k, "evaluate": rank_metrics.evaluate}[macro]
    frame = function(predictions, truth, check=True, **ARGUMENTS)
    key = ["case_id", "k"] + (["metric"] if macro == "evaluate" else [])
    value = "value" if macro == "evaluate" else "map_at_k"
    return {tuple(row[column] for column in key): row[value] for row in frame.to_dict("records")}, key, value


def rows_by_key(frame, key, value):
    frame = frame.rename(columns=str.lower)
    return {tuple(row[column] for column in key): row[value] for row in frame.to_dict("records")}


@pytest.mark.parametrize("dialect", WAREHOUSES)
def test_plain_names_stay_unquoted_and_the_rest_are_quoted(dialect):
    text = rank_metrics.sql("recs", "Sales.Purchases", k=12, rank="rank", dialect=dialect, item="Item ID",
                            user="customer_id")
    # sqlglot writes keywords in upper case; Snowflake's SQL is the dbt package's, as rendered
    text = text.replace(" as ", " AS ").replace("from ", "FROM ")
    quote = {"bigquery": "`", "databricks": "`"}.get(dialect, '"')
    assert "customer_id AS rm_user" in text                                  # plain: as the warehouse folds it
    assert f"{quote}Item ID{quote} AS rm_item" in text                       # anything else: exactly
    assert f"{quote}Sales{quote}.{quote}Purchases{quote}" in text
    assert "FROM recs AS" in text
    # a keyword must be quoted, in the case the warehouse stores an unquoted name
    assert (f'{quote}RANK{quote}' if dialect == "snowflake" else f"{quote}rank{quote}") in text


@pytest.mark.parametrize("dialect", WAREHOUSES)
def test_a_name_that_would_be_sql_is_still_quoted(dialect):
    evil = 'x" from t; drop table y; --'
    text = rank_metrics.sql("p", "t", k=1, rank="rank", dialect=dialect, item=evil)
    parsed = sqlglot.parse(text, read=dialect)
    assert len(parsed) == 1   # one statement: the name stayed a name
    assert evil in [identifier.name for identifier in parsed[0].find_all(sqlglot.exp.Identifier)]


def snowflake_tables(predictions, truth):
    """A connection (inside fakesnow.patch()) to analytics.public, holding recs and purchases
    created the ordinary way: unquoted names, stored in upper case."""
    import snowflake.connector

    con = snowflake.connector.connect(database="analytics", schema="public")
    cursor = con.cursor()
    cursor.execute("create database if not exists analytics")
    cursor.execute("create schema if not exists analytics.public")
    cursor.execute("create or replace table recs (case_id varchar, user_id integer, item_id varchar, rank integer)")
    cursor.execute("create or replace table purchases (case_id varchar, user_id integer, item_id varchar)")
    cursor.executemany("insert into recs values (%s, %s, %s, %s)", predictions.values.tolist())
    cursor.executemany("insert into purchases values (%s, %s, %s)", truth.values.tolist())
    return con


@pytest.mark.parametrize("macro", ["map_at_k", "evaluate"])
def test_snowflake_sql_runs_on_a_snowflake_emulator(macro):
    import fakesnow

    predictions, truth = seeds()
    text = rank_metrics.sql("recs", "purchases", dialect="snowflake", macro=macro, **ARGUMENTS)
    with fakesnow.patch():
        con = snowflake_tables(predictions, truth)
        cursor = con.cursor()
        cursor.execute(text)
        got = pd.DataFrame(cursor.fetchall(), columns=[column[0] for column in cursor.description])
        con.close()
    want, key, value = expected(macro)
    assert rows_by_key(got, key, value) == pytest.approx(want, rel=1e-9)


# PostgreSQL's SQL runs on PostgreSQL itself in the suite (its means are exact sums in its
# unbounded numeric, which sqlglot writes as DuckDB's DECIMAL(18, 3))
@pytest.mark.parametrize("dialect", [dialect for dialect in DIALECTS if dialect not in ("duckdb", "postgres")])
@pytest.mark.parametrize("macro", ["map_at_k", "evaluate"])
def test_every_dialect_transpiled_back_to_duckdb_gives_the_reference_numbers(dialect, macro):
    predictions, truth = seeds()
    text = rank_metrics.sql("recs", "purchases", dialect=dialect, macro=macro, **ARGUMENTS)
    back = sqlglot.transpile(text, read=dialect, write="duckdb")[0]
    con = duckdb.connect()
    # sqlglot writes Trino's own bitwise_left_shift(value, shift) and does not read it back into
    # DuckDB's <<: give DuckDB the function, with Trino's meaning
    con.execute("create macro bitwise_left_shift(value, shift) as value << shift")
    con.register("predictions_frame", predictions)
    con.register("truth_frame", truth)
    con.execute("create table recs as select * from predictions_frame")
    con.execute("create table purchases as select * from truth_frame")
    got = con.execute(back).df()
    want, key, value = expected(macro)
    assert rows_by_key(got, key, value) == pytest.approx(want, rel=1e-9)


@pytest.mark.parametrize("macro", ["map_at_k", "evaluate", "average_precision_at_k"])
def test_a_snowflake_connection_is_an_engine(macro):
    """con= a Snowflake connector connection (fakesnow's): tables created the ordinary way, named
    in lower case, their upper-case columns read as Snowflake's own SQL reads them, the reference
    agreeing (check=True), the numbers DuckDB's."""
    import fakesnow

    predictions, truth = seeds()
    with fakesnow.patch():
        con = snowflake_tables(predictions, truth)
        function = getattr(rank_metrics, macro)
        got = function("recs", "analytics.public.purchases", con=con, check=True, **ARGUMENTS)
        with pytest.raises(rank_metrics.RankMetricsError, match="predictions: cannot read table 'nope' on the Snowflake connection"):
            function("nope", "purchases", con=con, **ARGUMENTS)
        con.close()
    want = function(predictions, truth, **ARGUMENTS)
    assert list(got.columns) == list(want.columns)
    key = [column for column in want.columns if column in ("case_id", "user_id", "k", "metric")]
    got, want = got.sort_values(key).reset_index(drop=True), want.sort_values(key).reset_index(drop=True)
    assert got[key].astype(str).values.tolist() == want[key].astype(str).values.tolist()
    value = want.columns[len(key)]
    assert got[value].tolist() == pytest.approx(want[value].tolist(), rel=1e-12)


ENGINES = ["duckdb", "postgres", "spark", "redshift", "databricks", "snowflake", "bigquery", "trino"]


@pytest.mark.parametrize("engine", ENGINES)
def test_each_engines_profile_says_what_its_variants_do(engine):
    """macros/engine/engine_profile.sql is the one place that says what an engine has: its
    bit_count is what the bit_count variant renders, its parent is what dispatch tries next."""
    from rank_metrics import _render

    names = _render.namespace(engine)
    def profile(key):
        return str(names.engine_profile(key)).strip()
    assert (profile("bit_count") == "true") == bool(str(names.bit_count("x")).strip())
    assert names._prefixes == [engine, *([profile("parent")] if profile("parent") else []), "default"]
    assert profile("parent") == {"redshift": "postgres", "databricks": "spark"}.get(engine, "")
    assert profile("identifier_case") in ("", "lower", "upper")
    assert profile("ctes_once") == ("true" if engine in ("duckdb", "postgres") else "")
    assert str(names.column_as_named("CUSTOMER_ID")).strip() == ("customer_id" if engine == "snowflake" else "CUSTOMER_ID")
    with pytest.raises(rank_metrics.RankMetricsError, match="engine_profile has no key colour"):
        names.engine_profile("colour")


@pytest.mark.parametrize("dialect", [dialect for dialect in DIALECTS if dialect not in ("duckdb", "postgres", "spark")])
def test_every_option_in_every_dialect_gives_the_hand_computed_values(dialect):
    """The option grid (tests/test_options_grid.py: every option and convention on a hand-computed
    input), as each warehouse's SQL, parsed in its dialect with errors raised and run transpiled
    back to DuckDB."""
    from test_options_grid import EXPECTED, SEEDS, VARIANTS

    con = duckdb.connect()
    con.execute("create macro bitwise_left_shift(value, shift) as value << shift")
    for name in ("options_predictions", "options_truth"):
        frame = pd.read_csv(SEEDS / f"{name}.csv")
        con.register(f"{name}_frame", frame)
        con.execute(f"create table {name} as select * from {name}_frame")
    for variant, options in VARIANTS.items():
        text = rank_metrics.sql("options_predictions", "options_truth", k=[3, 5], dialect=dialect,
                                macro="average_precision_at_k", relevance=options.get("relevance"),
                                **{name: value for name, value in options.items() if name != "relevance"})
        back = sqlglot.transpile(text, read=dialect, write="duckdb", error_level=sqlglot.ErrorLevel.RAISE)[0]
        got = con.execute(back).df().rename(columns=str.lower).sort_values(["user_id", "k"])
        want = EXPECTED[EXPECTED.variant == variant].sort_values(["user_id", "k"])
        assert list(zip(got.user_id, got.k)) == list(zip(want.user_id, want.k)), variant
        assert list(got.average_precision) == pytest.approx(list(want.average_precision), abs=1e-6), variant


# functions Redshift has, of those the package's SQL may call; Redshift has no bit_count, bit
# strings, arrays (string_to_array, unnest, array_agg) or generate_series, which PostgreSQL's
# variants use and Redshift's profile and variants leave out
REDSHIFT_FUNCTIONS = {"ABS", "AVG", "BIT_OR", "CAST", "CHR", "COALESCE", "CONCAT", "COUNT", "EXISTS", "EXP", "FLOOR",
                      "GREATEST", "LEAST", "LENGTH", "LN", "LOG", "MAX", "MIN", "NULLIF", "POWER", "REPLACE", "ROUND",
                      "ROW_NUMBER", "SIGN", "SQRT", "STDDEV_SAMP", "SUBSTRING", "SUM", "TRIM", "LOWER", "UPPER", "DIV"}


@pytest.mark.parametrize("macro", ["map_at_k", "evaluate", "evaluate_users", "average_precision_at_k", "compare"])
def test_redshift_sql_calls_only_what_redshift_has(macro):
    """No Redshift here: its SQL is parsed in sqlglot's redshift dialect (errors raised), and every
    function it calls must be one Redshift has, over the option grid."""
    from test_options_grid import VARIANTS

    extra = dict(by="model", baseline="a") if macro == "compare" else {}
    for variant, options in VARIANTS.items():
        for k in ([5, 12], [70]):
            text = rank_metrics.sql("recs", "purchases", k=k, dialect="redshift", macro=macro, **options, **extra)
            tree = sqlglot.parse_one(text, read="redshift", error_level=sqlglot.ErrorLevel.RAISE)
            called = {node.sql_name() if not isinstance(node, sqlglot.exp.Anonymous) else node.name.upper()
                      for node in tree.find_all(sqlglot.exp.Func)}
            # sqlglot's names: BIT_OR is its BITWISE_OR_AGG; AND and OR are functions to it
            assert called - REDSHIFT_FUNCTIONS - {"BITWISE_OR_AGG", "AND", "OR", "CASE", "IF"} == set(), (variant, k)
            assert not list(tree.find_all(sqlglot.exp.Unnest)), (variant, k)


def test_list_inputs_on_redshift_are_refused_in_words():
    with pytest.raises(rank_metrics.RankMetricsError, match="list-shaped inputs are not supported on Redshift"):
        rank_metrics.sql("recs", "purchases", k=5, dialect="redshift", predictions_shape="list", item_separator=" ")


@pytest.mark.parametrize("name", ["o'brien\\r", "\\'; select 1; --", "<script>x</script>"])
def test_a_baseline_with_quotes_and_backslashes_on_snowflake(name):
    """Snowflake reads a backslash in '…' as an escape: a baseline spelt o'brien\\r met no model
    (its \\r read as a carriage return) until quotes and backslashes were written as chr()."""
    import fakesnow

    predictions = pd.DataFrame({"model": ["a"] * 2 + [name] * 2, "user_id": [1, 2] * 2, "item_id": [10, 20, 10, 99],
                                "rank": [1, 1, 1, 1]})
    truth = pd.DataFrame({"user_id": [1, 2], "item_id": [10, 20]})
    want = rank_metrics.compare(predictions, truth, k=1, by="model", baseline=name, metrics="map")
    with fakesnow.patch():
        con = snowflake_tables(*seeds())
        cursor = con.cursor()
        cursor.execute("create or replace table odd (model varchar, user_id integer, item_id integer, rank integer)")
        cursor.executemany("insert into odd values (%s, %s, %s, %s)", predictions.values.tolist())
        cursor.execute("create or replace table odd_truth (user_id integer, item_id integer)")
        cursor.executemany("insert into odd_truth values (%s, %s)", truth.values.tolist())
        got = rank_metrics.compare("odd", "odd_truth", k=1, by="model", baseline=name, metrics="map", con=con)
        con.close()
    assert got.model.tolist() == ["a"] and got.difference.tolist() == pytest.approx(want.difference.tolist()) == [0.5]
