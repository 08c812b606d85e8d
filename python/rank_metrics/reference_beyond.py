"""The reference of the beyond-accuracy metrics (docs/definitions.md, "Beyond accuracy"): how much
of the catalog the lists use, how popular, novel and varied they are, written out in plain Python
as the definitions read, one user and one pair at a time, independently of any SQL.

Inputs are one group's: `lists` maps each user to its ranked items (cut at k here), `train` holds
the (user, item) interactions the model learned from, `item_features` maps an item to its numeric
vector and `relevant` a user to its relevant items (truth). Each metric follows a convention's
definition: `recommenders` (microsoft/recommenders 1.2) or `evidently` (Evidently 0.7); without
one, recommenders' where that library has the metric, else Evidently's.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from typing import Hashable, Iterable, Mapping, Sequence

from .reference import std_error

METRICS = ("catalog_coverage", "distributional_coverage", "gini", "personalization", "novelty", "arp",
           "arp_normalized", "diversity", "serendipity")
# the metrics each library defines (a metric asked under a convention that lacks it is an error)
DEFINED_BY = {
    "recommenders": ("catalog_coverage", "distributional_coverage", "novelty", "diversity", "serendipity"),
    "evidently": ("catalog_coverage", "gini", "personalization", "novelty", "arp", "arp_normalized", "diversity",
                  "serendipity"),
}
CONVENTIONS = tuple(DEFINED_BY)
SIMILARITIES = ("cooccurrence", "features")
# a value per user, averaged over users (with a standard error), by the definition in force
_PER_USER = {"recommenders": {"diversity", "serendipity"},
             "evidently": {"novelty", "arp", "arp_normalized", "diversity", "serendipity"}}


def definition(metric: str, convention: str | None) -> str:
    """Whose definition of `metric` applies: the convention's, or without one recommenders' where
    that library has the metric, else Evidently's."""
    if metric not in METRICS:
        raise ValueError(f"reference: unknown beyond-accuracy metric {metric!r}")
    if convention is None:
        return "recommenders" if metric in DEFINED_BY["recommenders"] else "evidently"
    if convention not in DEFINED_BY:
        raise ValueError(f"reference: unknown convention {convention!r}")
    if metric not in DEFINED_BY[convention]:
        raise ValueError(f"reference: {convention} has no {metric}")
    return convention


def is_per_user(metric: str, convention: str | None) -> bool:
    return metric in _PER_USER[definition(metric, convention)]


class Similarity:
    """Item-to-item similarity: co-occurrence in train (users with both items over the square root
    of the product of the items' train rows; 0 for a pair never seen together, 1 for an item with
    itself) or the cosine of two feature vectors."""

    def __init__(self, kind: str, train: Sequence[tuple[Hashable, Hashable]],
                 item_features: Mapping[Hashable, Sequence[float]] | None = None):
        if kind not in SIMILARITIES:
            raise ValueError(f"reference: unknown similarity {kind!r}")
        self.kind = kind
        if kind == "cooccurrence":
            self.rows = Counter(item for _, item in train)
            self.users_of = defaultdict(set)
            for user, item in train:
                self.users_of[item].add(user)
        else:
            if item_features is None:
                raise ValueError("reference: similarity='features' needs item_features")
            self.features = {item: [float(value) for value in vector] for item, vector in item_features.items()}
            for item, vector in self.features.items():
                if not any(vector):
                    raise ValueError(f"reference: item {item!r} has a zero feature vector")

    def __call__(self, a, b) -> float:
        if self.kind == "cooccurrence":
            both = len(self.users_of.get(a, set()) & self.users_of.get(b, set()))
            return both / math.sqrt(self.rows[a] * self.rows[b]) if both else 0.0
        for item in (a, b):
            if item not in self.features:
                raise ValueError(f"reference: item {item!r} is missing from item_features")
        x, y = self.features[a], self.features[b]
        dot = sum(p * q for p, q in zip(x, y))
        return dot / (math.sqrt(sum(p * p for p in x)) * math.sqrt(sum(q * q for q in y)))


def beyond_accuracy(lists: Mapping[Hashable, Sequence[Hashable]], train: Iterable[tuple[Hashable, Hashable]], k: int, *,
                    metrics: Sequence[str] = METRICS, convention: str | None = None, similarity: str | None = None,
                    item_features: Mapping[Hashable, Sequence[float]] | None = None,
                    relevant: Mapping[Hashable, set] | None = None) -> tuple[dict, dict]:
    """(per_user, per_group) for one group: per_user maps each per-user metric to {user: value}
    (users without a value left out); per_group maps every metric to {value, std_error, n_users}
    (std_error None for the catalog-level metrics and under two users)."""
    train = list(train)
    if not train:
        raise ValueError("reference: train is empty")
    if similarity is None:
        similarity = "features" if convention == "evidently" else "cooccurrence"
    cut = {user: head for user, items in lists.items() if (head := list(items)[:k])}
    n = len(cut)
    slots = Counter(item for items in cut.values() for item in items)
    train_rows = Counter(item for _, item in train)       # t_i
    train_users = defaultdict(set)                         # the users behind u_i
    history = defaultdict(list)                            # each user's train items
    for user, item in train:
        train_users[item].add(user)
        history[user].append(item)
    popularity = {item: len(users) for item, users in train_users.items()}   # u_i
    n_train_users = len({user for user, _ in train})                          # U
    similar = None
    if {"diversity", "serendipity"} & set(metrics):
        similar = Similarity(similarity, train, item_features)

    per_user, per_group = {}, {}
    for metric in metrics:
        whose = definition(metric, convention)
        values = None   # {user: value} for a per-user metric
        value = None
        if metric == "catalog_coverage":
            recommended = set(slots) if whose == "recommenders" else set(slots) & set(train_rows)
            value = len(recommended) / len(train_rows)
        elif metric == "distributional_coverage":
            total = sum(slots.values())
            value = -sum(count / total * math.log2(count / total) for count in slots.values()) if total else None
        elif metric == "gini":
            counts = sorted(slots.values())
            m = len(counts)
            value = (sum((2 * j - m - 1) * count for j, count in enumerate(counts, start=1)) / ((m - 1) * sum(counts))
                     if m > 1 else None)
        elif metric == "personalization":
            value = 1 - (sum(count * count for count in slots.values()) - n * k) / (k * n * (n - 1)) if n > 1 else None
        elif metric == "novelty" and whose == "recommenders":
            total = sum(slots.values())
            value = (sum(count * -math.log2(train_rows[item] / len(train)) for item, count in slots.items()
                         if item in train_rows) / total) if total else None
        elif metric in ("novelty", "arp", "arp_normalized"):
            largest = max(popularity.values())

            def of_item(item):
                if metric == "novelty":
                    return -math.log2(popularity[item] / n_train_users)
                return popularity[item] / (largest if metric == "arp_normalized" else 1)

            values = {user: sum(map(of_item, known)) / len(known) for user, items in cut.items()
                      if (known := [item for item in items if item in popularity])}
        elif metric == "diversity":
            values = {}
            for user, items in cut.items():
                pairs = [(items[i], items[j]) for i in range(len(items)) for j in range(i + 1, len(items))
                         if items[i] != items[j]]
                if whose == "recommenders":
                    if pairs:
                        values[user] = 1 - sum(similar(a, b) for a, b in pairs) / len(pairs)
                else:
                    values[user] = sum(1 - similar(a, b) for a, b in pairs) / len(items)
        elif metric == "serendipity":
            values = {}
            for user, items in cut.items():
                seen = history.get(user)
                if not seen:
                    continue
                hits = [item for item in items if relevant is None or item in relevant.get(user, set())]
                if whose == "recommenders":
                    values[user] = sum((1 - sum(similar(item, before) for before in seen) / len(seen))
                                       * (relevant is None or item in relevant.get(user, set()))
                                       for item in items) / len(items)
                elif hits:
                    values[user] = 1 - sum(similar(before, item) for before in seen for item in hits) / len(seen)
        if values is not None:
            per_user[metric] = values
            scores = list(values.values())
            per_group[metric] = {"value": sum(scores) / len(scores) if scores else None,
                                 "std_error": std_error(scores), "n_users": len(scores)}
        else:
            per_group[metric] = {"value": value, "std_error": None, "n_users": n}
    return per_user, per_group
