"""SPEC §2's worked examples, through the Python API, the reference and the list API.

The examples and their expected values are the integration project's seeds, so dbt and Python
are held to the very same table."""

import pandas as pd
import pytest

import rank_metrics
from rank_metrics import reference

from conftest import INTEGRATION

SEEDS = INTEGRATION / "seeds"


def seed(name):
    return pd.read_csv(SEEDS / f"{name}.csv", dtype={"item_id": str, "case_id": str})


@pytest.fixture(scope="module")
def spec_average_precision():
    return rank_metrics.average_precision_at_k(
        seed("spec_predictions"), seed("spec_truth"), k=list(range(1, 8)), by="case_id",
        users="union", check=True)


def expected_rows(name):
    return seed(name).to_dict("records")


@pytest.mark.parametrize("row", expected_rows("spec_expected_average_precision"),
                         ids=lambda row: f"{row['case_id']}-user{row['user_id']}-k{row['k']}")
def test_average_precision_per_user(spec_average_precision, row):
    got = spec_average_precision.set_index(["case_id", "user_id", "k"]).loc[
        (row["case_id"], row["user_id"], row["k"]), "average_precision"]
    assert got == pytest.approx(row["average_precision"], abs=1e-6)


@pytest.mark.parametrize("row", expected_rows("spec_expected_map"), ids=lambda row: row["case_id"])
def test_map(row):
    predictions = seed("spec_predictions").query("case_id == @row['case_id']")
    truth = seed("spec_truth").query("case_id == @row['case_id']")
    got = rank_metrics.map_at_k(predictions, truth, k=int(row["k"]), check=True)
    assert got == pytest.approx(row["map_at_k"], abs=1e-6)


def lists_of(frame, case_id, user_id, order=None):
    rows = frame[(frame.case_id == case_id) & (frame.user_id == user_id)]
    if order:
        rows = rows.sort_values(order)
    return list(rows.item_id)


@pytest.mark.parametrize("row", expected_rows("spec_expected_average_precision"),
                         ids=lambda row: f"{row['case_id']}-user{row['user_id']}-k{row['k']}")
def test_list_api_and_reference(row):
    actual = lists_of(seed("spec_truth"), row["case_id"], row["user_id"])
    predicted = lists_of(seed("spec_predictions"), row["case_id"], row["user_id"], order="rank")
    assert rank_metrics.apk(actual, predicted, k=int(row["k"])) == pytest.approx(row["average_precision"], abs=1e-6)
    value, _ = reference.average_precision(predicted, set(actual), int(row["k"]))
    assert value == pytest.approx(row["average_precision"], abs=1e-6)


def test_mapk_classic_numbers():
    assert rank_metrics.mapk([[1, 3, 4], [1, 5]], [[1, 2, 3, 4, 5], [2, 3, 4, 1, 5]], k=5) == pytest.approx(0.565278, abs=1e-6)
    truth = list("abcde")
    lists = ["bcade", "abcde", "fbcde", "afegb", "afcgb", "dcbae"]
    assert rank_metrics.mapk([truth] * 6, [list(x) for x in lists], k=4) == pytest.approx(0.71875)


def test_mapk_takes_numpy_arrays_and_pandas_series():
    """`if not actual` refused a Series and an array ('truth value ... is ambiguous'), and None gave
    a TypeError (a new user's trial). Sets of relevant items are taken; a set of predictions has
    no order."""
    import numpy as np

    want = 0.75   # [1] against [1, 2]: 1; [2] against [0, 2]: 1/2
    assert rank_metrics.mapk(pd.Series([[1], [2]]), pd.Series([[1, 2], [0, 2]]), k=2) == want
    assert rank_metrics.mapk(np.array([[1], [2]]), [[1, 2], [0, 2]], k=np.int64(2)) == want
    assert rank_metrics.mapk([{1}, {2}], np.array([[1, 2], [0, 2]]), k=2) == want
    with pytest.raises(rank_metrics.RankMetricsError, match=r"actual must be a list of items \(.*, or a set\); got NoneType"):
        rank_metrics.apk(None, [1], k=1)
    with pytest.raises(rank_metrics.RankMetricsError, match=r"predicted\[0\] must be a list of items .*; got set; a set has no order"):
        rank_metrics.mapk([[1]], [{1}], k=1)


def test_the_pattern_a_source_document_misprints():
    # SPEC §2: one source prints 0.15 for hit pattern 0 1 0 with m = 3; it is 1/6
    assert rank_metrics.apk(["r1", "r2", "r3"], ["n1", "r1", "n2"], k=3) == pytest.approx(1 / 6)


def test_classic_apk_behaviours():
    # a repeated prediction never counts twice (duplicates='first'), an empty truth gives 0,
    # and predictions past k are ignored
    assert rank_metrics.apk([1, 2], [1, 1, 2], k=3) == pytest.approx((1 + 2 / 3) / 2)
    assert rank_metrics.apk([], [1, 2, 3], k=3) == 0.0
    assert rank_metrics.apk([3], [1, 2, 3], k=2) == 0.0
    assert rank_metrics.apk([1, 2], [1, 1, 2], k=3, duplicates="all") == pytest.approx((1 + 1 + 1) / 2)
    assert rank_metrics.apk([1, 2], [1, 1, 2], k=3, duplicates="collapse") == pytest.approx(1.0)


def test_a_text_in_place_of_a_list_is_refused():
    """A Kaggle prediction string passed as it is: its characters would be the items (mapk gave
    0.55 where the lists give 0.375; a new user's trial)."""
    with pytest.raises(rank_metrics.RankMetricsError, match=r"actual\[0\] is a str \('0108775044 0706016001'\), "
                                                            r"not a list of items: .* split it first, e\.g\. \.split\(\)"):
        rank_metrics.mapk(["0108775044 0706016001", "0108775015"], ["0108775015 0108775044", "0706016001 0108775015"], k=12)
    with pytest.raises(rank_metrics.RankMetricsError, match=r"predicted is a str \('abc'\)"):
        rank_metrics.apk(["abc"], "abc", k=3)
    assert rank_metrics.mapk([s.split() for s in ["0108775044 0706016001", "0108775015"]],
                             [s.split() for s in ["0108775015 0108775044", "0706016001 0108775015"]], k=12) == 0.375
