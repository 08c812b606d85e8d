"""The arguments of the public functions: k, the options, check=, metrics=, by=, and the metrics
themselves (from the registry), checked and put in the form the macros take."""

from __future__ import annotations

import numbers
from typing import Sequence

from ._render import metric_registry
from ._render import namespace as _render_namespace
from .errors import RankMetricsError, mention


def _k_argument(k):
    """k as the macros take it: an int, or a list for any iterable (a range, a set, a numpy
    array); numpy integers become ints. Anything else is passed on for the macro to reject,
    naming the value."""
    if isinstance(k, numbers.Integral) and not isinstance(k, bool):
        return int(k)
    if isinstance(k, (str, bytes, bool)) or k is None:
        return k
    try:
        values = list(k)
    except TypeError:
        return k
    return [int(one) if isinstance(one, numbers.Integral) and not isinstance(one, bool) else one
            for one in values]


def _one_k(k) -> bool:
    """Whether k asks for a single number (an integer) rather than a table (an iterable)."""
    return not isinstance(_k_argument(k), list)


# The arguments every metric takes after (predictions, truth, k), with their defaults: one
# list, from which each public function's signature is made. None means the convention's
# value, or the macro's own default.
OPTIONS = {
    "user": "user_id", "item": "item_id", "rank": None, "score": None, "relevance": None,
    "by": None, "truth_by": None, "normalization": None, "users": None, "duplicates": None,
    "tie_break": None, "convention": None, "gain": None, "gain_from": None,
    "precision_denominator": None, "recall_denominator": None, "truth_scope": None,
    "relevance_threshold": None, "persistence": None, "max_grade": None, "auc_weight": None, "mean": None,
    "truth_user": None, "truth_item": None,
    "predictions_shape": None, "truth_shape": None, "item_separator": None,
}


# the arguments the macro _option_values checks (besides k)
_OPTION_VALUES = ("normalization", "users", "duplicates", "tie_break", "convention", "gain", "gain_from",
                  "precision_denominator", "recall_denominator", "truth_scope", "metrics", "confidence", "mean", "auc_weight")


def _metric_arguments(k, options: dict, own: Sequence[str] = ()) -> dict:
    """The metric options with their defaults and k, checked; `own`: the calling function's other
    keyword arguments, named in the message for one that is unknown."""
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        known = [*own, *OPTIONS, "con", "check"]
        # the macros' rule, which dbt's message uses too: one suggestion for one misspelling
        close = str(_render_namespace()._nearest_name(unknown[0], known)).strip()
        raise RankMetricsError(f"rank_metrics: unknown argument {mention(unknown[0], form='word', text=repr(unknown[0]))}"
                               f"{f' (did you mean {close!r}?)' if close else ''}; the arguments are {', '.join(known)}")
    return dict(OPTIONS, **options, k=_k_argument(k))


# metric name -> (its public function and macro, its column per group, its column per user),
# from the metric registry (macros/metrics/_registry.sql)
METRICS = {metric: (entry["macro"], entry["group_column"], entry["user_column"])
           for metric, entry in metric_registry().items()}
# the metrics computed when metrics= is not given: SPEC §6's family (the registry's defaults)
DEFAULT_METRICS = [metric for metric, entry in metric_registry().items() if entry["default"]]


def _check_argument(check):
    """check as given: False, True (every user of small tables, else a sample) or 'all'."""
    if check is None or check is False or check is True or check == "all":
        return check or False
    raise RankMetricsError(f"rank_metrics: {mention('check', check)} must be True, False or 'all'; got {check!r}")


def _as_list(by) -> list:
    return [] if by is None else ([by] if isinstance(by, str) else list(by))


# a metric that needs no more than the hit counts: the cheapest query, where only the users or
# groups a pass evaluates are wanted
HITS_ONLY_METRIC = next(metric for metric, entry in metric_registry().items() if entry["sums"] == ["hits"])


def _metrics_argument(metrics):
    return [metrics] if isinstance(metrics, str) else (None if metrics is None else list(metrics))
