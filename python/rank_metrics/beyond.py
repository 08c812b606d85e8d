"""Beyond accuracy (docs/definitions.md): catalog coverage, distributional coverage, Gini,
personalization, novelty, ARP, diversity and serendipity of the lists, per group and k, from the
one query of macros/metrics/beyond_accuracy.sql, with each library's convention."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from ._engines import engine_for
from ._render import beyond_accuracy_registry, namespace, render
from ._warnings import (_warn_of_a_model_column_left_out, _warn_of_a_score_read_as_rank, _warn_of_an_unread_grade,
                        _warn_of_colliding_rows_and_padded_ids, check_argument_names, takes_strict)
from .errors import RankMetricsError, mention, warn

if TYPE_CHECKING:
    import pandas as pd


@takes_strict
def beyond_accuracy(predictions, train, k, *, metrics=None, by=None, convention=None, similarity=None, truth=None,
                    item_features=None, user="user_id", item="item_id", rank=None, score=None, train_user=None,
                    train_item=None, truth_user=None, truth_item=None, relevance=None, features_item=None, predictions_shape=None,
                    truth_shape=None, item_separator=None, con=None) -> pd.DataFrame:
    """Beyond-accuracy metrics of the lists: a row per group, metric and k: <by columns>, k,
    metric, value, std_error, n_users. The per-user metrics (novelty under evidently, arp,
    arp_normalized, diversity, serendipity) are means over users with a standard error; the
    others are one value of the group's lists (std_error NULL, n_users the users with a list).

    predictions: lists as the accuracy metrics take them in long form (user, item, rank or
    score, by columns) or list-shaped (a row per user, its items in order in a list column, or in
    a text column split by item_separator under predictions_shape='list', as a Kaggle
    submission), cut at k. train: (user, item) interactions, the same for every group.
    truth (optional): serendipity's relevant items; without it every listed item counts. With
    grades (relevance=, or a column named relevance), an item graded 0 or less is not relevant.
    item_features (optional): an item column and numeric feature columns, for
    similarity='features' (the cosine). convention: 'recommenders' or 'evidently' (each
    metric as that library defines it); without one, recommenders' definition where that
    library has the metric, else Evidently's. similarity: 'cooccurrence' (the default, but
    'features' under convention='evidently') or 'features'."""
    return _beyond_accuracy(locals(), per_user=False)


@takes_strict
def beyond_accuracy_users(predictions, train, k, *, metrics=None, by=None, convention=None, similarity=None, truth=None,
                          item_features=None, user="user_id", item="item_id", rank=None, score=None, train_user=None,
                          train_item=None, truth_user=None, truth_item=None, relevance=None, features_item=None,
                          predictions_shape=None, truth_shape=None, item_separator=None, con=None) -> pd.DataFrame:
    """beyond_accuracy's per-user values: a row per group, user and k, with a column for each
    per-user metric asked (NaN where the user has no value: no pair of items, no train rows, no
    listed item in train). Catalog-level metrics have no per-user value and are left out."""
    return _beyond_accuracy(locals(), per_user=True)


def metric_names() -> list[str]:
    """The beyond-accuracy metrics, in the order results list them (the macros' registry)."""
    return list(beyond_accuracy_registry())


def _beyond_accuracy(given: dict, per_user: bool, comparison: dict | None = None) -> pd.DataFrame:
    """The query's result; with `comparison` (compare_beyond_accuracy's own arguments, resolved by
    _comparison_options), compare's rows of the t test."""
    arguments = _arguments(given)
    engine = engine_for(given["con"], given["predictions"], given["train"], given["truth"], given["item_features"])
    inputs = {name: given[name] for name in ("predictions", "train", "truth", "item_features") if given[name] is not None}
    with engine.in_use(), contextlib.ExitStack() as stack:
        views = {name: stack.enter_context(engine.registered(value, name)) for name, value in inputs.items()}
        columns = _check_columns(arguments, {name: view.columns for name, view in views.items()}, engine.name)
        if comparison is not None:
            _rules("_beyond_accuracy_comparison", engine.name, arguments, columns, comparison)
        elif per_user:
            _rules("_per_user_metrics_asked", engine.name, arguments, "beyond_accuracy_users gives the users' values")
        if columns["unread_grade"]:
            _warn_of_an_unread_grade(views["truth"].columns, columns["unread_grade"], columns["shapes"]["truth"]["list"])
        tables = {name: view.quoted for name, view in views.items()}
        _check_rows(arguments, tables, columns, engine, comparison)
        _warn_of_the_data_shape(arguments, columns, engine, tables, views)
        sql = render("_beyond_accuracy_query", engine.name, **tables, ks=arguments["ks"],
                     metrics=arguments["metrics"],
                     by=arguments["by"], user=arguments["user"], item=arguments["item"], order=columns["order"],
                     descending=columns["descending"], train_user=arguments["train_user"],
                     train_item=arguments["train_item"], truth_user=arguments["truth_user"],
                     truth_item=arguments["truth_item"], features_item=arguments["features_item"],
                     feature_columns=columns["features"], similarity=arguments["similarity"],
                     item_is_text=columns["item_is_text"], per_user=per_user, shapes=columns["shapes"],
                     comparison=comparison, order_type=columns["order_type"], relevance=columns["relevance"])
        result = engine.result(sql) if not per_user else engine.run(sql)
    if not len(result) and comparison is None:
        # rows come from the lists: none at all means predictions had none (an empty file, a filter)
        warn("rank_metrics: predictions has no rows, so there is no list to measure: the result has no rows")
    if per_user and comparison is None:
        for metric in (entry["metric"] for entry in arguments["metrics"]):
            if metric in result.columns:
                result[metric] = result[metric].astype("float64")
        result["k"] = result["k"].astype("int64")
    return result.reset_index(drop=True)


def _arguments(given: dict) -> dict:
    """The call's arguments checked and resolved by the macros' own rules
    (_beyond_accuracy_arguments): ks, metrics as [{metric, definition}], similarity, the columns."""
    resolved: dict = {}
    shown = {name: value for name, value in given.items() if name not in ("predictions", "train", "con")}
    # the inputs themselves stay out of the templates: only whether they are given
    shown.update(truth=None if given["truth"] is None else True,
                 item_features=None if given["item_features"] is None else True)
    _rules("_beyond_accuracy_arguments", "duckdb", shown, resolved)
    return resolved


def _check_columns(arguments: dict, columns: dict, engine: str) -> dict:
    """What the query needs to know of the columns, checked by the macros' rules
    (_beyond_accuracy_columns): order, descending, features, item_is_text."""
    found: dict = {}
    _rules("_beyond_accuracy_columns", engine, arguments, columns, found)
    return found


def _rules(macro: str, engine: str, *arguments) -> None:
    """A macro that checks arguments and fills the dict it is given: its error raised here, as
    render raises one, without the frames of jinja and the macro files."""
    try:
        getattr(namespace(engine), macro)(*arguments)
    except RankMetricsError as error:
        raise error.with_traceback(None) from None


def _check_rows(arguments: dict, tables: dict, columns: dict, engine, comparison: dict | None = None) -> None:
    """What the rows must hold (docs/definitions.md), checked by _beyond_accuracy_problems in one
    query: its first problem raised, naming the column or item."""
    problem = engine.first_row(render("_beyond_accuracy_problems", engine.name, **tables, arguments=arguments, found=columns,
                                      comparison=comparison))
    if problem is not None and problem[0] is not None:
        raise RankMetricsError(f"rank_metrics: {problem[0]}")


def _warn_of_the_data_shape(arguments: dict, columns: dict, engine, tables: dict, views: dict) -> None:
    """evaluate's warnings of a plausible wrong number (errors under strict=True): a model column
    left out of by, lists merged from several models or days, a row twice, ids with a space at an
    end in one of predictions and train, a score passed as rank."""
    named = {**arguments, "rank": None, "score": None, ("score" if columns["descending"] else "rank"): columns["order"]}
    said = _warn_of_a_model_column_left_out(named, engine, tables, views["predictions"].columns)
    if columns["shapes"]["predictions"]["list"]:   # a list has no ranks to collide, and its ids are the list's
        return
    plan: dict = {}
    namespace(engine.name)._beyond_accuracy_shape_plan(arguments, columns, tables["predictions"], tables["train"], plan)
    _warn_of_colliding_rows_and_padded_ids(engine, plan, views["predictions"].columns, views["train"].columns, said,
                                           other="train")
    _warn_of_a_score_read_as_rank(named, engine, tables, views["predictions"].columns)


@takes_strict
def compare_beyond_accuracy(predictions, train, k, *, baseline=None, by=None, metrics=None, test="t", correction="holm",
                            family="metric_and_k", alpha=0.05, seed=0, resamples=10_000, con=None,
                            **options) -> pd.DataFrame:
    """Each model (the values of by's first column) against the `baseline` model on the per-user
    beyond-accuracy metrics (novelty under evidently, arp, arp_normalized, diversity,
    serendipity), within each segment (by's other columns): compare's columns and tests, users
    paired when both models have a value for them. The catalog-level metrics have no per-user
    value to pair and are not compared. The other keyword arguments are beyond_accuracy's.
    The t test runs as the SQL of the dbt macro compare_beyond_accuracy, its p-value then the
    exact Student t one (as compare's); the permutation and bootstrap tests pair the users'
    values of beyond_accuracy_users here."""
    from . import stats
    from .comparison import _as_group_value, _finished, _require_baseline

    for name, value, allowed in (("test", test, stats.TESTS), ("correction", correction, stats.CORRECTIONS),
                                 ("family", family, stats.FAMILIES)):
        if value not in allowed:
            raise RankMetricsError(f"rank_metrics: compare_beyond_accuracy: {mention(name, value)} must be one of "
                                   f"{', '.join(map(repr, allowed))}; got {value!r}")
    stats.check_resampling(seed, resamples)
    _check_option_names(options)
    by = [by] if isinstance(by, str) else list(by or [])
    if not by:
        raise RankMetricsError(f"rank_metrics: compare_beyond_accuracy: {mention('by')} must name the column whose "
                               "values are the models (and any segment columns after it)")
    model, segments = by[0], by[1:]
    if baseline is None:   # Python's own TypeError said "missing 1 required keyword-only argument"
        raise RankMetricsError(f"rank_metrics: compare_beyond_accuracy: {mention('baseline')} is required: the value of {model} "
                               f"that each other model is compared with (baseline='popularity')")
    given = dict(options, predictions=predictions, train=train, k=k, metrics=metrics, by=by, con=con)
    comparison = {}
    _rules("_comparison_options", "duckdb", comparison, {"baseline": baseline, "test": "t", "correction": correction,
                                                         "family": family, "alpha": alpha}, "compare_beyond_accuracy")
    if test == "t":
        result = _beyond_accuracy(_with_defaults(given), per_user=True, comparison=comparison)
        if not len(result) or not (result["n_users"] + result["n_only_baseline"]).any():
            # no row, or a baseline no user has a list for: say why, naming the groups
            groups = sorted(set(beyond_accuracy_users(**given)[model]))
            _require_baseline(model, _as_group_value(baseline, groups), groups, "compare_beyond_accuracy")
        result["p_value"] = [stats.student_p_value(t, df) if not stats.missing(t) else p
                             for t, df, p in zip(result["t"], result["df"], result["p_value"])]
    else:
        _rules("_per_user_metrics_asked", "duckdb", _arguments(_with_defaults(given)), "compare_beyond_accuracy pairs the users' values")
        result = _resampled_beyond(beyond_accuracy_users(**given), model, segments, baseline, test, seed, resamples, options)
    # in the order asked (beyond_accuracy's columns), else the registry's
    asked = [metrics] if isinstance(metrics, str) else list(metrics or metric_names())
    order = {metric: index for index, metric in enumerate(asked)}
    finished = _finished(result.astype({"k": "int64"}), model, segments, correction, family, alpha)
    # _finished orders the accuracy metrics; these keep beyond_accuracy's order
    finished = finished.assign(rm_order=finished["metric"].map(order))
    return finished.sort_values([model, *segments, "k", "rm_order"], kind="stable").drop(columns="rm_order") \
        .reset_index(drop=True)


def _resampled_beyond(users, model, segments, baseline, test, seed, resamples, options) -> pd.DataFrame:
    """The permutation or bootstrap comparison from each user's values, paired here."""
    import pandas as pd

    from . import stats
    from .comparison import COLUMNS, _as_group_value, _mean, _require_baseline

    user = options.get("user", "user_id")
    asked = [column for column in users.columns if column not in (model, *segments, user, "k")]
    groups = sorted(set(users[model]))
    baseline = _as_group_value(baseline, groups, model)
    _require_baseline(model, baseline, groups, "compare_beyond_accuracy")
    rows = []
    for segment, in_segment in (users.groupby(segments, sort=True, dropna=False) if segments else [((), users)]):
        segment = segment if isinstance(segment, tuple) else (segment,)
        base = in_segment[in_segment[model] == baseline]
        for group in groups:
            side = in_segment[in_segment[model] == group]
            if group == baseline or not len(side):
                continue
            for k_value in sorted(set(users["k"])):
                for metric in asked:
                    mine = side[(side["k"] == k_value) & side[metric].notna()]
                    theirs = base[(base["k"] == k_value) & base[metric].notna()]
                    both = mine.merge(theirs, on=[user, "k"], suffixes=("", "_baseline")).sort_values(user, kind="stable")
                    outcome = stats.paired(both[metric].tolist(), both[metric + "_baseline"].tolist(), test=test,
                                           seed=seed, resamples=resamples)
                    rows.append({model: group, **dict(zip(segments, segment)), "k": k_value, "metric": metric,
                                 "baseline_value": _mean(both[metric + "_baseline"]), "value": _mean(both[metric]),
                                 **{name: outcome[name] for name in ("difference", "relative_difference", "std_error",
                                                                     "t", "df", "p_value")},
                                 "n_users": len(both), "n_only_model": len(mine) - len(both),
                                 "n_only_baseline": len(theirs) - len(both)})
    return pd.DataFrame(rows, columns=[model, *segments, *COLUMNS[:10], *COLUMNS[12:]])


def _check_option_names(options: dict) -> None:
    """compare_beyond_accuracy's other keywords are beyond_accuracy's: one it does not take is
    named here, with the nearest, not by a TypeError of beyond_accuracy_users."""
    import inspect

    taken = [name for name in inspect.signature(compare_beyond_accuracy).parameters if name != "options"]
    taken += [name for name in inspect.signature(beyond_accuracy).parameters if name not in taken]
    check_argument_names("compare_beyond_accuracy", options, taken)


def _with_defaults(given: dict) -> dict:
    """beyond_accuracy_users' arguments as its body sees them: given, then each default."""
    import inspect

    bound = inspect.signature(beyond_accuracy_users).bind(**{name: value for name, value in given.items()})
    bound.apply_defaults()
    return {name: value for name, value in bound.arguments.items() if name != "strict"}
