"""List-shaped inputs (issue 8 §5): a row per user with the items in order in a list column, or
in text separated by item_separator (the Kaggle submission file), unnested in SQL; the numbers
equal those of the same data in long form, on DuckDB, PostgreSQL and Spark, in Python, the CLI
and dbt."""


import re

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet  # noqa: F401  (pa.parquet)
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rank_metrics
from rank_metrics import RankMetricsError

from conftest import examples
from engine_tables import to_postgres, to_spark
from test_cli import run

LONG = pd.DataFrame({"user_id": [1, 1, 1, 2, 2, 3], "item_id": ["c", "x", "a", "b", "a", "q"], "rank": [1, 2, 3, 1, 2, 1]})
LISTS = pd.DataFrame({"user_id": [1, 2, 3], "item_id": [["c", "x", "a"], ["b", "a"], ["q"]]})
TRUTH = pd.DataFrame({"user_id": [1, 1, 2, 4], "item_id": ["a", "c", "a", "z"]})
TRUTH_LISTS = pd.DataFrame({"user_id": [1, 2, 4], "item_id": [["a", "c"], ["a"], ["z"]]})


def long_form(**options):
    return rank_metrics.evaluate(LONG, TRUTH, k=[1, 2, 3], check=True, **options)


@pytest.mark.parametrize("kind", ["pandas", "arrow", "polars", "duckdb relation"])
def test_list_column_predictions_equal_the_long_form(kind):
    frame = {"pandas": LISTS, "arrow": pa.Table.from_pandas(LISTS), "polars": pl.from_pandas(LISTS),
             "duckdb relation": duckdb.sql("select * from LISTS")}[kind]
    got = rank_metrics.evaluate(frame, TRUTH, k=[1, 2, 3], check=True)
    pd.testing.assert_frame_equal(got, long_form())


def test_list_shaped_truth_and_predictions_together():
    got = rank_metrics.evaluate(LISTS, TRUTH_LISTS, k=[1, 2, 3], check=True, users="union")
    pd.testing.assert_frame_equal(got, long_form(users="union"))


def kaggle_files(folder):
    """The H&M MAP@12 competition's shape: customer_id,prediction with space-separated article ids
    (leading zeros kept: they are text)."""
    (folder / "submission.csv").write_text("customer_id,prediction\n"
                                           "c1,0706016001 0706016002 0372860001\n"
                                           "c2,0610776002  0759871002\n"
                                           "c3,\n")
    (folder / "solution.csv").write_text("customer_id,prediction\n"
                                         "c1,0372860001 0706016001\n"
                                         "c2,0111111111\n")
    return str(folder / "submission.csv"), str(folder / "solution.csv")


KAGGLE = dict(user="customer_id", item="prediction", predictions_shape="list", truth_shape="list", item_separator=" ")


def test_a_kaggle_submission_file(tmp_path):
    submission, solution = kaggle_files(tmp_path)
    # c1: hits at 1 and 3 -> (1 + 2/3) / 2; c2: none; c3 has no predictions
    assert rank_metrics.map_at_k(submission, solution, k=12, check=True, **KAGGLE) == pytest.approx((1 + 2 / 3) / 2 / 2)
    per_user = rank_metrics.average_precision_at_k(submission, solution, k=12, check=True, **KAGGLE)
    assert per_user[["customer_id", "n_relevant", "n_hits"]].values.tolist() == [["c1", 2, 2], ["c2", 1, 0]]


def test_a_kaggle_submission_on_the_command_line(tmp_path):
    submission, solution = kaggle_files(tmp_path)
    code, out, _ = run("map-at-k", submission, solution, "-k", "12", "--user", "customer_id", "--item", "prediction",
                       "--predictions-shape", "list", "--truth-shape", "list", "--item-separator", " ",
                       "--format", "csv", "--check")
    assert code == 0
    assert out.splitlines()[1].startswith("12,0.41666666666666")


def test_list_arrays_on_postgres(postgres):
    with postgres.cursor() as cursor:
        cursor.execute("drop table if exists list_recs; drop table if exists list_truth")
        cursor.execute("create table list_recs (user_id bigint, item_id text[])")
        cursor.execute("create table list_truth (user_id bigint, item_id text[])")
        cursor.executemany("insert into list_recs values (%s, %s)", LISTS.values.tolist())
        cursor.executemany("insert into list_truth values (%s, %s)", TRUTH_LISTS.values.tolist())
    postgres.commit()
    got = rank_metrics.evaluate("list_recs", "list_truth", k=[1, 2, 3], con=postgres, check=True, users="union")
    pd.testing.assert_frame_equal(got, long_form(users="union"), check_dtype=False)


@pytest.mark.parametrize("table", ["predictions", "truth"])
def test_postgres_arrays_of_two_dimensions_are_named(postgres, table):
    """PostgreSQL's int[] also holds {{101, 9}, {102, 8}}: unnest read (item, score) pairs as
    items one by one, a silent wrong number. The first such user's list is named."""
    nested = {"predictions": "list_recs_2d", "truth": "list_truth_2d"}[table]
    with postgres.cursor() as cursor:
        cursor.execute("drop table if exists list_recs_2d; drop table if exists list_truth_2d")
        cursor.execute("create table list_recs_2d (user_id bigint, item_id bigint[])")
        # truth's item column under a name of its own: the message names truth_item (found in review)
        cursor.execute("create table list_truth_2d (user_id bigint, bought bigint[])")
        cursor.execute("insert into list_recs_2d values (1, '{101, 102}'), (2, '{103}')")
        cursor.execute("insert into list_truth_2d values (1, '{102}'), (2, '{103}')")
        cursor.execute(f"insert into {nested} values (3, '{{{{101, 9}}, {{102, 8}}}}'), (4, '{{{{{{1}}}}}}')")
    postgres.commit()
    named = "item: column item_id of predictions" if table == "predictions" else "truth_item: column bought of truth"
    with pytest.raises(RankMetricsError, match=re.escape(
            f"{named} holds each user's items as an array, but user 3 has an array of 2 "
            "dimensions ({{101,9},{102,8}}), which would be read as its elements one by one: a list must be one-dimensional")):
        rank_metrics.map_at_k("list_recs_2d", "list_truth_2d", k=2, con=postgres, truth_item="bought")
    # one dimension throughout: the arrays' items (user 1: 102 at 2, 1/2; user 2: 103 at 1)
    with postgres.cursor() as cursor:
        cursor.execute(f"delete from {nested} where user_id > 2")
    postgres.commit()
    assert rank_metrics.map_at_k("list_recs_2d", "list_truth_2d", k=2, con=postgres, truth_item="bought", check=True) == 0.75


def test_list_arrays_on_spark(spark):
    from pyspark.sql import types as T

    schema = T.StructType([T.StructField("user_id", T.LongType()), T.StructField("item_id", T.ArrayType(T.StringType()))])
    predictions = spark.createDataFrame([tuple(row) for row in LISTS.values.tolist()], schema)
    truth = spark.createDataFrame([tuple(row) for row in TRUTH_LISTS.values.tolist()], schema)
    got = rank_metrics.evaluate(predictions, truth, k=[1, 2, 3], check=True, users="union")
    pd.testing.assert_frame_equal(got, long_form(users="union"), check_dtype=False)


def test_separated_text_on_spark_splits_on_the_text_not_a_pattern(spark):
    rows = [(1, "c|x|a"), (2, "b|a"), (3, "q")]
    predictions = spark.createDataFrame(rows, "user_id long, item_id string")
    got = rank_metrics.evaluate(predictions, spark.createDataFrame(TRUTH), k=[1, 2, 3], check=True,
                                predictions_shape="list", item_separator="|")
    pd.testing.assert_frame_equal(got, long_form(), check_dtype=False)


lists_strategy = st.lists(st.tuples(st.integers(1, 4), st.lists(st.sampled_from("abcdef"), max_size=6)), max_size=6)


@settings(max_examples=examples(40))
@given(rows=lists_strategy, truth_rows=st.lists(st.tuples(st.integers(1, 5), st.sampled_from("abcdefg")), min_size=1, max_size=10),
       k=st.integers(1, 7))
def test_list_form_equals_long_form_on_random_inputs(rows, truth_rows, k):
    seen = set()
    rows = [(user, items) for user, items in rows if not (user in seen or seen.add(user))]   # a list per user
    lists = pd.DataFrame({"user_id": [user for user, _ in rows], "item_id": [items for _, items in rows]},
                         columns=["user_id", "item_id"]).astype({"user_id": "int64"})
    lists["item_id"] = lists["item_id"].astype(object)
    entries = [(user, item, position) for user, items in rows for position, item in enumerate(items, start=1)]
    long = pa.table({"user_id": pa.array([e[0] for e in entries], pa.int64()),
                     "item_id": pa.array([e[1] for e in entries], pa.string()),
                     "rank": pa.array([e[2] for e in entries], pa.int64())})
    truth = pd.DataFrame(truth_rows, columns=["user_id", "item_id"])
    options = dict(k=k, users="union", duplicates="all")
    from_lists = rank_metrics.evaluate(pa.Table.from_pandas(lists, schema=pa.schema(
        [("user_id", pa.int64()), ("item_id", pa.list_(pa.string()))]), preserve_index=False), truth,
        predictions_shape="list", check=True, **options)
    pd.testing.assert_frame_equal(from_lists, rank_metrics.evaluate(long, truth, check=True, **options))


@pytest.mark.parametrize("predictions, options, message", [
    (LISTS, dict(rank="rank"), "rank: list-shaped predictions are ordered by their lists; pass no rank or score (got rank='rank')"),
    (LISTS, dict(score="rank"), "score: list-shaped predictions are ordered by their lists"),
    (LONG.drop(columns="rank"), dict(predictions_shape="list"),
     "predictions_shape='list' but item column item_id of predictions is VARCHAR, not a list; for items in text, "
     "name their separator with item_separator="),
    (LONG.assign(item_id=1), dict(predictions_shape="list", item_separator=" "),
     "item_separator splits text, but item column item_id of predictions is BIGINT"),
    (LISTS, dict(predictions_shape="rows"), "predictions_shape must be one of 'long', 'list'; got 'rows'"),
    (LISTS, dict(item_separator=""), "item_separator must be a non-empty text; got ''"),
    (LISTS.assign(item_id=[[1], [2], [3]]), {}, "column item_id (argument item) is INTEGER in predictions but VARCHAR in truth"),
    # a score or rank column beside lists whose shape was not said was left unread (a new user's trial)
    (LISTS.assign(score=[[0.1, 0.2, 0.3], [0.5, 0.9], [1.0]]), {},
     "predictions' item column item_id holds lists, which are read in their own order, and its score column would be left "
     "unread: for that order, give a row per item (long form; explode both columns); else drop the column or pass "
     "predictions_shape='list'"),
    (LISTS.assign(rank=1), {}, "and its rank column would be left unread"),
    # tuples are lists to DuckDB: tuple ids (1, 2) beside a score met truth's (2, 1) as lists (a new user's trial)
    (LISTS.assign(item_id=pd.Series([("c", "x"), ("b", "a"), ("q",)], dtype=object), score=1.0), {},
     "predictions' item column item_id holds lists, which are read in their own order, and its score column would be left unread"),
])
def test_list_shape_errors_name_the_argument(predictions, options, message):
    with pytest.raises(RankMetricsError) as error:
        rank_metrics.map_at_k(predictions, TRUTH, k=3, **options)
    assert message in str(error.value)


def test_tuples_are_lists():
    """groupby(...).agg(tuple) gives a list per user as tuples: DuckDB reads them as lists."""
    as_tuples = LISTS.assign(item_id=LISTS.item_id.map(tuple))
    assert rank_metrics.map_at_k(as_tuples, TRUTH, k=3, check=True) == rank_metrics.map_at_k(LISTS, TRUTH, k=3)


def test_a_score_beside_lists_said_to_be_lists_is_left_alone():
    scored = LISTS.assign(score=[[0.1, 0.2, 0.3], [0.5, 0.9], [1.0]])
    assert rank_metrics.map_at_k(scored, TRUTH, k=3, predictions_shape="list") == rank_metrics.map_at_k(LISTS, TRUTH, k=3)


def test_list_shaped_truth_has_no_grades():
    with pytest.raises(RankMetricsError, match="relevance: list-shaped truth has no grades; pass no relevance"):
        rank_metrics.map_at_k(LONG, TRUTH_LISTS.assign(grade=1), k=3, relevance="grade")


def test_kaggle_ids_keep_their_leading_zeros(tmp_path):
    """Article ids are text: '0706016002' and '706016002' are two items, in both files."""
    (tmp_path / "submission.csv").write_text("customer_id,prediction\nc1,0706016001 706016002\n")
    (tmp_path / "solution.csv").write_text("customer_id,prediction\nc1,0706016001 0706016002\n")
    got = rank_metrics.average_precision_at_k(str(tmp_path / "submission.csv"), str(tmp_path / "solution.csv"),
                                              k=12, check=True, **KAGGLE)
    assert got[["n_relevant", "n_hits", "average_precision"]].values.tolist() == [[2, 1, 0.5]]


def test_kaggle_files_whose_ids_the_csv_reader_would_take_for_numbers(tmp_path):
    """One item per row and ids without leading zeros look like integers to the CSV reader; with
    item_separator the item columns of CSV files are read as text in both tables, whatever their
    shape, so the submission splits and meets a long-form truth file of the same ids."""
    (tmp_path / "submission.csv").write_text("customer_id,prediction\nc1,706016001\nc2,610776002\n")
    (tmp_path / "solution.csv").write_text("customer_id,prediction\nc1,706016001 706016002\nc2,5\n")
    (tmp_path / "transactions.csv").write_text("customer_id,article_id\nc1,706016001\nc1,706016002\nc2,5\n")
    submission, solution, transactions = (str(tmp_path / name) for name in ("submission.csv", "solution.csv", "transactions.csv"))
    # c1: a hit at 1 of 2 relevant -> 0.5; c2: none
    assert rank_metrics.map_at_k(submission, solution, k=12, check=True, **KAGGLE) == pytest.approx(0.25)
    long_truth = dict(KAGGLE, truth_shape=None, truth_item="article_id")
    assert rank_metrics.map_at_k(submission, transactions, k=12, check=True, **long_truth) == pytest.approx(0.25)
    code, out, _ = run("map-at-k", submission, transactions, "-k", "12", "--user", "customer_id", "--item", "prediction",
                       "--truth-item", "article_id", "--predictions-shape", "list", "--item-separator", " ",
                       "--format", "csv", "--check")
    assert code == 0
    assert out.splitlines()[1] == "12,0.25,2"


def test_a_separator_without_a_list_shaped_table_is_an_error():
    """Unused, a separator would leave each whole text as one item: a silent miss."""
    with pytest.raises(RankMetricsError, match="item_separator splits the items of a list-shaped table out of text, "
                                               "but no table is said to be one: pass predictions_shape='list' for "
                                               "predictions with each user's items in one text, truth_shape='list' for "
                                               "truth in that form, or both"):
        rank_metrics.map_at_k(LONG, TRUTH, k=3, item_separator=" ")


def test_kaggle_text_on_postgres(postgres):
    """string_to_array: blank items (two separators in a row, an empty or NULL text) are no items."""
    with postgres.cursor() as cursor:
        cursor.execute("drop table if exists kaggle_recs; drop table if exists kaggle_truth")
        cursor.execute("create table kaggle_recs (customer_id text, prediction text)")
        cursor.execute("create table kaggle_truth (buyer text, article_id text)")
        cursor.executemany("insert into kaggle_recs values (%s, %s)",
                           [("1", "c  x a"), ("2", "b a "), ("3", "q"), ("5", ""), ("6", None)])
        cursor.executemany("insert into kaggle_truth values (%s, %s)", TRUTH.astype(str).values.tolist())
    postgres.commit()
    got = rank_metrics.evaluate("kaggle_recs", "kaggle_truth", k=[1, 2, 3], con=postgres, check=True,
                                user="customer_id", item="prediction", truth_user="buyer", truth_item="article_id",
                                predictions_shape="list", item_separator=" ")
    want = rank_metrics.evaluate(LONG.astype({"user_id": str}), TRUTH.astype({"user_id": str}), k=[1, 2, 3])
    pd.testing.assert_frame_equal(got, want, check_dtype=False)


KAGGLE_SQL = dict(k=[1, 3], user="customer_id", item="prediction", truth_user="buyer", truth_item="article_id",
                  predictions_shape="list", item_separator=" ", users="union")
KAGGLE_ROWS = [("1", "c  x a"), ("2", "b a "), ("3", "q"), ("5", "")]


def kaggle_expected():
    frame = rank_metrics.evaluate(LONG.astype({"user_id": str}), TRUTH.astype({"user_id": str}), k=[1, 3], users="union")
    return {(row["k"], row["metric"]): row["value"] for row in frame.to_dict("records")}


def test_kaggle_sql_for_snowflake_flattens_and_runs_on_a_snowflake_emulator():
    """Snowflake has no unnest: its variant FLATTENs the split text and takes each item back with
    split_part at FLATTEN's index, so an item stays text (a FLATTEN value is a VARIANT, whose
    cast to text fakesnow spells as JSON, '"a"'). The SQL parses as Snowflake's and runs on
    fakesnow with the reference's numbers."""
    import fakesnow
    import snowflake.connector
    import sqlglot

    text = rank_metrics.sql("recs", "purchases", dialect="snowflake", macro="evaluate", **KAGGLE_SQL)
    flat = " ".join(text.lower().split())
    assert "cross join table(flatten(input => split(rm_l.prediction, ' '))) as rm_u(" in flat
    assert "split_part(rm_l.prediction, ' ', rm_u.rm_position + 1) as prediction" in flat
    assert "unnest" not in flat
    sqlglot.parse(text, read="snowflake", error_level=sqlglot.ErrorLevel.RAISE)
    with fakesnow.patch():
        con = snowflake.connector.connect(database="analytics", schema="public")
        cursor = con.cursor()
        cursor.execute("create or replace table recs (customer_id varchar, prediction varchar)")
        cursor.executemany("insert into recs values (%s, %s)", KAGGLE_ROWS)
        cursor.execute("create or replace table purchases (buyer varchar, article_id varchar)")
        cursor.executemany("insert into purchases values (%s, %s)", TRUTH.astype(str).values.tolist())
        cursor.execute(text)
        names = [column[0].lower() for column in cursor.description]
        got = {(row["k"], row["metric"]): row["value"] for row in (dict(zip(names, values)) for values in cursor.fetchall())}
        con.close()
    assert got == pytest.approx(kaggle_expected(), rel=1e-9)


def test_kaggle_sql_on_postgres(postgres):
    """PostgreSQL's own SQL on PostgreSQL (transpiled to DuckDB its exact means, sums in its
    unbounded numeric, would be DuckDB's DECIMAL(18, 3))."""
    with postgres.cursor() as cursor:
        cursor.execute("drop table if exists kaggle_recs; drop table if exists kaggle_purchases")
        cursor.execute("create table kaggle_recs (customer_id text, prediction text)")
        cursor.executemany("insert into kaggle_recs values (%s, %s)", KAGGLE_ROWS)
        cursor.execute("create table kaggle_purchases (buyer text, article_id text)")
        cursor.executemany("insert into kaggle_purchases values (%s, %s)", TRUTH.astype(str).values.tolist())
    postgres.commit()
    got = rank_metrics.evaluate("kaggle_recs", "kaggle_purchases", con=postgres, check=True, **KAGGLE_SQL)
    assert {(row["k"], row["metric"]): row["value"] for row in got.to_dict("records")} == pytest.approx(kaggle_expected(), rel=1e-9)


@pytest.mark.parametrize("dialect", ["duckdb", "bigquery", "trino"])
def test_kaggle_sql_of_every_dialect_transpiled_back_to_duckdb(dialect):
    """(sqlglot does not read Snowflake's FLATTEN, nor Spark's LATERAL VIEW, back into DuckDB:
    those are checked as text and run on Spark itself.)"""
    import sqlglot

    text = rank_metrics.sql("recs", "purchases", dialect=dialect, macro="evaluate", **KAGGLE_SQL)
    back = sqlglot.transpile(text, read=dialect, write="duckdb")[0] if dialect != "duckdb" else text
    con = duckdb.connect()
    con.execute("create macro bitwise_left_shift(value, shift) as value << shift")   # Trino's, as in test_warehouses
    con.execute("create table recs (customer_id varchar, prediction varchar)")
    con.executemany("insert into recs values (?, ?)", KAGGLE_ROWS)
    con.execute("create table purchases (buyer varchar, article_id varchar)")
    con.executemany("insert into purchases values (?, ?)", TRUTH.astype(str).values.tolist())
    got = {(row["k"], row["metric"]): row["value"] for row in con.execute(back).df().to_dict("records")}
    assert got == pytest.approx(kaggle_expected(), rel=1e-9)


@pytest.mark.parametrize("dialect", ["spark", "databricks"])
def test_kaggle_sql_for_spark_and_databricks_splits_on_an_escaped_pattern_and_parses(dialect):
    import sqlglot

    text = rank_metrics.sql("recs", "purchases", dialect=dialect, macro="evaluate", **KAGGLE_SQL)
    # Spark's split takes a regular expression: the space arrives escaped, its backslash as chr(92)
    # (a backslash in a literal reads by a setting on Spark, issue 40)
    assert "lateral view posexplode(split(rm_l." in " ".join(text.lower().split()) and "prediction" in text \
        and "chr(92) || ' '" in " ".join(text.lower().replace("( ", "(").split()).replace("( ", "(")
    sqlglot.parse(text, read=dialect)


def test_list_shaped_sql_for_redshift_is_an_error():
    # Kaggle's text split by item_separator: said as such, not as an array column (a dbt user's trial)
    with pytest.raises(RankMetricsError, match="list-shaped inputs are not supported on Redshift, neither a list column "
                                               "nor a text split by item_separator"):
        rank_metrics.sql("recs", "purchases", dialect="redshift", **KAGGLE_SQL)


# Mistakes a new user's trial made with list-shaped data (2026-11-25), each of which gave a wrong
# number with no error: now data checks, run where the data is (so on every engine).
TEXT_LISTS = pd.DataFrame({"user_id": [1, 2, 3], "item_id": ["c x a", "b a", "q"]})


@pytest.fixture(params=["duckdb", "postgres", "spark"])
def put(request):
    """(a function giving a table as the engine's input, con) for the Python API."""
    if request.param == "duckdb":
        return (lambda name, table: table), None
    if request.param == "postgres":
        con = request.getfixturevalue("postgres")
        return (lambda name, table: to_postgres(con, name, table)), con
    spark = request.getfixturevalue("spark")
    return (lambda name, table: to_spark(spark, table)), None


@pytest.mark.parametrize("predictions, truth, options, argument, message", [
    # a row per item read as a list per row: each user's items all at position 1
    (LONG.drop(columns="rank"), TRUTH, dict(predictions_shape="list", item_separator=" "), "predictions_shape",
     "predictions_shape='list' reads a row as a user's whole list, but user 1 has 3 rows in predictions; "
     "the lists of several models need by= naming the column that tells them apart; "
     "a row per item is long form: pass its rank or score, not a list shape"),
    # the wrong separator: each whole text one item, so nothing would ever be hit
    (TEXT_LISTS, TRUTH, dict(predictions_shape="list", item_separator=","), "item_separator",
     "',' is in no value of column item_id of predictions, so each whole text would be one item, but ' ' is: "
     "name the separator its lists use"),
    # truth's lists left in long form: each whole text one item
    (TEXT_LISTS, TEXT_LISTS, dict(predictions_shape="list", item_separator=" "), "truth_shape",
     "values of column item_id of truth hold the item separator ' ', so each is a list of items, which long form "
     "would read as one item: pass truth_shape='list'"),
    # a list column written to CSV by pandas: '[c, x, a]' split by ', ' gives '[c' and 'a]' (a new user's trial)
    (pd.DataFrame({"user_id": [1, 2, 3], "item_id": ["[c, x, a]", "[b, a]", "[q]"]}), TRUTH,
     dict(predictions_shape="list", item_separator=", "), "predictions_shape",
     "values of column item_id of predictions are lists in brackets, as Python and pandas write a list to a CSV file "
     "([b, a]): split by the separator, the first and last items would keep the brackets; write each list as its "
     "items joined by the separator alone (', '.join(items)), or a row per item"),
    # lists joined by ', ' split by ',' or by ' ': every item but one kept ' b' or 'b,' and met
    # nothing, silently (a new user's trial)
    *[(pd.DataFrame({"user_id": [1, 2, 3], "item_id": ["c, x, a", "b, a", "q"]}), TRUTH,
       dict(predictions_shape="list", item_separator=separator), "item_separator",
       f"values of column item_id of predictions hold ', ' (b, a): split by '{separator}' alone, its items would keep "
       "the rest of it and meet nothing; pass item_separator=', '") for separator in (",", " ")],
])
def test_list_shape_mistakes_in_the_data_are_errors(put, predictions, truth, options, argument, message):
    load, con = put
    with pytest.raises(RankMetricsError) as error:
        rank_metrics.map_at_k(load("mistake_recs", predictions), load("mistake_truth", truth), k=3, con=con, **options)
    assert f"rank_metrics: {argument}: {message}" in str(error.value)


@pytest.mark.parametrize("engine", ["duckdb", "postgres", "spark"])
def test_an_empty_text_among_a_list_columns_items_is_an_error(engine, request):
    """' c x'.split(' ') begins with an empty text: as an item it took position 1 and met nothing
    (or, in truth, counted as relevant), where the same lists as text drop blank items (a new
    user's trial)."""
    blank_first = [(1, ["", "c", "x"]), (2, ["b"])]
    blank_truth = [(1, ["c"]), (2, ["b", ""])]
    plain = [(1, ["c", "x"]), (2, ["b"])]

    def lists(name, rows):
        if engine == "duckdb":
            return pd.DataFrame(rows, columns=["user_id", "item_id"])
        if engine == "postgres":
            con = request.getfixturevalue("postgres")
            with con.cursor() as cursor:
                cursor.execute(f"drop table if exists {name}; create table {name} (user_id bigint, item_id text[])")
                cursor.executemany(f"insert into {name} values (%s, %s)", rows)
            con.commit()
            return name
        return request.getfixturevalue("spark").createDataFrame(rows, "user_id long, item_id array<string>")

    con = request.getfixturevalue("postgres") if engine == "postgres" else None
    with pytest.raises(RankMetricsError) as error:
        rank_metrics.map_at_k(lists("blank_recs", blank_first), lists("plain_truth", plain), k=3, con=con)
    assert str(error.value) == (
        "rank_metrics: item: column item_id of predictions holds lists with an empty text as an item (user 1's, say), "
        "which would take a place in the list and meet nothing: leave blanks out (' a b'.split(' ') gives one first; "
        ".split() none)")
    with pytest.raises(RankMetricsError) as error:
        rank_metrics.map_at_k(lists("plain_recs", plain), lists("blank_truth", blank_truth), k=3, con=con)
    assert str(error.value).startswith(
        "rank_metrics: item: column item_id of truth holds lists with an empty text as an item (user 2's, say), which "
        "would count as a relevant item that nothing meets")


def test_lists_of_one_item_need_no_separator_in_their_text():
    """A separator no text holds is an error only when the texts hold another one: lists of one
    item each are lists all the same."""
    one_each = pd.DataFrame({"user_id": [1, 2], "item_id": ["c", "b"]})
    assert rank_metrics.map_at_k(one_each, TRUTH, k=3, predictions_shape="list", item_separator=" ",
                                 check=True) == pytest.approx((1 / 2 + 0 + 0) / 3)   # users 1, 2 and 4 of truth


@pytest.mark.parametrize("kind", ["polars Array", "arrow fixed_size_list", "duckdb VARCHAR[3]"])
def test_fixed_size_arrays_are_list_columns(kind):
    fixed = pd.DataFrame({"user_id": [1, 2], "item_id": [["c", "x", "a"], ["b", "a", "q"]]})
    if kind == "polars Array":
        frame = pl.from_pandas(fixed).with_columns(pl.col("item_id").cast(pl.Array(pl.String, 3)))
    elif kind == "arrow fixed_size_list":
        frame = pa.table({"user_id": fixed.user_id, "item_id": pa.array(fixed.item_id.tolist(), pa.list_(pa.string(), 3))})
    else:
        frame = duckdb.sql("select user_id, item_id::VARCHAR[3] as item_id from fixed")
    assert rank_metrics.evaluate(frame, TRUTH, k=[1, 2, 3], check=True).equals(
        rank_metrics.evaluate(fixed, TRUTH, k=[1, 2, 3], check=True))


def test_numpy_arrays_of_text_in_pandas_are_named_with_the_fix():
    """What `items[np.argsort(-scores)[:12]]` gives: DuckDB reads lists, not numpy text arrays."""
    import numpy as np

    frame = pd.DataFrame({"user_id": [1, 2], "item_id": [np.array(["c", "x"]), np.array(["b"])]})
    with pytest.raises(RankMetricsError, match=r"predictions: DuckDB cannot read this DataFrame: .*Data type '<U1' not "
                                               r"recognized \(column 'item_id' holds numpy arrays of text: make each a "
                                               r"list, e.g. df\['item_id'\].map\(list\)\)"):
        rank_metrics.map_at_k(frame, TRUTH, k=3)


def test_a_spent_record_batch_reader_is_named_in_a_warning():
    table = pa.Table.from_pandas(LISTS)
    reader = pa.RecordBatchReader.from_batches(table.schema, table.to_batches())
    assert rank_metrics.map_at_k(reader, TRUTH, k=3) == rank_metrics.map_at_k(LISTS, TRUTH, k=3)
    with pytest.warns(rank_metrics.RankMetricsWarning, match="predictions: the RecordBatchReader gave no rows; a reader "
                                                             "reads once"):
        assert rank_metrics.map_at_k(reader, TRUTH, k=3) == 0


@pytest.mark.parametrize("predictions, truth, options, message", [
    (LISTS, TRUTH, dict(item_separator=" "),
     "item_separator splits the items of a list-shaped table out of text, but the item column of predictions holds "
     "lists already: for truth with each user's items in one text, pass truth_shape='list' with it; else pass no "
     "item_separator"),
    (LISTS, TRUTH_LISTS, dict(item_separator=" "),
     "item_separator splits the items of a list-shaped table out of text, but the item columns of predictions and "
     "truth hold lists already: pass no item_separator"),
    (LONG.drop(columns="rank"), TRUTH, dict(predictions_shape="list"),
     "predictions_shape='list' but item column item_id of predictions is VARCHAR, not a list; for items in text, name "
     "their separator with item_separator= (' ' in a Kaggle submission); for a row per item (long form), pass no "
     "predictions_shape but its rank= or score="),
    (LONG, TRUTH.rename(columns={"item_id": "article_id"}), {},
     "column item_id (argument item) is not in truth; its columns are: user_id, article_id; name truth's own column "
     "with truth_item="),
    (TEXT_LISTS, TRUTH, {},
     "predictions has neither a rank nor a score column; name one with rank= or score= (its columns are: user_id, "
     "item_id); or, if each row holds a user's whole list in column item_id, pass predictions_shape='list' (with "
     "item_separator= for items in text: ' ' in a Kaggle submission)"),
    (TRUTH, TEXT_LISTS, dict(truth_shape="list", item_separator=" "),
     "predictions has neither a rank nor a score column; name one with rank= or score= (its columns are: user_id, "
     "item_id); truth is list-shaped: are predictions and truth the other way round?"),
])
def test_list_shape_hints(predictions, truth, options, message):
    with pytest.raises(RankMetricsError) as error:
        rank_metrics.map_at_k(predictions, truth, k=3, **options)
    assert str(error.value) == "rank_metrics: " + message


def test_the_command_line_names_the_shape_options_as_flags(tmp_path):
    TEXT_LISTS.to_csv(tmp_path / "recs.csv", index=False)
    TEXT_LISTS.to_csv(tmp_path / "truth.csv", index=False)
    code, _, err = run("map-at-k", str(tmp_path / "recs.csv"), str(tmp_path / "truth.csv"), "-k", "3",
                       "--predictions-shape", "list", "--item-separator", " ")
    assert code == 2
    assert "which long form would read as one item: pass --truth-shape list" in err


def test_a_csv_files_ids_are_text_when_the_predictions_ids_are(tmp_path):
    """H&M's transactions file holds article ids that the CSV reader takes for numbers; against a
    Parquet submission of text ids they are read as text (before: a type mismatch, which the
    command line had no way to cast)."""
    pa.parquet.write_table(pa.table({"customer_id": ["c1", "c2"],
                                     "prediction": [["706016001", "372860001"], ["610776002"]]}),
                           tmp_path / "submission.parquet")
    (tmp_path / "transactions.csv").write_text("customer_id,article_id\nc1,372860001\nc1,706016002\nc2,5\n")
    # c1: a hit at 2 of 2 relevant -> (1/2) / 2; c2: none
    options = dict(user="customer_id", item="prediction", truth_item="article_id")
    assert rank_metrics.map_at_k(str(tmp_path / "submission.parquet"), str(tmp_path / "transactions.csv"), k=12,
                                 check=True, **options) == pytest.approx(0.25 / 2)
    code, out, _ = run("map-at-k", str(tmp_path / "submission.parquet"), str(tmp_path / "transactions.csv"), "-k", "12",
                       "--user", "customer_id", "--item", "prediction", "--truth-item", "article_id", "--format", "csv")
    assert (code, out.splitlines()[1]) == (0, "12,0.125,2")


@pytest.mark.parametrize("engine", ["duckdb", "postgres", "spark"])
def test_text_lists_in_truth_against_a_list_column_are_an_error(engine, request):
    """Predictions in a list column, truth in a submission's form read as long form (no separator
    named anywhere): each whole text would be one item. A dbt trial's models gave 0.06 for 0.25."""
    message = ("rank_metrics: truth_shape: values of column item_id of truth hold ' ' (such as 'b a'), which no predicted "
               "item holds: if each holds a user's items in one text, pass truth_shape='list' and item_separator= with it; "
               "if each is one item, pass truth_shape='long'")
    con = None
    if engine == "duckdb":
        predictions, truth = LISTS, TEXT_LISTS
    elif engine == "postgres":
        con = request.getfixturevalue("postgres")
        with con.cursor() as cursor:
            cursor.execute("drop table if exists lists_recs; create table lists_recs (user_id bigint, item_id text[])")
            cursor.executemany("insert into lists_recs values (%s, %s)", LISTS.values.tolist())
        con.commit()
        predictions, truth = "lists_recs", to_postgres(con, "text_truth", TEXT_LISTS)
    else:
        spark = request.getfixturevalue("spark")
        predictions = spark.createDataFrame([tuple(row) for row in LISTS.values.tolist()], "user_id long, item_id array<string>")
        truth = to_spark(spark, TEXT_LISTS)
    with pytest.raises(RankMetricsError) as error:
        rank_metrics.map_at_k(predictions, truth, k=3, con=con)
    assert str(error.value) == message


def test_a_stray_space_in_a_truth_id_is_said():
    """One transaction's id written '0200 ': the message offered the two shapes only, and the
    one-item advice (truth_shape='long') gave a lower MAP without a word (a new user's trial)."""
    truth = pd.DataFrame({"user_id": ["a1", "a1"], "item_id": ["0200 ", "0400"]})
    predictions = pd.DataFrame({"user_id": ["a1"], "item_id": [["0100", "0200", "0400"]]})
    with pytest.raises(RankMetricsError, match=re.escape(
            "truth hold ' ' (such as '0200 '), which no predicted item holds: a space before or after an id makes it "
            "another id, so trim them if that is all; if each holds")):
        rank_metrics.map_at_k(predictions, truth, k=3)


def test_truth_shape_long_says_truth_items_hold_spaces():
    """Item names with a space in long truth, never predicted: the check above cannot tell them
    from lists in text, so truth_shape='long' says which they are (a new user's trial)."""
    predictions = pd.DataFrame({"user_id": ["u1", "u2"], "item_id": [["redshirt", "hat"], ["hat"]]})
    truth = pd.DataFrame({"user_id": ["u1", "u2"], "item_id": ["blue jeans", "hat"]})
    with pytest.raises(RankMetricsError, match="if each is one item, pass truth_shape='long'"):
        rank_metrics.map_at_k(predictions, truth, k=3)
    assert rank_metrics.map_at_k(predictions, truth, k=3, truth_shape="long", check=True) == 0.5


def test_a_group_whose_lists_are_all_empty_is_evaluated():
    """A model whose every list is empty has no unnested row, and its group vanished without a
    word (a new user's trial): under users='truth' its users count with 0, and compare has a
    model to compare with the baseline."""
    predictions = pd.DataFrame({"model": ["m1", "m1", "m2", "m2"], "user_id": ["u1", "u2", "u1", "u2"],
                                "item_id": [["a"], ["b"], [], []]})
    truth = pd.DataFrame({"user_id": ["u1", "u2", "u3"], "item_id": ["a", "c", "b"]})
    got = rank_metrics.map_at_k(predictions, truth, k=3, by="model", check=True)
    assert got[["model", "map_at_k", "n_users"]].values.tolist() == [["m1", pytest.approx(1 / 3), 3], ["m2", 0.0, 3]]
    compared = rank_metrics.compare(predictions, truth, k=3, by="model", baseline="m1", metrics=["map"])
    assert compared.model.tolist() == ["m2"] and compared.difference.tolist() == [pytest.approx(-1 / 3)]
    # under users='predictions' an empty list is no prediction: m2 evaluates no user, so no row
    assert rank_metrics.map_at_k(predictions, truth, k=3, by="model", users="predictions", check=True).model.tolist() == ["m1"]


@pytest.mark.parametrize("column", ["rating", "relevance"])
def test_a_grade_column_of_list_shaped_truth_is_named_as_unread(column):
    """List-shaped truth has no grades: its grade-named column is not read (a `relevance` column
    was ignored without a word, and the warning for `rating` advised relevance=, which is an
    error on list-shaped truth; a new user's trial)."""
    predictions = pd.DataFrame({"user_id": [1], "item_id": [["a", "b"]]})
    truth = pd.DataFrame({"user_id": [1], "item_id": [["a"]], column: [0]})
    with pytest.warns(rank_metrics.RankMetricsWarning, match=rf"truth has a column '{column}' that is not read: list-shaped "
                                                             r"truth has no grades, so every item of a user's list counts "
                                                             r"as relevant, .* give truth in long form"):
        assert rank_metrics.map_at_k(predictions, truth, k=2) == 1.0
