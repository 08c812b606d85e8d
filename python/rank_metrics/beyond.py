"""Beyond accuracy (docs/definitions.md): catalog coverage, distributional coverage, Gini,
personalization, novelty, ARP, diversity and serendipity of the lists, per group and k, from the
one query of macros/metrics/beyond_accuracy.sql, with each library's convention."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from ._engines import engine_for
from ._render import beyond_accuracy_registry, namespace, render
from .errors import RankMetricsError

if TYPE_CHECKING:
    import pandas as pd

def beyond_accuracy(predictions, train, k, *, metrics=None, by=None, convention=None, similarity=None, truth=None,
                    item_features=None, user="user_id", item="item_id", rank=None, score=None, train_user=None,
                    train_item=None, truth_user=None, truth_item=None, features_item=None, predictions_shape=None,
                    truth_shape=None, item_separator=None, con=None) -> pd.DataFrame:
    """Beyond-accuracy metrics of the lists: a row per group, metric and k: <by columns>, k,
    metric, value, std_error, n_users. The per-user metrics (novelty under evidently, arp,
    arp_normalized, diversity, serendipity) are means over users with a standard error; the
    others are one value of the group's lists (std_error NULL, n_users the users with a list).

    predictions: lists as the accuracy metrics take them in long form (user, item, rank or
    score, by columns) or list-shaped (a row per user, its items in order in a list column, or in
    a text column split by item_separator under predictions_shape='list', as a Kaggle
    submission), cut at k. train: (user, item) interactions, the same for every group.
    truth (optional): serendipity's relevant items; without it every listed item counts.
    item_features (optional): an item column and numeric feature columns, for
    similarity='features' (the cosine). convention: 'recommenders' or 'evidently' (each
    metric as that library defines it); without one, recommenders' definition where that
    library has the metric, else Evidently's. similarity: 'cooccurrence' (the default, but
    'features' under convention='evidently') or 'features'."""
    return _beyond_accuracy(locals(), per_user=False)


def beyond_accuracy_users(predictions, train, k, *, metrics=None, by=None, convention=None, similarity=None, truth=None,
                          item_features=None, user="user_id", item="item_id", rank=None, score=None, train_user=None,
                          train_item=None, truth_user=None, truth_item=None, features_item=None,
                          predictions_shape=None, truth_shape=None, item_separator=None, con=None) -> pd.DataFrame:
    """beyond_accuracy's per-user values: a row per group, user and k, with a column for each
    per-user metric asked (NaN where the user has no value: no pair of items, no train rows, no
    listed item in train). Catalog-level metrics have no per-user value and are left out."""
    return _beyond_accuracy(locals(), per_user=True)


def metric_names() -> list[str]:
    """The beyond-accuracy metrics, in the order results list them (the macros' registry)."""
    return list(beyond_accuracy_registry())


def _beyond_accuracy(given: dict, per_user: bool) -> pd.DataFrame:
    arguments = _arguments(given)
    engine = engine_for(given["con"], given["predictions"], given["train"], given["truth"], given["item_features"])
    inputs = {name: given[name] for name in ("predictions", "train", "truth", "item_features") if given[name] is not None}
    try:
        engine.hold()
        with contextlib.ExitStack() as stack:
            views = {name: stack.enter_context(engine.registered(value, name)) for name, value in inputs.items()}
            columns = _check_columns(arguments, {name: view.columns for name, view in views.items()}, engine.name)
            tables = {name: view.quoted for name, view in views.items()}
            _check_rows(arguments, tables, columns, engine)
            sql = render("_beyond_accuracy_query", engine.name, **tables, ks=arguments["ks"],
                         metrics=arguments["metrics"],
                         by=arguments["by"], user=arguments["user"], item=arguments["item"], order=columns["order"],
                         descending=columns["descending"], train_user=arguments["train_user"],
                         train_item=arguments["train_item"], truth_user=arguments["truth_user"],
                         truth_item=arguments["truth_item"], features_item=arguments["features_item"],
                         feature_columns=columns["features"], similarity=arguments["similarity"],
                         item_is_text=columns["item_is_text"], per_user=per_user, shapes=columns["shapes"])
            result = engine.result(sql) if not per_user else engine.run(sql)
    finally:
        engine.close()
    if per_user:
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


def _check_rows(arguments: dict, tables: dict, columns: dict, engine) -> None:
    """What the rows must hold (docs/definitions.md): a train with rows, no NULL id, and under
    similarity='features' a nonzero feature vector for every listed item within the largest k."""
    problem = engine.first_row(render("_beyond_accuracy_problems", engine.name, **tables, arguments=arguments,
                                      largest_k=max(arguments["ks"]), order=columns["order"],
                                      descending=columns["descending"], feature_columns=columns["features"],
                                      history=arguments["history"], shapes=columns["shapes"]))
    if problem is not None and problem[0] is not None:
        raise RankMetricsError(f"rank_metrics: {problem[0]}")
