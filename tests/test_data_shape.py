"""No plausible wrong number from the shape of the data (issue 43): a score passed as rank= is
said, from its values, on every engine; ranks that are ranks raise nothing."""

import warnings

import pandas as pd
import pytest

import rank_metrics

from engine_tables import to_postgres, to_spark
from test_cli import run

PREDICTIONS = pd.DataFrame({"user_id": [1, 1, 1, 2, 2, 2], "item_id": ["a", "b", "c", "a", "c", "d"],
                            "pred": [0.9, 0.2, 0.5, 0.4, 0.7, 0.05]})
TRUTH = pd.DataFrame({"user_id": [1, 2], "item_id": ["a", "c"]})
SAID = (r"rank column 'pred' holds only values between 0 and 1 \(0\.05 to 0\.9\): it looks like a score, and read "
        r"as ranks every list is taken lowest first; if higher is better, pass score='pred'")


def inputs(engine, request):
    if engine == "duckdb":
        return dict(predictions=PREDICTIONS, truth=TRUTH)
    if engine == "postgres":
        con = request.getfixturevalue("postgres")
        return dict(predictions=to_postgres(con, "shape_recs", PREDICTIONS), truth=to_postgres(con, "shape_truth", TRUTH),
                    con=con)
    spark = request.getfixturevalue("spark")
    return dict(predictions=to_spark(spark, PREDICTIONS), truth=to_spark(spark, TRUTH))


@pytest.mark.parametrize("engine", ["duckdb", pytest.param("postgres", marks=pytest.mark.postgres),
                                    pytest.param("spark", marks=pytest.mark.spark)])
def test_a_score_passed_as_rank_is_said(engine, request):
    given = inputs(engine, request)
    with pytest.warns(rank_metrics.RankMetricsWarning, match=SAID):
        read_backwards = rank_metrics.map_at_k(k=2, rank="pred", **given)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        right = rank_metrics.map_at_k(k=2, score="pred", **given)
    assert (read_backwards, right) == (0.0, 1.0)   # each user's relevant item is its top score


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
