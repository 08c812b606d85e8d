"""The Python API: the macro SQL, rendered with jinja2, run on DuckDB, PostgreSQL or Spark."""

from __future__ import annotations

import inspect
import math
import os
from typing import TYPE_CHECKING

from ._arguments import (HITS_ONLY_METRIC, METRICS, OPTIONS, _as_list, _metric_arguments,  # noqa: F401 (the API's names)
                         _metrics_argument, _one_k)
from ._engines import _name_parts, engine_for
from ._inputs import _file_reader
from ._render import metric_registry, render
from ._run import _run, _sorted
from ._warnings import _warn_about_columns, takes_strict
from .errors import RankMetricsError, mention

if TYPE_CHECKING:   # pandas is imported where a result is made, so `import rank_metrics` stays fast
    import pandas as pd


def _signature(*extra: str) -> inspect.Signature:
    """(predictions, truth, k, *, <OPTIONS>, <extra>, con=None, check=False, strict=None), for help()
    and IDEs."""
    keyword = inspect.Parameter.KEYWORD_ONLY
    positional = [inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD)
                  for name in ("predictions", "truth", "k")]
    return inspect.Signature(positional + [
        inspect.Parameter(name, keyword, default=default)
        for name, default in [*OPTIONS.items(), *((name, None) for name in extra), ("con", None), ("check", False),
                              ("strict", None)]])


_OPTIONS_DOC = """
    predictions, truth: a pandas or polars DataFrame, a pyarrow Table, a DuckDB relation, a
    Parquet/CSV path or glob, a table name in `con`, or a Spark DataFrame. k: an integer, or any
    iterable of them. The keyword arguments are those of the dbt macros (docs/definitions.md; README
    "Options"); con: a DuckDB or PostgreSQL connection or a SparkSession; check=True also runs
    the reference implementation and raises CheckFailed where the numbers differ: on every user
    up to 100,000 rows in the two tables, past that on a repeatable sample of 1,000 users (and
    an aggregate against the mean of every user's value); check='all' on every user.
    strict=True makes the warnings of the data's shape errors (lists merged, rows repeated, ids
    with a space in one table, a model column left out of by, a score passed as rank)."""


def _cutoff_free_function(metric: str):
    """The function of a metric that takes no k (R-precision, bpref): its one value per group."""
    name, group_column, _ = METRICS[metric]

    def cutoff_free(predictions, truth, *, con=None, check=False, **options):
        if "k" in options:   # as the dbt macro says it
            given = mention("k", options["k"], "value", text=repr(options["k"]))
            raise RankMetricsError(f"rank_metrics: {name} takes no k: {metric_registry()[metric]['cutoff']} "
                                   f"(evaluate reports it with k NULL); got {given}")
        # the macros number positions up to a largest k: 1, which this metric does not read
        arguments = _metric_arguments(1, options)
        result = _sorted(_run(name, predictions, truth, arguments, con, check), _as_list(arguments["by"]))
        if arguments["by"] is None:
            return float(result[group_column].iloc[0]) if len(result) else math.nan
        return result

    cutoff_free = takes_strict(cutoff_free)
    cutoff_free.__name__ = cutoff_free.__qualname__ = name
    signature = _signature()
    cutoff_free.__signature__ = signature.replace(parameters=[parameter for parameter in signature.parameters.values()
                                                             if parameter.name != "k"])
    cutoff_free.__doc__ = f"""{name}: {metric_registry()[metric]["description"]}

    Returns a float when by is None; otherwise a pandas DataFrame with columns <by columns>, k
    (NULL: the metric takes no k), {group_column}, n_users (a row per group). A float over an
    empty set of evaluated users is NaN.
    """ + _OPTIONS_DOC.replace(" k: an integer, or any\n    iterable of them.", "")
    return cutoff_free


def _metric_at_k_function(metric: str):
    name, group_column, _ = METRICS[metric]
    if metric_registry()[metric].get("cutoff_free"):
        return _cutoff_free_function(metric)

    def metric_at_k(predictions, truth, k, *, con=None, check=False, **options):
        arguments = _metric_arguments(k, options)
        result = _sorted(_run(name, predictions, truth, arguments, con, check), _as_list(arguments["by"]) + ["k"])
        if arguments["by"] is None and _one_k(k):
            return float(result[group_column].iloc[0]) if len(result) else math.nan
        return result

    metric_at_k = takes_strict(metric_at_k)
    metric_at_k.__name__ = metric_at_k.__qualname__ = name
    metric_at_k.__signature__ = _signature()
    metric_at_k.__doc__ = f"""{name}: {metric_registry()[metric]["description"]}

    Returns a float when k is one integer and by is None; otherwise a pandas DataFrame with
    columns <by columns>, k, {group_column}, n_users (a row per group and k). A float over an
    empty set of evaluated users is NaN.
    """ + _OPTIONS_DOC
    return metric_at_k


# a function per registered metric: map_at_k, ndcg_at_k, ... (rank_metrics exports each)
METRIC_FUNCTIONS = {function: _metric_at_k_function(metric) for metric, (function, _, _) in METRICS.items()}
globals().update(METRIC_FUNCTIONS)


@takes_strict
def evaluate(predictions, truth, k, *, metrics=None, confidence=None, con=None, check=False,
             **options) -> pd.DataFrame:
    arguments = dict(_metric_arguments(k, options, own=("metrics", "confidence")), metrics=_metrics_argument(metrics),
                     confidence=confidence)
    result = _run("evaluate", predictions, truth, arguments, con, check)
    order = {metric: index for index, metric in enumerate(METRICS)}
    result = result.assign(rm_order=result["metric"].map(order))
    return _sorted(result, _as_list(arguments["by"]) + ["k", "rm_order"]).drop(columns="rm_order")


@takes_strict
def evaluate_users(predictions, truth, k, *, metrics=None, con=None, check=False, **options) -> pd.DataFrame:
    arguments = dict(_metric_arguments(k, options, own=("metrics",)), metrics=_metrics_argument(metrics))
    result = _run("evaluate_users", predictions, truth, arguments, con, check)
    return _sorted(result, _as_list(arguments["by"]) + [arguments["user"], "k"])


@takes_strict
def average_precision_at_k(predictions, truth, k, *, con=None, check=False, **options) -> pd.DataFrame:
    arguments = _metric_arguments(k, options)
    result = _run("average_precision_at_k", predictions, truth, arguments, con, check)
    return _sorted(result, _as_list(arguments["by"]) + [arguments["user"], "k"])


evaluate.__signature__ = _signature("metrics", "confidence")
evaluate.__doc__ = """Several metrics at once, from one pass: a DataFrame with a row per group, k and
    metric: <by columns>, k, metric, value, n_users, std_error, ci_low, ci_high. metrics: names
    among """ + ", ".join(METRICS) + """ (default: all), in that order.
    std_error is the per-user values' sample standard deviation over sqrt(n_users) (NaN for
    fewer than two users); [ci_low, ci_high] the normal interval at `confidence` (default 0.95).
    """ + _OPTIONS_DOC
evaluate_users.__signature__ = _signature("metrics")
evaluate_users.__doc__ = """Several metrics per evaluated user: <by columns>, <user>, k, a column per
    metric (""" + ", ".join(user_column for _, _, user_column in METRICS.values()) + """), n_relevant,
    n_hits.""" + _OPTIONS_DOC
average_precision_at_k.__signature__ = _signature()
average_precision_at_k.__doc__ = """AP@k per evaluated user: <by columns>, <user>, k,
    average_precision, n_relevant, n_hits.""" + _OPTIONS_DOC


def sql(predictions, truth, k=None, *, con=None, dialect=None, macro=None, metrics=None,
        confidence=None, baseline=None, test=None, correction=None, family=None, alpha=None, **options) -> str:
    """The macro SQL for tables named `predictions` and `truth` ('table' or 'schema.table'); k is
    required but for a metric that takes none (macro='r_precision' or 'bpref').

    Each dialect is rendered through its own dispatch variants, then its parent's (redshift:
    postgres, databricks: spark), then the default ones, as the dbt package renders it on that
    adapter: what is printed is what dbt runs. The dialect defaults to con's engine's,
    else duckdb. A name's parts may be in SQL's double quotes ('"my.table"', '"Shop"."Recs"').
    With `con` (a connection holding the tables) their columns are looked up, as in map_at_k; without it, name rank or score
    (default: a column `rank`), relevance and truth_by explicitly where they apply.
    confidence is evaluate's; baseline (required), test ('t', the only test SQL has: its p-value
    is the normal approximation), correction, family and alpha compare's. The macro is
    evaluate's when metrics is given and no macro is, else map_at_k's (as `rank-metrics sql`).
    """
    macro = macro if macro is not None else "evaluate" if metrics is not None else "map_at_k"
    engine = None if con is None else engine_for(con)
    if dialect is None:   # the SQL of the connection's engine, which runs there as printed
        dialect = "duckdb" if engine is None else engine.name
    if isinstance(dialect, str):   # Snowflake, postgresql, sparksql
        dialect = DIALECT_NAMES.get(dialect.lower(), dialect.lower())
    if dialect not in DIALECTS:
        raise RankMetricsError(f"rank_metrics: {mention('dialect', dialect)} must be one of {', '.join(DIALECTS)}; got {dialect!r}")
    if macro not in MACROS:
        raise RankMetricsError(f"rank_metrics: {mention('macro', macro)} must be one of {', '.join(MACROS)}; got {macro!r}")
    cutoff_free = any(entry["macro"] == macro and entry.get("cutoff_free") for entry in metric_registry().values())
    if k is None and not cutoff_free:
        raise RankMetricsError(f"rank_metrics: {mention('k')} is required for macro {macro!r} (k=12 or k=[5, 10, 20])")
    if k is None:   # a metric of no k (R-precision): the plan's k, which it does not read
        k = 1
    for argument, value in (("predictions", predictions), ("truth", truth)):
        if not isinstance(value, str) or not value:
            # a frame's repr would fill the message: its type says what was given
            module = type(value).__module__.split(".")[0]
            got = repr(value) if module == "builtins" else f"a {module} {type(value).__name__}"
            raise RankMetricsError(f"rank_metrics: {mention(argument)}: expected a table name; got {got} (the SQL printed reads "
                                   f"tables by name; map_at_k and the other metric functions read frames)")
        if _file_reader(value) is not None and os.path.isfile(value):
            # 'preds.csv' would be read as schema "preds", table "csv"
            raise RankMetricsError(f"rank_metrics: {mention(argument)}: {value!r} is a file, and the SQL printed reads tables "
                                   f"by name: load it as a table (in DuckDB: create table t as select * from "
                                   f"'{value}') and name the table")
    # the macro says which of these it takes: one given to a macro that does not take it fails
    given = dict(metrics=_metrics_argument(metrics), confidence=confidence, baseline=baseline, test=test,
                 correction=correction, family=family, alpha=alpha)
    arguments = dict(_metric_arguments(k, options, own=("dialect", "macro", *given)),
                     **{name: value for name, value in given.items() if value is not None})
    if engine is not None:
        with engine.registered(predictions, "predictions") as predictions_view, \
                engine.registered(truth, "truth") as truth_view:
            tables = dict(predictions_columns=predictions_view.columns, truth_columns=truth_view.columns)
        _warn_about_columns(arguments, tables["predictions_columns"], tables["truth_columns"])
    else:
        tables = {}
    for argument, name in (("predictions", predictions), ("truth", truth)):
        tables[argument] = ".".join(render("quote_identifier", dialect, name=part) for part in _name_parts(name))
    return render(macro, dialect, **tables, **arguments)


# the public macros whose SQL sql() prints
MACROS = [function for function, _, _ in METRICS.values()] + ["average_precision_at_k", "evaluate", "evaluate_users",
                                                               "compare"]

# other spellings of the dialects' names, as sqlglot and the warehouses write them
DIALECT_NAMES = {"postgresql": "postgres", "sparksql": "spark", "spark2": "spark"}

# the engines whose SQL sql() prints, each rendered through its own variants
DIALECTS = ["duckdb", "postgres", "spark", "databricks", "redshift", "snowflake", "bigquery", "trino"]
