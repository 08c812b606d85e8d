"""SPEC §4: bad input is rejected before any metric is computed, with a message that names the
argument, column or value at fault."""

import duckdb
import pandas as pd
import pytest

import rank_metrics
from rank_metrics import RankMetricsError


@pytest.fixture
def predictions():
    return pd.DataFrame({"user_id": [1, 1, 2], "item_id": ["a", "b", "a"], "rank": [1, 2, 1]})


@pytest.fixture
def truth():
    return pd.DataFrame({"user_id": [1, 2], "item_id": ["a", "b"]})


@pytest.mark.parametrize("k, shown", [(0, "got 0"), (-3, "got -3"), (2.5, "got 2.5"), ("5", "got '5'"),
                                      (True, "got True"), ([], "empty list"), ([5, 0], "got 0"),
                                      (None, "got None")])
def test_k_must_be_positive_integers(predictions, truth, k, shown):
    with pytest.raises(RankMetricsError, match=r"k must be a positive integer") as error:
        rank_metrics.map_at_k(predictions, truth, k=k)
    assert shown in str(error.value)


@pytest.mark.parametrize("option", ["normalization", "users", "duplicates", "tie_break", "convention"])
def test_unknown_option_value(predictions, truth, option):
    with pytest.raises(RankMetricsError, match=rf"{option} must be one of .*; got 'bogus'"):
        rank_metrics.map_at_k(predictions, truth, k=3, **{option: "bogus"})


@pytest.mark.parametrize("argument, table", [("user", "predictions"), ("item", "predictions"),
                                             ("rank", "predictions"), ("score", "predictions"),
                                             ("by", "predictions"), ("relevance", "truth")])
def test_missing_column_is_named_with_the_columns_that_exist(predictions, truth, argument, table):
    frames = {"predictions": predictions, "truth": truth}
    if argument in ("user", "item"):
        frames[table] = frames[table].rename(columns={f"{argument}_id": "other"})
        name = f"{argument}_id"
        keywords = {}
    else:
        name = "missing_column"
        keywords = {argument: name}
    with pytest.raises(RankMetricsError) as error:
        rank_metrics.map_at_k(frames["predictions"], frames["truth"], k=3, **keywords)
    message = str(error.value)
    assert f"column {name} (argument {argument}) is not in {table}" in message
    assert "its columns are: " in message


def test_both_rank_and_score_named(predictions, truth):
    with pytest.raises(RankMetricsError, match="pass rank or score, not both"):
        rank_metrics.map_at_k(predictions.assign(score=1.0), truth, k=3, rank="rank", score="score")


def test_both_rank_and_score_columns_and_neither_named(predictions, truth):
    with pytest.raises(RankMetricsError, match="both a rank and a score column; name the one"):
        rank_metrics.map_at_k(predictions.assign(score=1.0), truth, k=3)


def test_neither_rank_nor_score_column(predictions, truth):
    with pytest.raises(RankMetricsError, match=r"neither a rank nor a score column.*columns are: user_id, item_id, position"):
        rank_metrics.map_at_k(predictions.rename(columns={"rank": "position"}), truth, k=3)


@pytest.mark.parametrize("table, column, argument", [
    ("predictions", "user_id", "user"), ("predictions", "item_id", "item"),
    ("predictions", "rank", "rank"), ("truth", "user_id", "user"), ("truth", "item_id", "item")])
def test_null_values(predictions, truth, table, column, argument):
    frames = {"predictions": predictions.astype({"user_id": "Int64", "rank": "Int64"}),
              "truth": truth.astype({"user_id": "Int64"})}
    frames[table].loc[0, column] = None
    with pytest.raises(RankMetricsError,
                       match=rf'{argument}: {table} has 1 rows with NULL in column "{column}"'):
        rank_metrics.map_at_k(frames["predictions"], frames["truth"], k=3)


def test_null_score(predictions, truth):
    scored = predictions.drop(columns="rank").assign(score=[0.5, None, 0.1])
    with pytest.raises(RankMetricsError, match=r'score: predictions has 1 rows with NULL in column "score"'):
        rank_metrics.map_at_k(scored, truth, k=3)


@pytest.mark.parametrize("column", ["user_id", "item_id"])
def test_user_and_item_types_must_match(predictions, truth, column):
    truth = truth.astype({column: str}) if column == "user_id" else truth.assign(item_id=[1, 2])
    with pytest.raises(RankMetricsError, match=rf"column {column} \(argument {column[:4]}\) is .* in predictions but .* in truth"):
        rank_metrics.map_at_k(predictions, truth, k=3)


def test_int_and_bigint_are_the_same_family(predictions, truth):
    assert rank_metrics.map_at_k(predictions.astype({"user_id": "int32"}), truth, k=3) == pytest.approx(0.5)


def test_empty_truth_under_users_truth(predictions, truth):
    with pytest.raises(RankMetricsError, match="truth has no relevant rows"):
        rank_metrics.map_at_k(predictions, truth.iloc[0:0], k=3)
    # a truth whose every grade is <= 0 has no relevant rows either
    with pytest.raises(RankMetricsError, match="truth has no relevant rows"):
        rank_metrics.map_at_k(predictions, truth.assign(relevance=0), k=3)


def test_empty_predictions_under_users_predictions(predictions, truth):
    with pytest.raises(RankMetricsError, match="predictions has no rows"):
        rank_metrics.map_at_k(predictions.iloc[0:0], truth, k=3, users="predictions")


def test_duplicates_error_names_user_and_item(predictions, truth):
    repeated = pd.concat([predictions, predictions.iloc[[1]].assign(rank=3)])
    with pytest.raises(RankMetricsError, match="duplicates='error': user 1 has item b more than once"):
        rank_metrics.map_at_k(repeated, truth, k=3, duplicates="error")
    with pytest.raises(RankMetricsError, match="duplicates='error'"):
        rank_metrics.map_at_k(repeated, truth, k=3, convention="trec_eval")


def test_missing_file(truth):
    with pytest.raises(RankMetricsError, match=r"predictions: no file matches '.*nothing-here.parquet'"):
        rank_metrics.map_at_k("/tmp/nothing-here.parquet", truth, k=3)


def test_unreadable_file(tmp_path, predictions):
    broken = tmp_path / "truth.parquet"
    broken.write_text("this is not parquet")
    with pytest.raises(RankMetricsError, match=r"truth: cannot read '.*truth.parquet'"):
        rank_metrics.map_at_k(predictions, str(broken), k=3)


def test_unknown_table_name(truth):
    with pytest.raises(RankMetricsError, match="predictions: 'no_such_table' is neither a table"):
        rank_metrics.map_at_k("no_such_table", truth, k=3, con=duckdb.connect())


def test_unsupported_input_type(truth):
    with pytest.raises(RankMetricsError, match="predictions: expected a pandas or polars DataFrame.*got int"):
        rank_metrics.map_at_k(42, truth, k=3)


def test_by_column_clashing_with_an_output_column(predictions, truth):
    with pytest.raises(RankMetricsError, match="by column k clashes"):
        rank_metrics.map_at_k(predictions.assign(k=1), truth, k=3, by="k")


def test_null_by_value(predictions, truth):
    with pytest.raises(RankMetricsError, match=r'by: predictions has 1 rows with NULL in column "model"'):
        rank_metrics.map_at_k(predictions.assign(model=["a", None, "a"]), truth, k=3, by="model")


def test_identifiers_are_quoted_not_pasted(truth):
    # a column name that would be SQL if pasted is just a (strange) column name
    evil = 'item_id" from x; drop table y; --'
    predictions = pd.DataFrame({"user_id": [1], evil: ["a"], "rank": [1]})
    truth = pd.DataFrame({"user_id": [1], evil: ["a"]})
    assert rank_metrics.map_at_k(predictions, truth, k=1, item=evil) == 1.0
    assert '"item_id"" from x; drop table y; --"' in rank_metrics.sql("p", "t", k=1, item=evil)
