"""Is model B really better? Paired comparison against a baseline (SPEC §7).

The t test runs as SQL (the compare macro: one pass, then aggregates); Python swaps its
normal-approximation p-value for the exact Student t one. The permutation and bootstrap tests
need each user's values: they come from the same one pass (evaluate_users), paired here.
"""

from __future__ import annotations

import datetime
import math
import numbers
import re
import uuid

from . import api, reference, stats
from ._arguments import DEFAULT_METRICS, HITS_ONLY_METRIC, METRICS, _as_list, _check_argument, _metric_arguments, _metrics_argument
from ._inputs import read_once
from ._render import render
from ._run import _run
from ._warnings import shown_values, takes_strict
from .errors import RankMetricsError, mention, warn

COLUMNS = ["k", "metric", "baseline_value", "value", "difference", "relative_difference", "std_error", "t",
           "df", "p_value", "p_value_adjusted", "significant", "n_users", "n_only_model", "n_only_baseline"]
# a number or none (no pair, one pair, no spread): float64 with NaN whichever test made them
NUMBERS = COLUMNS[2:11]
RESAMPLES = 10_000   # of the permutation and bootstrap tests, unless asked otherwise
_OWN_ARGUMENTS = ("baseline", "metrics", "test", "correction", "family", "alpha", "seed", "resamples")


@takes_strict
def compare(predictions, truth, k, *, baseline=None, by=None, metrics=None, test="t", correction="holm", family="metric_and_k", alpha=0.05,
            seed=0, resamples=RESAMPLES, con=None, check=False, **options):
    """Each model (the values of by's first column) against the `baseline` model, within each
    segment (the values of by's other columns, if any; a user's values pair within one
    segment): a DataFrame with a row per model, segment, k and metric: <by columns>, k, metric,
    baseline_value, value, difference, relative_difference, std_error,
    t, df, p_value, p_value_adjusted, significant, n_users, n_only_model, n_only_baseline.

    Users are paired when both sides evaluate them (n_users); the others are counted in
    n_only_model / n_only_baseline, never paired with zeros. test: 't' (Student t, exact),
    'permutation' (sign flips; exact when 2^n <= resamples) or 'bootstrap' (paired resamples),
    the latter two seeded by `seed` (0 by default, so that a report gives the same p-values every
    run; None draws fresh resamples each time). correction ('holm', 'bonferroni', 'none') adjusts the
    p-values over each family: family='metric_and_k' (the default) the comparisons of one metric
    at one k across the models (in one segment), so that asking for more metrics or k changes no row's adjusted
    p; family='all' every row. significant = p_value_adjusted < alpha. The other keyword
    arguments are those of evaluate.
    """
    if test not in stats.TESTS:
        raise RankMetricsError(f"rank_metrics: compare: {mention('test', test)} must be one of {', '.join(map(repr, stats.TESTS))}; "
                               f"got {test!r}")
    if family not in stats.FAMILIES:
        raise RankMetricsError(f"rank_metrics: compare: {mention('family', family)} must be one of {', '.join(map(repr, stats.FAMILIES))}; "
                               f"got {family!r}")
    if correction not in stats.CORRECTIONS:
        raise RankMetricsError(f"rank_metrics: compare: {mention('correction', correction)} must be one of "
                               f"{', '.join(map(repr, stats.CORRECTIONS))}; got {correction!r}")
    # checked here for every test (the t test's SQL checks it too): the resampled tests compared
    # p with 1.5 and failed a gate on p = 0.5 (a new user's trial)
    alpha = 0.05 if alpha is None else alpha
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real) or not 0 < alpha < 1:
        raise RankMetricsError(f"rank_metrics: compare: {mention('alpha', alpha)} must be a number between 0 and 1; got {alpha!r}")
    stats.check_resampling(seed, resamples)
    # the macro's own check of the arguments compare does not take (mean='geometric'), for every
    # test: the resampled tests read per-user values, whose query would name evaluate_users
    render("_macro_arguments", macro="compare", options=options)
    check = _check_argument(check)
    model, segments = _model_and_segments(by)
    if baseline is None:   # Python's own TypeError said "missing 1 required keyword-only argument"
        raise RankMetricsError(f"rank_metrics: compare: {mention('baseline')} is required: the value of {model} that each "
                               f"other model is compared with (baseline='popularity')")
    # a UUID is named by its text in SQL, as in a dbt gate's YAML
    baseline = str(baseline) if isinstance(baseline, uuid.UUID) else baseline
    if isinstance(baseline, (bytes, bytearray, list, tuple, set, dict)):   # the macros showed b'x' as 120
        raise RankMetricsError(f"rank_metrics: compare: {mention('baseline', baseline)} must be a text, a number, a boolean "
                               f"or a date (a value of the by column); got {baseline!r}")
    # read below more than once (a reader gives its rows once)
    predictions, truth = read_once(predictions, "predictions"), read_once(truth, "truth")
    arguments = dict(_metric_arguments(k, dict(options, by=[model, *segments]), own=_OWN_ARGUMENTS),
                     metrics=_metrics_argument(metrics))
    if test == "t":
        result = _run("compare", predictions, truth, dict(arguments, baseline=baseline, test="t",
                          correction=correction, family=family, alpha=alpha), con, check=False, groups_named_as="compare: ")
        # no row, or a baseline no user is evaluated for (whose rows pair nobody): say why, as
        # the resampled tests do (the groups are read only now)
        if not len(result) or not (result["n_users"] + result["n_only_baseline"]).any():
            groups = _groups_of(predictions, truth, arguments, con)
            _require_baseline(model, _as_group_value(baseline, groups), groups)
        result["p_value"] = [stats.student_p_value(t, df) if not stats.missing(t) else p
                             for t, df, p in zip(result["t"], result["df"], result["p_value"])]
    else:
        result = _resampled(predictions, truth, arguments, model, segments, baseline, test, seed, resamples, con)
    if check:
        _check(result, predictions, truth, arguments, model, segments, baseline, con, check)
    _warn_if_unpaired(result, model, baseline)
    _warn_if_few_paired(result, model, baseline, test)
    return _finished(result, model, segments, correction, family, alpha)


# fewer paired users than this, and a t test's p-value is not to be trusted: its normal-looking
# t rests on a handful of differences (2 users with equal differences gave p = 0.000)
MIN_PAIRED_USERS = 30


def _warn_if_few_paired(result, model, baseline, test) -> None:
    """The t test and the bootstrap lean on the differences' spread looking like a larger sample's:
    below MIN_PAIRED_USERS users they can call a chance difference significant. The permutation
    test's p-value stays exact however few the users (its smallest is 2 / 2^n)."""
    few = result[(result["n_users"] > 0) & (result["n_users"] < MIN_PAIRED_USERS)]
    if len(few) and test != "permutation":
        counts = sorted(set(few["n_users"]))
        advice = "test='permutation' is exact up to 13 users and makes no assumption of normality"
        warn(f"compare: {model} {shown_values(sorted(set(few[model]), key=repr))} and the baseline {baseline!r} pair "
             f"only {shown_values(counts)} users (fewer than {MIN_PAIRED_USERS}): a p-value over so few users can call "
             f"a chance difference significant; {advice}")


def _warn_if_unpaired(result, model, baseline) -> None:
    """A RankMetricsWarning for the models that share no evaluated user with the baseline: their
    rows have no difference and no p-value, only the counts of each side's users."""
    # a model is unpaired in a segment when none of its rows there pairs a user (AUC's rows may
    # pair none where the other metrics' do)
    columns = list(result.columns)
    keys = columns[:columns.index("k")]   # the model and the segment columns
    paired = result.groupby(keys, dropna=False, sort=False)["n_users"].transform("max")
    unpaired = sorted(set(result.loc[paired == 0, model]), key=repr)
    # with segments, which: a baseline missing from one segment only is not missing everywhere (a
    # user's trial read that no model was compared, where segment x had p-values)
    segments = keys[1:]
    places = sorted({tuple(place) for place in result.loc[paired == 0, segments].itertuples(index=False)}, key=repr)
    where = "" if not segments else " in " + "; ".join(
        ", ".join(f"{name} {value!r}" for name, value in zip(segments, place)) for place in places)
    if unpaired:
        warn(f"compare: {model} {shown_values(unpaired)} and the baseline {baseline!r} have no "
             f"evaluated user in common{where}, so nothing is paired there and there is no difference or p-value "
             "(n_only_model and n_only_baseline count each side's users; under users='truth' every user "
             "with a relevant item is evaluated for both)")


def _model_and_segments(by) -> tuple[str, list]:
    """by's first column, whose values are the models, and the others: the segments."""
    columns = _as_list(by)
    if not columns:
        raise RankMetricsError(f"rank_metrics: compare: {mention('by', columns)} must name the column whose values are the "
                               "models (baseline is one of them), then any segment columns; got no column")
    return columns[0], columns[1:]


def _groups_of(predictions, truth, arguments, con):
    """The groups the one pass evaluates (for the error that names them)."""
    users = _run("evaluate_users", predictions, truth, dict(arguments, metrics=[HITS_ONLY_METRIC]), con, check=False,
                     groups_named_as=None)
    return sorted(set(users[arguments["by"][0]]))


def _as_group_value(baseline, groups, column: str | None = None):
    """The group a text baseline names, by the t test's SQL rule (_baseline_literal), so that
    every test takes the same baselines: text that spells a plain number (the command line's
    --baseline 2; not '1e0' or '+1') names that number when the groups are numbers, and 'true',
    'false' and the like a boolean when they are booleans; text or a date names the day or time
    it spells when the groups are dates or times (DuckDB gives a DATE as a pandas Timestamp,
    PostgreSQL and Spark as a date), and text a UUID the UUID it spells; else the baseline as
    given. With the by `column`'s name, text that does not spell a date as the SQL rule reads one
    (_spells_a_date: '2024-01-02', not '2024-1-2') is refused as the t test refuses it."""
    if not groups:
        return baseline
    if all(isinstance(group, datetime.date) for group in groups) and isinstance(baseline, (str, datetime.date)):
        import pandas as pd

        if column is not None and isinstance(baseline, str) and not re.fullmatch(r"\d{4}-\d{2}-\d{2}.*", baseline.strip()):
            raise RankMetricsError(f"rank_metrics: {mention('baseline', baseline)} {baseline!r} is text, but by column {column} "
                                   "holds dates: give the baseline as a date, such as '2024-01-02', one of the column's values")

        try:
            wanted = pd.Timestamp(baseline)
        except (ValueError, TypeError):
            return baseline
        return next((group for group in groups if pd.Timestamp(group) == wanted), baseline)
    if not isinstance(baseline, str):
        return baseline
    spelt = baseline.strip()
    if all(isinstance(group, uuid.UUID) for group in groups):   # DuckDB's UUID, in any case of its hex digits
        try:
            wanted = uuid.UUID(spelt)
        except ValueError:
            return baseline
        return next((group for group in groups if group == wanted), baseline)
    if all(isinstance(group, bool) for group in groups):   # pandas gives Python scalars
        # the texts DuckDB, PostgreSQL and Spark all cast to a boolean
        return {**dict.fromkeys(("true", "t", "yes", "y", "1"), True),
                **dict.fromkeys(("false", "f", "no", "n", "0"), False)}.get(spelt.lower(), baseline)
    if all(isinstance(group, numbers.Real) and not isinstance(group, bool) for group in groups) \
            and spelt.lstrip("-").replace(".", "", 1).isdigit():
        return next((group for group in groups if group == float(spelt)), baseline)
    return baseline


def _kind(value, many: bool = False) -> str:
    """What a value is, for the message of a baseline of another kind than the groups."""
    kind = "text" if isinstance(value, str) else "boolean" if isinstance(value, bool) else \
        "number" if isinstance(value, numbers.Real) else "date" if isinstance(value, datetime.date) else \
        type(value).__name__
    return kind if kind == "text" else kind + "s" if many else ("an " if kind[0] in "aeiou" else "a ") + kind


def _require_baseline(model, baseline, groups, name: str = "compare") -> None:
    """Raise unless the baseline is one group and there is another to compare with it (name: the
    function's, for the messages)."""
    if not groups:   # the one pass has warned why
        raise RankMetricsError(f"rank_metrics: {name}: no user is evaluated for any value of column {model}, so "
                               "nothing can be compared (the warning before this says why)")
    if baseline not in set(groups):
        kind = "" if _kind(baseline) == _kind(groups[0]) else \
            f" ({_kind(baseline)}, where the column's values are {_kind(groups[0], many=True)})"
        raise RankMetricsError(f"rank_metrics: {name}: {mention('baseline', baseline, 'word')} {baseline!r}{kind} is not a "
                               f"value of column {model} among the users evaluated; its values are: {shown_values(groups)}")
    if len(groups) < 2:
        raise RankMetricsError(f"rank_metrics: {name}: only the baseline {baseline!r} has evaluated users; no other "
                               f"value of column {model} has any, so nothing is compared with it")


def _resampled(predictions, truth, arguments, model, segments, baseline, test, seed, resamples, con):
    """The comparison from each user's values (evaluate_users, the one pass), paired here."""
    import pandas as pd

    users = _run("evaluate_users", predictions, truth, arguments, con, check=False, groups_named_as="compare: ")
    user = arguments["user"]
    # as the t test's SQL refuses them (_holds_no_single_value): a set could not hold a struct
    composite = [value for value in users[model] if isinstance(value, (dict, list, tuple, bytes, bytearray, memoryview))
              or type(value).__name__ == "ndarray"]
    if composite:
        raise RankMetricsError(f"rank_metrics: compare: {mention('by', model, 'word')} column {model} holds values such as "
                               f"{composite[0]!r}, and a baseline is a text, a number, a boolean or a date, which such a value "
                               "cannot be compared with: compare by a column of one of those types (cast it to text, say)")
    groups = sorted(set(users[model]))
    baseline = _as_group_value(baseline, groups, model)
    _require_baseline(model, baseline, groups)
    columns = [(metric, METRICS[metric][2]) for metric in METRICS
               if metric in (arguments["metrics"] or DEFAULT_METRICS)]
    rows = []
    # each segment on its own: its users, paired within it
    for segment, in_segment in (users.groupby(segments, sort=True, dropna=False) if segments else [((), users)]):
        segment = segment if isinstance(segment, tuple) else (segment,)
        base = in_segment[in_segment[model] == baseline]
        for group in groups:
            if group == baseline:
                continue
            side = in_segment[in_segment[model] == group]
            if not len(side):
                continue
            # each k, and NULL for the cutoff-free metrics (R-precision)
            for k in sorted(set(users["k"].dropna())) + ([None] if users["k"].isna().any() else []):
                # users in one order, so that a seed draws the same resamples of the same values
                for metric, column in columns:
                    if (k is None) != (metric in reference.CUTOFF_FREE):
                        continue
                    # a partial metric's (AUC's) users without a value are not evaluated for it
                    mine, theirs = side[_at_k(side, k) & side[column].notna()], base[_at_k(base, k) & base[column].notna()]
                    paired = mine.merge(theirs, on=[user, "k"], suffixes=("", "_baseline")).sort_values(user, kind="stable")
                    outcome = stats.paired(paired[column].tolist(), paired[column + "_baseline"].tolist(),
                                           test=test, seed=seed, resamples=resamples)
                    rows.append({model: group, **dict(zip(segments, segment)), "k": k, "metric": metric,
                                 "baseline_value": _mean(paired[column + "_baseline"]), "value": _mean(paired[column]),
                                 **{name: outcome[name] for name in ("difference", "relative_difference",
                                                                      "std_error", "t", "df", "p_value")},
                                 "n_users": len(paired), "n_only_model": len(mine) - len(paired),
                                 "n_only_baseline": len(theirs) - len(paired)})
    frame = pd.DataFrame(rows, columns=[model, *segments, *COLUMNS[:10], *COLUMNS[12:]])
    # k as the t test's SQL gives it: whole numbers, NULL (NA) for a cutoff-free metric's rows
    return frame.astype({"k": "Int64" if frame["k"].isna().any() else "int64"})


def _at_k(frame, k):
    """The rows of k, or of k NULL for None, as a boolean array."""
    return (frame["k"].isna() if k is None else frame["k"] == k).fillna(False).to_numpy(dtype=bool)


def _mean(values) -> float:
    return math.fsum(values) / len(values) if len(values) else math.nan


def _finished(result, model, segments, correction, family, alpha):
    """The adjusted p-values, each over its family (one metric at one k, or every row), and the
    verdict, rows in order of model, k and metric."""
    adjusted = stats.adjust_in_families([None if stats.missing(p) else p for p in result["p_value"]],
                                        stats.family_keys(result, family), correction)
    result = result.assign(p_value_adjusted=[math.nan if p is None else p for p in adjusted])
    result["significant"] = [int(not stats.missing(p) and p < alpha) for p in result["p_value_adjusted"]]
    order = {metric: index for index, metric in enumerate(METRICS)}
    result = result.assign(rm_order=result["metric"].map(order))
    result = result.sort_values([model, *segments, "k", "rm_order"], kind="stable").drop(columns="rm_order")
    return result[[model, *segments, *COLUMNS]].astype(dict.fromkeys(NUMBERS, "float64")).reset_index(drop=True)


def _check(result, predictions, truth, arguments, model, segments, baseline, con, check):
    """The differences, their standard errors and the counts against the reference's users."""
    import numpy as np
    import pandas as pd

    from .errors import CheckFailed

    users = api.evaluate_users(predictions, truth, arguments["k"], metrics=arguments["metrics"], con=con,
                               check=check, **{name: arguments[name] for name in api.OPTIONS})
    user = arguments["user"]
    baseline = _as_group_value(baseline, sorted(set(users[model])))
    for row in result.to_dict("records"):
        column = METRICS[row["metric"]][2]
        k = None if row["k"] is None or row["k"] is pd.NA or row["k"] != row["k"] else row["k"]
        in_segment = users[_at_k(users, k)
                           & np.logical_and.reduce([(users[column] == row[column]).to_numpy() for column in segments]
                                                   or [np.ones(len(users), dtype=bool)])]
        in_segment = in_segment[in_segment[column].notna()]   # a partial metric's users with a value
        mine = in_segment[in_segment[model] == row[model]]
        theirs = in_segment[in_segment[model] == baseline]
        paired = mine.merge(theirs, on=[user, "k"], suffixes=("", "_baseline"))
        differences = (paired[column] - paired[column + "_baseline"]).tolist()
        want = {"difference": _mean(differences), "std_error": reference.std_error(differences),
                "n_users": len(paired), "n_only_model": len(mine) - len(paired),
                "n_only_baseline": len(theirs) - len(paired)}
        for name, value in want.items():
            got = row[name]
            if stats.missing(value) and stats.missing(got):
                continue
            if value is None or stats.missing(got) or not math.isclose(got, value, rel_tol=1e-9, abs_tol=1e-12):
                raise CheckFailed(f"rank_metrics: check: compare {name} for {model}={row[model]!r}, k={row['k']}, "
                                  f"metric={row['metric']}: SQL {got!r}, reference {value!r}")
