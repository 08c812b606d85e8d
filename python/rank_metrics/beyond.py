"""Beyond accuracy (docs/definitions.md): catalog coverage, distributional coverage, Gini,
personalization, novelty, ARP, diversity and serendipity of the lists, per group and k, from the
one query of macros/metrics/beyond_accuracy.sql, with each library's convention."""

from __future__ import annotations

import contextlib
import numbers
from typing import TYPE_CHECKING

from ._arguments import _as_list
from ._engines import engine_for
from ._render import beyond_accuracy_registry, namespace, render
from .errors import RankMetricsError, mention

if TYPE_CHECKING:
    import pandas as pd

CONVENTIONS = ("recommenders", "evidently")
SIMILARITIES = ("cooccurrence", "features")


def beyond_accuracy(predictions, train, k, *, metrics=None, by=None, convention=None, similarity=None, truth=None,
                    item_features=None, user="user_id", item="item_id", rank=None, score=None, train_user=None,
                    train_item=None, truth_user=None, truth_item=None, features_item=None, con=None) -> pd.DataFrame:
    """Beyond-accuracy metrics of the lists: a row per group, metric and k: <by columns>, k,
    metric, value, std_error, n_users. The per-user metrics (novelty under evidently, arp,
    arp_normalized, diversity, serendipity) are means over users with a standard error; the
    others are one value of the group's lists (std_error NULL, n_users the users with a list).

    predictions: lists as the accuracy metrics take them in long form (user, item, rank or
    score, by columns), cut at k. train: (user, item) interactions, the same for every group.
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
                          con=None) -> pd.DataFrame:
    """beyond_accuracy's per-user values: a row per group, user and k, with a column for each
    per-user metric asked (NaN where the user has no value: no pair of items, no train rows, no
    listed item in train). Catalog-level metrics have no per-user value and are left out."""
    return _beyond_accuracy(locals(), per_user=True)


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
            sql = render("beyond_accuracy_query", engine.name, **tables, ks=arguments["ks"],
                         metrics=[{"metric": metric, "definition": whose} for metric, whose in arguments["metrics"]],
                         by=arguments["by"], user=arguments["user"], item=arguments["item"], order=columns["order"],
                         descending=columns["descending"], train_user=arguments["train_user"],
                         train_item=arguments["train_item"], truth_user=arguments["truth_user"],
                         truth_item=arguments["truth_item"], features_item=arguments["features_item"],
                         feature_columns=columns["features"], similarity=arguments["similarity"],
                         item_is_text=columns["item_is_text"], per_user=per_user)
            result = engine.result(sql) if not per_user else engine.run(sql)
    finally:
        engine.close()
    if per_user:
        for metric, _ in arguments["metrics"]:
            if metric in result.columns:
                result[metric] = result[metric].astype("float64")
        result["k"] = result["k"].astype("int64")
    return result.reset_index(drop=True)


def _arguments(given: dict) -> dict:
    """The call's arguments checked, with the defaults resolved: metrics as (metric, whose
    definition) pairs, ks a list of whole numbers."""
    registry = beyond_accuracy_registry()
    k = given["k"]
    ks = [k] if isinstance(k, numbers.Integral) and not isinstance(k, bool) else (
        list(k) if isinstance(k, (list, tuple)) else None)
    if not ks or any(not isinstance(value, numbers.Integral) or isinstance(value, bool) or value < 1 for value in ks):
        raise RankMetricsError(f"rank_metrics: {mention('k', k)} must be a whole number 1 or more, or a list of them; "
                               f"got {k!r}")
    convention = given["convention"]
    if convention is not None and convention not in CONVENTIONS:
        raise RankMetricsError(f"rank_metrics: {mention('convention', convention)} of the beyond-accuracy metrics must "
                               f"be one of {', '.join(map(repr, CONVENTIONS))} (or None); got {convention!r}")
    asked = _as_list(given["metrics"]) if given["metrics"] is not None else [
        metric for metric, entry in registry.items() if convention is None or convention in entry["per_user"]]
    resolved = []
    for metric in asked:
        if metric not in registry:
            raise RankMetricsError(f"rank_metrics: {mention('metrics', given['metrics'])}: unknown beyond-accuracy metric "
                                   f"{metric!r}; expected some of {', '.join(registry)}")
        defined_by = registry[metric]["per_user"]
        if convention is not None and convention not in defined_by:
            raise RankMetricsError(f"rank_metrics: {mention('metrics', given['metrics'])}: {convention} has no {metric} "
                                   f"(it is {' and '.join(defined_by)}'s); leave convention out to use that definition")
        whose = convention or ("recommenders" if "recommenders" in defined_by else "evidently")
        if (metric, whose) not in resolved:
            resolved.append((metric, whose))
    similarity = given["similarity"]
    if similarity is None:
        similarity = "features" if convention == "evidently" else "cooccurrence"
    if similarity not in SIMILARITIES:
        raise RankMetricsError(f"rank_metrics: {mention('similarity', similarity)} must be one of "
                               f"{', '.join(map(repr, SIMILARITIES))}; got {similarity!r}")
    similar = any(metric in ("diversity", "serendipity") for metric, _ in resolved)
    if similar and similarity == "features" and given["item_features"] is None:
        raise RankMetricsError(f"rank_metrics: {mention('similarity', similarity)}: 'features' (the default under "
                               "convention='evidently') compares items by their feature vectors: give item_features "
                               "(an item column and numeric feature columns), or similarity='cooccurrence'")
    names = {}
    for name in ("user", "item", "rank", "score", "train_user", "train_item", "truth_user", "truth_item", "features_item"):
        value = given[name]
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise RankMetricsError(f"rank_metrics: {mention(name, value)} must name a column; got {value!r}")
        names[name] = value
    if names["rank"] is not None and names["score"] is not None:
        raise RankMetricsError("rank_metrics: give rank or score, not both")
    by = _as_list(given["by"])
    if any(not isinstance(name, str) or not name.strip() for name in by):
        raise RankMetricsError(f"rank_metrics: {mention('by', given['by'])} must name columns; got {given['by']!r}")
    return dict(names, ks=sorted(set(ks)), metrics=resolved, by=by, similarity=similarity if similar else "cooccurrence",
                train_user=names["train_user"] or names["user"], train_item=names["train_item"] or names["item"],
                truth_user=names["truth_user"] or names["user"], truth_item=names["truth_item"] or names["item"],
                features_item=names["features_item"] or names["item"], uses_features=similar and similarity == "features",
                uses_truth=given["truth"] is not None)


def _check_columns(arguments: dict, columns: dict, engine: str) -> dict:
    """Every column the call names found in its input, the order column found by name when
    neither rank nor score is given, the ids' types alike across inputs, the feature columns
    numeric: what the query needs to know of the columns."""
    names = namespace(engine)
    types = {table: {column["name"]: column["data_type"] for column in found} for table, found in columns.items()}

    def need(table: str, argument: str, column: str) -> str:
        if column not in types[table]:
            raise RankMetricsError(f"rank_metrics: column {column!r} {mention(argument, column, 'argument')} is not in "
                                   f"{table} (its columns: {', '.join(types[table])})")
        return str(names._type_family(types[table][column])).strip()

    order, descending = arguments["rank"], False
    if order is None and arguments["score"] is not None:
        order, descending = arguments["score"], True
    if order is None:
        found = [name for name in ("rank", "score") if name in types["predictions"]]
        if not found:
            raise RankMetricsError("rank_metrics: predictions has no column rank or score: name the column that orders "
                                   "each list with rank= (1 first) or score= (highest first)")
        order, descending = found[0], found[0] == "score"
    for column in arguments["by"]:
        need("predictions", "by", column)
    if need("predictions", "score" if descending else "rank", order) not in ("number", "floating point"):
        raise RankMetricsError(f"rank_metrics: column {order!r} {mention('score' if descending else 'rank', order, 'argument')} "
                               f"of predictions is {types['predictions'][order]}; it must be numeric")
    pairs = [("user", "train", "train_user"), ("item", "train", "train_item")]
    if arguments["uses_truth"]:
        pairs += [("user", "truth", "truth_user"), ("item", "truth", "truth_item")]
    if arguments["uses_features"]:
        pairs += [("item", "item_features", "features_item")]
    for own, table, argument in pairs:
        family = need("predictions", own, arguments[own])
        other = need(table, argument, arguments[argument])
        if family != other and "no type" not in (family, other):
            raise RankMetricsError(f"rank_metrics: column {arguments[argument]!r} {mention(argument, arguments[argument], 'argument')} "
                                   f"of {table} is {types[table][arguments[argument]]} but predictions' {arguments[own]!r} is "
                                   f"{types['predictions'][arguments[own]]}; cast one so that ids compare")
    features = []
    if arguments["uses_features"]:
        for column, data_type in types["item_features"].items():
            if column == arguments["features_item"]:
                continue
            if str(names._type_family(data_type)).strip() not in ("number", "floating point"):
                raise RankMetricsError(f"rank_metrics: column {column!r} of item_features is {data_type}; every column "
                                       f"besides the item column ({arguments['features_item']!r}) is a feature and must be "
                                       "numeric")
            features.append(column)
        if not features:
            raise RankMetricsError("rank_metrics: item_features has no feature column besides the item column "
                                   f"{arguments['features_item']!r}")
    item_is_text = need("predictions", "item", arguments["item"]) == "string"
    return {"order": order, "descending": descending, "features": features, "item_is_text": item_is_text}


def _check_rows(arguments: dict, tables: dict, columns: dict, engine) -> None:
    """What the rows must hold (docs/definitions.md): a train with rows, no NULL id, and under
    similarity='features' a nonzero feature vector for every listed item within the largest k."""
    problem = engine.first_row(render("_beyond_accuracy_problems", engine.name, **tables, arguments=arguments,
                                      largest_k=max(arguments["ks"]), order=columns["order"],
                                      descending=columns["descending"], feature_columns=columns["features"],
                                      history=any(metric == "serendipity" for metric, _ in arguments["metrics"])))
    if problem is not None and problem[0] is not None:
        raise RankMetricsError(f"rank_metrics: {problem[0]}")
