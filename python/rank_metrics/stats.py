"""The statistics of SPEC §7 over per-user values, in Python: what compare() computes for its
permutation and bootstrap tests, and the exact Student t p-value. numpy comes with pandas;
scipy (the `stats` extra) only for the t distribution."""

from __future__ import annotations

import itertools
import math
import numbers
from typing import Sequence

from ._optional import load
from .errors import RankMetricsError, mention

TESTS = ("t", "permutation", "bootstrap")
CORRECTIONS = ("holm", "bonferroni", "none")
# what one correction spans: one metric at one k across the models, or every row
FAMILIES = ("metric_and_k", "all")


def check_resampling(seed, resamples) -> None:
    """seed and resamples as the resampled tests take them (checked whichever test runs, so that a
    bad value is found before a run switches tests)."""
    if isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 1:
        raise RankMetricsError(f"rank_metrics: {mention('resamples', resamples)} must be a positive integer; got {resamples!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0):
        raise RankMetricsError(f"rank_metrics: {mention('seed', seed)} must be an integer of 0 or more (or None); got {seed!r}")


# the largest rounding error of a mean or standard deviation of per-user values (each within
# [0, 1]): below it a standard deviation or a difference is 0 (the macro _rounding holds the same
# number, and a test holds the two equal)
ROUNDING = 1e-12


def paired(model: Sequence[float], baseline: Sequence[float], *, test: str = "t", seed=None,
           resamples: int = 10_000) -> dict:
    """SPEC §7's paired comparison of aligned per-user values: difference (the mean of
    d = model - baseline), relative_difference (over the baseline's mean; None when that is 0),
    std_error (s_d / sqrt n), t, df (n - 1) and the two-sided p_value of `test`. With s_d = 0, t
    is None and the t test's p_value is 1 when the difference is 0, else 0 (SPEC §7); the
    resampled tests keep their own definitions, by which d = 1, 1, 1 gives the permutation test
    p = 2/8 (two of the eight sign flips reach |mean| 1), not 0. With fewer than two users every
    statistic is None. seed: None or an integer of 0 or more."""
    if test not in TESTS:
        raise RankMetricsError(f"rank_metrics: {mention('test', test)} must be one of {', '.join(map(repr, TESTS))}; got {test!r}")
    check_resampling(seed, resamples)
    if len(model) != len(baseline):
        raise RankMetricsError(f"rank_metrics: paired values must be as many on both sides; got "
                               f"{len(model)} and {len(baseline)}")
    differences = [m - b for m, b in zip(model, baseline)]
    n = len(differences)
    baseline_mean = math.fsum(baseline) / n if n else None
    difference = math.fsum(differences) / n if n else None
    result = {"difference": difference, "std_error": None, "t": None, "df": n - 1 if n else None, "p_value": None,
              "relative_difference": difference / baseline_mean if baseline_mean else None}
    if n < 2:
        return result
    sd = math.sqrt(math.fsum((d - difference) ** 2 for d in differences) / (n - 1))
    # equal differences are s_d = 0 (SPEC §7) whatever the rounding of their mean (0.2, 0.2, 0.2
    # has the mean 0.20000000000000004) or of themselves (0.6 - 0.4 and 0.4 - 0.2)
    sd = 0.0 if sd <= ROUNDING else sd
    result["std_error"] = sd / math.sqrt(n)
    if sd == 0 and test == "t":
        result["p_value"] = 1.0 if abs(difference) <= ROUNDING else 0.0
        return result
    if sd > 0:
        result["t"] = difference / result["std_error"]
    if test == "t":
        result["p_value"] = student_p_value(result["t"], n - 1)
    elif test == "permutation":
        result["p_value"] = _sign_flip_p_value(differences, seed, resamples)
    else:
        result["p_value"] = _bootstrap_p_value(differences, seed, resamples)
    return result


def student_p_value(t: float, df: float) -> float:
    """Two-sided, exact: 2 P(T_df > |t|)."""
    scipy_stats = load("scipy.stats", f"the t test's exact p-value ({mention('test', 't', 'value')}, the default; "
                                      f"{mention('test', 'permutation', 'value')} and {mention('test', 'bootstrap', 'value')} "
                                      "need no scipy)")
    return float(2 * scipy_stats.t.sf(abs(t), df))


def normal_p_value(t: float) -> float:
    """2 (1 - Phi(|t|)), exactly: what the SQL's polynomial approximates (within 1.5e-7)."""
    return math.erfc(abs(t) / math.sqrt(2))


def _sign_flip_p_value(differences: list[float], seed, resamples: int) -> float:
    """Fisher's randomization test: the share of sign flips of the d_u whose |mean| is at least
    the observed |mean| (every flip when 2^n <= resamples, else `resamples` random ones)."""
    import numpy as np

    values = np.asarray(differences, dtype=float)
    observed = abs(values.mean())
    # a flip's mean may differ from an equal one in the last bits: compare with a tolerance
    tolerance = 1e-12 * max(1.0, observed)
    n = len(values)
    if 2 ** n <= resamples:
        signs = np.array(list(itertools.product((1.0, -1.0), repeat=n)))
        return float(np.mean(np.abs(signs @ values) / n >= observed - tolerance))
    at_least = sum(int(np.sum(np.abs(sums) / n >= observed - tolerance))
                   for sums in _flip_sums(values, np.random.default_rng(seed), resamples))
    return at_least / resamples


def _flip_sums(values, rng, resamples: int):
    """Blocks of sum_u s_u d_u over `resamples` random sign flips s (each sign +1 or -1 with
    probability 1/2, independently)."""
    import numpy as np

    n = len(values)
    distinct, counts = np.unique(values, return_counts=True)
    if len(distinct) * 8 <= n:
        # users of one value flip independently, so what a flip adds of that value is
        # v * (2 B - f), B ~ Binomial(f, 1/2) heads among its f users: the same sums, drawn in
        # O(distinct values) a flip (per-user metrics take few values: 0/1 hits, AP's fractions)
        for count in _blocks(resamples, len(distinct)):
            yield (2 * rng.binomial(counts, 0.5, size=(count, len(distinct))) - counts) @ distinct
        return
    # else eight users at a time: each random byte picks one of the 256 sums of their eight
    # values' signs, so a flip is n / 8 lookups and additions, not n multiplications
    groups = -(-n // 8)
    padded = np.zeros(groups * 8)
    padded[:n] = values
    byte_signs = np.where((np.arange(256)[:, None] >> np.arange(8)[None, :]) & 1, 1.0, -1.0)
    table = (padded.reshape(groups, 8) @ byte_signs.T).ravel()   # group g's sums at g * 256 + byte
    offsets = np.arange(groups, dtype=np.int32) * 256
    for count in _blocks(resamples, groups):
        picked = np.frombuffer(rng.bytes(count * groups), dtype=np.uint8).reshape(count, groups)
        yield np.take(table, picked + offsets).sum(axis=1)


def _blocks(resamples: int, n: int):
    """Resample counts per block, so that a block holds about ten million values."""
    size = max(1, 10_000_000 // max(n, 1))
    for start in range(0, resamples, size):
        yield min(size, resamples - start)


def _bootstrap_p_value(differences: list[float], seed, resamples: int) -> float:
    """Paired bootstrap of the mean difference, two-sided: resample the d_u centred on 0 (the
    null of no difference) and count the means at least as far from 0 as the observed one."""
    import numpy as np

    values = np.asarray(differences, dtype=float)
    observed = abs(values.mean())
    tolerance = 1e-12 * max(1.0, observed)
    at_least = sum(int(np.sum(np.abs(means) >= observed - tolerance))
                   for means in _resample_means(values - values.mean(), np.random.default_rng(seed), resamples))
    return at_least / resamples


def _resample_means(values, rng, resamples: int):
    """Blocks of the means of `resamples` resamples of the values, n drawn with replacement."""
    import numpy as np

    n = len(values)
    distinct, counts = np.unique(values, return_counts=True)
    if len(distinct) * 8 <= n:
        # a resample's mean depends only on how many of each value it draws: Multinomial(n, f / n),
        # drawn in O(distinct values) a resample rather than n draws of a user
        for count in _blocks(resamples, len(distinct)):
            yield rng.multinomial(n, counts / n, size=count) @ distinct / n
        return
    for count in _blocks(resamples, n):
        yield np.take(values, rng.integers(0, n, size=(count, n), dtype=np.int32)).sum(axis=1) / n


def adjust(p_values: Sequence[float | None], correction: str = "holm") -> list[float | None]:
    """The corrected p-values (SPEC §7), None where a p-value is None (not counted in m): Holm's
    step-down (the running largest of (m - i + 1) p_(i), p ascending, capped at 1),
    Bonferroni's m p capped at 1, or the p-values themselves."""
    if correction not in CORRECTIONS:
        raise RankMetricsError(f"rank_metrics: {mention('correction', correction)} must be one of {', '.join(map(repr, CORRECTIONS))}; "
                               f"got {correction!r}")
    tested = [index for index, p in enumerate(p_values) if p is not None]
    adjusted: list[float | None] = [None] * len(p_values)
    m = len(tested)
    if correction == "none":
        return list(p_values)
    if correction == "bonferroni":
        for index in tested:
            adjusted[index] = min(1.0, p_values[index] * m)
        return adjusted
    running = 0.0
    for step, index in enumerate(sorted(tested, key=lambda index: p_values[index])):
        running = max(running, (m - step) * p_values[index])
        adjusted[index] = min(1.0, running)
    return adjusted


def missing(value) -> bool:
    """Whether a value of a result is empty: None, NaN, or pandas' NA (a NULL k in an Int64 column,
    which compares as neither equal nor not)."""
    return value is None or (isinstance(value, float) and math.isnan(value)) or type(value).__name__ == "NAType"


def family_keys(result, family: str) -> list:
    """Per row of a comparison, the family its correction spans: (segment, k, metric) under
    family='metric_and_k' (the segment: the values of the by columns after the models', those
    between the first column and k), one family of every row under 'all'."""
    if family != "metric_and_k":
        return [()] * len(result)
    columns = list(result.columns)
    segments = columns[1:columns.index("k")]
    # a cutoff-free metric's k is NULL (pandas' NA): None, which compares
    return [tuple(None if missing(value) else value for value in key)
            for key in zip(*(result[column] for column in [*segments, "k", "metric"]))]


def adjust_in_families(p_values: Sequence[float | None], families: Sequence, correction: str = "holm") -> list[float | None]:
    """adjust() within each family (rows of equal key in `families`), in the rows' order."""
    adjusted: list[float | None] = [None] * len(p_values)
    for family in dict.fromkeys(families):
        rows = [index for index, key in enumerate(families) if key == family]
        for index, value in zip(rows, adjust([p_values[index] for index in rows], correction)):
            adjusted[index] = value
    return adjusted
