"""The reference implementation: SPEC §1 written out in plain Python, independently of the SQL.

It works on rows (tuples or dicts) and is slow on purpose: one user at a time, one position at
a time, as the definitions read. ``check=True`` and the tests compare the SQL against it.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Hashable, Iterable, Sequence

NORMALIZATIONS = ("min_m_k", "m", "hits")
USERS = ("truth", "predictions", "judged", "both", "union")
DUPLICATES = ("first", "collapse", "all", "error")
TIE_BREAKS = ("item", "item_desc")

CONVENTIONS = {
    "ml_metrics": dict(normalization="min_m_k", duplicates="first", users="predictions", tie_break="item"),
    "kaggle": dict(normalization="min_m_k", duplicates="first", users="truth", tie_break="item"),
    "spark": dict(normalization="min_m_k", duplicates="all", users="predictions", tie_break="item"),
    "recommenders": dict(normalization="min_m_k", duplicates="all", users="both", tie_break="item"),
    "trec_eval": dict(normalization="m", duplicates="error", users="both", tie_break="item_desc"),
    "ranx": dict(normalization="m", duplicates="collapse", users="judged", tie_break="item"),
    "torchmetrics": dict(normalization="hits", duplicates="all", users="predictions", tie_break="item"),
}


@dataclass(frozen=True)
class Options:
    normalization: str = "min_m_k"
    users: str = "truth"
    duplicates: str = "first"
    tie_break: str = "item"


def resolve_options(convention=None, **given) -> Options:
    """The options in force: a convention's preset, with explicitly given options winning."""
    preset = dict(CONVENTIONS["kaggle"] if convention is None else CONVENTIONS[convention])
    preset.update({name: value for name, value in given.items() if value is not None})
    return Options(**preset)


def order_list(entries: Iterable[tuple[Hashable, float]], *, descending: bool, tie_break: str) -> list:
    """Items of one user's (item, order value) entries in ranked order.

    Ranks ascend, scores descend; equal values put the lower item first ('item') or the higher
    ('item_desc'). Two stable sorts: by item, then by the order value.
    """
    entries = sorted(entries, key=lambda entry: entry[0], reverse=(tie_break == "item_desc"))
    entries = sorted(entries, key=lambda entry: entry[1], reverse=descending)
    return [item for item, _ in entries]


def average_precision(ranked: Sequence, relevant: set, k: int, normalization: str = "min_m_k",
                      duplicates: str = "first") -> tuple[float, int]:
    """AP@k of one ranked list against a relevant set, and the number of hits counted in the top k."""
    if duplicates == "collapse":
        seen_once = []
        for item in ranked:
            if item not in seen_once:
                seen_once.append(item)
        ranked = seen_once
    hits = 0
    precision_sum = 0.0
    seen = set()
    for position, item in enumerate(ranked[:k], start=1):
        is_hit = item in relevant and not (duplicates in ("first", "error") and item in seen)
        seen.add(item)
        if is_hit:
            hits += 1
            precision_sum += hits / position
    m = len(relevant)
    denominator = {"min_m_k": min(m, k), "m": m, "hits": hits}[normalization]
    if m == 0 or denominator == 0:
        return 0.0, hits
    return precision_sum / denominator, hits


def evaluate(predictions: Iterable[dict], truth: Iterable[dict], ks: Sequence[int], *,
             user: str = "user_id", item: str = "item_id", rank: str | None = None,
             score: str | None = None, relevance: str | None = None, by: Sequence[str] = (),
             truth_by: Sequence[str] = (), options: Options = Options()):
    """Per-user AP@k and per-group MAP@k from rows given as dicts.

    Returns (per_user, per_group): per_user rows are dicts with the by columns, the user
    column, k, average_precision, n_relevant, n_hits; per_group rows have the by columns, k,
    map_at_k and n_users. A group whose evaluated user set is empty has no row.
    """
    if (rank is None) == (score is None):
        raise ValueError("reference: exactly one of rank and score")
    order_column = rank if rank is not None else score
    by = tuple(by)
    truth_by = tuple(truth_by)

    # truth: every user present (any row) and the relevant set of each, keyed by truth_by values
    present = defaultdict(set)        # truth_by values -> users with any truth row
    relevant = defaultdict(set)       # (truth_by values, user) -> relevant items
    for row in truth:
        key = tuple(row[column] for column in truth_by)
        present[key].add(row[user])
        if relevance is None or row[relevance] > 0:
            relevant[key, row[user]].add(row[item])

    lists = defaultdict(list)         # (group, user) -> [(item, order value)]
    groups = {}                       # the groups, in order of first appearance
    for row in predictions:
        group = tuple(row[column] for column in by)
        groups.setdefault(group, None)
        lists[group, row[user]].append((row[item], row[order_column]))

    if options.duplicates == "error":
        for (group, u), entries in lists.items():
            items = [entry[0] for entry in entries]
            if len(set(items)) != len(items):
                raise ValueError(f"reference: user {u} has a duplicate item")

    if not by:
        groups = [()]
    per_user, per_group = [], []
    for group in groups:
        key = tuple(group[by.index(column)] for column in truth_by)
        predicted_users = {u for (g, u) in lists if g == group}
        judged_users = {u for u in present[key] if relevant.get((key, u))}
        evaluated = {
            "truth": judged_users,
            "predictions": predicted_users,
            "judged": set(present[key]),
            "both": predicted_users & present[key],
            "union": predicted_users | present[key],
        }[options.users]
        for k in ks:
            values = []
            for u in sorted(evaluated, key=repr):
                ranked = order_list(lists.get((group, u), []), descending=score is not None,
                                    tie_break=options.tie_break)
                relevant_set = relevant.get((key, u), set())
                ap, hits = average_precision(ranked, relevant_set, k, options.normalization,
                                             options.duplicates)
                values.append(ap)
                per_user.append({**dict(zip(by, group)), user: u, "k": k, "average_precision": ap,
                                 "n_relevant": len(relevant_set), "n_hits": hits})
            if values:
                per_group.append({**dict(zip(by, group)), "k": k,
                                  "map_at_k": math.fsum(values) / len(values), "n_users": len(values)})
    return per_user, per_group
