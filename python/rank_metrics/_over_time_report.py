"""The over-time dashboard (SPEC §8): one self-contained HTML page with each metric per period, a
line per group with its confidence band, incomplete periods drawn hollow on a shaded stretch,
and the trend gate's drops circled in red and listed; then the values and the options. The
report of `report(..., over_time=True)` and `rank-metrics report --over-time`."""

from __future__ import annotations

import io

from ._arguments import DEFAULT_METRICS, _as_list
from ._optional import load
from ._report import Report, _PAGE, _escape, _number, _options_table, _percent, _table, save_figure
from ._version import __version__
from .errors import RankMetricsError
from .over_time import evaluate_over_time, no_significant_drop

DROP_COLOUR = "#d62728"


def over_time_report(predictions, truth, k, *, by=None, metrics=None, confidence=None, title="Ranking metrics over time",
                     con=None, period="period", time="label_time", window=7, as_of=None, loaded_at=None, periods=7,
                     alpha=0.01, min_drop=0.0, **options) -> Report:
    values = evaluate_over_time(predictions, truth, k, by=by, metrics=metrics, confidence=confidence, con=con,
                                period=period, time=time, window=window, as_of=as_of, loaded_at=loaded_at, **options)
    drops = no_significant_drop(values, periods=periods, alpha=alpha, min_drop=min_drop, period=period)
    by_columns = _as_list(by)
    buffer = io.StringIO()
    save_figure(_figure(values, drops, period, by_columns), buffer, "svg")
    chart = buffer.getvalue()
    chart = chart[chart.index("<svg"):]   # inline: no XML prologue inside HTML
    incomplete = values.loc[~values["complete"], period]
    parts = [f"<h1>{_escape(title)}</h1>", _headline(drops, period, by_columns, periods, alpha, min_drop),
             "<h2>Each metric per period</h2>",
             f"<p>Lines are the mean over each period's evaluated users, against the labels of its {window}-day window; "
             f"bands the {_escape(_percent(confidence or 0.95))} normal confidence interval. Hollow points on the grey "
             "stretch are periods whose window has not closed"
             + (f" (from {_escape(_day(incomplete.min()))})" if len(incomplete) else "")
             + ": their values can still rise as labels arrive. Red circles are the trend gate's drops.</p>",
             f"<figure>{chart}</figure>",
             "<h2>Drops</h2>", _drops_table(drops, period),
             "<h2>Values</h2>", _values_table(values, period, by_columns),
             "<h2>Options in force</h2>",
             _options_table(options, dict(k=k, by=by_columns, metrics=metrics or DEFAULT_METRICS, period=period,
                                          time=time, window=window, as_of=as_of, loaded_at=loaded_at,
                                          periods=periods, alpha=alpha, min_drop=min_drop,
                                          confidence=0.95 if confidence is None else confidence))]
    return Report(_PAGE.format(title=_escape(title), body="\n".join(parts), version=_escape(__version__)))


def _day(value) -> str:
    return str(value).removesuffix(" 00:00:00")


def _headline(drops, period: str, by: list, periods: int, alpha: float, min_drop: float) -> str:
    rule = (f"the latest complete {period} against the {periods} before it, one-sided at alpha {alpha:g}"
            + (f", drops of at least {min_drop:g}" if min_drop else ""))
    if not len(drops):
        return f"<p class='headline'>No significant drop ({_escape(rule)}).</p>"
    named = []
    for row in drops.to_dict("records"):
        group = " / ".join(str(row[column]) for column in by)
        named.append(f"{group + ' ' if group else ''}{row['metric']}@{row['k']} on {_day(row[period])} "
                     f"({row['value']:.4g} against {row['base']:.4g}, p {row['p_value']:.2g})")
    return (f"<p class='headline' style='color: {DROP_COLOUR}'>{len(drops)} significant "
            f"drop{'s' if len(drops) != 1 else ''}: {_escape('; '.join(named))} ({_escape(rule)}).</p>")


def _figure(values, drops, period: str, by: list):
    if not len(values):
        raise RankMetricsError("rank_metrics: there is nothing to draw: predictions have no period")
    load("matplotlib", "drawing the charts of the over-time report")
    import matplotlib
    import pandas as pd

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    values = values.assign(rm_at=pd.to_datetime(values[period]))
    panels = list(dict.fromkeys(zip(values["metric"], values["k"])))
    columns = min(2, len(panels))
    rows = -(-len(panels) // columns)
    figure = Figure(figsize=(6.0 * columns, 3.4 * rows), layout="constrained")
    groups = [()] if not by else list(dict.fromkeys(map(tuple, values[by].itertuples(index=False, name=None))))
    first_incomplete = values.loc[~values["complete"], "rm_at"].min()
    for index, (metric, k) in enumerate(panels):
        axes = figure.add_subplot(rows, columns, index + 1)
        if not pd.isna(first_incomplete):
            half = pd.Timedelta(hours=12)   # a single open period is a day wide, not a line
            axes.axvspan(first_incomplete - half, values["rm_at"].max() + half, color="#888888", alpha=0.12, linewidth=0)
        for group in groups:
            rows_of = values[(values["metric"] == metric) & (values["k"] == k)]
            for column, value in zip(by, group):
                rows_of = rows_of[rows_of[column] == value]
            rows_of = rows_of.sort_values("rm_at")
            label = " / ".join(map(str, group)).replace("$", r"\$") or "all users"
            line, = axes.plot(rows_of["rm_at"], rows_of["value"].astype(float), label=label)
            colour = line.get_color()
            axes.fill_between(rows_of["rm_at"], rows_of["ci_low"].astype(float), rows_of["ci_high"].astype(float),
                              color=colour, alpha=0.15, linewidth=0)
            done = rows_of[rows_of["complete"]]
            axes.plot(done["rm_at"], done["value"].astype(float), "o", color=colour, markersize=4)
            pending = rows_of[~rows_of["complete"]]
            axes.plot(pending["rm_at"], pending["value"].astype(float), "o", markerfacecolor="white", color=colour,
                      markersize=4)
        failed = drops[(drops["metric"] == metric) & (drops["k"] == k)]
        if len(failed):
            axes.plot(pd.to_datetime(failed[period]), failed["value"].astype(float), "o", markersize=13,
                      markerfacecolor="none", markeredgecolor=DROP_COLOUR, markeredgewidth=2)
            axes.set_title(f"{metric}@{k}: a significant drop", color=DROP_COLOUR)
        else:
            axes.set_title(f"{metric}@{k}")
        axes.set_xlabel(period)
        axes.grid(alpha=0.3)
        axes.tick_params(axis="x", labelrotation=30)
    figure.axes[0].legend(fontsize="small")
    return figure


def _drops_table(drops, period: str) -> str:
    if not len(drops):
        return "<p>None.</p>"
    digits = {"value": 6, "base": 6, "z": 4, "p_value": 3}   # p as 1.2e-08, not 0.000000
    shown = drops.assign(**{period: drops[period].map(_day)},
                         **{name: drops[name].map(lambda value, d=d: _number(value, d)) for name, d in digits.items()})
    return _table(shown, list(drops.columns), "drops")


def _values_table(values, period: str, by: list) -> str:
    shown = values.assign(**{period: values[period].map(_day), "complete": values["complete"].map({True: "yes", False: "no"})},
                          **{name: values[name].map(_number) for name in ("value", "ci_low", "ci_high")})
    return _table(shown, [period, *by, "metric", "k", "value", "ci_low", "ci_high", "n_users", "complete"], "values")
