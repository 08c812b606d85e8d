"""The reference implementation: SPEC §1 written out in plain Python, independently of the SQL.

It works on rows (tuples or dicts) and is slow on purpose: one user at a time, one position at
a time, as the definitions read. ``check=True`` and the tests compare the SQL against it.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, replace
from statistics import NormalDist
from typing import Hashable, Iterable, Sequence

from ._render import metric_registry

NORMALIZATIONS = ("min_m_k", "m", "hits")
USERS = ("truth", "predictions", "judged", "both", "union")
DUPLICATES = ("first", "collapse", "all", "error")
TIE_BREAKS = ("item", "item_desc", "average")
# the family's options (SPEC §6), default first
GAINS = ("linear", "exponential", "binary", "graded")
GAIN_FROM = ("graded", "relevant")
PRECISION_DENOMINATORS = ("k", "list_length")
RECALL_DENOMINATORS = ("m", "min_m_k")
TRUTH_SCOPES = ("all", "listed")
MEANS = ("arithmetic", "geometric")
AUC_WEIGHTS = ("users", "impressions")
# metric -> (its column per user, its column per group): the names are the metric registry's
# (macros/metrics/_registry.sql); the values below are this module's own
METRICS = {metric: (entry["user_column"], entry["group_column"]) for metric, entry in metric_registry().items()}
# those computed when metrics= is not given
DEFAULT_METRICS = [metric for metric, entry in metric_registry().items() if entry["default"]]
# those that take no k: a value per user, reported with k None (SPEC §6b)
CUTOFF_FREE = [metric for metric, entry in metric_registry().items() if entry.get("cutoff_free")]

_FAMILY = dict(gain="linear", gain_from="graded", precision_denominator="k", recall_denominator="m",
               truth_scope="all", mean="arithmetic")
# SPEC §1's and §6's tables, row by row
CONVENTIONS = {
    "ml_metrics": dict(_FAMILY, normalization="min_m_k", duplicates="first", users="predictions", tie_break="item"),
    "kaggle": dict(_FAMILY, normalization="min_m_k", duplicates="first", users="truth", tie_break="item"),
    "spark": dict(_FAMILY, normalization="min_m_k", duplicates="all", users="predictions", tie_break="item",
                  gain="binary"),
    "recommenders": dict(_FAMILY, normalization="min_m_k", duplicates="all", users="both", tie_break="item",
                         gain="binary"),
    "trec_eval": dict(_FAMILY, normalization="m", duplicates="error", users="both", tie_break="item_desc"),
    "ranx": dict(_FAMILY, normalization="m", duplicates="collapse", users="judged", tie_break="item",
                 gain_from="relevant"),
    "torchmetrics": dict(_FAMILY, normalization="hits", duplicates="all", users="predictions", tie_break="item",
                         truth_scope="listed"),
    "evidently": dict(_FAMILY, normalization="m", duplicates="all", users="truth", tie_break="item",
                      truth_scope="listed", precision_denominator="list_length"),
    "sklearn": dict(_FAMILY, normalization="m", duplicates="error", users="predictions", tie_break="average",
                    truth_scope="listed"),
}


@dataclass(frozen=True)
class Options:
    normalization: str = "min_m_k"
    users: str = "truth"
    duplicates: str = "first"
    tie_break: str = "item"
    gain: str = "linear"
    gain_from: str = "graded"
    precision_denominator: str = "k"
    recall_denominator: str = "m"
    truth_scope: str = "all"
    relevance_threshold: float | None = None
    persistence: float = 0.8
    max_grade: float | None = None   # ERR's g_max; None: the largest grade in truth (evaluate finds it)
    auc_weight: str = "users"   # GAUC's weights: every user 1, or its list length ('impressions')
    mean: str = "arithmetic"


def resolve_options(convention=None, **given) -> Options:
    """The options in force: a convention's preset, with explicitly given options winning."""
    preset = dict(CONVENTIONS["kaggle"] if convention is None else CONVENTIONS[convention])
    preset.update({name: value for name, value in given.items() if value is not None})
    # ties by expectation read each item once: left to the preset, a repeated item is an error
    if preset["tie_break"] == "average" and given.get("duplicates") is None and preset["duplicates"] not in ("collapse", "error"):
        preset["duplicates"] = "error"
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


def user_metrics(ranked: Sequence, grades: dict, k: int, options: Options, order_values: Sequence = ()) -> dict:
    """Every metric of SPEC §6 for one user: `ranked` is the list in order, `grades` maps each of
    the user's truth items to its grade (the largest, if judged twice). Under
    tie_break='average', `order_values` are the entries' ranks or scores, each item once."""
    if options.duplicates == "collapse" and options.tie_break != "average":
        ranked = list(dict.fromkeys(ranked))
    n = len(ranked)

    def relevant(grade):
        return grade > 0 if options.relevance_threshold is None else grade >= options.relevance_threshold

    def gain(grade):
        """The gain the item adds, 0 for grades <= 0 (always) and, under gain_from='relevant',
        for items that are not relevant."""
        if grade <= 0 or (options.gain_from == "relevant" and not relevant(grade)):
            return 0.0
        grade = float(grade)   # a decimal grade too (2.0 ** Decimal is a TypeError), as SQL casts it to double
        if options.gain == "exponential":   # only then: 2.0 ** 3e20 overflows, and a linear grade may be that large
            return 2.0 ** grade - 1
        # graded (RBP's grade over the top grade): NDCG's ratio is that of the grades themselves
        return grade if options.gain in ("linear", "graded") else 1.0

    # the truth that counts for m, recall, AP's m and IDCG
    in_scope = [item for item in grades if options.truth_scope == "all" or item in set(ranked)]
    relevant_items = {item for item in in_scope if relevant(grades[item])}
    m = len(relevant_items)

    hits, precision_sum, dcg, first_hit, rbp_terms = 0, 0.0, 0.0, None, []
    # ERR (SPEC §6b): the reader stops at an item with probability R = (2^g - 1) / 2^g_max, a
    # grade above g_max counted as g_max; `unstopped` is the chance of reaching the next position
    g_max = 1.0 if options.max_grade is None else float(options.max_grade)
    err, unstopped = 0.0, 1.0
    seen = set()
    positive = []   # AUC: each of the first k entries, whether it is a relevant hit
    # RBP's residual (SPEC §6b): the weight of the unjudged positions within k (no item with a
    # truth row of any grade from 0 up, or relevant, there) and of those past k, past the list's end among them
    # (positions min(k, n) + 1, ... weigh p^min(k, n) together)
    # a negative grade judges nothing (trec_eval's qrels: -1 not in the pool, -2 unjudged)
    judged = {item for item, grade in grades.items() if grade >= 0 or relevant(grade)}
    rbp_residual = math.fsum([(1 - options.persistence) * options.persistence ** (position - 1)
                              for position, item in enumerate(ranked[:k], start=1) if item not in judged]
                             + [options.persistence ** len(ranked[:k])])
    for position, item in enumerate(ranked[:k], start=1):
        counts = options.duplicates == "all" or item not in seen   # first, error, collapse: once
        seen.add(item)
        positive.append(counts and item in relevant_items)
        if not counts:
            continue
        if item in relevant_items:
            hits += 1
            precision_sum += hits / position
            first_hit = first_hit or position
            # RBP (SPEC §6b): a reader goes on from one position to the next with probability p
            if options.gain != "graded":
                rbp_terms.append((1 - options.persistence) * options.persistence ** (position - 1))
        if item in grades:
            dcg += gain(grades[item]) / math.log2(position + 1)
            if grades[item] > 0 and options.gain == "graded":
                # graded RBP: the item's grade over g_max (a grade above it counted as g_max)
                rbp_terms.append((1 - options.persistence) * options.persistence ** (position - 1)
                                 * min(float(grades[item]), g_max) / g_max)
            if grades[item] > 0:
                # (2^g - 1) / 2^g_max, written so that a grade of 1e20 does not overflow
                stop = 2.0 ** (min(float(grades[item]), g_max) - g_max) - 2.0 ** -g_max
                err += unstopped * stop / position
                unstopped *= 1 - stop
    ideal = sorted((gain(grades[item]) for item in in_scope if gain(grades[item]) > 0), reverse=True)[:k]
    idcg = math.fsum(value / math.log2(position + 1) for position, value in enumerate(ideal, start=1))

    # AUC (SPEC §6b): the (positive, negative) pairs of the first k entries with the positive first,
    # counted pair by pair; None (not evaluated) without a positive or without a negative
    negatives_after, ordered_pairs = 0, 0
    for is_positive in reversed(positive):
        if is_positive:
            ordered_pairs += negatives_after
        else:
            negatives_after += 1
    pairs = sum(positive) * (len(positive) - sum(positive))
    # R-precision (SPEC §6b): the hits among the first R positions of the whole list, over R, the
    # user's relevant items in truth (whatever truth_scope); each item counted as `duplicates` says
    r = sum(1 for grade in grades.values() if relevant(grade))
    within_r, seen = 0, set()
    for item in ranked[:r]:
        within_r += (options.duplicates == "all" or item not in seen) and item in grades and relevant(grades[item])
        seen.add(item)
    # bpref (SPEC §6b): over the whole list, each relevant entry adds 1 less the judged non-relevant
    # entries above it (at most R) over min(R, N); unjudged entries are passed over
    n_judged_nonrelevant = sum(1 for item in judged if not relevant(grades[item]))
    bpref_terms, nonrelevant_above, seen = [], 0, set()
    for item in ranked:
        counts = options.duplicates == "all" or item not in seen
        seen.add(item)
        if not counts or item not in judged:
            continue
        if relevant(grades[item]):
            bpref_terms.append(1 - min(nonrelevant_above, r) / min(r, n_judged_nonrelevant) if nonrelevant_above else 1.0)
        else:
            nonrelevant_above += 1
    if options.tie_break == "average":
        # ties by expectation (SPEC §6b): an entry of a tie group at positions a..b is at each of them
        # with chance 1 / (b - a + 1), and adds nothing at positions past k
        hits, dcg, start = 0.0, 0.0, 0
        for end in range(1, n + 1):
            if end < n and order_values[end] == order_values[start]:
                continue
            a, b = start + 1, end
            within = range(a, min(b, k) + 1)
            for item in ranked[start:end]:
                if item in relevant_items:
                    hits += len(within) / (b - a + 1)
                if item in grades:
                    dcg += gain(grades[item]) * math.fsum(1 / math.log2(position + 1) for position in within) / (b - a + 1)
            start = end
    ap_denominator = {"min_m_k": min(m, k), "m": m, "hits": hits}[options.normalization]
    precision_denominator = k if options.precision_denominator == "k" else min(k, n)
    recall_denominator = m if options.recall_denominator == "m" else min(m, k)
    return {
        "average_precision": precision_sum / ap_denominator if m > 0 and ap_denominator > 0 else 0.0,
        "ndcg": dcg / idcg if idcg > 0 else 0.0,
        "precision": hits / precision_denominator if precision_denominator > 0 else 0.0,
        "recall": hits / recall_denominator if m > 0 else 0.0,
        "reciprocal_rank": 1 / first_hit if first_hit else 0.0,
        # under tie_break='average' the expected hits, at most 1 (SPEC §6b)
        "hit": min(hits, 1.0) if options.tie_break == "average" else 1.0 if hits >= 1 else 0.0,
        "rbp": math.fsum(rbp_terms),
        "rbp_residual": rbp_residual,
        "err": err,
        "auc": ordered_pairs / pairs if pairs else None,
        "r_precision": within_r / r if r else 0.0,
        "bpref": math.fsum(bpref_terms) / r if r else 0.0,
        "n_relevant": m,
        "n_hits": hits,
        "list_length": n,
    }


def evaluate(predictions: Iterable[dict], truth: Iterable[dict], ks: Sequence[int], *,
             user: str = "user_id", item: str = "item_id", rank: str | None = None,
             score: str | None = None, relevance: str | None = None, by: Sequence[str] = (),
             truth_by: Sequence[str] = (), options: Options = Options(), groups: Iterable[tuple] = (),
             metrics: Sequence[str] = ()):
    """Every metric per user and per group, from rows given as dicts.

    Returns (per_user, per_group): per_user rows have the by columns, the user column, k,
    average_precision, ndcg, precision, recall, reciprocal_rank, hit, n_relevant, n_hits;
    per_group rows the by columns, k, map_at_k, ndcg_at_k, precision_at_k, recall_at_k,
    mrr_at_k, hit_rate_at_k (and the other metrics'), n_users, and each metric's own count
    (<metric>_at_k_n_users: AUC's counts only users with a value). A group whose evaluated user set is empty has no row.
    `groups`: group values (of the by columns) that exist even without a prediction row, as a
    list-shaped table's rows whose lists are all empty. When `metrics` names a cutoff-free metric
    (R-precision), each user and group also has a row with k None, whose values are those of
    the cutoff-free metrics (and the others' None), as the cutoff-free metrics are None at a k.
    """
    if (rank is None) == (score is None):
        raise ValueError("reference: exactly one of rank and score")
    order_column = rank if rank is not None else score
    by = tuple(by)
    truth_by = tuple(truth_by)

    # truth: the users present (any row) and each user's grades, keyed by the truth_by values
    present = defaultdict(set)        # truth_by values -> users with any truth row
    grades = defaultdict(dict)        # (truth_by values, user) -> {item: largest grade}
    for row in truth:
        key = tuple(row[column] for column in truth_by)
        present[key].add(row[user])
        grade = 1 if relevance is None else row[relevance]
        known = grades[key, row[user]]
        known[row[item]] = max(grade, known.get(row[item], grade))

    # ERR's g_max when not given: the largest grade of the truth rows that count (grade > 0, or
    # relevant), per value of truth_by (a group's truth is its own)
    largest_grade = defaultdict(lambda: 1)
    for (key, _), known in grades.items():
        for grade in known.values():
            if grade > 0 or (options.relevance_threshold is not None and grade >= options.relevance_threshold):
                largest_grade[key] = max(grade, largest_grade[key]) if key in largest_grade else grade

    lists = defaultdict(list)         # (group, user) -> [(item, order value)]
    groups = dict.fromkeys(groups)    # the groups, in order of first appearance
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

        def ranked(u):
            return order_list(lists.get((group, u), []), descending=score is not None, tie_break=options.tie_break)

        def order_values(u):
            """Under tie_break='average', the list's order values in order, each item at its best
            (duplicates='collapse'; 'error' has none to drop)."""
            best = {}
            for entry, value in lists.get((group, u), []):
                if entry not in best or (value > best[entry] if score is not None else value < best[entry]):
                    best[entry] = value
            return sorted(best.values(), reverse=score is not None)

        group_options = options if options.max_grade is not None else replace(options, max_grade=largest_grade[key])

        def values(u, k):
            if options.tie_break == "average":
                return user_metrics(list(dict.fromkeys(ranked(u))), grades.get((key, u), {}), k, group_options,
                                    order_values(u))
            return user_metrics(ranked(u), grades.get((key, u), {}), k, group_options)

        # users='truth': m >= 1, with m counted as the metrics count it (truth_scope decides)
        with_relevant = {u for u in present[key] if values(u, 1)["n_relevant"] >= 1}
        evaluated = {
            "truth": with_relevant,
            "predictions": predicted_users,
            "judged": set(present[key]),
            "both": predicted_users & present[key],
            "union": predicted_users | present[key],
        }[options.users]
        cutoff_free = [metric for metric in metrics if metric in CUTOFF_FREE]
        # rows of each k unless every metric asked is cutoff-free, and then the row of k None
        for k in ([] if cutoff_free and len(cutoff_free) == len(metrics) else list(ks)) + ([None] if cutoff_free else []):
            rows, list_lengths = [], []
            for u in sorted(evaluated, key=repr):
                row = values(u, ks[0] if k is None else k)
                list_lengths.append(row["list_length"])
                # a row of k holds the metrics of a k; the row of k None the cutoff-free ones
                row = {column: None if (k is None) != (metric in CUTOFF_FREE) else row[column]
                       for metric, (column, _) in METRICS.items()} | {name: row[name] for name in ("n_relevant", "n_hits")}
                if k is None:
                    row["n_hits"] = None
                rows.append({**dict(zip(by, group)), user: u, "k": k, **row})
            per_user.extend(rows)
            if rows:
                per_group.append({**dict(zip(by, group)), "k": k, **group_means(
                    {user_column: [row[user_column] for row in rows] for user_column, _ in METRICS.values()},
                    geometric=options.mean == "geometric",
                    # GAUC under auc_weight='impressions': each user weighs its list length
                    weights={METRICS["auc"][0]: list_lengths} if options.auc_weight == "impressions" else None)})
    return per_user, per_group


class Exact(float):
    """A reference value that is exact, which the SQL must give bit for bit (SPEC §1): the mean of
    equal values is that value, and their standard error 0. Only for values of 0 and 1 (a
    perfect model, a model that meets nothing), which the SQL computes exactly for each user as
    the reference does: other equal values (an NDCG of 0.5012658353418871) may differ in the
    last digit between the SQL's users, computed in other orders, and then their mean may too."""


def group_means(values: dict[str, Sequence[float]], geometric: bool = False, weights: dict | None = None) -> dict:
    """A group's row from its evaluated users' values (a per-user column -> its values, one per
    user): each metric's mean and standard error (map_at_k, map_at_k_std_error, ...), n_users,
    and each metric's own count of users with a value (map_at_k_n_users, ...): a value of None
    (AUC's user without a positive or a negative) is not averaged. The mean of no values is None.
    geometric (SPEC §6b, mean='geometric'): G = exp(the mean of ln(max(x, 1e-5))), its standard
    error G times that of the logs (the delta method). weights: a per-user column -> each user's
    weight in its mean (GAUC under auc_weight='impressions': the list lengths), the mean then
    Σ w x / Σ w and its standard error sqrt(n / (n - 1) Σ w² (x - mean)²) / Σ w."""
    row = {}
    for user_column, group_column in METRICS.values():
        if user_column not in values:
            continue
        row["n_users"] = len(values[user_column])
        present = [value for value in values[user_column] if value is not None]
        row[group_column + "_n_users"] = len(present)
        if not present:
            row[group_column], row[group_column + "_std_error"] = None, None
            continue
        if weights and user_column in weights:
            weighed = [(weight, math.log(max(value, 1e-5)) if geometric else value)
                       for value, weight in zip(values[user_column], weights[user_column]) if value is not None]
            total = math.fsum(weight for weight, _ in weighed)
            mean = math.fsum(weight * value for weight, value in weighed) / total
            n = len(weighed)
            error = math.sqrt(n / (n - 1) * math.fsum(weight ** 2 * (value - mean) ** 2 for weight, value in weighed)) / total \
                if n >= 2 else None
            row[group_column] = math.exp(mean) if geometric else mean
            row[group_column + "_std_error"] = None if error is None else error * (row[group_column] if geometric else 1)
            continue
        if geometric:
            logs = [math.log(max(value, 1e-5)) for value in present]
            mean = math.exp(math.fsum(logs) / len(logs))
            error = std_error(logs)
            row[group_column] = mean
            row[group_column + "_std_error"] = None if error is None else mean * error
        else:
            equal = min(present) == max(present) and present[0] in (0.0, 1.0)
            row[group_column] = Exact(present[0]) if equal else math.fsum(present) / len(present)
            row[group_column + "_std_error"] = Exact(0.0) if equal and len(present) >= 2 else std_error(present)
    return row


def std_error(values: Sequence[float]) -> float | None:
    """SPEC §7: the sample standard deviation (n - 1) over sqrt(n); None for fewer than two."""
    if len(values) < 2:
        return None
    mean = math.fsum(values) / len(values)
    variance = math.fsum((value - mean) ** 2 for value in values) / (len(values) - 1)
    return math.sqrt(variance / len(values))


def confidence_interval(mean: float, error: float | None, confidence: float = 0.95, geometric: bool = False):
    """SPEC §7: mean -/+ z std_error, z the normal quantile of (1 + confidence) / 2; for a
    geometric mean G, exp(ln G -/+ z std_error / G) (the interval of the mean of the logs)."""
    if error is None:
        return None, None
    z = normal_quantile_of_confidence(confidence)
    if geometric:
        return mean * math.exp(-z * error / mean), mean * math.exp(z * error / mean)
    return mean - z * error, mean + z * error


def normal_quantile_of_confidence(confidence: float) -> float:
    """z with Phi(z) = (1 + confidence) / 2, i.e. erf(z / sqrt 2) = confidence, to the last digit:
    (1 + confidence) / 2 rounds away the digits of a confidence near 0 or 1 (z was 2e-6 off at
    1 - 1e-12), so Newton's steps on erf (erfc near 1) refine the quantile of that rounded p."""
    x = NormalDist().inv_cdf((1 + confidence) / 2) / math.sqrt(2)
    for _ in range(3):
        miss = math.erf(x) - confidence if confidence < 0.5 else (1 - confidence) - math.erfc(x)
        x -= miss / (2 / math.sqrt(math.pi) * math.exp(-x * x))
    return math.sqrt(2) * x


def evaluate_over_time(predictions: Iterable[dict], labels: Iterable[dict], ks: Sequence[int], *, period: str,
                       time: str, window: int, as_of=None, by: Sequence[str] = (), metrics: Sequence[str] | None = None,
                       **evaluate_options) -> list[dict]:
    """SPEC §8: a row per period, group, metric and k: the period, the by columns, metric, k,
    value, std_error, n_users, complete. Period d's truth is the labels at times t with
    start(d) <= t < start(d) + `window` days (a date is its midnight), and each period's lists
    are evaluated against it as `evaluate` evaluates them; a group with lists and no evaluated
    user has n_users 0 and value None. complete: as_of (default the latest label time) >=
    start(d) + window."""
    import datetime

    def instant(value):
        return value if isinstance(value, datetime.datetime) else datetime.datetime.combine(value, datetime.time())

    labels, predictions, by = list(labels), list(predictions), tuple(by)
    times = [instant(row[time]) for row in labels]
    as_of = instant(as_of) if as_of is not None else (max(times) if times else None)
    metrics = list(DEFAULT_METRICS) if metrics is None else list(metrics)
    rows = []
    for day in sorted({row[period] for row in predictions}):
        start = instant(day)
        end = start + datetime.timedelta(days=window)
        lists = [row for row in predictions if row[period] == day]
        truth = [row for row, at in zip(labels, times) if start <= at < end]
        _, per_group = evaluate(lists, truth, ks, by=by, metrics=metrics, **evaluate_options)
        found = {(tuple(row[column] for column in by), row["k"]): row for row in per_group}
        for group in dict.fromkeys(tuple(row[column] for column in by) for row in lists):
            for metric in metrics:
                user_column, group_column = METRICS[metric]
                for k in [None] if metric in CUTOFF_FREE else ks:   # a cutoff-free metric: k None
                    row = found.get((group, k))
                    rows.append({period: day, **dict(zip(by, group)), "metric": metric, "k": k,
                                 "value": None if row is None else row[group_column],
                                 "std_error": None if row is None else row[group_column + "_std_error"],
                                 "n_users": 0 if row is None else row[group_column + "_n_users"],
                                 "complete": as_of is not None and as_of >= end})
    return rows


def trend_drop(latest: tuple[float, float | None], before: Sequence[tuple[float, float | None, int]]) -> dict:
    """SPEC §8's trend gate for one group, metric and k: `latest` (x, its standard error s) against
    the periods before it, each (v_i, s_i, n_i). base = sum n_i v_i / sum n_i; s_B =
    sqrt(sum (n_i s_i)^2) / sum n_i; z = (x - base) / sqrt(s^2 + s_B^2); p = Phi(z). A standard
    error of None (a period of one user) counts as 0; z is None when both are 0."""
    weight = sum(n for _, _, n in before)
    base = math.fsum(n * v for v, _, n in before) / weight
    spread = math.sqrt(math.fsum((n * (s or 0.0)) ** 2 for _, s, n in before)) / weight
    x, s = latest
    scale = math.sqrt((s or 0.0) ** 2 + spread ** 2)
    z = None if scale == 0 else (x - base) / scale
    return {"value": x, "base": base, "base_std_error": spread, "z": z,
            "p_value": None if z is None else NormalDist().cdf(z)}
