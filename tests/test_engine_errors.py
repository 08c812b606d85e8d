"""SPEC §4 and issue 8 on PostgreSQL and Spark: NaN and ±inf are rejected like NULL, order and
grade columns must be numeric, and names clashing with output columns are refused, whatever
the engine."""

import pyarrow as pa
import pytest

import rank_metrics
from rank_metrics import RankMetricsError

from engine_tables import to_postgres, to_spark


@pytest.fixture(params=["postgres", "spark"])
def load(request):
    """(a function putting a named table on the engine, con) for the Python API."""
    if request.param == "postgres":
        con = request.getfixturevalue("postgres")
        return (lambda name, table: to_postgres(con, name, table)), con
    spark = request.getfixturevalue("spark")
    return (lambda name, table: to_spark(spark, table)), None


TRUTH = pa.table({"user_id": [1, 2], "item_id": ["a", "b"]})


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_nan_and_infinite_scores(load, value):
    put, con = load
    predictions = pa.table({"user_id": [1, 1, 2], "item_id": ["a", "b", "a"], "score": [0.5, value, 0.1]})
    with pytest.raises(RankMetricsError, match=r'score: predictions has 1 row with NaN or an infinite value in '
                                               r'column ["`]score["`]; score values must be finite numbers'):
        rank_metrics.map_at_k(put("nan_predictions", predictions), put("nan_truth", TRUTH), k=3, con=con)


def test_nan_relevance(load):
    put, con = load
    predictions = pa.table({"user_id": [1, 1, 2], "item_id": ["a", "b", "a"], "rank": [1, 2, 1]})
    truth = pa.table({"user_id": [1, 2], "item_id": ["a", "b"], "relevance": [1.0, float("nan")]})
    with pytest.raises(RankMetricsError, match=r"relevance: truth has 1 row with NaN or an infinite value"):
        rank_metrics.map_at_k(put("nan_predictions", predictions), put("nan_truth", truth), k=3, con=con)
    # finite grades pass, and the numbers are the reference's
    finite = pa.table({"user_id": [1, 2], "item_id": ["a", "b"], "relevance": [1.0, 2.0]})
    assert rank_metrics.map_at_k(put("nan_predictions", predictions), put("nan_truth", finite), k=3,
                                 con=con, check=True) == pytest.approx(0.5)


def test_text_rank_column(load):
    put, con = load
    predictions = pa.table({"user_id": [1, 1, 2], "item_id": ["a", "b", "a"], "rank": ["1", "2", "1"]})
    with pytest.raises(RankMetricsError,
                       match=r"column rank \(argument rank\) of predictions is (text|string); rank must be a numeric column"):
        rank_metrics.map_at_k(put("text_predictions", predictions), put("text_truth", TRUTH), k=3, con=con)


def test_user_named_like_an_output_column(load):
    put, con = load
    predictions = pa.table({"n_hits": [1, 1, 2], "item_id": ["a", "b", "a"], "rank": [1, 2, 1]})
    truth = pa.table({"n_hits": [1, 2], "item_id": ["a", "b"]})
    with pytest.raises(RankMetricsError, match="user column n_hits clashes with an output column"):
        rank_metrics.average_precision_at_k(put("clash_predictions", predictions), put("clash_truth", truth),
                                            k=3, user="n_hits", con=con)


def test_truth_user_and_item_with_other_names(load):
    put, con = load
    predictions = pa.table({"customer_id": [1, 1, 2], "article_id": ["a", "b", "a"], "rank": [1, 2, 1]})
    truth = pa.table({"buyer": [1, 2], "article": ["b", "a"]})
    got = rank_metrics.average_precision_at_k(put("named_predictions", predictions), put("named_truth", truth), k=2,
                                              user="customer_id", item="article_id", truth_user="buyer",
                                              truth_item="article", con=con, check=True)
    assert got[["customer_id", "average_precision"]].values.tolist() == [[1, 0.5], [2, 1.0]]


def test_checks_on_cached_spark_inputs(spark):
    """Spark answers the NULL checks of cached inputs from the batches' statistics; its batches
    leave NaN out of their bounds, so a NaN among ordinary scores must still be found."""
    nan_scores = pa.table({"user_id": [1, 1, 2], "item_id": ["a", "b", "a"], "score": [0.5, float("nan"), 0.1]})
    cached = to_spark(spark, nan_scores).coalesce(1).cache()
    assert cached.count() == 3
    with pytest.raises(RankMetricsError, match=r"score: predictions has 1 row with NaN or an infinite value"):
        rank_metrics.map_at_k(cached, to_spark(spark, TRUTH), k=3)
    null_user = pa.table({"user_id": [1, None, 2], "item_id": ["a", "b", "a"], "rank": [1, 2, 1]})
    cached = to_spark(spark, null_user).coalesce(1).cache()
    assert cached.count() == 3
    with pytest.raises(RankMetricsError, match=r"user: predictions has 1 row with NULL in column `user_id`"):
        rank_metrics.map_at_k(cached, to_spark(spark, TRUTH), k=3)
    fit = pa.table({"user_id": [1, 1, 2], "item_id": ["a", "b", "a"], "rank": [1, 2, 1]})
    cached = to_spark(spark, fit).coalesce(1).cache()
    assert rank_metrics.map_at_k(cached, to_spark(spark, TRUTH).cache(), k=3, check=True) == pytest.approx(0.5)


def test_a_repeated_item_is_named_with_its_group(load):
    put, con = load
    predictions = pa.table({"model": ["a", "b", "b"], "user_id": [1, 1, 1], "item_id": ["a", "a", "a"], "rank": [1, 1, 2]})
    with pytest.raises(RankMetricsError) as error:
        rank_metrics.map_at_k(put("repeated_predictions", predictions), put("repeated_truth", TRUTH), k=3, by="model",
                              duplicates="error", con=con)
    assert str(error.value) == ("rank_metrics: duplicates: user 1 has item a more than once in predictions "
                                "(model = b), which duplicates='error' refuses")


def test_a_rank_at_its_types_minimum(load):
    """Past k = 61 the list check computed rank - 61, which overflowed PostgreSQL's and Spark's
    (ANSI) bigint for a rank of -2^63: a raw engine error (a new user's trial). DuckDB gave 0.5."""
    put, con = load
    predictions = pa.table({"user_id": [1, 1], "item_id": ["a", "b"], "rank": [-2 ** 63, 1]})
    got = rank_metrics.map_at_k(put("minimum_predictions", predictions), put("minimum_truth", TRUTH.slice(0, 1)),
                                k=[2, 62], con=con, check=True)
    assert got.map_at_k.tolist() == [1.0, 1.0]
