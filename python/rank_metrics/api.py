"""The Python API: the macro SQL, rendered with jinja2, run on DuckDB, PostgreSQL or Spark."""

from __future__ import annotations

import contextlib
import math
import numbers
from typing import Sequence

import pandas as pd

from . import reference
from ._engines import engine_for
from ._render import namespace as _render_namespace
from ._render import render
from .errors import CheckFailed, RankMetricsError


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


def _metric_arguments(k, user, item, rank, score, relevance, by, truth_by, normalization, users,
                      duplicates, tie_break, convention) -> dict:
    return dict(k=_k_argument(k), user=user, item=item, rank=rank, score=score, relevance=relevance, by=by,
                truth_by=truth_by, normalization=normalization, users=users,
                duplicates=duplicates, tie_break=tie_break, convention=convention)


@contextlib.contextmanager
def _prepared(predictions, truth, con, arguments):
    """Both inputs seen by one engine, checked (SPEC §4) before any metric is computed."""
    engine = engine_for(con, predictions, truth)
    try:
        with engine.registered(predictions, "predictions") as predictions_view, \
                engine.registered(truth, "truth") as truth_view:
            tables = dict(predictions=predictions_view.quoted, truth=truth_view.quoted,
                          predictions_columns=predictions_view.columns,
                          truth_columns=truth_view.columns)
            problems = engine.run(render("input_problems", engine.name, **tables, **arguments))
            if len(problems):
                argument, problem = problems.iloc[0]
                raise RankMetricsError(f"rank_metrics: {argument}: {problem}")
            yield engine, tables, predictions_view, truth_view
    except (RankMetricsError, CheckFailed):
        raise
    except Exception:
        # a file with a bad line deep inside fails only when a query reaches it: say which
        unreadable = engine.unreadable_input()
        if unreadable is None:
            raise
        raise unreadable from None
    finally:
        engine.close()


def _resolved_columns(arguments: dict, tables: dict, engine: str) -> dict:
    """The column names as the macro resolves them (rank or score, relevance, truth_by)."""
    plan = {}
    _render_namespace(engine)._plan(plan=plan, **arguments, **tables)
    return dict(plan["names"])


def _check(result: pd.DataFrame, arguments: dict, tables: dict, engine, predictions_view, truth_view,
           per_user: bool):
    """Raise CheckFailed unless the reference implementation computes the same rows."""
    columns = _resolved_columns(arguments, tables, engine.name)
    ks = arguments["k"] if isinstance(arguments["k"], list) else [arguments["k"]]
    options = reference.resolve_options(
        arguments["convention"], normalization=arguments["normalization"], users=arguments["users"],
        duplicates=arguments["duplicates"], tie_break=arguments["tie_break"])
    user_rows, group_rows = reference.evaluate(
        engine.rows(predictions_view), engine.rows(truth_view), sorted(set(ks)),
        options=options, **columns)
    keys = columns["by"] + ([columns["user"]] if per_user else []) + ["k"]
    value = "average_precision" if per_user else "map_at_k"
    expected = {tuple(row[key] for key in keys): row[value] for row in (user_rows if per_user else group_rows)}
    got = {tuple(row[key] for key in keys): row[value] for row in result.to_dict("records")}
    if expected.keys() != got.keys():
        raise CheckFailed(f"rank_metrics: check: the SQL and the reference disagree on the rows: "
                          f"only SQL {sorted(got.keys() - expected.keys(), key=repr)[:5]}, "
                          f"only reference {sorted(expected.keys() - got.keys(), key=repr)[:5]}")
    for key, want in expected.items():
        if not math.isclose(got[key], want, rel_tol=1e-9, abs_tol=1e-12):
            raise CheckFailed(f"rank_metrics: check: {value} for {dict(zip(keys, key))}: "
                              f"SQL {got[key]!r}, reference {want!r}")


def _run(macro: str, predictions, truth, arguments: dict, con, check: bool) -> pd.DataFrame:
    with _prepared(predictions, truth, con, arguments) as (engine, tables, predictions_view, truth_view):
        result = engine.result(render(macro, engine.name, **tables, **arguments))
        if check:
            _check(result, arguments, tables, engine, predictions_view, truth_view,
                   per_user=(macro != "map_at_k"))
    return result


def _as_list(by) -> list:
    return [] if by is None else ([by] if isinstance(by, str) else list(by))


def _sorted(frame: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    return frame.sort_values(list(keys), kind="stable").reset_index(drop=True)


def map_at_k(predictions, truth, k, *, user="user_id", item="item_id", rank=None, score=None,
             relevance=None, by=None, truth_by=None, normalization=None, users=None,
             duplicates=None, tie_break=None, convention=None, con=None, check=False):
    """MAP@k of ranked predictions against truth (SPEC §1).

    Returns a float when k is one integer and by is None; otherwise a pandas DataFrame with
    columns <by columns>, k, map_at_k, n_users (one row per group and k). A float result over an
    empty set of evaluated users is NaN.
    """
    arguments = _metric_arguments(k, user, item, rank, score, relevance, by, truth_by, normalization,
                                  users, duplicates, tie_break, convention)
    result = _run("map_at_k", predictions, truth, arguments, con, check)
    result = _sorted(result, _as_list(by) + ["k"])
    if by is None and _one_k(k):
        return float(result["map_at_k"].iloc[0]) if len(result) else math.nan
    return result


def average_precision_at_k(predictions, truth, k, *, user="user_id", item="item_id", rank=None,
                           score=None, relevance=None, by=None, truth_by=None, normalization=None,
                           users=None, duplicates=None, tie_break=None, convention=None, con=None,
                           check=False) -> pd.DataFrame:
    """AP@k per evaluated user: <by columns>, <user>, k, average_precision, n_relevant, n_hits."""
    arguments = _metric_arguments(k, user, item, rank, score, relevance, by, truth_by, normalization,
                                  users, duplicates, tie_break, convention)
    result = _run("average_precision_at_k", predictions, truth, arguments, con, check)
    return _sorted(result, _as_list(by) + [user, "k"])


def sql(predictions, truth, k, *, user="user_id", item="item_id", rank=None, score=None,
        relevance=None, by=None, truth_by=None, normalization=None, users=None, duplicates=None,
        tie_break=None, convention=None, con=None, dialect="duckdb", macro="map_at_k") -> str:
    """The macro SQL for tables named `predictions` and `truth` ('table' or 'schema.table').

    duckdb, postgres and spark get their own dispatch variants; redshift and databricks render
    with their parent adapter's (postgres, spark) and every other dialect with the default
    variants, then sqlglot writes them in that dialect. With `con` (a connection holding the
    tables) their columns are looked up, as in map_at_k; without it, name rank or score
    (default: a column `rank`), relevance and truth_by explicitly where they apply.
    """
    if dialect not in DIALECTS:
        raise RankMetricsError(f"rank_metrics: dialect must be one of {', '.join(DIALECTS)}; got {dialect!r}")
    if macro not in ("map_at_k", "average_precision_at_k"):
        raise RankMetricsError(
            f"rank_metrics: macro must be map_at_k or average_precision_at_k; got {macro!r}")
    for argument, value in (("predictions", predictions), ("truth", truth)):
        if not isinstance(value, str) or not value:
            raise RankMetricsError(f"rank_metrics: {argument}: expected a table name; got {value!r}")
    arguments = _metric_arguments(k, user, item, rank, score, relevance, by, truth_by, normalization,
                                  users, duplicates, tie_break, convention)
    render_as, source_dialect = DIALECTS[dialect]
    if con is not None:
        engine = engine_for(con)
        with engine.registered(predictions, "predictions") as predictions_view, \
                engine.registered(truth, "truth") as truth_view:
            tables = dict(predictions_columns=predictions_view.columns, truth_columns=truth_view.columns)
    else:
        tables = {}
    for argument, name in (("predictions", predictions), ("truth", truth)):
        tables[argument] = ".".join(render("quote_identifier", render_as, name=part) for part in name.split("."))
    text = render(macro, render_as, **tables, **arguments)
    if source_dialect is None:
        return text
    import sqlglot

    return sqlglot.transpile(text, read=source_dialect, write=dialect, pretty=True)[0]


# dialect -> (the engine whose macro variants render it, the sqlglot dialect that rendering is
# in when sqlglot must rewrite it, or None when the rendering runs as it is)
DIALECTS = {
    "duckdb": ("duckdb", None),
    "postgres": ("postgres", None),
    "spark": ("spark", None),
    "databricks": ("databricks", "spark"),
    "redshift": ("redshift", "postgres"),
    "snowflake": ("snowflake", "duckdb"),
    "bigquery": ("bigquery", "duckdb"),
    "trino": ("trino", "duckdb"),
}
