"""Quality over time (SPEC §8): evaluate_over_time, the macro's metrics per period, and the trend
gate no_significant_drop, which judges the latest complete period against the ones before."""

from __future__ import annotations

import datetime
import math
import numbers
from typing import TYPE_CHECKING

from ._arguments import METRICS, OPTIONS, _as_list, _metric_arguments, _metrics_argument
from ._render import render
from ._run import _plan_of, _prepared
from ._warnings import (_warn_about_columns, _warn_of_a_model_column_left_out, _warn_of_colliding_rows_and_padded_ids,
                        takes_strict)
from .errors import RankMetricsError, mention

if TYPE_CHECKING:
    import pandas as pd

# evaluate_over_time's own arguments, with their defaults (the macro's, macros/metrics/evaluate_over_time.sql)
OVER_TIME = {"period": "period", "time": "label_time", "window": 7, "as_of": None, "loaded_at": None}


@takes_strict
def evaluate_over_time(predictions, truth, k, *, period="period", time="label_time", window=7, as_of=None,
                       loaded_at=None, metrics=None, confidence=None, con=None, **options) -> pd.DataFrame:
    """Every metric per period (SPEC §8): a DataFrame with a row per period, group, metric and k:
    <period>, <by columns>, metric, k, value, std_error, ci_low, ci_high, n_users, complete
    (and labels_loaded_through, with loaded_at).

    predictions carry `period`, the day a list was served (a date or timestamp column); truth
    holds the labels with `time`, when each happened (a timestamp, or a date: its midnight).
    Period d's truth is the labels at start(d) <= time < start(d) + `window` days, and each
    period's lists are evaluated against it as evaluate evaluates them, with the same options
    (by, metrics, confidence, convention, ...). A period is complete when `as_of` (default: the
    latest label time) has reached the end of its window; incomplete periods are rows too, and
    a period or group without an evaluated user yet has n_users 0 and value NaN. Rolling days
    up to weeks: the n_users-weighted mean of the daily values."""
    if "check" in options:   # the reference's over-time rows are the tests', not the call's
        raise RankMetricsError("rank_metrics: evaluate_over_time takes no check= (each period is evaluate's query on "
                               "that period's lists and window of labels: to check one, call evaluate(..., check=True) "
                               "on them)")
    arguments = dict(_metric_arguments(k, options, own=("metrics", "confidence", *OVER_TIME)),
                     metrics=_metrics_argument(metrics), confidence=confidence, period=period, time=time,
                     window=window, as_of=_as_of(as_of), loaded_at=loaded_at)
    with _prepared(predictions, truth, con, arguments) as (engine, tables, predictions_view, truth_view):
        _warn_about_columns(arguments, predictions_view.columns, truth_view.columns)
        result = engine.result(render("evaluate_over_time", engine.name, **tables, **arguments))
        # the shape of each period's lists, as evaluate(by=[period, ...]) would warn of it
        by_period = dict(arguments, by=[period, *_as_list(arguments["by"])])
        by_period = {name: value for name, value in by_period.items() if name in OPTIONS or name == "k"}
        model_column_named = _warn_of_a_model_column_left_out(by_period, engine, tables, predictions_view.columns)
        _warn_of_colliding_rows_and_padded_ids(engine, _plan_of(by_period, engine.name, **tables),
                                               predictions_view.columns, truth_view.columns, model_column_named,
                                               implied=[period])
    result["complete"] = result["complete"].astype(bool)
    order = {metric: index for index, metric in enumerate(METRICS)}
    keys = [period, *_as_list(arguments["by"])]
    result = result.assign(rm_order=result["metric"].map(order))
    result = result.sort_values([*keys, "rm_order", "k"], kind="stable").drop(columns="rm_order")
    return result.reset_index(drop=True)


def _as_of(value):
    """as_of as the macro takes it: None, a date or datetime (a pandas Timestamp is one), or the
    text of one, checked here so that the message names the argument."""
    if value is None or isinstance(value, (datetime.date, datetime.datetime)):
        return value
    if isinstance(value, str):
        try:
            return datetime.datetime.fromisoformat(value.strip())
        except ValueError:
            pass
    raise RankMetricsError(f"rank_metrics: {mention('as_of', value)} must be a date or a time ('2024-03-08', "
                           f"'2024-03-08 00:00:00', a datetime); got {value!r}")


def no_significant_drop(over_time: pd.DataFrame, *, periods: int = 7, alpha: float = 0.01, min_drop: float = 0.0,
                        period: str | None = None) -> pd.DataFrame:
    """The trend gate (SPEC §8) on evaluate_over_time's rows: for each group, metric and k, the
    latest complete period (value x, standard error s) against the `periods` complete periods
    before it (values v_i, standard errors s_i, users n_i): base = sum n_i v_i / sum n_i,
    s_B = sqrt(sum (n_i s_i)^2) / sum n_i, z = (x - base) / sqrt(s^2 + s_B^2). A row for each
    that fails: Phi(z) < alpha and base - x >= min_drop; no row means the gate passes. Periods
    share users, so this treats them as independent: an approximation. Columns: the group,
    metric, k, period (the latest), value, base, z, p_value. `period`: the period column
    (default: the first column)."""
    for name, value, low, high in (("periods", periods, 1, None), ("alpha", alpha, 0, 1), ("min_drop", min_drop, 0, None)):
        whole = name != "periods" or (isinstance(value, numbers.Integral) and not isinstance(value, bool))
        if not (isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value) and whole
                and (value >= low if name != "alpha" else low < value < high)):
            expected = {"periods": "a whole number, 1 or more", "alpha": "a number between 0 and 1",
                        "min_drop": "a number, 0 or more"}[name]
            raise RankMetricsError(f"rank_metrics: {mention(name, value)} must be {expected}; got {value!r}")
    period = period or over_time.columns[0]
    missing = [column for column in (period, "metric", "k", "value", "std_error", "n_users", "complete")
               if column not in over_time.columns]
    if missing:
        raise RankMetricsError(f"rank_metrics: no_significant_drop reads evaluate_over_time's rows; the table has no "
                               f"column {missing[0]!r} (its columns: {', '.join(map(str, over_time.columns))})")
    groups = [column for column in over_time.columns[:list(over_time.columns).index("metric")] if column != period]
    # the gate's one query (macros/building_blocks/_trend_gate.sql), which dbt's test runs too,
    # here on DuckDB over the frame
    import duckdb

    con = duckdb.connect()
    try:
        con.register("rm_over_time", over_time)
        columns = [{"name": str(name), "data_type": ""} for name in over_time.columns]   # the query reads names only
        found = con.execute(render("_trend_drops", relation="rm_over_time", columns=columns, periods=periods,
                                   alpha=alpha, min_drop=min_drop, period=period)).df()
    finally:
        con.close()
    # each period as the frame holds it (DuckDB gives a date back as a Timestamp)
    import pandas as pd

    as_given = {pd.Timestamp(value): value for value in over_time[period].unique()}
    found[period] = [as_given.get(pd.Timestamp(value), value) for value in found[period]]
    order = {metric: index for index, metric in enumerate(METRICS)}   # the registry's order, as evaluate's rows
    found = found.drop(columns="alpha").assign(rm_order=found["metric"].map(order))
    return found.sort_values([*groups, "rm_order", "k"], kind="stable").drop(columns="rm_order").reset_index(drop=True)
