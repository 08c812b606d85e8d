"""No plausible wrong number from the shape of the data (issue 43): a score passed as rank= is
said, from its values, on every engine; ranks that are ranks raise nothing."""

import warnings

import pandas as pd
import pytest

import rank_metrics

from engine_tables import ENGINES, on_engine
from test_cli import run

PREDICTIONS = pd.DataFrame({"user_id": [1, 1, 1, 2, 2, 2], "item_id": ["a", "b", "c", "a", "c", "d"],
                            "pred": [0.9, 0.2, 0.5, 0.4, 0.7, 0.05]})
TRUTH = pd.DataFrame({"user_id": [1, 2], "item_id": ["a", "c"]})
SAID = (r"rank column 'pred' holds only values between 0 and 1 \(0\.05 to 0\.9\): it looks like a score, and read "
        r"as ranks every list is taken lowest first; if higher is better, pass score='pred'")


def inputs(engine, request):
    return on_engine(engine, request, "shape", predictions=PREDICTIONS, truth=TRUTH)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_score_passed_as_rank_is_said(engine, request):
    given = inputs(engine, request)
    with pytest.warns(rank_metrics.RankMetricsWarning, match=SAID):
        read_backwards = rank_metrics.map_at_k(k=2, rank="pred", **given)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        right = rank_metrics.map_at_k(k=2, score="pred", **given)
    assert (read_backwards, right) == (0.0, 1.0)   # each user's relevant item is its top score


def test_a_column_named_rank_holding_scores_is_said_when_rank_is_not_named():
    """The order column found by its name, rank (no rank= given), is read as ranks just the same:
    the warning was given only for rank= (a new user's trial)."""
    named_rank = PREDICTIONS.rename(columns={"pred": "rank"})
    with pytest.warns(rank_metrics.RankMetricsWarning, match=SAID.replace("'pred'", "'rank'")):
        assert rank_metrics.map_at_k(named_rank, TRUTH, k=2) == 0.0


def test_the_command_line_names_the_flag(tmp_path):
    PREDICTIONS.to_csv(tmp_path / "p.csv", index=False)
    TRUTH.to_csv(tmp_path / "t.csv", index=False)
    code, _, err = run("map-at-k", str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "2", "--rank", "pred")
    assert code == 0
    # (read backwards, no list meets truth within 2: that is said too)
    assert ("rank-metrics: warning: rank column 'pred' holds only values between 0 and 1 (0.05 to 0.9): it looks "
            "like a score, and read as ranks every list is taken lowest first; if higher is better, pass "
            "score='pred' (--score pred on the command line)") in err.splitlines()


@pytest.mark.parametrize("ranks", [[1.0, 2.0, 3.0, 1.0, 2.0, 3.0], [0.0, 0.5, 1.0, 0.0, 0.5, 1.0], [1.5, 2.5, 3.5, 1, 2, 9],
                                   [1, 2, 3, 10, 20, 30]], ids=["whole floats", "from 0 to 1 inclusive", "fractional past 1",
                                                               "sparse integers"])
def test_ranks_that_are_ranks_raise_nothing(ranks):
    predictions = PREDICTIONS.drop(columns="pred").assign(position=ranks)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rank_metrics.map_at_k(predictions, TRUTH, k=2, rank="position")


def late_leading_zero(tmp_path, truth_item):
    """30,000 numeric item ids, then 0123: DuckDB's sniffer, reading the first rows, types the
    column BIGINT and reads 0123 as 123."""
    predictions = tmp_path / "p.csv"
    predictions.write_text("user_id,item_id,rank\n" + "".join(f"{user},{1000 + user},1\n" for user in range(30_000))
                           + "99999,0123,1\n")
    truth = tmp_path / "t.csv"
    truth.write_text(f"user_id,item_id\n99999,{truth_item}\n")
    return str(predictions), str(truth)


def test_a_csv_id_written_otherwise_late_in_the_file_is_not_made_a_number(tmp_path):
    """It met truth's 123 (AP 1.0 instead of 0): the id columns are read again as text when any
    value is not its number's spelling, and then the two spellings are said."""
    predictions, truth = late_leading_zero(tmp_path, "123")
    with pytest.raises(rank_metrics.RankMetricsError, match=r"predictions' item '0123' and truth's '123' are one number "
                                                            r"written two ways"):
        rank_metrics.average_precision_at_k(predictions, truth, k=1)
    predictions, truth = late_leading_zero(tmp_path, "0123")   # written alike: they meet, as text
    result = rank_metrics.average_precision_at_k(predictions, truth, k=1)
    assert result.average_precision.tolist() == [1.0]


def test_csv_ids_that_are_numbers_stay_numbers(tmp_path):
    predictions, truth = tmp_path / "p.csv", tmp_path / "t.csv"
    predictions.write_text("user_id,item_id,rank\n1,10,1\n1,7,2\n2,10,1\n")
    truth.write_text("user_id,item_id\n1,7\n2,10\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = rank_metrics.average_precision_at_k(str(predictions), str(truth), k=2, check=True)
    assert result.average_precision.tolist() == [0.5, 1.0]
    assert str(result.user_id.dtype).startswith("int")


# --- lists merged, rows repeated and ids with spaces (issue 43 items 1, 2 and 4) ------------------

LISTS = pd.DataFrame({"user_id": [1, 1, 1, 2, 2, 2], "item_id": ["a", "b", "c", "c", "d", "e"], "rank": [1, 2, 3, 1, 2, 3]})
JUDGED = pd.DataFrame({"user_id": [1, 2], "item_id": ["b", "d"]})   # AP@3 0.5 each: MAP 0.5
# two days of lists, read as one list per user when by= leaves the day out
TWO_DAYS = pd.concat([LISTS.assign(day="2024-03-01"), LISTS.assign(day="2024-03-02", item_id=["x", "b", "y", "z", "d", "w"])])
MERGED = (r"lists merged: user 1 has two rows at rank 1, and their column 'day', which by= does not name, differs "
          r"between them: lists of several day values are read as one list, and the number is no day's; pass "
          r"by='day' for a row per day")
REPEATED = (r"duplicate rows: user 1 has two rows at rank 1, item 'a' both times, the same row twice \(a table appended "
            r"to itself, or a join that repeats rows\): every repeat takes a place in the list and moves the items after "
            r"it down; drop the repeated rows")
TIED = (r"tied at every rank: user 1 has more than one row at each rank from 1 to 3, with different items at each and no "
        r"other column that differs: the rows are read as one list whose items tie at every rank, which is what lists "
        r"merged without the column of their model or day look like; if they are several lists, the number is none of "
        r"theirs: pass by= the column that tells them apart, or add one; if they are true ties, tie_break= decides their order "
        r"\(--by and --tie-break on the command line\)")
PADDED = (r"predictions' column 'item_id' holds ids with a space at the start or end, such as 'b ', and truth's have "
          r"none: ids are compared exactly, so such an id never meets the same id without the space; strip the spaces")


@pytest.mark.parametrize("engine", ENGINES)
def test_lists_merged_from_two_days_are_said_and_by_day_is_silent(engine, request):
    given = on_engine(engine, request, "shape", predictions=TWO_DAYS, truth=JUDGED)
    with pytest.warns(rank_metrics.RankMetricsWarning, match=MERGED):
        blended = rank_metrics.map_at_k(k=3, rank="rank", **given)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        per_day = rank_metrics.map_at_k(k=3, rank="rank", by="day", **given)
    # read as one list by rank, then item: a, x, b within the cut of 3 (c, z, d for user 2)
    assert blended == pytest.approx(1 / 3)
    assert list(per_day.map_at_k) == [0.5, 0.5]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_table_appended_to_itself_is_said(engine, request):
    given = on_engine(engine, request, "shape", predictions=pd.concat([LISTS, LISTS]), truth=JUDGED)
    with pytest.warns(rank_metrics.RankMetricsWarning, match=REPEATED):
        shifted = rank_metrics.map_at_k(k=3, rank="rank", **given)
    assert shifted == pytest.approx(1 / 3)   # b at position 3 of a, a, b: AP 1/3 for each user


@pytest.mark.parametrize("engine", ENGINES)
def test_lists_merged_without_their_column_are_said(engine, request):
    """Two models' lists appended with no model column: every rank from 1 holds two rows of
    different items, which nothing tells apart from ties but the pattern; with the column, by=
    reads them apart and nothing is said."""
    models = pd.concat([LISTS.assign(model="a"), LISTS.assign(model="b", item_id=["x", "y", "z", "u", "v", "w"])])
    given = on_engine(engine, request, "shape", predictions=models.drop(columns="model"), truth=JUDGED)
    with pytest.warns(rank_metrics.RankMetricsWarning, match=TIED):
        blended = rank_metrics.map_at_k(k=3, rank="rank", **given)
    assert blended == pytest.approx(1 / 3)   # a, x, b within the cut of 3 (c, u, d for user 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        per_model = rank_metrics.map_at_k(k=3, rank="rank", by="model",
                                          **on_engine(engine, request, "shape", predictions=models, truth=JUDGED))
    assert list(per_model.map_at_k) == [0.5, 0.0]


@pytest.mark.parametrize("engine", ENGINES)
def test_an_id_with_a_trailing_space_in_one_table_is_said(engine, request):
    given = on_engine(engine, request, "shape", predictions=LISTS.assign(item_id=["a", "b ", "c", "c", "d", "e"]), truth=JUDGED)
    with pytest.warns(rank_metrics.RankMetricsWarning, match=PADDED):
        partly = rank_metrics.map_at_k(k=3, rank="rank", **given)
    assert partly == pytest.approx(0.25)   # user 1's 'b ' never meets 'b'


def test_score_ordered_lists_merged_and_repeated_are_said():
    scored = LISTS.assign(score=[0.9, 0.8, 0.7, 0.9, 0.8, 0.7]).drop(columns="rank")
    merged = pd.concat([scored.assign(day=1), scored.assign(day=2, item_id=["a", "b", "r", "c", "s", "t"])])
    with pytest.warns(rank_metrics.RankMetricsWarning, match="lists merged: user 1 has item 'a' twice, and their column 'day'"):
        rank_metrics.map_at_k(merged, JUDGED, k=3, score="score")
    with pytest.warns(rank_metrics.RankMetricsWarning, match="duplicate rows: user 1 has item 'a' twice at one score"):
        rank_metrics.map_at_k(pd.concat([scored, scored]), JUDGED, k=3, score="score")


@pytest.mark.parametrize("predictions, truth", [
    # a constant column (trec_eval's run tag) and a per-user segment column
    (LISTS.assign(run="bm25", segment=["new", "new", "new", "old", "old", "old"]), JUDGED),
    # a rank tie between two items whose attribute differs, once in a list
    (LISTS.assign(rank=[1, 1, 3, 1, 2, 3], category=["shoes", "hats", "bags", "x", "y", "z"]), JUDGED),
    # ties at the first two ranks of a list but not at its third; two single-item lists at rank 1
    (pd.DataFrame({"user_id": [1] * 5 + [2, 2], "item_id": list("abcdeab"), "rank": [1, 1, 2, 2, 3, 1, 1]}), JUDGED),
    # score ties within a list, and a repeated item at two scores (the duplicates rule's)
    (LISTS.assign(score=[0.5, 0.5, 0.5, 0.9, 0.9, 0.1]).drop(columns="rank"), JUDGED),
    # sparse, gappy integer ranks
    (LISTS.assign(rank=[1, 5, 90, 2, 4, 8]), JUDGED),
    # the same space in both tables
    (LISTS.assign(item_id=["a", "b ", "c", "c", "d", "e"]), JUDGED.assign(item_id=["b ", "d"])),
], ids=["constant and per-user columns", "one tie", "ties short of the list", "score ties", "gappy ranks",
        "spaces on both sides"])
def test_clean_shapes_raise_nothing(predictions, truth):
    order = dict(rank="rank") if "rank" in predictions else dict(score="score")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rank_metrics.evaluate(predictions, truth, k=[1, 3], **order)


def test_the_command_line_gives_the_flags_of_a_merge(tmp_path):
    TWO_DAYS.to_csv(tmp_path / "p.csv", index=False)
    JUDGED.to_csv(tmp_path / "t.csv", index=False)
    code, _, err = run("map-at-k", str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "3", "--rank", "rank",
                       "--by", "day")
    assert code == 0 and not err
    code, _, err = run("map-at-k", str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "3", "--rank", "rank")
    assert code == 0
    assert any(line.startswith("rank-metrics: warning: lists merged: user 1") and line.endswith(
        "pass by='day' for a row per day (--by day on the command line)") for line in err.splitlines()), err


def test_the_shape_summary_is_one_row_whatever_the_id_types():
    """With number ids (no text to look at) each table's part of the space query was a row per
    row, and their cross join 29 billion rows for 240,000 predictions: one row, always."""
    import duckdb

    from rank_metrics._arguments import _metric_arguments
    from rank_metrics._render import render
    from rank_metrics._run import _plan_of

    con = duckdb.connect()
    con.execute("create table p as select i // 10 as user_id, i as item_id, i % 10 + 1 as rank from range(1000) as r(i)")
    con.execute("create table t as select i // 10 as user_id, i as item_id from range(500) as r(i)")
    columns = [{"name": name, "data_type": "BIGINT"} for name in ("user_id", "item_id", "rank")]
    plan = _plan_of(_metric_arguments(3, {"rank": "rank"}), "duckdb", predictions="p", truth="t",
                    predictions_columns=columns, truth_columns=columns[:2])
    summary = render("_shape_summary", plan=plan, predictions_columns=columns, truth_columns=columns[:2])
    # every list proven (ranks 1 to 10 each once), so the collisions' query is not needed
    assert con.execute(summary).fetchall() == [(0, None, None, None, None)]
    assert con.execute(render("_shape_collisions", plan=plan, predictions_columns=columns)).fetchall() == []
    # a row repeated in two lists: those two are not proven, and the collisions' query finds the first
    con.execute("insert into p values (3, 31, 2), (7, 70, 1)")
    assert con.execute(summary).fetchall() == [(2, None, None, None, None)]
    assert con.execute(render("_shape_collisions", plan=plan, predictions_columns=columns)).fetchall() == [
        (3, 2, '31', True, None)]


def test_strict_makes_the_shape_warnings_errors(tmp_path):
    """Lists merged gave a number and a warning; strict=True (--strict) fails instead, for
    pipelines that must not publish such a number, and leaves clean data alone."""
    merged = "lists merged: user 1 has two rows at rank 1, and their column 'day'"
    for function in (rank_metrics.map_at_k, rank_metrics.evaluate):
        with pytest.raises(rank_metrics.RankMetricsError, match=merged + ".*strict=True makes this warning an error"):
            function(TWO_DAYS, JUDGED, k=3, rank="rank", strict=True)
    appended = pd.concat([LISTS, LISTS.assign(item_id=["x", "y", "z", "u", "v", "w"])])
    with pytest.raises(rank_metrics.RankMetricsError, match="tied at every rank: user 1 .*strict=True makes this warning an error"):
        rank_metrics.map_at_k(appended, JUDGED, k=3, rank="rank", strict=True)
    with pytest.raises(rank_metrics.RankMetricsError, match="duplicate rows"):
        rank_metrics.compare(pd.concat([LISTS, LISTS]).assign(model="a"), JUDGED, k=3, rank="rank", by="model",
                             baseline="a", strict=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert rank_metrics.map_at_k(TWO_DAYS, JUDGED, k=3, rank="rank", by="day", strict=True).map_at_k.tolist() == [0.5, 0.5]
    with pytest.raises(rank_metrics.RankMetricsError, match="strict must be True or False; got 'yes'"):
        rank_metrics.map_at_k(LISTS, JUDGED, k=3, strict="yes")
    TWO_DAYS.to_csv(tmp_path / "p.csv", index=False)
    JUDGED.to_csv(tmp_path / "t.csv", index=False)
    code, out, err = run("map-at-k", str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "3", "--rank", "rank", "--strict")
    assert (code, out) == (2, "") and err.startswith("rank-metrics: error: lists merged: user 1"), err
    assert err.rstrip().endswith("(--strict makes this warning an error)"), err
