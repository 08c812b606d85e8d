"""Every option and convention on one small hand-computed input (integration seeds options_*),
through the Python API; the dbt integration project asserts the same table."""

import pandas as pd
import pytest

import rank_metrics

from conftest import INTEGRATION

SEEDS = INTEGRATION / "seeds"

VARIANTS = {
    "defaults": dict(rank="rank"),
    "normalization_m": dict(rank="rank", normalization="m"),
    "normalization_hits": dict(rank="rank", normalization="hits"),
    "duplicates_all": dict(rank="rank", duplicates="all"),
    "duplicates_collapse": dict(rank="rank", duplicates="collapse"),
    "tie_break_item_desc": dict(rank="rank", tie_break="item_desc"),
    "users_predictions": dict(rank="rank", users="predictions"),
    "users_both": dict(rank="rank", users="both"),
    "users_union": dict(rank="rank", users="union"),
    "score": dict(score="score"),
    "relevance_grade": dict(rank="rank", relevance="grade"),
    "convention_ml_metrics": dict(rank="rank", convention="ml_metrics"),
    "convention_spark": dict(rank="rank", convention="spark"),
    "convention_recommenders": dict(rank="rank", convention="recommenders"),
    "convention_ranx": dict(rank="rank", convention="ranx"),
    "convention_torchmetrics": dict(rank="rank", convention="torchmetrics"),
}

EXPECTED = pd.read_csv(SEEDS / "options_expected.csv")


def test_every_variant_has_expected_values():
    assert set(EXPECTED.variant) == set(VARIANTS)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_variant(variant):
    got = rank_metrics.average_precision_at_k(
        str(SEEDS / "options_predictions.csv"), str(SEEDS / "options_truth.csv"), k=[3, 5],
        check=True, **VARIANTS[variant])
    want = EXPECTED[EXPECTED.variant == variant].sort_values(["user_id", "k"]).reset_index(drop=True)
    assert list(zip(got.user_id, got.k)) == list(zip(want.user_id, want.k))
    assert list(got.average_precision) == pytest.approx(list(want.average_precision), abs=1e-6)


def test_explicit_option_beats_convention():
    # ranx means normalization='m'; an explicit min_m_k wins over the preset
    got = rank_metrics.average_precision_at_k(
        str(SEEDS / "options_predictions.csv"), str(SEEDS / "options_truth.csv"), k=3,
        rank="rank", convention="ranx", normalization="min_m_k", check=True)
    assert got.set_index("user_id").loc["u1", "average_precision"] == pytest.approx(2 / 3)
