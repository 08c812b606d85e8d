"""List-shaped inputs (issue 8 §5): a row per user with the items in order in a list column, or
in text separated by item_separator (the Kaggle submission file), unnested in SQL; the numbers
equal those of the same data in long form, on DuckDB, PostgreSQL and Spark, in Python, the CLI
and dbt."""

import io
from contextlib import redirect_stdout

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rank_metrics
from rank_metrics import RankMetricsError
from rank_metrics.cli import main

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
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["map-at-k", submission, solution, "-k", "12", "--user", "customer_id", "--item", "prediction",
                     "--predictions-shape", "list", "--truth-shape", "list", "--item-separator", " ",
                     "--format", "csv", "--check"])
    assert code == 0
    assert out.getvalue().splitlines()[1].startswith("12,0.41666666666666")


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


@settings(max_examples=40)
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
    (LISTS, dict(rank="rank"), "rank: list-shaped predictions are ordered by their lists; pass no rank or score (got rank=rank)"),
    (LISTS, dict(score="rank"), "score: list-shaped predictions are ordered by their lists"),
    (LONG.drop(columns="rank"), dict(predictions_shape="list"),
     "predictions_shape='list' but item column item_id of predictions is VARCHAR, not a list; for items in text, "
     "name their separator with item_separator="),
    (LONG.assign(item_id=1), dict(predictions_shape="list", item_separator=" "),
     "item_separator splits text, but item column item_id of predictions is BIGINT"),
    (LISTS, dict(predictions_shape="rows"), "predictions_shape must be one of 'long', 'list'; got 'rows'"),
    (LISTS, dict(item_separator=""), "item_separator must be a non-empty text; got ''"),
    (LISTS.assign(item_id=[[1], [2], [3]]), {}, "column item_id (argument item) is INTEGER in predictions but VARCHAR in truth"),
])
def test_list_shape_errors_name_the_argument(predictions, options, message):
    with pytest.raises(RankMetricsError) as error:
        rank_metrics.map_at_k(predictions, TRUTH, k=3, **options)
    assert message in str(error.value)


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
