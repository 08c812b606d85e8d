"""Every kind of input SPEC §3 names gives the same numbers."""

import gzip
import math
import re
import warnings
from datetime import date
from decimal import Decimal
from pathlib import Path

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import rank_metrics

from conftest import ROOT

RECOMMENDATIONS = ROOT / "seeds" / "example_recommendations.csv"
PURCHASES = ROOT / "seeds" / "example_purchases.csv"
COLUMNS = dict(user="customer_id", item="article_id", by="model")


@pytest.fixture(scope="module")
def frames():
    return pd.read_csv(RECOMMENDATIONS), pd.read_csv(PURCHASES)


@pytest.fixture(scope="module")
def expected(frames):
    return rank_metrics.map_at_k(*frames, k=[5, 12], check=True, **COLUMNS)


def test_example_data_gives_a_number_per_model_and_k(expected):
    assert list(expected.columns) == ["model", "k", "map_at_k", "n_users"]
    assert len(expected) == 6
    assert expected.map_at_k.between(0.05, 0.95).all()


def test_polars_and_pyarrow(frames, expected):
    predictions, truth = frames
    pd.testing.assert_frame_equal(rank_metrics.map_at_k(pl.from_pandas(predictions), pa.Table.from_pandas(truth),
                                                        k=[5, 12], **COLUMNS), expected)
    # a stream reads once, and the data checks read it before the metric query does
    table = pa.Table.from_pandas(predictions)
    stream = pa.RecordBatchReader.from_batches(table.schema, table.to_batches())
    pd.testing.assert_frame_equal(rank_metrics.map_at_k(stream, truth, k=[5, 12], **COLUMNS), expected)


def test_csv_and_parquet_paths_and_globs(tmp_path, frames, expected):
    predictions, truth = frames
    for number, part in enumerate((predictions.iloc[:30000], predictions.iloc[30000:])):
        part.to_parquet(tmp_path / f"recommendations-{number}.parquet")
    truth.to_parquet(tmp_path / "purchases.parquet")
    got = rank_metrics.map_at_k(str(tmp_path / "recommendations-*.parquet"), tmp_path / "purchases.parquet",
                                k=[5, 12], **COLUMNS)
    pd.testing.assert_frame_equal(got, expected)
    got = rank_metrics.map_at_k(str(RECOMMENDATIONS), str(PURCHASES), k=[5, 12], **COLUMNS)
    pd.testing.assert_frame_equal(got, expected)


def test_duckdb_relations_and_table_names(frames, expected):
    predictions, truth = frames
    con = duckdb.connect()
    con.register("recommendations_frame", predictions)
    con.execute("create table purchases as select * from read_csv(?)", [str(PURCHASES)])
    relation = con.table("recommendations_frame")
    pd.testing.assert_frame_equal(rank_metrics.map_at_k(relation, "purchases", k=[5, 12], con=con, **COLUMNS),
                                  expected)
    # a relation of another connection is read over; the caller's connection is left as it was
    other = duckdb.connect()
    pd.testing.assert_frame_equal(rank_metrics.map_at_k(relation, other.read_csv(str(PURCHASES)),
                                                        k=[5, 12], **COLUMNS), expected)
    assert [name for (name,) in con.execute("select table_name from information_schema.tables").fetchall()
            if name.startswith("rank_metrics_")] == []


def test_float_for_one_k_without_by(frames):
    predictions, truth = frames
    one_model = predictions[predictions.model == "two_tower"]
    value = rank_metrics.map_at_k(one_model, truth, k=12, user="customer_id", item="article_id")
    assert isinstance(value, float)
    table = rank_metrics.map_at_k(predictions, truth, k=[12], **COLUMNS)
    assert value == pytest.approx(table.set_index("model").loc["two_tower", "map_at_k"], rel=1e-12)


def test_nan_for_an_empty_set_of_users():
    predictions = pd.DataFrame({"user_id": [1], "item_id": ["a"], "rank": [1]})
    truth = pd.DataFrame({"user_id": [2], "item_id": ["a"]})
    value = rank_metrics.map_at_k(predictions, truth, k=3, users="both")
    assert value != value   # NaN: no user is in both tables


@pytest.mark.parametrize("order", ["rank", "score"])
@pytest.mark.parametrize("tie_break, expected", [("item", 0.0), ("item_desc", 1.0)])
def test_tied_categorical_items_are_broken_by_their_values(order, tie_break, expected):
    """A pandas categorical is an ENUM to DuckDB, which sorts by the categories' order: with
    categories ['b', 'a'], the tie went to b, where SPEC §1's "item ascending" gives a (and the
    reference did): 1.0 against 0.0, check=True failed (a new user's report)."""
    items = pd.Categorical(["a", "b"], categories=["b", "a"])
    predictions = pd.DataFrame({"user_id": [1, 1], "item_id": items, order: [1, 1]})
    truth = pd.DataFrame({"user_id": [1], "item_id": ["b"]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rank_metrics.RankMetricsWarning)   # 0.0: nothing met
        assert rank_metrics.map_at_k(predictions, truth, k=1, tie_break=tie_break, check=True) == expected
        assert rank_metrics.map_at_k(pl.from_pandas(predictions), truth, k=1, tie_break=tie_break) == expected


def test_timestamps_of_other_units_are_matched_exactly():
    """A pandas frame's TIMESTAMP_NS day against a table's TIMESTAMP (or TIMESTAMP_S) was refused
    as two types; DuckDB compares them exactly, in the finer unit: a day 1 ns later is another."""
    con = duckdb.connect()
    con.execute("create table truth as select * from (values (timestamp '2024-01-01', 1, 'a'), "
                "(timestamp '2024-01-02', 1, 'a')) as t(day, user_id, item_id)")
    con.execute("create table truth_s as select cast(day as timestamp_s) as day, user_id, item_id from truth")
    predictions = pd.DataFrame({"day": [pd.Timestamp("2024-01-01"), pd.Timestamp("2024-01-02") + pd.Timedelta(1, "ns")],
                                "user_id": [1, 1], "item_id": ["a", "a"], "rank": [1, 1]})
    for truth in ("truth", "truth_s"):
        with pytest.warns(rank_metrics.RankMetricsWarning, match=r"day 2024-01-02 00:00:00.000000001 of predictions "
                                                                 r"has no evaluated user"):
            got = rank_metrics.map_at_k(predictions, truth, k=1, by="day", con=con, check=True)
        assert got.day.tolist() == [pd.Timestamp("2024-01-01")] and got.map_at_k.tolist() == [1.0]


def test_ids_past_int64_come_back_whole(tmp_path):
    """DuckDB reads a CSV's ids past 2^63 as HUGEINT, which pandas has no type for: they came back
    as float64, two users as one 9.223372036854776e+18 (a new user's report)."""
    first = 2**63 + 5
    (tmp_path / "p.csv").write_text(f"user_id,item_id,rank\n{first},a,1\n{first},x,2\n{first + 1},c,1\n{2**64 + 1},a,1\n")
    (tmp_path / "t.csv").write_text(f"user_id,item_id\n{first},a\n{first + 1},b\n{2**64 + 1},a\n")
    per_user = rank_metrics.average_precision_at_k(str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), k=2)
    assert sorted(per_user.user_id.tolist()) == [first, first + 1, 2**64 + 1]
    assert dict(zip(per_user.user_id, per_user.average_precision)) == {first: 1.0, first + 1: 0.0, 2**64 + 1: 1.0}


def test_decimal_ids_come_back_whole():
    """DECIMAL(38, 0) ids (NUMBER(38, 0) exports) came back as float64: two users as one
    1.2345678901234567e+19, and by groups alike (a new user's trial). Now Decimals, as PostgreSQL
    and Spark give them."""
    first, second = Decimal("12345678901234567891"), Decimal("12345678901234567892")
    predictions = pa.table({"user_id": pa.array([first, second], pa.decimal128(38, 0)), "item_id": [1, 1], "rank": [1, 1],
                            "model": pa.array([Decimal("1.5"), Decimal("1.50000000000000001")], pa.decimal128(38, 20))})
    truth = pa.table({"user_id": pa.array([first], pa.decimal128(38, 0)), "item_id": [1]})
    per_user = rank_metrics.evaluate_users(predictions, truth, k=1, metrics=["map"], users="union")
    assert dict(zip(per_user.user_id, per_user.average_precision)) == {first: 1.0, second: 0.0}
    by_model = rank_metrics.map_at_k(predictions, truth, k=1, by="model", users="union", check=True)
    assert dict(zip(by_model.model, by_model.map_at_k)) == {Decimal("1.5"): 1.0, Decimal("1.50000000000000001"): 0.0}
    assert by_model.map_at_k.dtype == "float64" and by_model.n_users.dtype == "int64"
    # the other columns come as DuckDB gives them: a DATE by column as datetime64 (found in review)
    dated = predictions.append_column("day", pa.array([date(2026, 11, 27)] * 2))
    per_day = rank_metrics.average_precision_at_k(dated, truth, k=1, by="day")
    assert str(per_day.day.dtype).startswith("datetime64") and per_day.user_id.tolist() == [first]


def test_score_orders_descending():
    predictions = pd.DataFrame({"user_id": [1, 1], "item_id": ["a", "b"], "score": [0.1, 0.9]})
    truth = pd.DataFrame({"user_id": [1], "item_id": ["b"]})
    assert rank_metrics.map_at_k(predictions, truth, k=1) == 1.0


def test_matched_by_column_in_truth():
    # truth has the evaluation date: each date's predictions meet that date's truth only
    predictions = pd.DataFrame({"day": ["d1", "d2"], "user_id": [1, 1], "item_id": ["a", "a"], "rank": [1, 1]})
    truth = pd.DataFrame({"day": ["d1", "d2"], "user_id": [1, 1], "item_id": ["a", "b"]})
    got = rank_metrics.map_at_k(predictions, truth, k=1, by="day", check=True)
    assert list(got.map_at_k) == [1.0, 0.0]
    # and by truth_by=[] the same truth is shared by both days
    shared = rank_metrics.map_at_k(predictions, truth, k=1, by="day", truth_by=[], check=True)
    assert list(shared.map_at_k) == [1.0, 1.0]


GROUPS_TRUTH = pd.DataFrame({"day": ["d1", "d1"], "user_id": [1, 2], "item_id": ["a", "b"]})
GROUPS_PREDICTIONS = pd.DataFrame({"model": ["m", "m", "n", "o", "o"], "day": ["d1", "d1", "d2", "d1", "d2"],
                                   "user_id": [1, 2, 9, 1, 1], "item_id": ["a", "x", "a", "a", "a"],
                                   "rank": [1, 1, 1, 1, 1]})


@pytest.mark.parametrize("function, options, warned", [
    # model n's one list is for user 9, whom truth lacks
    ("map_at_k", dict(by="model", users="both"), "model 'n' of predictions has no evaluated user, so it has no row "
                                                 "(under users='both', a user counts only with a list and a truth row)"),
    ("evaluate", dict(by="model", users="both"), "model 'n' of predictions"),
    ("evaluate_users", dict(by="model", users="both"), "model 'n' of predictions"),
    # truth holds day d1 only: the groups of day d2 have no truth user
    ("evaluate", dict(by=["model", "day"]), "(model, day) ('n', 'd2'), ('o', 'd2') of predictions have no evaluated "
                                            "user, so they have no row (under users='truth', the users are truth's, "
                                            "each counted for the day of its rows)"),
    ("ndcg_at_k", dict(by=["model", "day"], users="both"), "(under users='both', a user counts only with a list and a "
                                                           "truth row and the same day)"),
])
def test_a_group_no_user_is_evaluated_for_is_named(function, options, warned):
    """A group of predictions that no user is evaluated for has no row; it vanished without a
    word (a gate passed it: a new user's trial), as compare's models did."""
    with pytest.warns(rank_metrics.RankMetricsWarning, match=re.escape(warned)) as caught:
        result = getattr(rank_metrics, function)(GROUPS_PREDICTIONS, GROUPS_TRUTH, k=1, check=True, **options)
    assert len(caught) == 1 and caught[0].filename == __file__
    assert "n" not in set(result.model)


@pytest.mark.parametrize("options", [dict(by="model"), dict(by="model", users="predictions"),
                                     dict(by=["model", "day"], truth_by=[], users="union")])
def test_no_group_is_named_when_every_group_has_a_row(options):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = rank_metrics.evaluate(GROUPS_PREDICTIONS, GROUPS_TRUTH, k=1, check=True, **options)
    assert {"m", "n", "o"} <= set(result.model)


def test_check_catches_a_disagreement(monkeypatch, frames):
    from rank_metrics import reference

    original = reference.user_metrics

    def off(*args, **kwargs):
        values = original(*args, **kwargs)
        return dict(values, average_precision=values["average_precision"] + 0.5)

    monkeypatch.setattr(reference, "user_metrics", off)
    with pytest.raises(rank_metrics.CheckFailed, match="SQL .*, reference"):
        rank_metrics.map_at_k(*frames, k=12, check=True, **COLUMNS)


@pytest.mark.parametrize("duplicates", ["first", "collapse", "all"])
@pytest.mark.parametrize("users", ["truth", "predictions", "both", "union"])
def test_a_truth_row_judged_twice_counts_once(duplicates, users):
    # R(u) is a set: repeating truth rows (with any grades > 0) changes nothing
    predictions = pd.DataFrame({"user_id": [1, 1, 1, 2], "item_id": ["a", "b", "a", "c"], "rank": [1, 2, 3, 1]})
    truth = pd.DataFrame({"user_id": [1, 1, 1, 2, 3], "item_id": ["a", "a", "b", "d", "c"],
                          "relevance": [1, 2, 0, 1, 1]})
    twice = pd.concat([truth, truth])
    once = rank_metrics.average_precision_at_k(predictions, truth, k=[1, 2, 3], duplicates=duplicates,
                                               users=users, check=True)
    repeated = rank_metrics.average_precision_at_k(predictions, twice, k=[1, 2, 3], duplicates=duplicates,
                                                   users=users, check=True)
    pd.testing.assert_frame_equal(once, repeated)


def test_users_judged_counts_users_whose_truth_is_all_non_relevant():
    """users='judged' (SPEC §1, ranx, trec_eval -c): every user with a truth row, whatever its
    grade; a user judged only non-relevant counts with AP 0, a user truth lacks does not."""
    predictions = pd.DataFrame({"user_id": [1, 2, 3], "item_id": ["a", "b", "c"], "rank": [1, 1, 1]})
    truth = pd.DataFrame({"user_id": [1, 2], "item_id": ["a", "b"], "relevance": [1, 0]})
    got = rank_metrics.average_precision_at_k(predictions, truth, k=3, users="judged", check=True)
    assert got[["user_id", "average_precision", "n_relevant"]].values.tolist() == [[1, 1.0, 1], [2, 0.0, 0]]
    assert rank_metrics.map_at_k(predictions, truth, k=3, users="judged") == 0.5
    assert rank_metrics.map_at_k(predictions, truth, k=3, users="truth") == 1.0
    assert rank_metrics.map_at_k(predictions, truth, k=3, convention="ranx") == 0.5


def test_users_judged_needs_a_truth_row():
    predictions = pd.DataFrame({"user_id": [1], "item_id": ["a"], "rank": [1]})
    with pytest.raises(rank_metrics.RankMetricsError,
                       match="users: truth has no rows, so users='judged' has no user to evaluate"):
        rank_metrics.map_at_k(predictions, pd.DataFrame({"user_id": [], "item_id": []}).astype(
            {"user_id": "int64", "item_id": "str"}), k=3, users="judged")
    # a truth of only non-relevant rows is data under judged: every judged user scores 0
    truth = pd.DataFrame({"user_id": [1], "item_id": ["a"], "relevance": [0]})
    assert rank_metrics.map_at_k(predictions, truth, k=3, users="judged") == 0.0


def test_with_con_a_name_is_a_table_and_a_file_only_when_no_table_has_that_name(tmp_path, monkeypatch):
    """DuckDB itself would read 'hits.csv' as a file through a table name; rank_metrics looks the
    name up among the connection's tables and views first, and reads a file only for a name no
    table has that looks like a path, for a name with a '/', or for a pathlib.Path."""
    import pathlib

    monkeypatch.chdir(tmp_path)
    pd.DataFrame({"user_id": [1], "item_id": ["a"], "rank": [1]}).to_csv("hits.csv", index=False)
    truth = pd.DataFrame({"user_id": [1], "item_id": ["a"]})
    con = duckdb.connect()
    # 'hits.csv' names table csv of schema hits, when the connection has it
    con.execute("create schema hits")
    con.execute("create table hits.csv as select 1 as user_id, 'x' as item_id, 1 as rank")
    con.execute("create schema s")
    con.execute("create view s.recs as select 1 as user_id, 'a' as item_id, 1 as rank")
    assert rank_metrics.map_at_k("hits.csv", truth, k=1, con=con) == 0.0           # the table
    assert rank_metrics.map_at_k(pathlib.Path("hits.csv"), truth, k=1, con=con) == 1.0   # the file
    assert rank_metrics.map_at_k("./hits.csv", truth, k=1, con=con) == 1.0         # a path
    # a '/' makes a path, even where a table has that name (quoted): no catalog lookup for it
    con.execute('create table "in/folder" as select 1 as user_id, \'a\' as item_id, 1 as rank')
    with pytest.raises(rank_metrics.RankMetricsError, match="predictions: no file matches 'in/folder'"):
        rank_metrics.map_at_k("in/folder", truth, k=1, con=con)
    assert rank_metrics.map_at_k("s.recs", truth, k=1, con=con) == 1.0             # a view in a schema
    con.execute("drop table hits.csv")
    assert rank_metrics.map_at_k("hits.csv", truth, k=1, con=con) == 1.0           # no such table: the file
    # a name found only in a schema off the search path: DuckDB's own hint names it
    with pytest.raises(rank_metrics.RankMetricsError, match=r"predictions: a table or view named 'recs' is on the connection, "
                                                            r"but not by that name alone: .*Did you mean \"s\.recs\"\?"):
        rank_metrics.map_at_k("recs", truth, k=1, con=con)
    for name in ("read_csv('hits.csv')", "s.nothing", "nothing"):
        with pytest.raises(rank_metrics.RankMetricsError,
                           match=rf"predictions: {re.escape(repr(name))} is neither a table or view on the "
                                 r"connection \(con; --database on the command line\) nor a file path \(a name "
                                 r"ending in"):
            rank_metrics.map_at_k(name, truth, k=1, con=con)


def test_truth_may_name_its_user_and_item_columns_differently():
    predictions = pd.DataFrame({"customer_id": [1, 1, 2], "article_id": ["a", "b", "a"], "rank": [1, 2, 1]})
    truth = pd.DataFrame({"buyer": [1, 2, 2], "article": ["b", "a", "c"], "relevance": [1, 2, 0]})
    got = rank_metrics.evaluate_users(predictions, truth, k=2, user="customer_id", item="article_id",
                                      truth_user="buyer", truth_item="article", check=True)
    assert got[["customer_id", "n_relevant"]].values.tolist() == [[1, 1], [2, 1]]
    assert list(got.average_precision) == [0.5, 1.0]
    assert list(got.ndcg) == pytest.approx([1 / math.log2(3), 1.0])
    renamed = rank_metrics.evaluate_users(predictions, truth.rename(columns={"buyer": "customer_id", "article": "article_id"}),
                                          k=2, user="customer_id", item="article_id")
    pd.testing.assert_frame_equal(got, renamed)


@pytest.mark.parametrize("options, message", [
    (dict(truth_user="nobody", truth_item="article"),
     "column nobody (argument truth_user) is not in truth; its columns are: buyer, article"),
    (dict(truth_user="buyer", truth_item="nothing"), "column nothing (argument truth_item) is not in truth"),
    (dict(truth_user="buyer"), "column article_id (argument item) is not in truth"),
    (dict(truth_user="", truth_item="article"), "truth_user must be a column name; got ''"),
])
def test_truth_user_and_item_errors_name_the_argument(options, message):
    predictions = pd.DataFrame({"customer_id": [1], "article_id": ["a"], "rank": [1]})
    truth = pd.DataFrame({"buyer": [1], "article": ["a"]})
    with pytest.raises(rank_metrics.RankMetricsError) as error:
        rank_metrics.map_at_k(predictions, truth, k=2, user="customer_id", item="article_id", **options)
    assert message in str(error.value)


def test_truth_user_of_another_type_is_named_with_both_columns():
    predictions = pd.DataFrame({"customer_id": [1], "article_id": ["a"], "rank": [1]})
    truth = pd.DataFrame({"buyer": ["1"], "article": ["a"]})
    with pytest.raises(rank_metrics.RankMetricsError,
                       match=r"column customer_id \(argument user\) is BIGINT in predictions "
                             r"but its truth column buyer is VARCHAR in truth"):
        rank_metrics.map_at_k(predictions, truth, k=2, user="customer_id", item="article_id",
                              truth_user="buyer", truth_item="article")


def test_null_in_truths_own_user_column_names_it():
    predictions = pd.DataFrame({"customer_id": [1], "article_id": ["a"], "rank": [1]})
    truth = pd.DataFrame({"buyer": [1, None], "article": ["a", "b"]}).astype({"buyer": "Int64"})
    with pytest.raises(rank_metrics.RankMetricsError, match=r'truth_user: truth has 1 row with NULL in column "buyer"'):
        rank_metrics.map_at_k(predictions, truth, k=2, user="customer_id", item="article_id",
                              truth_user="buyer", truth_item="article")


def test_truth_user_and_item_on_the_command_line(tmp_path):
    from rank_metrics.cli import main

    pd.DataFrame({"customer_id": [1, 1, 2], "article_id": ["a", "b", "a"], "rank": [1, 2, 1]}).to_csv(tmp_path / "p.csv", index=False)
    pd.DataFrame({"buyer": [1, 2], "article": ["b", "a"]}).to_csv(tmp_path / "t.csv", index=False)
    import io
    from contextlib import redirect_stdout

    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["map-at-k", str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "2", "--user", "customer_id",
                     "--item", "article_id", "--truth-user", "buyer", "--truth-item", "article", "--format", "csv", "--check"])
    assert code == 0 and out.getvalue() == "k,map_at_k,n_users\n2,0.75,2\n"


@pytest.mark.parametrize("gain", ["linear", "exponential", "binary"])
def test_decimal_grades_are_checked_against_the_reference(gain):
    """A decimal grade column (common in Spark tables) made check=True fail with a TypeError in
    the reference's gain (2.0 ** Decimal), whatever the metric (a new user's report)."""
    from decimal import Decimal

    predictions = pd.DataFrame({"user_id": ["u1"] * 3, "item_id": [1, 2, 3], "rank": [1, 2, 3]})
    truth = pd.DataFrame({"user_id": ["u1", "u1"], "item_id": [2, 3], "relevance": [Decimal("0.5"), Decimal("2.25")]})
    assert rank_metrics.map_at_k(predictions, truth, k=3, check=True) == pytest.approx((1 / 2 + 2 / 3) / 2)
    ideal = {"linear": 2.25 + 0.5 / math.log2(3), "exponential": 2 ** 2.25 - 1 + (2 ** 0.5 - 1) / math.log2(3),
             "binary": 1 + 1 / math.log2(3)}[gain]
    dcg = {"linear": 0.5 / math.log2(3) + 2.25 / 2, "exponential": (2 ** 0.5 - 1) / math.log2(3) + (2 ** 2.25 - 1) / 2,
           "binary": 1 / math.log2(3) + 1 / 2}[gain]
    assert rank_metrics.ndcg_at_k(predictions, truth, k=3, gain=gain, check=True) == pytest.approx(dcg / ideal)


def test_a_folder_as_spark_writes_one_is_read(tmp_path):
    """Spark writes a folder of part files beside _SUCCESS and .crc files, with partition
    folders such as model=a/: read by its path, partition column included (a new user's report:
    'cannot tell the format', and a glob of the parts lost the model column)."""
    truth = pd.DataFrame({"user_id": [1], "item_id": ["x"]})
    for model, items in (("a", ["x", "y"]), ("b", ["y", "x"])):
        (tmp_path / "recs" / f"model={model}").mkdir(parents=True)
        pd.DataFrame({"user_id": [1, 1], "item_id": items, "rank": [1, 2]}).to_parquet(
            tmp_path / "recs" / f"model={model}" / "part-00000-c000.snappy.parquet")
        (tmp_path / "recs" / f"model={model}" / ".part-00000-c000.snappy.parquet.crc").write_bytes(b"\0")
    (tmp_path / "recs" / "_SUCCESS").write_text("")
    want = [("a", 1.0), ("b", 0.5)]
    for path in (f"{tmp_path}/recs", f"{tmp_path}/recs/", f"{tmp_path}/recs/*/*.parquet"):
        got = rank_metrics.map_at_k(path, truth, k=2, by="model", check=True)
        assert list(zip(got.model, got.map_at_k)) == want, path
    (tmp_path / "lists").mkdir()
    (tmp_path / "lists" / "part-00000.csv.gz").write_bytes(gzip.compress(b"user_id,item_id,rank\n1,y,1\n1,x,2\n"))
    assert rank_metrics.map_at_k(f"{tmp_path}/lists/", truth, k=2) == 0.5
    (tmp_path / "lists" / "part-00001.parquet").write_bytes(b"")
    with pytest.raises(rank_metrics.RankMetricsError, match=r"predictions: cannot tell the format of folder '.*lists/': it "
                       r"has files ending in \.csv\.gz, \.parquet \(files starting with _ or \. left aside\); name its "
                       r"files of one kind with a glob, e\.g\. '.*lists/\*\.parquet'"):
        rank_metrics.map_at_k(f"{tmp_path}/lists/", truth, k=2)
    (tmp_path / "nothing").mkdir()
    with pytest.raises(rank_metrics.RankMetricsError, match=r"cannot tell the format of folder .* it has no file ending in one "
                                                            r"of .* \(files starting with _ or \. left aside\)$"):
        rank_metrics.map_at_k(f"{tmp_path}/nothing", truth, k=2)
    # files that no name or content tells the format of: the hint is to name them, not a glob (found in review)
    (tmp_path / "nothing" / "000000_0").write_text("1\x01a\x011\n")
    with pytest.raises(rank_metrics.RankMetricsError, match=r"it has no file ending in one of .*; give its files a name "
                                                            r"that tells their format \(part-0\.csv\)$"):
        rank_metrics.map_at_k(f"{tmp_path}/nothing", truth, k=2)


def test_csv_files_of_a_glob_are_matched_by_their_headers(tmp_path):
    """CSV files whose columns come in another order were read by position: a file of
    item_id,user_id had its items read as users (0.25 for 0.75, silently, check=True agreeing,
    a new user's trial). They are matched by name, as Parquet files are; a column one file lacks
    is missing there (NULL), which the data checks name."""
    (tmp_path / "parts").mkdir()
    (tmp_path / "parts" / "a.csv").write_text("user_id,item_id,rank\nu1,a,1\nu1,b,2\n")
    (tmp_path / "parts" / "b.csv").write_text("item_id,user_id,rank\nd,u2,1\n")
    truth = pd.DataFrame({"user_id": ["u1", "u2"], "item_id": ["b", "d"]})
    (tmp_path / "parts" / "deeper").mkdir()
    (tmp_path / "parts" / "b.csv").rename(tmp_path / "parts" / "deeper" / "b.csv")
    for path in (f"{tmp_path}/parts/**/*.csv", f"{tmp_path}/parts/"):
        assert rank_metrics.map_at_k(path, truth, k=2, check=True) == 0.75, path
    (tmp_path / "parts" / "deeper" / "b.csv").rename(tmp_path / "parts" / "b.csv")
    for path in (f"{tmp_path}/parts/*.csv", f"{tmp_path}/parts/"):
        assert rank_metrics.map_at_k(path, truth, k=2, check=True) == 0.75, path
    # files of one header are read as before, and so are space-separated .txt files with none
    # (TREC runs: matched by name, each file's first line was its header)
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "a.txt").write_text("q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\n")
    (tmp_path / "runs" / "b.txt").write_text("q2 Q0 d3 1 2.0 r\n")
    (tmp_path / "qrels.txt").write_text("q1 0 d2 1\nq2 0 d3 1\n")
    columns = dict(user="column0", item="column2", rank="column3", truth_user="column0", truth_item="column2",
                   relevance="column3")
    assert rank_metrics.map_at_k(f"{tmp_path}/runs/*.txt", str(tmp_path / "qrels.txt"), k=2, check=True, **columns) == 0.75
    (tmp_path / "parts" / "c.csv").write_text("user_id,item,rank\nu3,x,1\n")
    with pytest.raises(rank_metrics.RankMetricsError, match=r'predictions has 1 row with NULL in column "item_id"'):
        rank_metrics.map_at_k(f"{tmp_path}/parts/*.csv", truth, k=2)


def test_numpy_numbers_in_an_object_column_are_numbers():
    """Exploding numpy arrays leaves an object column of numpy numbers, which DuckDB read as
    text: items 10 and 9 tied by score went '10' < '9' (0.5 for 1.0, silently), and beside truth
    exploded from Python lists the ids were VARCHAR against INTEGER (a new user's trial)."""
    import numpy as np

    predictions = pd.DataFrame({"user_id": [1, 2], "item_id": [np.array([10, 9]), np.array([3, 4])],
                                "score": [np.array([1.0, 1.0]), np.array([0.9, 0.8])]}) \
        .explode(["item_id", "score"]).astype({"score": float})
    assert predictions.item_id.dtype == object
    for truth_items in ([np.array([9]), np.array([3])], [[9], [3]]):
        truth = pd.DataFrame({"user_id": [1, 2], "item_id": truth_items}).explode("item_id")
        assert rank_metrics.map_at_k(predictions, truth, k=1, check=True) == 1.0
    # a missing value stays missing (NULL, named by the data checks), not NaN or text
    with pytest.raises(rank_metrics.RankMetricsError, match='predictions has 1 row with NULL in column "item_id"'):
        rank_metrics.map_at_k(pd.DataFrame({"user_id": [1, 1], "item_id": pd.Series([np.int64(9), None], dtype=object),
                                            "rank": [1, 2]}), truth, k=1)
    # a Python number first and numpy ones after it
    mixed = pd.DataFrame({"user_id": [1, 1], "item_id": pd.Series([10, np.int64(9)], dtype=object), "score": [1.0, 1.0]})
    assert rank_metrics.map_at_k(mixed, pd.DataFrame({"user_id": [1], "item_id": [9]}), k=1, check=True) == 1.0
    # numpy floats and past int64 too
    wide = pd.DataFrame({"user_id": pd.Series([np.float64(1.5)] * 2, dtype=object),
                         "item_id": pd.Series([np.uint64(2**64 - 1), np.uint64(3)], dtype=object), "rank": [1, 2]})
    assert rank_metrics.map_at_k(wide, pd.DataFrame({"user_id": [1.5], "item_id": [2**64 - 1]}), k=1, check=True) == 1.0


def test_struct_ids_are_checked_against_the_reference():
    """Ids that are structs (dicts in pandas, Arrow structs) gave a TypeError from check=True and
    from evaluate_users' ordering (a new user's trial). Ties break as the engine orders structs,
    field by field: {'sku': 'a'} before {'sku': 'b'}."""
    def sku(name):
        return {"sku": name, "size": "M"}

    predictions = pd.DataFrame({"user_id": ["u1", "u1", "u2", "u2"], "item_id": [sku("a"), sku("b"), sku("b"), sku("c")],
                                "score": [1.0, 1.0, 0.3, 0.9]})
    truth = pd.DataFrame({"user_id": ["u1", "u2"], "item_id": [sku("b"), sku("b")]})
    assert rank_metrics.map_at_k(predictions, truth, k=2, check=True) == 0.5
    by_user = rank_metrics.evaluate_users(predictions.assign(user_id=[sku("u2")] * 2 + [sku("u1")] * 2),
                                          truth.assign(user_id=[sku("u2"), sku("u1")]), k=2, check=True)
    assert by_user.user_id.tolist() == [sku("u1"), sku("u2")]
    assert by_user.average_precision.tolist() == [0.5, 0.5]
    # list ids, which DuckDB gives back as numpy arrays
    lists = rank_metrics.evaluate_users(predictions.assign(user_id=[[2, 1]] * 2 + [[1]] * 2),
                                        truth.assign(user_id=[[2, 1], [1]]), k=2, check=True)
    assert [list(user) for user in lists.user_id] == [[1], [2, 1]]


@pytest.mark.parametrize("scale", [37, 36, 28])
def test_decimal_ranks_too_fine_to_compare_with_k(scale):
    """DECIMAL(38, 37) ranks gave DuckDB's ConversionException ('Casting value "12.5" to type
    DECIMAL(38,37) failed'): it compares a decimal with k + 0.5 in the decimal's own type. Such
    ranks are compared with k as doubles, which is exact for them; check=True holds the numbers
    to the reference, which reads the decimals exactly."""
    con = duckdb.connect()
    # DECIMAL(38, 37) holds ranks below 10; the others a 13th rank past 12 but before the cut at 12.5
    ranks = [str(rank) for rank in range(1, 13)] + ["12.4" + "9" * (scale - 1)]
    ranks = ranks[:9] if scale == 37 else ranks
    rows = ", ".join(f"(1, {position}, {rank}::decimal(38, {scale}))" for position, rank in enumerate(ranks, start=1))
    con.execute(f"create table p as select * from (values {rows}, (2, 5, 1.5::decimal(38, {scale})),"
                f" (2, 6, 0.5::decimal(38, {scale}))) as t(user_id, item_id, rank)")
    con.execute("create table t as select * from (values (1, 2), (1, 13), (1, 10), (2, 5)) as t(user_id, item_id)")
    for k in (12, [5, 50]):
        rank_metrics.evaluate("p", "t", k=k, con=con, check=True)
    rank_metrics.evaluate("p", "t", k=12, con=con, truth_scope="listed", check=True)
    # user 1 (three relevant): item 2 at 2, item 10 at 10 where ranks reach 10, and item 13 at 13,
    # past k; user 2: item 5, ranked 1.5 after item 6's 0.5, at 2: 1/2
    user_1 = (1 / 2 + (0 if scale == 37 else 2 / 10)) / 3
    assert rank_metrics.map_at_k("p", "t", k=12, con=con) == pytest.approx((user_1 + 1 / 2) / 2)
    # a k whose k + 0.5 has more digits than 38 - scale (found in review: DECIMAL(38, 28), k = 10^10),
    # where item 13 at 13 counts too
    user_1 = (1 / 2 + (0 if scale == 37 else 2 / 10 + 3 / 13)) / 3
    assert rank_metrics.map_at_k("p", "t", k=10**10, con=con, check=True) == pytest.approx((user_1 + 1 / 2) / 2)


def test_struct_ids_with_null_fields_tie_as_the_engine_orders_them():
    """A struct id with a NULL field in a tie made check=True raise the reference's TypeError
    ('<' between int and None). DuckDB orders a NULL field after every value and finds two such
    structs equal: the tie on rank 1 is {a: 1, b: 2}, {a: 1, b: NULL}, {a: NULL, b: 2}."""
    con = duckdb.connect()
    con.execute("create table p as select * from (values (1, {'a': 1, 'b': NULL}, 1), (1, {'a': 1, 'b': 2}, 1),"
                " (1, {'a': NULL, 'b': 2}, 1)) as t(user_id, item_id, rank)")
    con.execute("create table t as select * from (values (1, {'a': 1, 'b': NULL}), (1, {'a': NULL, 'b': 2}))"
                " as t(user_id, item_id)")
    with pytest.warns(rank_metrics.RankMetricsWarning, match="no evaluated user has a relevant item"):
        assert rank_metrics.map_at_k("p", "t", k=1, con=con, check=True) == 0.0
    assert rank_metrics.map_at_k("p", "t", k=2, con=con, check=True) == pytest.approx(1 / 2 / 2)
    assert rank_metrics.map_at_k("p", "t", k=3, con=con, check=True) == pytest.approx((1 / 2 + 2 / 3) / 2)
    assert rank_metrics.map_at_k("p", "t", k=3, con=con, tie_break="item_desc", check=True) == 1.0


def test_a_csv_files_number_ids_are_text_beside_text_ids(tmp_path):
    """The CSV reader guesses types from the values: users 7 and 8 of one file became numbers,
    beside a truth file with a user 'guest', and the command line, which cannot cast, said "cast
    one so they match" (a new user's trial). Ids are labels: the file's are read as text, in
    predictions or in truth."""
    (tmp_path / "p.csv").write_text("user_id,item_id,rank\n7,10,1\n7,11,2\n8,10,1\n")
    (tmp_path / "t.csv").write_text("user_id,item_id\n7,11\nguest,10\n8,10\n")
    # 7: item 11 at position 2 (1/2); guest: no list (0); 8: item 10 at 1 (1)
    assert rank_metrics.map_at_k(str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), k=2, check=True) == 0.5
    (tmp_path / "p2.csv").write_text("user_id,item_id,rank\n7,11,1\nguest,10,1\n")
    (tmp_path / "t2.csv").write_text("user_id,item_id\n7,11\n8,10\n")
    # 7: 1; 8: no list (0)
    assert rank_metrics.map_at_k(str(tmp_path / "p2.csv"), str(tmp_path / "t2.csv"), k=2, check=True) == 0.5
    # text of whole numbers alone meets them too (a Parquet truth of '7', '8')
    pd.DataFrame({"user_id": ["7", "8"], "item_id": ["11", "10"]}).to_parquet(tmp_path / "digits.parquet")
    assert rank_metrics.map_at_k(str(tmp_path / "p.csv"), str(tmp_path / "digits.parquet"), k=2, check=True) == 0.75
    # a frame's numbers are the caller's: still an error, naming both types
    with pytest.raises(rank_metrics.RankMetricsError, match="is BIGINT in predictions but VARCHAR in truth; cast one"):
        rank_metrics.map_at_k(pd.DataFrame({"user_id": [7], "item_id": [10], "rank": [1]}), str(tmp_path / "t.csv"), k=2)
    # zero-padded digits against the file's numbers: as text, 007 would never meet 7 (a silent 0.5
    # here, the review of this change found): still an error
    (tmp_path / "padded.csv").write_text("user_id,item_id\n007,10\n8,10\n")
    with pytest.raises(rank_metrics.RankMetricsError, match="is BIGINT in predictions but VARCHAR in truth; cast one"):
        rank_metrics.map_at_k(str(tmp_path / "p.csv"), str(tmp_path / "padded.csv"), k=2)
    # read again, the file keeps the columns it read as text before: items as text beside
    # predictions' text items (H&M's article ids), and now its users too
    (tmp_path / "articles.csv").write_text("user_id,item_id\n7,706016001\n8,706016002\n")
    recs = pd.DataFrame({"user_id": ["7", "8", "guest"], "item_id": ["706016001", "706016002", "706016002"], "rank": [1, 1, 1]})
    assert rank_metrics.map_at_k(recs, str(tmp_path / "articles.csv"), k=1, check=True) == 1.0


@pytest.mark.parametrize("predicted, judged", [("010", "10"), ("7.0", "7"), ("0108775015", "108775015")])
@pytest.mark.parametrize("shape", ["long", "list"])
def test_text_items_against_a_file_written_another_way_are_an_error(tmp_path, predicted, judged, shape):
    """Predictions' text items make a truth file's items text (H&M's 0108775015 on both sides);
    where the file writes one of them another way (10 for 010), as text the two never met, and
    the rest did: a partly right number with no word (a new user's trial)."""
    (tmp_path / "t.csv").write_text(f"user_id,item_id\n1,{judged}\n1,9\n")
    (tmp_path / "alike.csv").write_text(f"user_id,item_id\n1,{predicted}\n1,9\n")
    long = pd.DataFrame({"user_id": [1, 1], "item_id": [predicted, "9"], "rank": [1, 2]})
    predictions = long if shape == "long" else pd.DataFrame({"user_id": [1], "item_id": [[predicted, "9"]]})
    with pytest.raises(rank_metrics.RankMetricsError, match=rf"^rank_metrics: column item_id \(argument item\): predictions' "
                                                            rf"item '{re.escape(predicted)}' and truth's '{judged}' are one "
                                                            r"number written two ways, and ids are compared as text"):
        rank_metrics.map_at_k(predictions, str(tmp_path / "t.csv"), k=2)
    assert rank_metrics.map_at_k(predictions, str(tmp_path / "alike.csv"), k=2, check=True) == 1.0


@pytest.mark.parametrize("kind", ["pandas", "polars", "pyarrow"])
def test_columns_alike_but_for_case_are_named(kind):
    """DuckDB's names ignore case: of a frame's rank and RANK it renamed one RANK_1, rank='RANK'
    was not found, and the advice rank='rank' read the other column (a user's trial)."""
    predictions = pd.DataFrame({"user_id": [1, 1], "item_id": [10, 11], "rank": [1, 2], "RANK": [2, 1]})
    given = {"pandas": predictions, "polars": pl.from_pandas(predictions), "pyarrow": pa.Table.from_pandas(predictions)}[kind]
    truth = pd.DataFrame({"user_id": [1], "item_id": [11]})
    with pytest.raises(rank_metrics.RankMetricsError, match=r"^rank_metrics: predictions: column 'RANK' appears 2 times in "
                                                            r"this (DataFrame|Table) \(rank, RANK: DuckDB matches names whatever "
                                                            r"their case\); drop or rename all but one"):
        rank_metrics.map_at_k(given, truth, k=1, rank="RANK")
    # two columns of a name nothing reads are left alone
    assert rank_metrics.map_at_k(predictions.drop(columns="RANK").assign(note=1, Note=2), truth, k=1) == 0.0
    assert rank_metrics.map_at_k(predictions.drop(columns="rank"), truth, k=1, rank="RANK", check=True) == 1.0


@pytest.mark.parametrize("rank_type, largest", [("decimal(38, 0)", "1" + "0" * 37), ("hugeint", str(2 ** 127 - 1)),
                                                 ("uhugeint", str(2 ** 128 - 1))])
def test_ranks_of_whole_numbers_past_decimal_38_1_are_cut(rank_type, largest):
    """The cut rank < k + 0.5 made DuckDB widen a DECIMAL(38, 0) or HUGEINT rank of 1e37 to
    DECIMAL(38, 1), a raw conversion error (a user's trial): whole numbers are cut with <= k."""
    con = duckdb.connect()
    con.execute(f"create table p (user_id int, item_id int, rank {rank_type})")
    con.execute(f"insert into p values (1, 10, 1), (1, 11, {largest})")
    con.execute("create table t (user_id int, item_id int); insert into t values (1, 11)")
    assert rank_metrics.map_at_k("p", "t", k=2, con=con, check=True) == 0.5   # 11 is second


def test_duckdb_tables_are_named_as_duckdb_names_them():
    """A table whose name holds a dot ("my.tab"), names in another case ('recs' for Recs), and an
    attached database's or temp's tables by their catalog ('other.truth', 'temp.tt') all work in
    DuckDB's own SQL, and were refused as neither tables nor files (a user's trial)."""
    con = duckdb.connect()
    con.execute('create table "my.tab" (user_id int, item_id int, rank int); insert into "my.tab" values (1, 10, 1)')
    con.execute('create table "Recs" as select * from "my.tab"; create temp table tt as select * from "my.tab"')
    con.execute('create table "it\'s" as select * from "my.tab"')   # the catalog is asked with the name as a literal
    con.execute("attach ':memory:' as other; create table other.truth (user_id int, item_id int);"
                "insert into other.truth values (1, 10); create schema s; create table s.t as select * from other.truth")
    for predictions in ['"my.tab"', "my.tab", 'main."my.tab"', "recs", "RECS", "temp.tt", "temp.main.tt", "memory.main.Recs",
                        "it's"]:
        for truth in ["other.truth", "other.main.truth", "s.t", "S.T"]:
            assert rank_metrics.map_at_k(predictions, truth, k=1, con=con, check=True) == 1.0, (predictions, truth)
    with pytest.raises(rank_metrics.RankMetricsError, match="predictions: 'other.recs' is neither a table or view on the "
                                                            "connection"):
        rank_metrics.map_at_k("other.recs", "other.truth", k=1, con=con)


def test_an_empty_frame_of_untyped_columns_is_named():
    """pd.DataFrame({'user_id': [], …}) has float64 columns: the type error spoke of missing
    values in a column of whole numbers, where the frame had no rows at all."""
    predictions = pd.DataFrame({"user_id": [1], "item_id": [1], "rank": [1]})
    with pytest.raises(rank_metrics.RankMetricsError, match=re.escape(
            "column user_id (argument user) is BIGINT in predictions but DOUBLE in truth; cast one so they match (truth has "
            "no rows, and pandas types the columns of an empty frame as float64 or object: give them the other table's "
            "types, e.g. pd.DataFrame({'user_id': pd.Series(dtype='int64'), …}))") + "$"):
        rank_metrics.map_at_k(predictions, pd.DataFrame({"user_id": [], "item_id": []}), k=1, users="predictions")
    typed = pd.DataFrame({"user_id": pd.Series(dtype="int64"), "item_id": pd.Series(dtype="int64")})
    with pytest.warns(rank_metrics.RankMetricsWarning, match="truth has no rows"):
        assert rank_metrics.map_at_k(predictions, typed, k=1, users="predictions") == 0.0


def test_a_frames_named_index_is_read_as_columns():
    """set_index('user_id') left user_id "not in predictions", and a frame whose columns were all
    in its index could not be read (a new user's trial): named index levels are columns."""
    predictions = pd.DataFrame({"user_id": ["u1", "u1", "u2"], "item_id": ["a", "b", "c"], "rank": [1, 2, 1]})
    truth = pd.DataFrame({"user_id": ["u1", "u2"], "item_id": ["b", "c"]})
    want = 0.75   # u1: b at 2 (1/2); u2: c at 1 (1)
    assert rank_metrics.map_at_k(predictions.set_index("user_id"), truth, k=2, check=True) == want
    assert rank_metrics.map_at_k(predictions, truth.set_index(["user_id", "item_id"]), k=2, check=True) == want
    # a level named like a column is left out, not read in its place; one no argument names stays
    # an index (here beside a score column, where a rank would be one too many)
    assert rank_metrics.map_at_k(predictions.set_index(pd.Index([9, 9, 9], name="rank")), truth, k=2) == want
    scored = predictions.rename(columns={"rank": "score"}).assign(score=[2.0, 1.0, 1.0])
    assert rank_metrics.map_at_k(scored.set_index(pd.Index([5, 6, 7], name="rank")), truth, k=2) == want
    # the rank alone in the index is the rank (found by name, as a column would be)
    assert rank_metrics.map_at_k(predictions.set_index(["user_id", "rank"]), truth, k=2, check=True) == want


def test_a_file_whose_name_has_glob_characters_is_that_file(tmp_path, monkeypatch):
    """'p?.csv' was a pattern that read px.csv too (MAP 1.0 for 0.5, silently), and 'sub [1].csv'
    one that matched nothing (a new user's report). A name that exists, or a pathlib.Path, is
    that file; a glob is for names that do not exist."""
    monkeypatch.chdir(tmp_path)
    truth = pd.DataFrame({"user_id": ["u1", "u2"], "item_id": ["0001", "0002"]})
    pd.DataFrame({"user_id": ["u1"], "item_id": ["0001"], "rank": [1]}).to_csv("p?.csv", index=False)
    pd.DataFrame({"user_id": ["u2"], "item_id": ["0002"], "rank": [1]}).to_csv("px.csv", index=False)
    for name in ("p?.csv", "sub [1].csv", "a*b.csv"):
        if name != "p?.csv":
            (tmp_path / name).write_bytes((tmp_path / "p?.csv").read_bytes())
        for value in (name, f"{tmp_path}/{name}", tmp_path / name):
            assert rank_metrics.map_at_k(value, truth, k=12, check=True) == 0.5, value
    assert rank_metrics.map_at_k("p*.csv", truth, k=12) == 1.0   # a pattern where no file has the name
    (tmp_path / "parts[1]").mkdir()
    (tmp_path / "parts[1]" / "part-0.csv").write_bytes((tmp_path / "px.csv").read_bytes())
    assert rank_metrics.map_at_k("parts[1]/", truth, k=12) == 0.5
    with pytest.raises(rank_metrics.RankMetricsError, match="predictions: no file 'gone.csv'"):
        rank_metrics.map_at_k(Path("gone.csv"), truth, k=12)


def test_a_glob_matching_two_files_of_the_same_bytes_is_refused(tmp_path):
    """A copy beside its file (a new user's trial: p.csv and 'p (1).csv' under *.csv) was read
    twice: each list's items repeated, MAP@2 0.5 for 1.0, silently. Files of the same bytes are
    refused; files of one size and one beginning but other bytes are read."""
    truth = pd.DataFrame({"user_id": ["u1", "u2"], "item_id": ["a", "c"]})
    (tmp_path / "p.csv").write_text("user_id,item_id,rank\nu1,a,1\nu1,b,2\n")
    (tmp_path / "q.csv").write_text("user_id,item_id,rank\nu2,c,1\nu2,d,2\n")
    assert rank_metrics.map_at_k(f"{tmp_path}/*.csv", truth, k=2, check=True) == 1.0
    (tmp_path / "p (1).csv").write_bytes((tmp_path / "p.csv").read_bytes())
    with pytest.raises(rank_metrics.RankMetricsError, match=re.escape(
            f"rank_metrics: predictions: '{tmp_path}/*.csv' matches '{tmp_path}/p (1).csv' and '{tmp_path}/p.csv', "
            "which hold the same bytes: their rows would be read twice; name the files to read with a narrower glob")):
        rank_metrics.map_at_k(f"{tmp_path}/*.csv", truth, k=2)
    (tmp_path / "p (1).csv").write_text("user_id,item_id,rank\nu1,a,1\nu1,b,3\n")   # one size, other bytes
    assert rank_metrics.map_at_k(f"{tmp_path}/p*.csv", truth, k=2) == 0.5   # u2 has no list here: p's twice


def test_a_csv_file_of_spaced_separators_is_said(tmp_path):
    """'user_id, item_id' files keep the space in each text value (as pandas and Spark read
    them): ' a' met no 'a' of truth and only the all-zero warning spoke (a new user's trial)."""
    (tmp_path / "p.csv").write_text("user_id, item_id, rank\nu1, a, 1\nu1, b, 2\n")
    truth = pd.DataFrame({"user_id": ["u1"], "item_id": ["a"]})
    with pytest.warns(rank_metrics.RankMetricsWarning, match=re.escape(
            f"predictions: '{tmp_path}/p.csv' has a space after each separator (column 'item_id' reads ' a'); the spaces "
            "are kept as part of the values, so ' a' does not match 'a'")):
        assert rank_metrics.map_at_k(tmp_path / "p.csv", truth, k=2, check=True) == 0
    # a space inside a value, or none after the separator, says nothing
    (tmp_path / "q.csv").write_text("user_id,item_id,rank\nu1,a b,1\nu1,a,2\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert rank_metrics.map_at_k(tmp_path / "q.csv", truth, k=2, check=True) == 0.5


def test_a_polars_frame_without_pyarrow_names_the_extra(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "pyarrow", None)
    with pytest.raises(rank_metrics.RankMetricsError) as error:
        rank_metrics.map_at_k(pl.DataFrame({"user_id": ["a", "a"], "item_id": ["x", "y"], "rank": [1, 2]}),
                              pl.DataFrame({"user_id": ["a"], "item_id": ["y"]}), k=12)
    assert str(error.value) == ("rank_metrics: predictions: reading a polars DataFrame needs the pyarrow package, "
                                "which is not installed: pip install 'rank-metrics[polars]'")


def test_relevance_false_says_truth_has_no_grades():
    """A truth column named relevance is read as grades unless relevance=False (dbt: relevance=none)."""
    predictions = pd.DataFrame({"user_id": [1, 1, 2], "item_id": [1, 2, 1], "rank": [1, 2, 1]})
    truth = pd.DataFrame({"user_id": [1, 2, 1], "item_id": [1, 1, 2], "relevance": [0, 1, 1]})
    assert rank_metrics.map_at_k(predictions, truth, k=2, check=True) == 0.75
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert rank_metrics.map_at_k(predictions, truth, k=2, relevance=False, check=True) == 1.0
    with pytest.raises(rank_metrics.RankMetricsError, match="relevance_threshold 1 applies to grades, but no grade "
                                                            "column of truth is read"):
        rank_metrics.map_at_k(predictions, truth, k=2, relevance=False, relevance_threshold=1)


@pytest.mark.parametrize("function", ["map_at_k", "evaluate", "evaluate_users"])
def test_check_matches_date_groups(function):
    """check=True failed for every by column of dates: DuckDB's result gives a DATE as a pandas
    Timestamp, the reference's rows as a date, and the two never met."""
    # read by name by DuckDB's replacement scan in the queries below
    predictions = pd.DataFrame({"day": [date(2026, 1, 1), date(2026, 1, 2)], "user_id": [1, 1], "item_id": [1, 1],  # noqa: F841
                                "rank": [1, 1]})
    truth = pd.DataFrame({"day": [date(2026, 1, 1), date(2026, 1, 2)], "user_id": [1, 1], "item_id": [1, 2]})  # noqa: F841
    con = duckdb.connect()
    con.execute("create table p as select cast(day as date) as day, user_id, item_id, rank from predictions")
    con.execute("create table t as select cast(day as date) as day, user_id, item_id from truth")
    got = getattr(rank_metrics, function)("p", "t", k=1, by="day", con=con, check=True)
    assert len(got) == (2 if function != "evaluate" else 12)


def test_precision_at_a_huge_k_keeps_its_digits():
    """DuckDB's exact sums of per-user values had 18 decimal places: precision at k = 7e13 was 3e-6
    off, and at k = 2^63 - 1 it was 0, with a false warning that nothing was met (a new user's trial)."""
    predictions = pd.DataFrame({"user_id": [1, 1, 1, 2, 2, 3], "item_id": [1, 2, 3, 1, 5, 7], "rank": [1, 2, 3, 1, 2, 1]})
    truth = pd.DataFrame({"user_id": [1, 1, 2, 3], "item_id": [1, 3, 5, 9]})
    assert rank_metrics.precision_at_k(predictions, truth, k=70_000_000_000_001) == pytest.approx(1 / 70_000_000_000_001,
                                                                                                  rel=1e-11)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert rank_metrics.precision_at_k(predictions, truth, k=2 ** 63 - 1) == pytest.approx(1 / (2 ** 63 - 1), rel=1e-5)


def test_ids_of_two_float_widths_are_refused():
    """A float32 id and a float64 id of the same decimal are two numbers: 0.1 met nothing, and
    MAP came out 0 with only the nothing-met warning (a new user's trial)."""
    predictions = pd.DataFrame({"user_id": [1, 1], "item_id": [0.1, 0.5], "rank": [1, 2]}).astype({"item_id": "float32"})
    truth = pd.DataFrame({"user_id": [1], "item_id": [0.1]})
    with pytest.raises(rank_metrics.RankMetricsError) as error:
        rank_metrics.map_at_k(predictions, truth, k=1)
    assert str(error.value) == ("rank_metrics: column item_id (argument item) is FLOAT in predictions but DOUBLE in truth; "
                                "cast one so they match (a 32-bit float is another number than the double of the same "
                                "decimal: 0.1 is 0.100000001490116 as a float)")
    assert rank_metrics.map_at_k(predictions, truth.astype({"item_id": "float32"}), k=1, check=True) == 1.0
