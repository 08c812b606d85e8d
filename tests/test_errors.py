"""SPEC §4: bad input is rejected before any metric is computed, with a message that names the
argument, column or value at fault."""

import gzip
import math
import os
import re
import traceback
import warnings
from decimal import Decimal

import duckdb
import pandas as pd
import polars as pl
import pytest

import rank_metrics
from rank_metrics import RankMetricsError

from test_cli import run as run_cli


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


@pytest.mark.parametrize("debug", [False, True])
def test_a_macro_error_reaches_a_notebook_without_the_macro_frames(predictions, truth, monkeypatch, debug):
    """An option the macros refuse is raised inside jinja; its traceback stops at render()
    (19 lines, not 45 that point into jinja and the macro files), unless RANK_METRICS_DEBUG."""
    if debug:
        monkeypatch.setenv("RANK_METRICS_DEBUG", "1")
    else:
        monkeypatch.delenv("RANK_METRICS_DEBUG", raising=False)
    with pytest.raises(RankMetricsError, match="gain must be one of 'linear', 'exponential', 'binary', 'graded'; got 'cubic'") \
            as raised:
        rank_metrics.ndcg_at_k(predictions, truth, k=3, gain="cubic")
    files = [frame.filename for frame in traceback.extract_tb(raised.tb)]
    assert any(file.endswith(".sql") or f"{os.sep}jinja2{os.sep}" in file for file in files) == debug, files
    assert any(file.endswith("_render.py") for file in files)


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


def test_the_tables_given_the_other_way_round(predictions, truth):
    """A new user passed the truth file first: the message says what that looks like."""
    with pytest.raises(RankMetricsError, match=r"neither a rank nor a score column; name one with rank= or score= "
                                               r"\(its columns are: user_id, item_id\); truth has rank: are predictions "
                                               r"and truth the other way round\?"):
        rank_metrics.map_at_k(truth, predictions, k=3)


@pytest.mark.parametrize("table, column, argument", [
    ("predictions", "user_id", "user"), ("predictions", "item_id", "item"),
    ("predictions", "rank", "rank"), ("truth", "user_id", "user"), ("truth", "item_id", "item")])
def test_null_values(predictions, truth, table, column, argument):
    frames = {"predictions": predictions.astype({"user_id": "Int64", "rank": "Int64"}),
              "truth": truth.astype({"user_id": "Int64"})}
    frames[table].loc[0, column] = None
    with pytest.raises(RankMetricsError,
                       match=rf'{argument}: {table} has 1 row with NULL in column "{column}"'):
        rank_metrics.map_at_k(frames["predictions"], frames["truth"], k=3)


def test_null_score(predictions, truth, tmp_path):
    scored = predictions.drop(columns="rank").assign(score=[0.5, None, 0.1])
    with pytest.raises(RankMetricsError, match=r'score: predictions has 1 row with NULL in column "score"; score values must '
                                               r'not be NULL \(missing: pandas shows NULL as NaN or None\)$'):
        rank_metrics.map_at_k(scored, truth, k=3)
    # pandas is named only where the input was pandas (a new user's report: dbt and CSV files too)
    scored.to_csv(tmp_path / "scored.csv", index=False)
    with pytest.raises(RankMetricsError, match=r'score: predictions has 1 row with NULL in column "score"; score values must '
                                               r'not be NULL$'):
        rank_metrics.map_at_k(str(tmp_path / "scored.csv"), pl.from_pandas(truth), k=3)
    with pytest.raises(RankMetricsError, match=r'must not be NULL$'):   # truth in pandas, the NULL elsewhere
        rank_metrics.map_at_k(str(tmp_path / "scored.csv"), truth, k=3)


@pytest.mark.parametrize("column", ["user_id", "item_id"])
def test_user_and_item_types_must_match(predictions, truth, column):
    truth = truth.astype({column: str}) if column == "user_id" else truth.assign(item_id=[1, 2])
    with pytest.raises(RankMetricsError, match=rf"column {column} \(argument {column[:4]}\) is .* in predictions but .* in truth"):
        rank_metrics.map_at_k(predictions, truth, k=3)


def test_int_and_bigint_are_the_same_family(predictions, truth):
    assert rank_metrics.map_at_k(predictions.astype({"user_id": "int32"}), truth, k=3) == pytest.approx(0.5)


@pytest.mark.parametrize("column", ["user_id", "item_id"])
def test_whole_number_ids_against_floating_point_ids_are_rejected(column):
    """Compared as doubles, distinct ids past 2^53 are equal: three predicted ids met one truth id
    and AP@3 came out 3.0 with no word (a new user's report). A pandas column of ids that held a
    missing value is float64, so this is no rare input."""
    ids = [1234567890123456789, 1234567890123456790, 1234567890123456800]
    predictions = pd.DataFrame({"user_id": [7, 7, 7], "item_id": ids, "rank": [1, 2, 3]})
    truth = pd.DataFrame({"user_id": [7], "item_id": [ids[2]]})
    assert rank_metrics.map_at_k(predictions, truth, k=3, check=True) == pytest.approx(1 / 3)
    truth = truth.astype({column: "float64"})
    with pytest.raises(RankMetricsError, match=rf"column {column} \(argument {column[:4]}\) is BIGINT in predictions but "
                                               r"DOUBLE in truth; cast one so they match \(ids compared with a floating point "
                                               r"column are compared as doubles"):
        rank_metrics.map_at_k(predictions, truth, k=3)
    # the same on both sides compares alike, and an integer against a decimal compares exactly
    assert rank_metrics.map_at_k(predictions.astype({column: "float64"}), truth, k=3) >= 0
    exact = pd.DataFrame({"user_id": [7], "item_id": [ids[2]]}).astype({"item_id": "object"})
    exact["item_id"] = [__import__("decimal").Decimal(ids[2])]
    assert rank_metrics.map_at_k(predictions, exact, k=3) == pytest.approx(1 / 3)


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
    with pytest.raises(RankMetricsError, match="^rank_metrics: duplicates: user 1 has item b more than once in predictions, "
                                               "which duplicates='error' refuses$"):
        rank_metrics.map_at_k(repeated, truth, k=3, duplicates="error")
    # the convention that set it is named (a user of trec_eval's convention did not see why)
    with pytest.raises(RankMetricsError, match=r"user 1 has item b more than once in predictions, "
                                               r"which duplicates='error' \(set by convention='trec_eval'\) refuses$"):
        rank_metrics.map_at_k(repeated, truth, k=3, convention="trec_eval")
    # and its group: two models may list the same item for a user, once each
    models = pd.concat([predictions.assign(model="a"), repeated.assign(model="b", day=7)])
    with pytest.raises(RankMetricsError) as error:
        rank_metrics.map_at_k(models.assign(day=7), truth, k=3, by=["model", "day"], duplicates="error")
    assert str(error.value) == ("rank_metrics: duplicates: user 1 has item b more than once in predictions "
                                "(model = b, day = 7), which duplicates='error' refuses")


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
    with pytest.raises(RankMetricsError, match=r'by: predictions has 1 row with NULL in column "model"'):
        rank_metrics.map_at_k(predictions.assign(model=["a", None, "a"]), truth, k=3, by="model")


def test_identifiers_are_quoted_not_pasted(truth):
    # a column name that would be SQL if pasted is just a (strange) column name
    evil = 'item_id" from x; drop table y; --'
    predictions = pd.DataFrame({"user_id": [1], evil: ["a"], "rank": [1]})
    truth = pd.DataFrame({"user_id": [1], evil: ["a"]})
    assert rank_metrics.map_at_k(predictions, truth, k=1, item=evil) == 1.0
    assert '"item_id"" from x; drop table y; --"' in rank_metrics.sql("p", "t", k=1, item=evil)



def test_names_holding_a_line_break_are_read_as_named():
    """A line break in a column's name: Jinja's indent filter put spaces after it inside the
    quoted name ("m\\n        x" was not found), and a list of names joined by line breaks split it
    in two ("m" and "x"): raw BinderExceptions (a new user's trial). The names are read whole:
    with a cutoff-free metric beside one at k, with ranks to number again (a gap), and in beyond
    accuracy."""
    predictions = pd.DataFrame({"user\nid": [1, 1, 2], "item_id": ["a", "b", "a"], "rank": [1, 3, 1],
                                "m\nx": ["m1", "m1", "m1"], "note\nday": ["d", "d", "d"]})
    truth = pd.DataFrame({"user\nid": [1, 2], "item_id": ["b", "a"]})
    got = rank_metrics.evaluate(predictions, truth, k=2, by=["m\nx"], user="user\nid", metrics=["map", "bpref"])
    assert got[["m\nx", "metric", "value"]].values.tolist() == [["m1", "map", 0.75], ["m1", "bpref", 1.0]]
    beyond = rank_metrics.beyond_accuracy(predictions, truth, k=2, user="user\nid", metrics=["catalog_coverage"])
    assert beyond.value.tolist() == [1.0]


# Issue 8 §1: never a silent number

@pytest.mark.parametrize("k, ks", [(range(1, 4), [1, 2, 3]), ({3, 1}, [1, 3]), ((3, 1, 3), [1, 3]),
                                   ("numpy array", [1, 3]), ("numpy scalars", [1, 3]),
                                   (pd.Series([3, 1]), [1, 3])])
def test_k_as_any_iterable_of_integers_gives_a_row_per_k(predictions, truth, k, ks):
    import numpy as np

    k = {"numpy array": np.array([1, 3]), "numpy scalars": [np.int64(1), np.int32(3)]}.get(k, k) \
        if isinstance(k, str) else k
    got = rank_metrics.map_at_k(predictions, truth, k=k, check=True)
    assert list(got.k) == ks
    assert list(got.map_at_k) == pytest.approx([0.5] * len(ks))   # user 1 hits a at 1, user 2 never


def test_numpy_integer_k_gives_a_float(predictions, truth):
    import numpy as np

    assert rank_metrics.map_at_k(predictions, truth, k=np.int64(3)) == pytest.approx(0.5)
    assert rank_metrics.map_at_k(predictions, truth, k=np.uint8(3)) == pytest.approx(0.5)


@pytest.mark.parametrize("k, shown", [(np_float := "numpy float", "got 3.0"), (range(0, 3), "got 0"),
                                      (range(0), "empty list"), ({2.5}, "got 2.5")])
def test_k_iterables_with_bad_values_are_rejected(predictions, truth, k, shown):
    import numpy as np

    k = np.float64(3.0) if k == np_float else k
    with pytest.raises(RankMetricsError, match="k must be a positive integer") as error:
        rank_metrics.map_at_k(predictions, truth, k=k)
    assert shown in str(error.value)


def test_k_beyond_the_engines_bigint(predictions, truth):
    with pytest.raises(RankMetricsError, match=r"k must be at most 9223372036854775807.*got 9223372036854775808"):
        rank_metrics.map_at_k(predictions, truth, k=[5, 2**63])
    assert rank_metrics.map_at_k(predictions, truth, k=2**63 - 1) == pytest.approx(0.5)


def nonfinite_table(kind, columns):
    """A table holding real NaN/inf values (pandas would turn NaN into NULL on the way in)."""
    import pyarrow as pa
    import polars as pl

    return pa.table(columns) if kind == "arrow" else pl.DataFrame(columns)


@pytest.mark.parametrize("kind", ["arrow", "polars"])
@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
@pytest.mark.parametrize("argument", ["rank", "score"])
def test_nan_and_infinite_order_values_are_rejected(truth, kind, value, argument):
    predictions = nonfinite_table(kind, {"user_id": [1, 1, 2], "item_id": ["a", "b", "a"], argument: [1.0, value, 2.0]})
    with pytest.raises(RankMetricsError, match=rf'{argument}: predictions has 1 row with NaN or an infinite value '
                                               rf'in column "{argument}"; {argument} values must be finite numbers'):
        rank_metrics.map_at_k(predictions, truth, k=3)


@pytest.mark.parametrize("value", [float("nan"), float("inf")])
def test_nan_and_infinite_relevance_are_rejected(predictions, value):
    truth = nonfinite_table("arrow", {"user_id": [1, 2], "item_id": ["a", "b"], "relevance": [1.0, value]})
    with pytest.raises(RankMetricsError, match=r'relevance: truth has 1 row with NaN or an infinite value in column "relevance"'):
        rank_metrics.map_at_k(predictions, truth, k=3)


def test_nan_in_a_parquet_file_is_rejected(tmp_path):
    """pyarrow writes a column's minimum and maximum leaving NaN out, and DuckDB folded the check
    with them: a NaN score of a Parquet file went into MAP@3 (0.333333, exit 0), a NaN rank gave a
    raw ConversionException (a new user's trial)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    def parquet(name, columns):
        pq.write_table(pa.table(columns), tmp_path / name)
        return str(tmp_path / name)

    truth = parquet("truth.parquet", {"user_id": [1], "item_id": ["a"]})
    for argument in ("rank", "score"):
        predictions = parquet(f"{argument}.parquet", {"user_id": [1, 1, 1], "item_id": ["a", "b", "c"],
                                                       argument: [1.0, float("nan"), 3.0]})
        with pytest.raises(RankMetricsError, match=rf'{argument}: predictions has 1 row with NaN or an infinite value in column '
                                                   rf'"{argument}"'):
            rank_metrics.map_at_k(predictions, truth, k=3)
        with pytest.raises(RankMetricsError, match=rf"predictions has NaN or an infinite value in column {argument}"):
            rank_metrics.beyond_accuracy(predictions, truth, k=3, metrics=["catalog_coverage"])
    graded = parquet("graded.parquet", {"user_id": [1, 1], "item_id": ["a", "b"], "relevance": [float("nan"), 1.0]})
    listed = parquet("lists.parquet", {"user_id": [1, 1], "item_id": ["a", "b"], "rank": [1, 2]})
    with pytest.raises(RankMetricsError, match=r'relevance: truth has 1 row with NaN or an infinite value in column "relevance"'):
        rank_metrics.evaluate(listed, graded, k=2, metrics=["bpref", "err", "auc"])
    features = parquet("features.parquet", {"item_id": ["a", "b"], "x": [float("nan"), 1.0]})
    with pytest.raises(RankMetricsError, match=r"item_features has NULL, NaN or an infinite value in column x"):
        rank_metrics.beyond_accuracy(listed, truth, k=2, metrics=["diversity"], item_features=features, similarity="features")


def test_finite_doubles_at_the_extremes_are_accepted(truth):
    predictions = pd.DataFrame({"user_id": [1, 1, 2], "item_id": ["a", "b", "a"],
                                "score": [1.7976931348623157e308, -1.7976931348623157e308, 5e-324]})
    assert rank_metrics.map_at_k(predictions, truth, k=3, check=True) == pytest.approx(0.5)


@pytest.mark.parametrize("argument, table, values, shown", [
    ("rank", "predictions", ["1", "2", "1"], "VARCHAR"),
    # microseconds, as pandas 3 makes them (pandas 2's nanoseconds are DuckDB's TIMESTAMP_NS)
    ("rank", "predictions", pd.to_datetime(["2024-01-01"] * 3).as_unit("us"), "TIMESTAMP"),
    ("rank", "predictions", [True, False, True], "BOOLEAN"),
    ("score", "predictions", ["0.5", "0.2", "0.1"], "VARCHAR"),
    ("relevance", "truth", ["1", "2"], "VARCHAR"),
    ("relevance", "truth", [True, False], "BOOLEAN"),
])
def test_order_and_grade_columns_must_be_numeric(predictions, truth, argument, table, values, shown):
    frames = {"predictions": predictions.drop(columns="rank") if table == "predictions" else predictions,
              "truth": truth}
    frames[table] = frames[table].assign(**{argument: values})
    with pytest.raises(RankMetricsError) as error:
        rank_metrics.map_at_k(frames["predictions"], frames["truth"], k=3)
    assert str(error.value) == (f"rank_metrics: column {argument} (argument {argument}) of {table} is {shown}; "
                                f"{argument} must be a numeric column (integer, decimal or floating point)")


@pytest.mark.parametrize("values", [[1, 1, 1], [1.5, 1.5, 1.5]])
def test_numeric_order_types_of_every_kind_are_accepted(predictions, truth, values):
    import decimal

    for column in (pd.Series(values, dtype="int16" if isinstance(values[0], int) else "float32"),
                   [decimal.Decimal(str(value)) for value in values]):
        assert rank_metrics.map_at_k(predictions.assign(rank=column), truth, k=3, check=True) == pytest.approx(0.5)


@pytest.mark.parametrize("table, column", [("predictions", "item_id"), ("truth", "item_id"), ("predictions", "user_id"),
                                           ("truth", "model")])
def test_nan_in_floating_point_ids_is_rejected(table, column):
    """NaN equals NaN in SQL's joins, so two NaN items met as one (1.0 where the reference gives
    0.0; a new user's report, with polars, which keeps NaN as a value)."""
    frames = {"predictions": pl.DataFrame({"user_id": [1.0, 1.0, 2.0], "item_id": [1.0, 2.0, 3.0], "rank": [1, 2, 1],
                                           "model": [1.0, 1.0, 1.0]}),
              "truth": pl.DataFrame({"user_id": [1.0, 2.0], "item_id": [1.0, 3.0], "model": [1.0, 1.0]})}
    clean = rank_metrics.map_at_k(frames["predictions"], frames["truth"], k=3, by="model", check=True)
    assert clean.map_at_k.tolist() == [1.0]
    values = frames[table][column].to_list()
    frames[table] = frames[table].with_columns(pl.Series(column, [float("nan")] + values[1:]))
    argument = "by" if column == "model" else column[:4]
    with pytest.raises(RankMetricsError, match=rf'{argument}: {table} has 1 row with NaN or an infinite value in column '
                                               rf'"{column}"; {argument} values must be finite numbers'):
        rank_metrics.map_at_k(frames["predictions"], frames["truth"], k=3, by="model")


def test_a_by_column_spelt_in_another_case_in_truth(predictions, truth):
    """Names are matched as spelt: truth's `Day` is not the by column `day`, so every day would
    share all of truth, with no word (a new user's report)."""
    with pytest.raises(RankMetricsError, match=r"by column day is in truth as Day, in another case; names are matched as spelt, so the "
                                               r"groups would not be matched with truth's but share all of it"):
        rank_metrics.map_at_k(predictions.assign(day="x"), truth.assign(Day="x"), k=3, by="day")
    with pytest.raises(RankMetricsError, match=r"by column day is in truth as 'day ', with other spaces around it; names"):
        rank_metrics.map_at_k(predictions.assign(day="x"), truth.assign(**{"day ": "x"}), k=3, by="day")
    # truth_by given says which by columns truth matches on: then sharing is asked for
    assert len(rank_metrics.map_at_k(predictions.assign(day="x"), truth.assign(Day="x"), k=3, by="day", truth_by=[])) == 1


@pytest.mark.parametrize("keywords, renamed, message", [
    ({}, {"rank": "Rank"}, "predictions has neither a rank nor a score column, but it has Rank, in another case "
                           "(names are matched as spelt): pass rank='Rank'"),
    ({"rank": "RANK"}, {}, "column RANK (argument rank) is not in predictions; its columns are: user_id, item_id, rank; "
                           "it has rank, in another case (names are matched as spelt): pass rank='rank'"),
    ({}, {"user_id": "User_Id"}, "column user_id (argument user) is not in predictions; its columns are: User_Id, item_id, "
                                 "rank; it has User_Id, in another case (names are matched as spelt): pass user='User_Id'"),
])
def test_a_column_in_another_case_is_named(predictions, truth, keywords, renamed, message):
    with pytest.raises(RankMetricsError) as error:
        rank_metrics.map_at_k(predictions.rename(columns=renamed), truth, k=3, **keywords)
    assert message in str(error.value)


@pytest.mark.parametrize("keywords, message", [
    ({"by": "modle"}, "column modle (argument by) is not in predictions; its columns are: user_id, item_id, rank, model; "
                      "did you mean model?"),
    ({"user": "usr_id"}, "column usr_id (argument user) is not in predictions; its columns are: user_id, item_id, rank, "
                         "model; did you mean user_id?"),
    ({"relevance": "grdae"}, "column grdae (argument relevance) is not in truth; its columns are: user_id, item_id, grade; "
                             "did you mean grade?"),
    ({"user": "customer_id"}, "column customer_id (argument user) is not in predictions; its columns are: user_id, item_id, "
                              "rank, model\n"),
])
def test_a_misspelt_column_offers_the_name_meant(predictions, truth, keywords, message):
    """A user's trial: by=['modle'] listed the columns but named none (a swap of two letters is
    one edit, as in the argument names' did-you-mean)."""
    with pytest.raises(RankMetricsError) as error:
        rank_metrics.map_at_k(predictions.assign(model="m"), truth.assign(grade=1), k=3, **keywords)
    assert message in str(error.value) + "\n"


@pytest.mark.parametrize("renamed, keywords, advice", [
    ({"item_id": "ITEM_ID"}, {}, "pass truth_item='ITEM_ID'"),
    ({"user_id": "USER_ID"}, {}, "pass truth_user='USER_ID'"),
    ({"day": "Day"}, {"by": "day", "truth_by": ["day"]}, "rename one of the two columns"),
])
def test_advice_for_truths_column_in_another_case_names_truths_argument(predictions, truth, renamed, keywords, advice):
    """A re-check found `pass item='ITEM_ID'` for truth's column, which then failed on predictions."""
    with pytest.raises(RankMetricsError) as error:
        rank_metrics.map_at_k(predictions.assign(day="x"), truth.assign(day="x").rename(columns=renamed), k=3, **keywords)
    assert str(error.value).endswith(f"(names are matched as spelt): {advice}")


@pytest.mark.parametrize("name", ["N_Users", "CI_LOW", "Map_At_K", "K", "Metric", "Rank"])
def test_by_named_like_an_output_column_in_another_case(predictions, truth, name):
    """The engines fold unquoted names: by='N_Users' gave a column N_Users_1 holding the group
    in place of n_users, and others a Binder error (a re-check's report)."""
    # beside the rank column, Rank is that name twice to DuckDB, which matches names whatever their case
    clash = "column 'Rank' appears 2 times in this DataFrame" if name == "Rank" else f"by column {name} clashes"
    with pytest.raises(RankMetricsError, match=clash):
        rank_metrics.evaluate(predictions.assign(**{name: "g"}), truth, k=3, by=name)


def test_a_by_column_named_twice(predictions, truth):
    with pytest.raises(RankMetricsError, match="by names column model twice"):
        rank_metrics.map_at_k(predictions.assign(model="a"), truth, k=3, by=["model", "model"])


def test_matched_by_columns_must_have_one_type(predictions, truth):
    with pytest.raises(RankMetricsError, match=r"column day \(argument by\) is BIGINT in predictions but VARCHAR in truth"):
        rank_metrics.map_at_k(predictions.assign(day=1), truth.assign(day="1"), k=3, by="day")
    # a by column truth lacks is not matched, so its type is free
    assert len(rank_metrics.map_at_k(predictions.assign(day="x"), truth, k=3, by="day")) == 1


def test_a_boolean_grade_column_that_is_not_read_warns_to_cast_it(predictions, truth):
    clicked = truth.assign(clicked=[True, False])
    with pytest.warns(rank_metrics.RankMetricsWarning, match=r"truth has a column 'clicked' that is not read: .* it is boolean: "
                                                             r"cast it to an integer \(1 relevant, 0 not\) and pass relevance='clicked'"):
        assert rank_metrics.map_at_k(predictions, clicked, k=3) == rank_metrics.map_at_k(predictions, truth, k=3)


@pytest.mark.parametrize("argument", ["user", "item"])
@pytest.mark.parametrize("name", ["k", "map_at_k", "average_precision", "n_users", "n_relevant", "n_hits"])
def test_user_or_item_named_like_an_output_column(predictions, truth, argument, name):
    renamed = {f"{argument}_id": name}
    with pytest.raises(RankMetricsError) as error:
        rank_metrics.average_precision_at_k(predictions.rename(columns=renamed), truth.rename(columns=renamed),
                                            k=3, **{argument: name})
    assert str(error.value).startswith(f"rank_metrics: {argument} column {name} clashes with an output column (k, map_at_k")


@pytest.mark.parametrize("name", ["map_at_k", "n_users", "average_precision", "n_relevant", "n_hits",
                                  "std_error", "ci_low", "t", "p_value_adjusted", "n_only_baseline"])
def test_by_named_like_an_output_column(predictions, truth, name):
    with pytest.raises(RankMetricsError, match=f"by column {name} clashes"):
        rank_metrics.map_at_k(predictions.assign(**{name: 1}), truth, k=3, by=name)


def test_user_and_item_naming_one_column(predictions, truth):
    with pytest.raises(RankMetricsError, match="user and item both name column item_id; they must be two different columns"):
        rank_metrics.map_at_k(predictions, truth, k=3, user="item_id", item="item_id")
    with pytest.raises(RankMetricsError, match="user and item both name column user_id"):
        rank_metrics.sql("p", "t", k=3, item="user_id")


def csv_file(folder, name, header, rows):
    path = folder / name
    path.write_text("".join(line + "\n" for line in [header, *rows]) if header is not None else "")
    return str(path)


GOOD_TRUTH = ("user_id,item_id", ["1,a", "2,b"])


def read_error(folder, argument, broken):
    """The one-line message of map_at_k with the broken file as `argument` and a good other file."""
    files = {"predictions": csv_file(folder, "p.csv", "user_id,item_id,rank", ["1,a,1", "2,a,1"]),
             "truth": csv_file(folder, "t.csv", *GOOD_TRUTH), argument: broken}
    with pytest.raises(RankMetricsError) as error:
        rank_metrics.map_at_k(files["predictions"], files["truth"], k=3)
    message = str(error.value)
    assert message.startswith(f"rank_metrics: {argument}: cannot read {broken!r}: ") and "\n" not in message
    return message


@pytest.mark.parametrize("argument", ["predictions", "truth"])
@pytest.mark.parametrize("case, contents, problem", [
    ("empty", (None, []), "the file is empty"),
    ("header only", ("user_id,item_id,rank", []), "it has a header line but no rows"),
    ("ragged near the top", ("user_id,item_id,rank", ["1,a,1", "2,b,1,x,y", "3,c,1"] * 5),
     "do its lines have different numbers of fields?"),
    # an extra field after a good row: DuckDB's sniffer alone would skip the lines above it and
    # read the wide row as the header, so the file's own columns would be 'missing'
    ("an extra field in a short file", ("user_id,item_id,rank", ["1,a,1", "2,b,1,9"]),
     "do its lines have different numbers of fields?"),
    # a .csv file is read with commas: another separator would leave one column named after the header
    ("semicolons", ("user_id;item_id;rank", ["1;a;1", "2;b;1"]),
     "it reads as one column, 'user_id;item_id;rank': a .csv file is read with commas between fields, "
     "and this one has ';' between them; save it with commas, or name it .txt"),
    ("tabs", ("user_id\titem_id\trank", ["1\ta\t1"]), "and this one has '\\t' between them"),
])
def test_broken_files_say_what_is_wrong_with_the_file(tmp_path, argument, case, contents, problem):
    message = read_error(tmp_path, argument, csv_file(tmp_path, "broken.csv", *contents))
    assert problem in message


@pytest.mark.parametrize("argument, header, bad_line, problem", [
    ("predictions", "user_id,item_id,rank", "9,b,notanumber", 'Could not convert string "notanumber"'),
    ("truth", "user_id,item_id", "9,b,c,d", "Expected Number of Columns: 2"),
])
def test_a_bad_line_deep_in_a_file_names_the_file(tmp_path, argument, header, bad_line, problem):
    """DuckDB guesses types from the first rows and reads the rest only when a query needs them."""
    rows = [f"{user},a" + (",1" if argument == "predictions" else "") for user in range(1, 60_001)]
    message = read_error(tmp_path, argument, csv_file(tmp_path, "broken.csv", header, rows + [bad_line]))
    assert "CSV Error on Line: 60002" in message and problem in message


def test_an_empty_parquet_file_with_columns_is_data_not_a_broken_file(tmp_path, predictions, truth):
    path = tmp_path / "p.parquet"
    duckdb.connect().from_df(predictions.iloc[0:0]).write_parquet(str(path))
    # no predictions: every truth user is evaluated with AP 0
    with pytest.warns(rank_metrics.RankMetricsWarning, match="every value is 0; predictions has no rows$"):
        assert rank_metrics.map_at_k(str(path), truth, k=3) == 0.0


def test_a_list_shaped_submission_of_empty_lists_warns_of_no_items():
    # its rows are there: "predictions has no rows" misled a Kaggle user with 20,000 of them
    submission = pd.DataFrame({"customer_id": ["a", "b"], "prediction": ["", ""]})
    with pytest.warns(rank_metrics.RankMetricsWarning, match="every value is 0; predictions has no items: every list is empty$"):
        assert rank_metrics.map_at_k(submission, pd.DataFrame({"customer_id": ["a"], "article_id": ["x"]}), k=12,
                                     user="customer_id", item="prediction", truth_item="article_id",
                                     predictions_shape="list", item_separator=" ") == 0.0


def test_no_hit_at_all_warns_that_the_ids_may_not_match(predictions, truth):
    """Every value 0, or no user evaluated, is right by the definitions, but most often the two
    tables' ids do not match: the number alone would not say so (a new user's report). The
    warning says which: no user in both tables, or users that meet with no item in truth; an
    empty table; no relevant truth row (users of two trials: empty predictions, and a column of
    zeros named as the grades, were both blamed on the ids)."""
    import warnings

    offset = truth.assign(user_id=truth["user_id"] + 1000)
    with pytest.warns(rank_metrics.RankMetricsWarning, match=r"no evaluated user has a relevant item within the first 3 "
                      r"items of their list, so every value is 0; no user of predictions is in truth: check that "
                      r"'user_id' holds the same ids in predictions and truth \(same type and formatting"):
        assert rank_metrics.map_at_k(predictions, offset, k=3) == 0.0
    with pytest.warns(rank_metrics.RankMetricsWarning, match="no user is evaluated, so there is no number; no user of predictions"):
        assert math.isnan(rank_metrics.map_at_k(predictions, offset, k=3, users="both"))
    with pytest.warns(rank_metrics.RankMetricsWarning, match="every value is 0; no user of predictions is in truth"):
        rank_metrics.evaluate(predictions, offset, k=[1, 3])
    # compare's t test too (a user's trial: rows of difference 0 and p 1, without a word why)
    two_models = pd.concat([predictions.assign(model="a"), predictions.assign(model="b")])
    with pytest.warns(rank_metrics.RankMetricsWarning, match="every value is 0; no user of predictions is in truth"):
        rank_metrics.compare(two_models, offset, k=3, by="model", baseline="a", users="predictions")
    other_items = truth.assign(item_id=truth["item_id"].astype(str) + "x")
    with pytest.warns(rank_metrics.RankMetricsWarning, match=r"every value is 0; users meet, but none has a predicted item "
                      r"in truth within the cut: if that is unexpected, check that 'item_id' holds the same ids"):
        assert rank_metrics.map_at_k(predictions, other_items, k=3) == 0.0
    # user 1's a is in truth, graded 0: met, but not relevant (a new user read "not in truth")
    with pytest.warns(rank_metrics.RankMetricsWarning, match=r"every value is 0; users meet, but none has a predicted item "
                      r"among truth's relevant rows \(1 of its 2 rows are relevant\) within the cut"):
        assert rank_metrics.map_at_k(predictions, truth.assign(grade=[0, 1]), k=3, relevance="grade") == 0.0
    with pytest.warns(rank_metrics.RankMetricsWarning, match="every value is 0; no row of truth is relevant: every grade is 0 or less$"):
        assert rank_metrics.map_at_k(predictions, truth.assign(grade=0), k=3, relevance="grade", users="predictions") == 0.0
    with pytest.warns(rank_metrics.RankMetricsWarning, match="every grade is below relevance_threshold 5$"):
        rank_metrics.map_at_k(predictions, truth.assign(grade=1), k=3, relevance="grade", users="predictions", relevance_threshold=5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # a result with a hit: no warning
        assert rank_metrics.map_at_k(predictions, truth, k=3) > 0
        rank_metrics.evaluate_users(predictions, truth, k=[1, 3])
    # bpref reads the whole list, and is 0 with a relevant item listed under a judged non-relevant
    # one: its warning says both, and no cut (it read a cut of 1, and blamed the ids: a user's trial)
    listed = pd.DataFrame({"user_id": [1, 1], "item_id": ["a", "b"], "rank": [1, 2]})
    with pytest.warns(rank_metrics.RankMetricsWarning, match=r"^rank_metrics: every value of bpref is 0: no evaluated user's list holds a "
                      r"relevant item, or a judged non-relevant item is ranked above each one; users meet: if lists should "
                      r"hold items among truth's relevant rows \(1 of its 2 rows are relevant\), check that 'item_id'"):
        assert rank_metrics.bpref(listed, pd.DataFrame({"user_id": [1, 1], "item_id": ["a", "b"], "relevance": [0, 1]})) == 0.0
    with pytest.warns(rank_metrics.RankMetricsWarning,
                      match=r"^rank_metrics: every value of bpref is 0: .*; no user of predictions is in truth"):
        rank_metrics.evaluate(predictions, offset, k=3, metrics=["bpref"], users="truth")
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # bpref beside MAP with a hit: MAP says something was met
        rank_metrics.evaluate(listed, pd.DataFrame({"user_id": [1, 1], "item_id": ["a", "b"], "relevance": [0, 1]}), k=2,
                              metrics=["map", "bpref"])


@pytest.mark.parametrize("name", ["rel", "label", "Grade", "rating", "Relevance", "clicked",
                                  # a grade word within the name (a dbt user's qty_grade gave no warning)
                                  "qty_grade", "stars", "user_rating", "star-count"])
def test_a_grade_column_that_is_not_read_warns(predictions, truth, name):
    """Truth with a grade column not named `relevance` and no relevance= counts every row as
    relevant, grade 0 too: a trec qrels file read as (query, doc, rel) gave P@10 1.0 against
    trec_eval's 0.3 with no word (a new user's report). Only names that grades go by warn."""
    import warnings

    graded = truth.assign(**{name: [0] * len(truth)})
    with pytest.warns(rank_metrics.RankMetricsWarning,
                      match=rf"truth has a column '{name}' that is not read: every truth row counts as relevant, "
                            rf"whatever '{name}' holds; if it holds relevance grades \(0 or less: not relevant\), "
                            rf"pass relevance='{name}' \(--relevance {name} on the command line\)"):
        everything = rank_metrics.map_at_k(predictions, graded, k=3)
    assert everything == rank_metrics.map_at_k(predictions, truth, k=3) > 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # named, read as grades: no warning (and every row graded 0: no user)
        with pytest.raises(RankMetricsError, match="truth has no relevant rows"):
            rank_metrics.map_at_k(predictions, graded, k=3, relevance=name)
        rank_metrics.map_at_k(predictions, truth.assign(quantity=1, **{name: ["x"] * len(truth)}), k=3)   # not numbers
        rank_metrics.map_at_k(predictions, truth.assign(relevance=1, **{name: 1}), k=3)   # 'relevance' is read
        rank_metrics.map_at_k(predictions, truth.assign(quantity=1, rank_of_day=2, grader_id=3), k=3)   # no grade word


def test_an_order_column_named_as_the_other_kind_warns(predictions, truth):
    """rank= on a column named `score` reads the list backwards with no error (a new user's trial:
    0.222 for 0.444); so does score= on one named `position`. Names with words of both kinds,
    and each kind under its own argument, give no warning."""
    import warnings

    scored = predictions.assign(score=[0.9, 0.1, 0.5], position=predictions["rank"], score_rank=predictions["rank"])
    with pytest.warns(rank_metrics.RankMetricsWarning,
                      match=r"^rank_metrics: rank='score' reads column score ascending \(its lowest value first\), but it is "
                            r"named as scores are; if a higher value is better, pass score='score' \(--score score on the "
                            r"command line\)$"):
        backwards = rank_metrics.map_at_k(scored.drop(columns="rank"), truth, k=2, rank="score")
    with pytest.warns(rank_metrics.RankMetricsWarning, match=r"^rank_metrics: score='position' reads column position "
                      r"descending .* pass rank='position' \(--rank position on the command line\)$"):
        rank_metrics.map_at_k(scored, truth, k=2, score="position")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        forwards = rank_metrics.map_at_k(scored.drop(columns="rank"), truth, k=2, score="score")
        for order in (dict(rank="position"), dict(rank="score_rank"), dict(score="score"), dict(rank="rank")):
            rank_metrics.map_at_k(scored, truth, k=2, **order)
    assert (backwards, forwards) == (pytest.approx(0.25), pytest.approx(0.5))


def test_the_command_line_hint_for_an_unread_grade_column_is_quoted(predictions, truth):
    with pytest.warns(rank_metrics.RankMetricsWarning, match=r"\(--relevance 'Star Count' on the command line\)"):
        rank_metrics.map_at_k(predictions, truth.assign(**{"Star Count": 1}), k=3)


def test_an_unread_numeric_column_of_a_file_without_a_header_warns(tmp_path):
    """A TREC qrels file (query 0 doc grade) has no header: its columns are column0..column3, and
    the grade column, not named, left every row relevant (P@2 1.0 against trec_eval's 0.5). The
    last numeric column not read is named; the iteration column (column1) is not a grade."""
    (tmp_path / "run.tsv").write_text("q1\tQ0\td1\t1\t2.0\tr\nq1\tQ0\td2\t2\t1.0\tr\n")
    (tmp_path / "qrels.tsv").write_text("q1\t0\td1\t0\nq1\t0\td2\t1\n")
    columns = dict(user="column0", item="column2", score="column4")
    with pytest.warns(rank_metrics.RankMetricsWarning, match=r"truth has a column 'column3' that is not read: every truth row "
                      r"counts as relevant, whatever 'column3' holds; .* pass relevance='column3' \(--relevance column3"):
        assert rank_metrics.precision_at_k(str(tmp_path / "run.tsv"), str(tmp_path / "qrels.tsv"), k=2, **columns) == 1.0
    assert rank_metrics.precision_at_k(str(tmp_path / "run.tsv"), str(tmp_path / "qrels.tsv"), k=2, relevance="column3",
                                       **columns) == 0.5


def test_a_csv_number_column_of_text_names_a_value(tmp_path):
    """A rank column with NA (R's missing value, which pandas reads as one) is text to DuckDB's
    CSV reader: the error named only the type (a new user's trial); it names a value too."""
    (tmp_path / "t.csv").write_text("user_id,item_id,grade\n1,a,2\n1,b,x2\n")
    for rank, said in (("NA", "; in a CSV file a missing value is an empty field, and NA, as R writes one, is text"),
                       ("2nd", "")):
        (tmp_path / "p.csv").write_text(f"user_id,item_id,rank\n1,a,1\n1,b,{rank}\n")
        with pytest.raises(RankMetricsError, match=re.escape(f"column rank (argument rank) of predictions is VARCHAR; rank "
                                                             f"must be a numeric column (integer, decimal or floating point) "
                                                             f"(it holds text such as {rank!r}{said})") + "$"):
            rank_metrics.map_at_k(str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), k=2)
    (tmp_path / "p.csv").write_text("user_id,item_id,rank\n1,a,1\n1,b,2\n")
    with pytest.raises(RankMetricsError, match=r"of truth is VARCHAR; .* \(it holds text such as 'x2'\)$"):
        rank_metrics.map_at_k(str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), k=2, relevance="grade")


def test_a_txt_file_of_spaces_is_read_as_columns(tmp_path):
    """TREC's run and qrels files are separated by spaces, which DuckDB's sniffer does not try:
    a .txt of them came out one column, named after its first line."""
    (tmp_path / "run.txt").write_text("301 Q0 D1 1 2.5 r\n301 Q0 D2 2 1.5 r\n302 Q0 D3 1 3 r\n")
    (tmp_path / "qrels.txt").write_text("301 0 D1 0\n301 0 D2 1\n302 0 D3 2\n")
    got = rank_metrics.evaluate_users(str(tmp_path / "run.txt"), str(tmp_path / "qrels.txt"), k=2, metrics=["map", "precision"],
                                      user="column0", item="column2", score="column4", relevance="column3",
                                      convention="trec_eval", check=True)
    # text ids under the trec_eval convention
    assert got[["column0", "average_precision", "precision"]].values.tolist() == [["301", 0.5, 0.5], ["302", 1.0, 0.5]]


def test_numeric_ids_under_the_trec_eval_convention_warn_of_its_text_order():
    """trec_eval orders documents of equal score by their ids as text, descending: '9' before
    '10'. Numbers order the other way, so a run of all-digit doc ids read as numbers gave P@1 0
    where trec_eval gives 1 (a new user's report). Text ids, or a tie_break named, do not warn."""
    import warnings

    run = pd.DataFrame({"query": ["1", "1", "2"], "doc": [9, 10, 5], "score": [1.0, 1.0, 1.0]})
    qrels = pd.DataFrame({"query": ["1", "2"], "doc": [9, 5], "relevance": [1, 1]})
    arguments = dict(k=1, user="query", item="doc", score="score", convention="trec_eval")
    with pytest.warns(rank_metrics.RankMetricsWarning, match=r"convention='trec_eval': trec_eval orders documents of equal "
                      r"score by their ids as text, descending \('9' before '10'\), but column doc holds numbers \(BIGINT\)"):
        assert rank_metrics.precision_at_k(run, qrels, **arguments) == 0.5   # query 1: doc 10 first
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        as_text = rank_metrics.precision_at_k(run.astype({"doc": str}), qrels.astype({"doc": str}), **arguments)
        assert as_text == 1.0   # what trec_eval gives
        assert rank_metrics.precision_at_k(run, qrels, **arguments, tie_break="item") == 1.0


def _spent_reader(frame):
    import pyarrow as pa

    reader = pa.RecordBatchReader.from_batches(*(lambda table: (table.schema, table.to_batches()))(pa.Table.from_pandas(frame)))
    reader.read_all()
    return reader


def _compare_of_a_spent_truth(predictions, truth):
    with pytest.raises(RankMetricsError, match="truth has no relevant rows"):   # after the warning
        rank_metrics.compare(predictions.assign(model="a"), _spent_reader(truth), k=2, by="model", baseline="a")


# each warning of the package, by a call that gives it
WARNINGS = {
    "unread grade column": lambda p, t: rank_metrics.map_at_k(p, t.assign(rating=1), k=2),
    "unread grade column, printed SQL": lambda p, t: rank_metrics.sql("p", "t", k=2, con=_registered(p, t.assign(rating=1))),
    "numeric ids, trec_eval": lambda p, t: rank_metrics.precision_at_k(p.assign(item_id=[1, 2, 1]), t.assign(item_id=[1, 2]),
                                                                       k=1, convention="trec_eval", score="rank"),
    "nothing met": lambda p, t: rank_metrics.map_at_k(p, t.assign(item_id=["x", "y"]), k=2),
    "no user evaluated": lambda p, t: rank_metrics.evaluate(p, t.assign(user_id=[7, 8]), k=2, users="both"),
    "a group without users": lambda p, t: rank_metrics.evaluate(p.assign(model=["a", "a", "n"]), t.assign(user_id=[1, 3]),
                                                                k=2, by="model", users="both"),
    "spent reader": lambda p, t: rank_metrics.map_at_k(_spent_reader(p), t, k=2),
    "spent reader, compare": lambda p, t: _compare_of_a_spent_truth(p, t),
    "unpaired models, permutation test": lambda p, t: rank_metrics.compare(
        p.assign(model=["a", "a", "b"], user_id=[1, 1, 2]), t, k=2, by="model", baseline="b", users="predictions",
        test="permutation", seed=1),
}


def _registered(predictions, truth):
    con = duckdb.connect()
    con.register("p", predictions)
    con.register("t", truth)
    return con


@pytest.mark.parametrize("call", WARNINGS.values(), ids=WARNINGS.keys())
def test_every_warning_points_at_the_users_call(predictions, truth, call):
    """A warning's file and line are the caller's, however deep in the package it is found:
    counted by hand per function, they pointed into rank_metrics when a call went one deeper."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call(predictions, truth)
    warned = [warning for warning in caught if issubclass(warning.category, rank_metrics.RankMetricsWarning)]
    assert warned and [warning.filename for warning in warned] == [__file__] * len(warned)


def test_files_under_the_trec_eval_convention_have_text_ids(tmp_path):
    """trec_eval reads query and document ids as text: so do CSV/TSV/TXT files under its
    convention (and its tie-break), which then reproduce it where all-digit ids tie; on the
    command line there is no other way to give the ids as text."""
    import warnings

    (tmp_path / "run.txt").write_text("1 Q0 9 1 1.0 r\n1 Q0 10 2 1.0 r\n2 Q0 5 1 1.0 r\n")
    (tmp_path / "qrels.txt").write_text("1 0 9 1\n2 0 5 1\n")
    files = (str(tmp_path / "run.txt"), str(tmp_path / "qrels.txt"))
    columns = dict(k=1, user="column0", item="column2", score="column4", relevance="column3", convention="trec_eval")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert rank_metrics.precision_at_k(*files, **columns, check=True) == 1.0   # trec_eval: '9' before '10'
        assert rank_metrics.precision_at_k(*files, **columns, tie_break="item_desc") == 0.5   # named: numbers, 10 first
    code, out, err = run_cli("precision-at-k", *files, "-k", "1", "--convention", "trec_eval", "--user", "column0",
                             "--item", "column2", "--score", "column4", "--relevance", "column3", "--format", "csv")
    assert (code, out, err) == (0, "k,precision_at_k,n_users\n1,1.0,2\n", "")


def test_polars_128_bit_integer_ids_are_named_with_the_fix():
    """DuckDB reads no 128-bit integer through Arrow, and its message names only the format
    string '_pli128': the column and a cast come with it."""
    predictions = pl.DataFrame({"user_id": pl.Series([1, 1], dtype=pl.Int128), "item_id": ["a", "b"], "rank": [1, 2]})
    truth = pl.DataFrame({"user_id": [1], "item_id": ["a"]})
    with pytest.raises(RankMetricsError, match=r"predictions: DuckDB cannot read this DataFrame: .* \(column 'user_id' "
                                               r"is Int128, which DuckDB does not read from Arrow: cast it, e\.g\. "
                                               r"pl\.col\('user_id'\)\.cast\(pl\.Int64\) when its values fit, else pl\.String\)"):
        rank_metrics.map_at_k(predictions, truth, k=2)
    assert rank_metrics.map_at_k(predictions.with_columns(pl.col("user_id").cast(pl.Int64)), truth, k=2) == 1.0


def test_a_missing_item_column_is_named_before_the_order_column():
    """A list column under another name (items, not item_id): the item column is what is missing,
    not a rank or score (the message said the latter; a new user's trial)."""
    predictions = pd.DataFrame({"user_id": [1], "items": [["a", "b"]]})
    truth = pd.DataFrame({"user_id": [1], "item_id": ["a"]})
    with pytest.raises(RankMetricsError, match=r"^rank_metrics: column item_id \(argument item\) is not in predictions; "
                                               r"its columns are: user_id, items$"):
        rank_metrics.map_at_k(predictions, truth, k=2)
    assert rank_metrics.map_at_k(predictions, truth, k=2, item="items", truth_item="item_id") == 1.0


def test_the_connection_is_free_after_a_data_check_fails_or_a_warning(predictions, truth):
    """A caller's connection (con=) is used again: the data checks' answer, and the counts the
    all-zero warning reads, must not leave a result unfinished on it (DuckDB then refuses the
    next query: 'connection has an unfinished result')."""
    con = duckdb.connect()
    with pytest.raises(RankMetricsError, match="NULL"):
        rank_metrics.map_at_k(predictions.assign(rank=None), truth, k=3, con=con)
    with pytest.warns(rank_metrics.RankMetricsWarning, match="every value is 0"):
        rank_metrics.map_at_k(predictions, truth.assign(user_id=truth["user_id"] + 1000), k=3, con=con)
    assert rank_metrics.map_at_k(predictions, truth, k=3, con=con) > 0
    assert con.execute("select 1").fetchall() == [(1,)]


def test_a_file_of_another_name_says_how_to_read_it(tmp_path, monkeypatch):
    """trec_eval's own test files are named qrels.test and results.test: the message says to
    give such a text file a name the reader knows."""
    (tmp_path / "qrels.test").write_text("301 0 D1 1\n")
    with pytest.raises(RankMetricsError, match=r"truth: cannot tell the format of '.*qrels\.test'; expected a name ending in "
                       r"one of .* \(a text file of another name, such as trec_eval's qrels\.test, is read as \.txt: copy or "
                       r"link it under such a name\)"):
        rank_metrics.map_at_k(pd.DataFrame({"user_id": [1], "item_id": ["D1"], "rank": [1]}), str(tmp_path / "qrels.test"), k=1)
    # named from its folder, with no '/': the message that it is no table says it is a file here
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RankMetricsError, match=r"truth: 'qrels\.test' is neither a table .*; it is a file "
                       r"here, whose name does not tell its format \(a text file of another name"):
        rank_metrics.map_at_k(pd.DataFrame({"user_id": [1], "item_id": ["D1"], "rank": [1]}), "qrels.test", k=1)


def test_a_file_naming_a_column_twice_is_an_error(tmp_path):
    """DuckDB read a file's first item_id and renamed the second item_id_1: MAP 1.0 from one of
    two item columns, without a word (a new user's trial), where a frame with two is an error.
    A file whose names only look renamed is read."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    truth = pd.DataFrame({"user_id": [1], "item_id": ["a"]})
    (tmp_path / "twice.csv").write_text("user_id,item_id,item_id,rank\n1,a,b,1\n1,c,d,2\n")
    (tmp_path / "twice.tsv.gz").write_bytes(gzip.compress(b"user_id\titem_id\tITEM_ID\trank\n1\ta\tb\t1\n"))
    pq.write_table(pa.Table.from_arrays([pa.array([1, 1]), pa.array(["a", "c"]), pa.array(["b", "d"]), pa.array([1, 2])],
                                        names=["user_id", "item_id", "item_id", "rank"]), tmp_path / "twice.parquet")
    for name, spelt in (("twice.csv", ""), ("twice.tsv.gz", " (item_id, ITEM_ID: DuckDB matches names whatever their case)"),
                        ("twice.parquet", "")):
        with pytest.raises(RankMetricsError, match=rf"^rank_metrics: predictions: column 'item_id' appears 2 times in "
                                                   rf"'.*{re.escape(name)}'{re.escape(spelt)}; drop or rename all but one"):
            rank_metrics.map_at_k(str(tmp_path / name), truth, k=2)
    (tmp_path / "looks.csv").write_text("user_id,item_id,item_id_1,rank\n1,a,b,1\n")
    assert rank_metrics.map_at_k(str(tmp_path / "looks.csv"), truth, k=2) == 1.0


def test_a_parquet_file_of_another_name_and_a_folder_without_a_slash_are_read(tmp_path, monkeypatch):
    """A Parquet file named without .parquet was refused with the hint for text files, and a
    folder named without its '/' as no file at all (a README trial): a file that starts with
    Parquet's mark is Parquet, and a folder that exists is read as a folder."""
    predictions = pd.DataFrame({"user_id": [1, 1, 2], "item_id": ["a", "b", "c"], "rank": [1, 2, 1]})
    pd.DataFrame({"user_id": [1, 2], "item_id": ["b", "c"]}).to_parquet(tmp_path / "purchases")
    (tmp_path / "recs" / "model=x").mkdir(parents=True)
    predictions.to_parquet(tmp_path / "recs" / "model=x" / "part-0.parquet")
    monkeypatch.chdir(tmp_path)
    # 1: b at 2 (1/2); 2: c at 1
    assert rank_metrics.map_at_k(predictions, "purchases", k=2, check=True) == 0.75
    assert rank_metrics.map_at_k("recs", "purchases", k=2, check=True) == 0.75
    assert rank_metrics.evaluate("recs", "purchases", k=2, by="model", metrics=["map"]).value.tolist() == [0.75]
    # a table of the connection's of that name still wins
    con = duckdb.connect()
    con.execute("create table purchases as select 1 as user_id, 'a' as item_id")
    assert rank_metrics.map_at_k(predictions, "purchases", k=2, con=con) == 1.0
    # on a connection of the caller's, a bare name that is no table means a table (found in review):
    # the folder or file of that name here is named, not read
    with pytest.raises(RankMetricsError, match=r"'recs' is neither a table .*; it is a folder here: name it 'recs/' to read it$"):
        rank_metrics.map_at_k("recs", "purchases", k=2, con=con)
    con.execute("drop table purchases")
    with pytest.raises(RankMetricsError, match=r"; it is a Parquet file here: name it './purchases' to read it$"):
        rank_metrics.map_at_k(predictions, "purchases", k=2, con=con)
    assert rank_metrics.map_at_k("recs/", "./purchases", k=2, con=con) == 0.75
    # a table in a schema off the search path is named by DuckDB's hint, not as missing (found in review)
    con.execute("create schema shop; create table shop.recs as select 1 as user_id, 'b' as item_id, 1 as rank")
    with pytest.raises(RankMetricsError, match=r"predictions: a table or view named 'recs' is on the connection, but not by "
                       r"that name alone: Catalog Error: .*Did you mean \"shop\.recs\"\?"):
        rank_metrics.map_at_k("recs", "./purchases", k=2, con=con)
    assert rank_metrics.map_at_k("shop.recs", "./purchases", k=2, con=con) == 0.5
    # a folder named with a format's suffix, as Spark names what df.write.csv('x.csv') writes, and
    # Hive's Parquet files named without one (000000_0)
    (tmp_path / "spark.csv").mkdir()
    predictions.to_csv(tmp_path / "spark.csv" / "part-00000-1.csv", index=False)
    (tmp_path / "spark.csv" / "_SUCCESS").write_text("")
    (tmp_path / "hive" / "model=y").mkdir(parents=True)
    predictions.to_parquet(tmp_path / "hive" / "model=y" / "000000_0")
    assert rank_metrics.map_at_k("spark.csv", "purchases", k=2, check=True) == 0.75
    assert rank_metrics.evaluate("hive", "purchases", k=2, by="model", metrics=["map"]).model.tolist() == ["y"]
    # … as a glob, and beside .parquet files (found in review: such files were left out, silently)
    assert rank_metrics.evaluate("hive/*/*", "purchases", k=2, by="model", metrics=["map"]).model.tolist() == ["y"]
    (tmp_path / "mixed").mkdir()
    predictions[predictions.user_id == 1].to_parquet(tmp_path / "mixed" / "000000_0")
    predictions[predictions.user_id == 2].to_parquet(tmp_path / "mixed" / "000001_0.parquet")
    assert rank_metrics.map_at_k("mixed", "purchases", k=2, check=True) == 0.75
    (tmp_path / "mixed" / "000001_0.parquet").unlink()
    (tmp_path / "mixed" / "README").write_text("rows of user 1")
    with pytest.raises(RankMetricsError, match=r"cannot tell the format of folder 'mixed': beside Parquet files named without "
                       r"a suffix it has files of no format it can tell \('README'\); name the files to read with a glob"):
        rank_metrics.map_at_k("mixed", "purchases", k=2)
    # a text file whose first word happens to be PAR1 is no Parquet file: Parquet's mark ends it too
    (tmp_path / "run").write_text("PAR1 Q0 D1 1 2.0 run\n")
    with pytest.raises(RankMetricsError, match=r"'run' is neither .*; it is a file here, whose name does not tell its format"):
        rank_metrics.map_at_k("run", "purchases", k=2)


def test_a_column_name_twice_is_an_error(predictions, truth):
    """pd.concat(axis=1) can give a frame two 'rank' columns: DuckDB read the first and renamed the
    second, silently (0.0 here, 1.0 by the other; a new user's trial)."""
    import pyarrow as pa

    repeated = pd.concat([predictions, pd.DataFrame({"rank": [2, 1, 1]})], axis=1)
    with pytest.raises(RankMetricsError, match=r"predictions: column 'rank' appears 2 times in this DataFrame; drop or rename"):
        rank_metrics.map_at_k(repeated, truth, k=1)
    table = pa.Table.from_arrays([pa.array([1]), pa.array(["a"]), pa.array(["a"])], names=["user_id", "item_id", "item_id"])
    with pytest.raises(RankMetricsError, match=r"truth: column 'item_id' appears 2 times in this Table"):
        rank_metrics.map_at_k(predictions, table, k=1)
    # two columns of a name nothing reads are left alone
    notes = pd.concat([predictions, pd.DataFrame({"note": ["x"] * 3}), pd.DataFrame({"note": ["y"] * 3})], axis=1)
    assert rank_metrics.map_at_k(notes, truth, k=1) == rank_metrics.map_at_k(predictions, truth, k=1)


def test_a_column_without_a_type_is_empty_or_null_not_a_type_error(truth):
    """pd.DataFrame(columns=[...]) has object columns, and a column of only None has no type
    either: DuckDB calls them "NULL", which the type checks reported as a type ('rank of
    predictions is "NULL"', a new user's trial). An empty table is an empty table; NULLs are
    named by the data checks."""
    with pytest.warns(rank_metrics.RankMetricsWarning, match="predictions has no rows"):
        assert rank_metrics.map_at_k(pd.DataFrame(columns=["user_id", "item_id", "rank"]), truth, k=3, check=True) == 0.0
    with pytest.raises(RankMetricsError, match=r'rank: predictions has 2 rows with NULL in column "rank"'):
        rank_metrics.map_at_k(pd.DataFrame({"user_id": [1, 1], "item_id": ["a", "b"], "rank": [None, None]}), truth, k=3)
    with pytest.raises(RankMetricsError, match=r'user: predictions has 2 rows with NULL in column "user_id"'):
        rank_metrics.map_at_k(pd.DataFrame({"user_id": [None, None], "item_id": ["a", "b"], "rank": [1, 2]}), truth, k=3)
    # and list-shaped: an empty frame's item column may be a list column (found in review)
    with pytest.warns(rank_metrics.RankMetricsWarning, match="every list is empty"):
        assert rank_metrics.map_at_k(pd.DataFrame(columns=["user_id", "item_id"]), truth, k=3,
                                     predictions_shape="list", check=True) == 0.0


def test_a_column_name_with_spaces_around_it_is_shown_with_them():
    """truth's 'relevance ' (a trailing space from a spreadsheet's header): the warning said pass
    relevance='relevance', which then was not a column, and the error listed the columns with
    the space out of sight (a new user's trial)."""
    predictions = pd.DataFrame({"user_id": ["u1", "u1"], "item_id": ["a", "b"], "rank": [1, 2]})
    truth = pd.DataFrame({"user_id": ["u1", "u1"], "item_id": ["a", "b"], "relevance ": [0, 1]})
    with pytest.warns(rank_metrics.RankMetricsWarning, match=r"pass relevance='relevance ' \(--relevance 'relevance ' on"):
        rank_metrics.map_at_k(predictions, truth, k=2)
    with pytest.raises(RankMetricsError, match=r"it has 'relevance ', with other spaces around it \(names are matched as "
                                               r"spelt\): pass relevance='relevance '$"):
        rank_metrics.map_at_k(predictions, truth, k=2, relevance="relevance")
    assert rank_metrics.map_at_k(predictions, truth, k=2, relevance="relevance ", check=True) == 0.5
    # a column called ' ' is not taken for the grade column the macro did not name
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert rank_metrics.map_at_k(predictions, truth.rename(columns={"relevance ": " "}), k=2) == 1.0


@pytest.mark.parametrize("given, meant", [("normalisation", "normalization"), ("nromalization", "normalization"),
                                          ("tiebreak", "tie_break"), ("item_col", "item"), ("relevance_column", "relevance"),
                                          ("metric", "metrics"), ("truth_relevance", None), ("foo", None),
                                          ("item_seperator", "item_separator"), ("gain_form", "gain_from"), ("userid", "user"),
                                          ("tie_braek", "tie_break")])
def test_a_macros_unknown_argument_offers_the_name_meant(given, meant):
    """dbt's message for a misspelt keyword (Python's own says it with difflib): the longest
    shared beginning offered item_separator for item_col, and a name beginning the given one
    item for item_seperator (found in reviews)."""
    from rank_metrics._render import render

    with pytest.raises(Exception) as error:
        render("map_at_k", "duckdb", predictions="p", truth="t", k=5, **{given: 1})
    hint = f" (did you mean '{meant}'?)" if meant else ""
    assert f"rank_metrics: unknown argument '{given}'{hint}; the arguments after" in str(error.value)


@pytest.mark.parametrize("given, meant", [("mink", "min_m_k"), ("minmk", "min_m_k"), ("norm", None), ("hit", "hits")])
def test_a_misspelt_value_offers_the_value_meant(given, meant):
    """normalization='mink' offered 'm', which it begins with (a dbt user's trial): a name of one
    letter is not offered so, and one name holding the letters in order is."""
    hint = f" \\(did you mean '{meant}'\\?\\)" if meant else ""
    with pytest.raises(RankMetricsError, match=rf"normalization must be one of 'min_m_k', 'm', 'hits'; got '{given}'{hint}$"):
        rank_metrics.map_at_k(pd.DataFrame({"user_id": [1], "item_id": ["a"], "rank": [1]}),
                              pd.DataFrame({"user_id": [1], "item_id": ["a"]}), k=1, normalization=given)


def test_an_object_column_of_several_types_is_an_error():
    """DuckDB reads a pandas object column of 1 and '1' as text, where they are one id: user 2's
    1 met truth's '1' and MAP@2 was 1.0, where pandas and its user see two items."""
    predictions = pd.DataFrame({"user_id": [1, 2, 3], "item_id": ["a", 1, "1"], "rank": [1, 1, 1]})
    truth = pd.DataFrame({"user_id": [1, 2, 3], "item_id": ["a", "1", 1]})
    with pytest.raises(RankMetricsError, match=r"predictions: column 'item_id' holds values of several types "
                       r"\(int such as 1, str such as 'a'\); they would be compared as text, .*"
                       r"make it one type, e.g. df\['item_id'\].astype\(str\)"):
        rank_metrics.map_at_k(predictions, truth, k=2)
    # as the message says: one type, and then 1 and '1' are one id by the user's own choice
    as_text = predictions.assign(item_id=predictions.item_id.astype(str))
    assert rank_metrics.map_at_k(as_text, truth.assign(item_id=truth.item_id.astype(str)), k=2) == 1.0
    # the by column too; a column nothing reads, numbers of two kinds, and lists are left alone
    with pytest.raises(RankMetricsError, match=r"truth: column 'model' holds values of several types \(int such as 1, str such as 'b'\)"):
        rank_metrics.map_at_k(predictions.assign(item_id=["a", "1", "1"], model="b"),
                              truth.assign(item_id=["a", "1", "1"], model=["b", 1, "b"]), k=2, by="model", truth_by="model")
    # a categorical is read as an enum of its categories' text (a new user's trial: MAP 1.0 for 0.0)
    categorical = predictions.assign(item_id=pd.Categorical([1, "a", 2]))
    with pytest.raises(RankMetricsError,
                       match=r"predictions: column 'item_id' holds values of several types \(int such as 1, str such as 'a'\)"):
        rank_metrics.map_at_k(categorical, truth.astype({"item_id": str}), k=2)
    tidy = predictions.assign(item_id=["a", "1", "1"])
    assert rank_metrics.map_at_k(tidy.astype({"item_id": "category"}), truth.astype({"item_id": str}), k=2) == 1.0
    noted = tidy.assign(note=pd.Series(["x", 2, None], dtype=object))
    assert rank_metrics.map_at_k(noted, truth.astype({"item_id": str}), k=2) == 1.0
    numbers = tidy.assign(rank=pd.Series([1, 1.0, Decimal(1)], dtype=object))
    assert rank_metrics.map_at_k(numbers, truth.astype({"item_id": str}), k=2) == 1.0
    lists = pd.DataFrame({"user_id": [1, 2, 3], "item_id": [["a", "b"], ["1"], ["1"]]})
    assert rank_metrics.map_at_k(lists, truth.astype({"item_id": str}), k=2) == 1.0


@pytest.mark.parametrize("column", ["item_id", "user_id"])
def test_an_interval_is_no_id(column):
    """pandas' timedeltas are DuckDB's intervals, which keep microseconds: items of 1, 2 and 3 ns
    were one item and MAP@3 1.0 for 1/3 (a new user's trial); 1 month equals 30 days too."""
    predictions = pd.DataFrame({"user_id": [1, 1, 1], "item_id": [1, 2, 3], "rank": [1, 2, 3]})
    truth = pd.DataFrame({"user_id": [1], "item_id": [3]})
    predictions[column] = pd.to_timedelta(predictions[column], unit="ns")
    truth[column] = pd.to_timedelta(truth[column], unit="ns")
    with pytest.raises(RankMetricsError, match=rf"^rank_metrics: column {column} \(argument {column[:-3]}\) of predictions is INTERVAL, "
                       r"which cannot be an id: the engines find 1 month equal to 30 days and keep only microseconds "
                       r"\(timedeltas of 1 and 2 ns would be one id\): make it a number, such as a count of nanoseconds$"):
        rank_metrics.map_at_k(predictions, truth, k=3)
    as_numbers = predictions.assign(**{column: predictions[column].astype("int64")})
    assert rank_metrics.map_at_k(as_numbers, truth.assign(**{column: truth[column].astype("int64")}), k=3) == \
        pytest.approx(1 / 3)


@pytest.mark.parametrize("column", ["item_id", "model"])
def test_text_that_is_no_utf8_is_named(column):
    """A lone surrogate (os.listdir's name for bytes that are no UTF-8) failed deep in DuckDB's
    scan with a raw InvalidInputException (a new user's trial)."""
    predictions = pd.DataFrame({"user_id": [1, 1], "item_id": ["a", "b"], "rank": [1, 2], "model": ["m", "m"]})
    predictions[column] = pd.Series([predictions[column][0] + "\udce9", predictions[column][1]], dtype=object)
    with pytest.raises(RankMetricsError, match=rf"^rank_metrics: predictions: column '{column}' holds text that is no valid UTF-8, "
                       r"such as '[am]\\udce9' \(.*\), which DuckDB cannot read: make it valid text, e\.g\. "):
        rank_metrics.map_at_k(predictions, pd.DataFrame({"user_id": [1], "item_id": ["b"]}), k=2, by="model")


def test_text_that_is_no_utf8_in_a_list_is_named():
    lists = pd.DataFrame({"user_id": [1], "item_id": pd.Series([["caf\udce9", "b"]], dtype=object)})
    with pytest.raises(RankMetricsError, match=r"^rank_metrics: predictions: column 'item_id' holds text that is no valid UTF-8, "
                       r"such as 'caf\\udce9'"):
        rank_metrics.map_at_k(lists, pd.DataFrame({"user_id": [1], "item_id": ["b"]}), k=2)


def test_a_csv_file_without_a_header_line_is_said(tmp_path):
    """DuckDB numbers the columns of a CSV file without a header line (column0, column1, …): the
    error listed them and no more (a new user's trial)."""
    (tmp_path / "p.csv").write_text("1,10,1\n1,20,2\n2,50,1\n")
    (tmp_path / "t.csv").write_text("user_id,item_id\n1,20\n")
    with pytest.raises(RankMetricsError, match=re.escape(
            "rank_metrics: column user_id (argument user) is not in predictions; its columns are: column0, column1, "
            "column2; the file has no header line, so its columns were numbered: begin it with one naming them (user_id, …)")
            + "$"):
        rank_metrics.map_at_k(str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), k=3)
