"""The list API: apk and mapk on Python lists, with the classic apk's numbers by default."""

from __future__ import annotations

import math
import numbers
from typing import Sequence

from . import reference
from .errors import RankMetricsError, mention


def _checked(k, normalization, duplicates):
    if isinstance(k, bool) or not isinstance(k, numbers.Integral) or k < 1:
        raise RankMetricsError(f"rank_metrics: {mention('k', k)} must be a positive integer; got {k!r}")
    if normalization not in reference.NORMALIZATIONS:
        raise RankMetricsError(f"rank_metrics: {mention('normalization', normalization)} must be one of "
                               f"{', '.join(reference.NORMALIZATIONS)}; got {normalization!r}")
    if duplicates not in reference.DUPLICATES:
        raise RankMetricsError(f"rank_metrics: {mention('duplicates', duplicates)} must be one of "
                               f"{', '.join(reference.DUPLICATES)}; got {duplicates!r}")


def _items(value, name: str, ordered: bool = True, what: str = "a list of items") -> list:
    """A list (or any sequence: a tuple, a numpy array, a pandas Series; a set too for a set of
    relevant items, where order means nothing) as a Python list. A text
    is refused: it is a sequence of characters, and apk('a b', 'a') would score each character as
    an item (a Kaggle submission's prediction string passed as it is)."""
    named = mention(name.split("[")[0], text=name)   # actual[3]: an item of the argument actual
    if isinstance(value, (str, bytes)):
        raise RankMetricsError(f"rank_metrics: {named} is a {type(value).__name__} ({value[:40]!r}), not a list of "
                               "items: its characters would be the items; split it first, e.g. .split()")
    if not hasattr(value, "__iter__") or isinstance(value, dict) or (ordered and isinstance(value, (set, frozenset))):
        raise RankMetricsError(f"rank_metrics: {named} must be {what} (a list, tuple, numpy array or pandas "
                               f"Series{'' if ordered else ', or a set'}); got {type(value).__name__}"
                               + ("; a set has no order to rank by" if isinstance(value, (set, frozenset)) else ""))
    return list(value)


def apk(actual: Sequence, predicted: Sequence, k: int = 10, *, normalization: str = "min_m_k",
        duplicates: str = "first") -> float:
    """AP@k of one predicted list against the actual (relevant) items.

    The relevant set is the distinct items of `actual`; an empty `actual` gives 0.
    """
    actual, predicted = _items(actual, "actual", ordered=False), _items(predicted, "predicted")
    _checked(k, normalization, duplicates)
    if duplicates == "error" and len(set(predicted)) != len(predicted):
        repeated = next(item for index, item in enumerate(predicted) if item in predicted[:index])
        raise RankMetricsError(f"rank_metrics: {mention('duplicates', 'error', 'value')}: item {repeated!r} is predicted more than once")
    value, _ = reference.average_precision(list(predicted), set(actual), k, normalization, duplicates)
    return value


def mapk(actual: Sequence[Sequence], predicted: Sequence[Sequence], k: int = 10, *,
         normalization: str = "min_m_k", duplicates: str = "first") -> float:
    """The mean of apk over pairs of lists, as the classic mapk: every pair counts."""
    # pairs by position, as the classic mapk: a pandas Series' index is not looked at
    actual, predicted = _items(actual, "actual", what="a list of lists"), _items(predicted, "predicted", what="a list of lists")
    if len(actual) != len(predicted):
        raise RankMetricsError(f"rank_metrics: actual and predicted must be lists of the same length; "
                               f"got {len(actual)} and {len(predicted)}")
    if not actual:
        return math.nan
    pairs = [(_items(one_actual, f"actual[{index}]", ordered=False), _items(one_predicted, f"predicted[{index}]"))
             for index, (one_actual, one_predicted) in enumerate(zip(actual, predicted))]
    return math.fsum(apk(a, p, k, normalization=normalization, duplicates=duplicates) for a, p in pairs) / len(pairs)
