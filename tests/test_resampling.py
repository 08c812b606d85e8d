"""The resampled tests drawn faster (issue 43 item 15) are the same tests: sign flips drawn as
binomial counts per distinct value, or as table lookups eight users at a time, and the bootstrap
drawn as multinomial counts per distinct value, each give the p-value of the plain method within
its Monte Carlo error."""

import itertools
import math

import numpy as np
import pytest

from rank_metrics import stats

RESAMPLES = 20_000


def exact_sign_flip_p(values):
    """Every one of the 2^n flips, as the definition reads."""
    values = np.asarray(values, dtype=float)
    observed = abs(values.mean())
    signs = np.array(list(itertools.product((1.0, -1.0), repeat=len(values))))
    return float(np.mean(np.abs(signs @ values) / len(values) >= observed - 1e-12))


def within_monte_carlo_error(estimate, truth, resamples=RESAMPLES):
    return abs(estimate - truth) <= 4.5 * math.sqrt(max(truth * (1 - truth), 1e-4) / resamples)


@pytest.mark.parametrize("kind", ["few distinct values", "every value distinct"])
def test_sampled_sign_flips_estimate_the_exact_p_value(kind):
    """16 users: 65,536 flips, more than the 20,000 drawn, so the test samples; the exact p-value
    is counted over all of them."""
    rng = np.random.default_rng(3)
    if kind == "few distinct values":   # AP-like fractions: the binomial path
        values = rng.choice([-0.5, -0.25, 0.0, 0.25, 0.5, 1.0], size=144, p=[.16, .17, .3, .17, .15, .05])
        # 144 users of 6 values: enumerate by value counts instead of 2^144 flips
        distinct, counts = np.unique(values, return_counts=True)
        assert len(distinct) * 8 <= len(values)
        truth = _exact_by_counts(distinct, counts)
    else:   # the table path
        values = rng.normal(0.2, 1.0, size=16)
        assert len(set(values)) * 8 > len(values)
        truth = exact_sign_flip_p(values)
    estimate = stats._sign_flip_p_value(list(values), 1, RESAMPLES)
    assert 0.001 < truth < 0.999
    assert within_monte_carlo_error(estimate, truth), (estimate, truth)


def _exact_by_counts(distinct, counts):
    """The exact sign-flip p-value of users with these values and counts: a flip's sum is
    sum_v v (2 h_v - f_v), h_v heads among f_v, each with its binomial probability."""
    n = counts.sum()
    observed = abs(float(distinct @ counts)) / n
    sums = {0.0: 1.0}
    for value, count in zip(distinct, counts):
        spread = {}
        for heads in range(count + 1):
            weight = math.comb(int(count), heads) / 2 ** int(count)
            for total, probability in sums.items():
                key = round(total + value * (2 * heads - count), 9)
                spread[key] = spread.get(key, 0.0) + probability * weight
        sums = spread
    return sum(probability for total, probability in sums.items() if abs(total) / n >= observed - 1e-9)


@pytest.mark.parametrize("kind", ["few distinct values", "every value distinct"])
def test_the_bootstrap_by_counts_is_the_bootstrap_by_users(kind):
    rng = np.random.default_rng(5)
    values = (rng.choice([-1.0, 0.0, 1.0], size=400, p=[.3, .4, .3]) if kind == "few distinct values"
              else rng.normal(0.05, 1.0, size=400))
    centred = values - values.mean()
    draw = np.random.default_rng(11)
    means = centred[draw.integers(0, len(values), size=(RESAMPLES, len(values)))].mean(axis=1)
    plain = float(np.mean(np.abs(means) >= abs(values.mean()) - 1e-12))
    estimate = stats._bootstrap_p_value(list(values), 2, RESAMPLES)
    assert 0.001 < plain < 0.999
    # two estimates, each with its own Monte Carlo error
    assert abs(estimate - plain) <= 4.5 * math.sqrt(2 * plain * (1 - plain) / RESAMPLES), (estimate, plain)


@pytest.mark.parametrize("values", [
    np.random.default_rng(7).choice([-1.0, -1 / 3, 0.0, 0.5, 1.0], size=2_000, p=[.2, .2, .2, .2, .2]),
    np.random.default_rng(8).normal(0.0, 1.0, size=2_000),
], ids=["few distinct values", "every value distinct"])
def test_each_sampler_draws_the_distribution_it_claims(values):
    """A flip sum sum_u s_u d_u has mean 0 and variance sum_u d_u^2; a resample mean of values
    centred on 0 has mean 0 and variance (sum_u c_u^2 / n) / n. Checked over 40,000 draws: a
    biased coin (p = 0.45) or resamples of 5% fewer users move them past these bounds."""
    from rank_metrics.stats import _flip_sums, _resample_means

    draws = 40_000
    sums = np.concatenate(list(_flip_sums(values, np.random.default_rng(1), draws)))
    variance = float(np.sum(values ** 2))
    assert len(sums) == draws
    assert abs(sums.mean()) <= 4.5 * math.sqrt(variance / draws)
    assert abs(sums.var() / variance - 1) <= 4.5 * math.sqrt(2 / draws)
    centred = values - values.mean()
    means = np.concatenate(list(_resample_means(centred, np.random.default_rng(2), draws)))
    variance = float(np.sum(centred ** 2)) / len(values) / len(values)
    assert len(means) == draws
    assert abs(means.mean()) <= 4.5 * math.sqrt(variance / draws)
    assert abs(means.var() / variance - 1) <= 4.5 * math.sqrt(2 / draws)
