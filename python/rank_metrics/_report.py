"""What people read (SPEC §7): each metric against k per model with its confidence band
(`plot`, a matplotlib figure), and one self-contained HTML file (`report`) with the comparison
table, those charts as inline SVG, who was evaluated and who was left out, and the options in
force. Nothing is fetched from the network. matplotlib is the `plot` extra."""

from __future__ import annotations

import contextlib
import html
import io
import math
import os

from . import _inputs, api, reference, stats
from ._arguments import DEFAULT_METRICS, HITS_ONLY_METRIC, _as_list, _k_argument, _metric_arguments, _metrics_argument
from ._render import metric_registry, render
from ._run import _plan_of, _prepared
from ._optional import load
from ._tables import BETTER, WORSE, cell, zero_floors
from ._version import __version__
from ._warnings import _COUNTING_FOR_A_REPORT, takes_strict
from .beyond import beyond_accuracy
from .comparison import MIN_PAIRED_USERS, RESAMPLES, compare
from .errors import RankMetricsError, mention


@takes_strict
def plot(predictions, truth, k, *, by=None, metrics=None, confidence=None, con=None, **options):
    """Each metric against k, a line per group of `by` with its confidence band (evaluate's
    ci_low..ci_high): a matplotlib Figure, one panel per metric."""
    values = api.evaluate(predictions, truth, k, metrics=metrics, confidence=confidence, con=con, by=by, **options)
    return _figure(values, _as_list(by))


def _figure(values, by: list):
    if not len(values):   # by groups of no rows (empty predictions): a page of empty charts says nothing
        raise RankMetricsError("rank_metrics: there is nothing to draw: no group of by has an evaluated user "
                               "(the warning before this says why)")
    load("matplotlib", "drawing the charts of plot and report")
    import matplotlib

    matplotlib.use("Agg")   # files, never a window
    from matplotlib.figure import Figure

    metrics = list(dict.fromkeys(values["metric"]))
    columns = min(3, len(metrics))
    rows = math.ceil(len(metrics) / columns)
    figure = Figure(figsize=(4.2 * columns, 3.2 * rows), layout="constrained")
    groups = [()] if not by else list(dict.fromkeys(map(tuple, values[by].itertuples(index=False, name=None))))
    ks = sorted(set(values["k"].dropna()))
    for index, metric in enumerate(metrics):
        axes = figure.add_subplot(rows, columns, index + 1)
        if values[values["metric"] == metric]["k"].isna().all():   # a metric of no k (R-precision): a bar per group
            _bars(axes, values[values["metric"] == metric], by, groups)
            axes.set_title(metric)
            continue
        for group in groups:
            rows_of = values[values["metric"] == metric]
            for column, value in zip(by, group):
                rows_of = rows_of[rows_of[column] == value]
            rows_of = rows_of.sort_values("k")
            # a $ in a model's name would start matplotlib's mathtext (a name like $\x$ failed the
            # page); escaped, it is drawn as written
            label = " / ".join(map(str, group)).replace("$", r"\$") or "all users"
            line, = axes.plot(rows_of["k"], rows_of["value"], marker="o", label=label)
            axes.fill_between(rows_of["k"], rows_of["ci_low"].astype(float), rows_of["ci_high"].astype(float),
                              color=line.get_color(), alpha=0.18, linewidth=0)
        axes.set_title(metric)
        axes.set_xlabel("k")
        axes.set_xticks(ks)   # k is a cutoff: 1, 5, 10, never 1.5
        axes.grid(alpha=0.3)
    if any(axes.get_legend_handles_labels()[0] for axes in figure.axes):
        next(axes for axes in figure.axes if axes.get_legend_handles_labels()[0]).legend(fontsize="small")
    return figure


def _bars(axes, rows, by: list, groups: list) -> None:
    """A metric that takes no k: its value per group as a bar, its interval as an error bar."""
    labels, heights, errors = [], [], [[], []]
    for group in groups:
        rows_of = rows
        for column, value in zip(by, group):
            rows_of = rows_of[rows_of[column] == value]
        if not len(rows_of):
            continue
        row = rows_of.iloc[0]
        labels.append(" / ".join(map(str, group)).replace("$", r"\$") or "all users")
        heights.append(row["value"])
        low, high = (row["value"], row["value"]) if stats.missing(row["ci_low"]) else (row["ci_low"], row["ci_high"])
        errors[0].append(row["value"] - low)
        errors[1].append(high - row["value"])
    axes.bar(range(len(labels)), heights, yerr=errors, capsize=3, alpha=0.8)
    axes.set_xticks(range(len(labels)), labels)
    axes.set_xlabel("no k (each user's R)")
    axes.grid(alpha=0.3, axis="y")


@takes_strict
def report(predictions, truth, k, *, by=None, baseline=None, metrics=None, test="t", correction="holm", family="metric_and_k",
           alpha=None, seed=0, confidence=None, title=None, con=None, over_time=False, period="period",
           time="label_time", window=7, as_of=None, loaded_at=None, periods=7, min_drop=0.0, train=None,
           beyond_convention=None, **options) -> str:
    """One self-contained HTML page: the comparison against `baseline` (when given), every metric
    against k per group with its confidence band, the users evaluated and left out, and the
    options in force. Returns the HTML text.

    train: the (user, item) interactions the model learned from; with it the page also shows the
    beyond-accuracy metrics per group and k (beyond_accuracy, under `beyond_convention`), beside
    accuracy: coverage and novelty against MAP is the trade-off a recommender is judged on.

    over_time=True: the dashboard of evaluate_over_time (period, time, window, as_of, loaded_at)
    instead: each metric per period, a line per group with its band, incomplete periods marked,
    and the trend gate's drops (periods, alpha: default 0.01, min_drop) highlighted."""
    if over_time:
        if baseline is not None:
            raise RankMetricsError(f"rank_metrics: report: {mention('baseline', baseline)} is the comparison's; the "
                                   f"over-time page judges each group against its own past (the trend gate)")
        if train is not None:
            raise RankMetricsError(f"rank_metrics: report: {mention('train')} is for the page of one evaluation; the "
                                   "over-time page shows accuracy per period only")
        from ._over_time_report import over_time_report

        return over_time_report(predictions, truth, k, by=by, metrics=metrics, confidence=confidence,
                                title=title or "Ranking metrics over time", con=con, period=period, time=time,
                                window=window, as_of=as_of, loaded_at=loaded_at, periods=periods,
                                alpha=0.01 if alpha is None else alpha, min_drop=min_drop, **options)
    alpha = 0.05 if alpha is None else alpha
    title = "Ranking metrics" if title is None else title
    # the page reads its inputs several times: a one-shot Arrow reader would be empty after the first
    predictions = _inputs.read_once(predictions, "predictions")
    truth = _inputs.read_once(truth, "truth")
    by_columns = _as_list(by)
    if baseline is not None and len(by_columns) != 1:
        # compare takes segments (by's other columns); the page draws one column of models
        raise RankMetricsError(f"rank_metrics: report: {mention('by', by_columns)} must name one column, the one whose "
                               f"values are the models ({mention('baseline', baseline)} is one of them); "
                               f"{'got ' + ', '.join(map(repr, by_columns)) if by_columns else 'got no column'}")
    values = api.evaluate(predictions, truth, k, metrics=metrics, confidence=confidence, con=con, by=by, **options)
    comparison = None
    if baseline is not None:
        with _said_already():
            comparison = compare(predictions, truth, k, by=by, baseline=baseline, metrics=metrics, test=test,
                                 correction=correction, family=family, alpha=alpha, seed=seed, con=con, **options)
    beyond = None
    if train is not None:
        # the lists' columns as the accuracy metrics read them; serendipity counts every listed item
        # relevant (truth's grades, which the page's metrics read, are not its relevance), and items
        # are alike by co-occurrence in train (the page takes no item features)
        columns = {name: options[name] for name in ("user", "item", "rank", "score") if options.get(name) is not None}
        beyond = beyond_accuracy(predictions, _inputs.read_once(train, "train"), k, by=by, convention=beyond_convention,
                                 similarity="cooccurrence", con=con, **columns)
    users = _users(predictions, truth, k, by_columns, con, options)
    inputs = _inputs_table(predictions, truth, k, con, options)
    buffer = io.StringIO()
    save_figure(_figure(values, by_columns), buffer, "svg")
    chart = buffer.getvalue()
    # inline: no XML prologue inside HTML. matplotlib escapes its text (the names drawn, and
    # the comments naming them) as XML; tests/test_report_security.py checks it with hostile names
    chart = chart[chart.index("<svg"):]
    parts = [f"<h1>{_escape(title)}</h1>"]
    if comparison is not None:
        parts += [_headline(comparison, by_columns[0], baseline, test, correction, family),
                  f"<h2>Against {_escape(repr(baseline))}</h2>",
                  _comparison_table(comparison, by_columns[0], alpha, test, correction, family)]
    parts += ["<h2>Each metric against k</h2>",
              f"<p>Lines are the mean over the evaluated users; bands the {_escape(_percent(confidence or 0.95))} "
              "normal confidence interval (mean &plusmn; z&middot;std_error), which can reach below 0 or above 1 "
              "with few users or values near 0 or 1.</p>",
              f"<figure>{chart}</figure>",
              "<h2>Values</h2>", _values_grids(values, by_columns, confidence or 0.95),
              *(_beyond_section(beyond, by_columns) if beyond is not None else []),
              "<h2>Inputs</h2>", inputs,
              "<h2>Users</h2>", _users_table(users, by_columns),
              "<h2>Options in force</h2>",
              _options_table(options, dict(k=_k_argument(k), by=by_columns,
                                           metrics=_metrics_argument(metrics) or DEFAULT_METRICS, baseline=baseline,
                                           test=test, correction=correction, family=family, alpha=alpha, seed=seed,
                                           confidence=0.95 if confidence is None else confidence))]
    return Report(_PAGE.format(title=_escape(title), body="\n".join(parts), version=_escape(__version__)))


class Report(str):
    """The page's HTML text, which a notebook shows as the page (_repr_html_)."""

    def _repr_html_(self) -> str:
        return str(self)


_TESTS_IN_WORDS = {
    "t": "a paired t test (Student's t with n - 1 degrees of freedom on the per-user differences)",
    "permutation": "a permutation test (the share of random sign flips of the per-user differences whose mean is at "
                   "least as far from 0; exact over every flip for up to 13 users)",
    "bootstrap": "a paired bootstrap (the share of resamples of the centred per-user differences whose mean is at "
                 "least as far from 0)",
}


def _headline(comparison, model: str, baseline, test: str, correction: str, family: str) -> str:
    """A sentence per model, first on the page: how it did against the baseline on the first
    metric asked at the largest k, with its adjusted p-value; then which test and correction."""
    resamples = None if test == "t" else RESAMPLES
    floors = zero_floors(comparison, resamples, correction, family)
    first_metric = comparison["metric"].iloc[0]
    # its largest k, or None for a metric of no k (R-precision)
    largest = comparison.loc[comparison["metric"] == first_metric, "k"].max()
    largest = None if stats.missing(largest) else largest
    sentences = []
    for (_, row), floor in zip(comparison.iterrows(), floors):
        k = None if stats.missing(row["k"]) else row["k"]
        if k != largest or row["metric"] != first_metric:
            continue
        if row["n_users"] == 0:
            sentences.append(f"{_escape(row[model])} shares no evaluated user with {_escape(repr(baseline))}")
            continue
        verdict = ("beats" if row["difference"] > 0 else "trails") if row["significant"] else "does not differ significantly from"
        relative = "" if row["relative_difference"] != row["relative_difference"] else \
            f" ({_escape(cell('relative_difference', row['relative_difference']))})"
        at = "" if k is None else f"@{k}"
        sentences.append(f"{_escape(row[model])} {verdict} {_escape(repr(baseline))} on {_escape(row['metric'])}{at} by "
                         f"{_escape(cell('difference', row['difference']))}{relative}, adjusted p = "
                         f"{_escape(cell('p_value_adjusted', row['p_value_adjusted'], floor.get('p_value_adjusted')))} "
                         f"over {row['n_users']} paired users")
    # the few-users warning compare gives, on the page too (SPEC §7: compare and the report warn)
    few = sorted({int(n) for n in comparison["n_users"] if 0 < n < MIN_PAIRED_USERS})
    caution = "" if not few or test == "permutation" else (
        f"<p class='caution'>Only {_escape(', '.join(map(str, few)))} paired users (fewer than {MIN_PAIRED_USERS}): "
        "a p-value over so few users can call a chance difference significant; the permutation test "
        "(test='permutation', --test permutation) is exact up to 13 users and makes no assumption of normality.</p>")
    return (f"<p class='headline'>{'; '.join(sentences)}.</p>{caution}"
            f"<p>Each comparison is {_TESTS_IN_WORDS[test]}, its p-value corrected ({_escape(correction)}) over "
            f"{'each metric at each k, across the models' if family == 'metric_and_k' else 'every row'}.</p>")


def _escape(value) -> str:
    """Any value the page did not write itself (names of models, columns, metrics, options, the
    title) as HTML text: always escaped, quotes too, never passed through because it looks like
    markup already (a name holding '<span' went in raw: an XSS)."""
    return html.escape(str(value), quote=True)


@contextlib.contextmanager
def _said_already():
    """The page's queries after its metrics' query: what they would warn of, that query has said
    (that no user has a hit: at the largest k, not again at the first, nor under rules the user
    did not choose; of the columns: the same words again). Their other warnings stay."""
    said = _COUNTING_FOR_A_REPORT.set(True)
    try:
        yield
    finally:
        _COUNTING_FOR_A_REPORT.reset(said)


def _percent(share: float) -> str:
    """A confidence level as people write it: 95%, 99.9%, 97.5% (not 100% and 98%)."""
    return f"{share * 100:.10g}%"


def _users(predictions, truth, k, by, con, options) -> list[dict]:
    """Per group: users evaluated, and who was left out or added, by the `users` rule's sets:
    users with a list, and users truth judges (any grade)."""
    k = _k_argument(k)   # a numpy integer too (a new user's trial: a raw TypeError)
    first_k = min(k) if isinstance(k, list) else k
    # a group mean's options (the geometric mean, GAUC's weights) mean nothing to a row per user
    chosen = {name: value for name, value in options.items() if name not in ("users", "mean", "auc_weight")}

    def evaluated(users):
        with _said_already():
            try:
                frame = api.evaluate_users(predictions, truth, first_k, metrics=[HITS_ONLY_METRIC], con=con, by=by or None,
                                           users=users, **chosen)
            except RankMetricsError as error:
                # the page's own sets of a table with no rows are empty, not the caller's error (the
                # check names a users rule they never chose: a new user's trial)
                if users == options.get("users") or not str(error).startswith("rank_metrics: users: "):
                    raise
                return set()
        user = options.get("user", "user_id")
        keys = by + [user]
        return {tuple(row) for row in frame[keys].itertuples(index=False, name=None)}

    evaluated_set = evaluated(options.get("users"))
    listed = evaluated("predictions")
    judged = evaluated("judged")
    groups = sorted({key[:-1] for key in evaluated_set | listed}, key=repr)
    rows = []
    for group in groups:
        def of(keys):
            return {key for key in keys if key[:-1] == group}

        mine, lists, judges = of(evaluated_set), of(listed), of(judged)
        rows.append({**dict(zip(by, group)), "evaluated": len(mine), "with a list": len(lists),
                     "evaluated without a list (scored 0)": len(mine - lists),
                     "with a list, not evaluated": len(lists - mine),
                     "judged in truth, not evaluated": len(judges - mine)})
    return rows


def save_figure(figure, target, form: str) -> None:
    """The same file for the same input: no date in an SVG or a PDF, and the SVG's element ids
    hashed with a fixed salt instead of a random one. `form` is svg, pdf or png."""
    import matplotlib

    metadata = {"svg": {"Date": None}, "pdf": {"CreationDate": None}}.get(form)
    with matplotlib.rc_context({"svg.hashsalt": "rank_metrics"}):
        figure.savefig(target, format=form, dpi=120, metadata=metadata)


def _comparison_table(comparison, model: str, alpha: float, test: str, correction: str, family: str) -> str:
    resamples = None if test == "t" else RESAMPLES   # compare's default: the report passes none
    head = [model, "k", "metric", "baseline", "value", "difference", "relative", "p", "p adjusted", "users paired",
            "unpaired (model / baseline)"]
    lines = ["<table class='comparison'><thead><tr>" + "".join(f"<th>{_escape(name)}</th>" for name in head)
             + "</tr></thead><tbody>"]
    for row, floor in zip(comparison.to_dict("records"), zero_floors(comparison, resamples, correction, family)):
        mark = ""
        if row["significant"]:
            mark = BETTER if row["difference"] > 0 else WORSE
        cells = [row[model], "-" if stats.missing(row["k"]) else row["k"], row["metric"], _number(row["baseline_value"]),
                 _number(row["value"]),
                 _number(row["difference"], signed=True),
                 "-" if stats.missing(row["relative_difference"]) else f"{row['relative_difference']:+.1%}",
                 *(cell(name, row[name], floor.get(name)) for name in ("p_value", "p_value_adjusted")),
                 row["n_users"],
                 f"{row['n_only_model']} / {row['n_only_baseline']}"]
        shown = [_escape(text) for text in cells]   # every cell as text, the <0.0001 of a p-value too
        if mark:   # the one piece of markup, ours, added after escaping
            shown[4] += f" <span class='mark'>{mark}</span>"
        lines.append("<tr>" + "".join(f"<td>{text}</td>" for text in shown) + "</tr>")
    lines.append("</tbody></table>")
    lines.append(f"<p>{BETTER} / {WORSE}: significantly better / worse than the baseline (adjusted p &lt; {_escape(alpha)}; "
                 f"test {_escape(test)}, correction {_escape(correction)} over "
                 f"{'each metric at each k, across the models' if family == 'metric_and_k' else 'every row'}). "
                 "Users are paired when both "
                 "models evaluate them; the others are counted, never paired with zeros. The baseline's value and "
                 "the model's are means over the paired users only, so they can differ from the values below "
                 "when the models evaluate different users.</p>")
    return "\n".join(lines)


def _table(frame, columns: list, css: str) -> str:
    lines = [f"<table class='{css}'><thead><tr>" + "".join(f"<th>{_escape(c)}</th>" for c in columns)
             + "</tr></thead><tbody>"]
    for row in frame[columns].to_dict("records"):
        lines.append("<tr>" + "".join(f"<td>{_escape(_number(row[c]) if isinstance(row[c], float) else row[c])}</td>"
                                      for c in columns) + "</tr>")
    lines.append("</tbody></table>")
    return "\n".join(lines)


def _values_grids(values, by: list, confidence: float) -> str:
    """Per group, a grid of each metric (rows) at each k (columns): its mean over the evaluated
    users and, below it, its confidence interval; the users evaluated at each k under it."""
    if not len(values):
        return "<p>No values: no user is evaluated.</p>"
    # each k, then None for the metrics of no k (R-precision), shown in a column of their own
    ks = sorted(values["k"].dropna().unique()) + ([None] if values["k"].isna().any() else [])
    metrics = list(dict.fromkeys(values["metric"]))
    groups = values.groupby(by, sort=False, dropna=False) if by else [((), values)]
    parts = []
    for group, rows in groups:
        group = group if isinstance(group, tuple) else (group,)
        if by:
            parts.append(f"<h3>{_escape(', '.join(f'{name} {value}' for name, value in zip(by, group)))}</h3>")
        found = {(row["metric"], None if stats.missing(row["k"]) else row["k"]): row for row in rows.to_dict("records")}
        lines = ["<table class='values'><thead><tr><th>metric</th>"
                 + "".join("<th>no k</th>" if k is None else f"<th>@{_escape(k)}</th>" for k in ks) + "</tr></thead><tbody>"]
        for metric in metrics:
            cells = []
            for k in ks:
                row = found.get((metric, k))
                if row is None:
                    cells.append("<td>-</td>")
                    continue
                interval = "" if stats.missing(row["ci_low"]) else \
                    f" <br><small>{row['ci_low']:.4f} to {row['ci_high']:.4f}</small>"
                cells.append(f"<td>{_escape(_number(row['value']))}{interval}</td>")
            lines.append(f"<tr><th>{_escape(metric)}</th>" + "".join(cells) + "</tr>")
        users = {k: rows[rows["k"].isna() if k is None else rows["k"] == k]["n_users"].max() for k in ks}
        lines.append("<tr><th>users</th>" + "".join(f"<td>{_escape(users[k])}</td>" for k in ks) + "</tr>")
        lines.append("</tbody></table>")
        parts.append("\n".join(lines))
    parts.append(f"<p>Each cell is the mean over the evaluated users and, below it, the "
                 f"{_escape(_percent(confidence))} confidence interval (none under two users).</p>")
    return "\n".join(parts)


def _beyond_section(rows, by: list) -> list[str]:
    """The beyond-accuracy metrics: per group, a grid of each metric (rows) at each k (columns)."""
    parts = ["<h2>Beyond accuracy</h2>",
             "<p>How much of the catalog the lists use, how popular, novel and varied they are, from the training "
             "interactions (beyond_accuracy; items alike by co-occurrence in train, every listed item relevant to "
             "serendipity).</p>"]
    for key, group in (rows.groupby(by, sort=False) if by else [((), rows)]):
        key = key if isinstance(key, tuple) else (key,)
        if by:
            parts.append("<h3>" + _escape(", ".join(f"{name} {value}" for name, value in zip(by, key))) + "</h3>")
        grid = group.pivot(index="metric", columns="k", values="value").reindex(list(dict.fromkeys(group.metric)))
        grid = grid.reset_index()
        grid.columns = ["metric", *(f"k = {k}" for k in grid.columns[1:])]
        parts.append(_table(grid, list(grid.columns), "values"))
    return parts


def _input_name(value) -> str:
    """An input as the page names it: a file's path, a table's name, or the kind of frame."""
    if isinstance(value, (str, os.PathLike)):
        return os.fspath(value)
    kind = type(value)
    return f"a {kind.__module__.split('.')[0]} {kind.__name__}"


def _inputs_table(predictions, truth, k, con, options) -> str:
    """What was read: each input's name, rows and users, truth's relevant rows, and the order and
    grade columns as the call resolved them (found by name when not named)."""
    arguments = _metric_arguments(k, {name: value for name, value in options.items() if value is not None})
    with _said_already(), _prepared(predictions, truth, con, arguments) as (engine, tables, _, _):
        plan = _plan_of(arguments, engine.name, **tables)
        counts = engine.first_row(render("_input_counts", engine.name, **tables, **arguments))
    prediction_rows, prediction_users, truth_rows, truth_users, relevant_rows = (int(count) for count in counts)
    names = plan["names"]
    order = f"{names['rank']} (ascending: rank 1 first)" if names["rank"] is not None else \
        f"{names['score']} (descending: the highest score first)"
    relevance = names["relevance"] or "none: every truth row is relevant"
    rows = [("predictions", _input_name(predictions), f"{prediction_rows:,} rows, {prediction_users:,} users"),
            ("truth", _input_name(truth), f"{truth_rows:,} rows ({relevant_rows:,} relevant), {truth_users:,} users"),
            ("order", order, ""), ("relevance", relevance, "")]
    return ("<table class='inputs'><tbody>" + "".join(
        f"<tr><th>{_escape(name)}</th><td>{_escape(value)}</td><td>{_escape(detail)}</td></tr>"
        for name, value, detail in rows) + "</tbody></table>")


def _users_table(rows: list[dict], by: list) -> str:
    import pandas as pd

    if not rows:
        return "<p>No users.</p>"
    frame = pd.DataFrame(rows)
    return _table(frame, list(frame.columns), "users") + (
        "<p>Who is evaluated is the <code>users</code> option's rule (see below): users without a list are "
        "scored 0, users left out do not count in the mean.</p>")


# the options only metrics outside the family read, each to the metrics that read it (gain is
# NDCG's too, so always shown)
_FAMILY_OPTIONS = {option for entry in metric_registry().values() if entry["default"] for option in entry["options"]}
_OPTION_OUTSIDE_THE_FAMILY = {option: {metric for metric, entry in metric_registry().items() if option in entry["options"]}
                              for entry in metric_registry().values() if not entry["default"] for option in entry["options"]
                              if option not in _FAMILY_OPTIONS}


def _options_table(options: dict, report_options: dict) -> str:
    """The report's own arguments (k, by, the comparison's, confidence), then the convention's
    options as resolved, then any other option given."""
    known = {name: value for name, value in options.items() if name in reference.Options.__dataclass_fields__}
    resolved = reference.resolve_options(options.get("convention"), **known)
    # the id columns always, given or not, so that the command line (which passes their defaults)
    # and Python write the same page for the same input
    rows = list(report_options.items()) + [("user", options.get("user") or "user_id"),
                                           ("item", options.get("item") or "item_id"),
                                           ("convention", options.get("convention") or "kaggle (the defaults)")]
    # the options of a metric outside the family (RBP's persistence) where that metric is shown
    rows += [(name, getattr(resolved, name)) for name in reference.Options.__dataclass_fields__
             if name not in _OPTION_OUTSIDE_THE_FAMILY or _OPTION_OUTSIDE_THE_FAMILY[name] & set(report_options["metrics"])]
    rows += [(name, value) for name, value in options.items()
             if name not in reference.Options.__dataclass_fields__ and name not in ("convention", "user", "item")
             and value is not None]
    return ("<table class='options'><tbody>" + "".join(
        f"<tr><th>{_escape(name)}</th><td>{_escape(_option(value))}</td></tr>" for name, value in rows)
        + "</tbody></table>")


def _option(value) -> str:
    if value is None or (isinstance(value, (list, tuple)) and not value):
        return "none"
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value))
    return str(value)


def _number(value, digits: int = 6, signed: bool = False) -> str:
    if stats.missing(value):
        return "-"
    if isinstance(value, float):
        return f"{value:+.{digits}f}" if signed else (f"{value:.{digits}g}" if digits < 6 else f"{value:.{digits}f}")
    return str(value)


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }}
table {{ border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.9em; }}
th, td {{ border-bottom: 1px solid #ddd; padding: 0.25em 0.7em; text-align: right; white-space: nowrap; }}
th {{ background: #f4f4f4; }}
td:first-child, th:first-child {{ text-align: left; }}
.mark {{ font-weight: bold; }}
figure {{ margin: 0; }} svg {{ max-width: 100%; height: auto; }}
footer {{ color: #777; font-size: 0.8em; margin-top: 2em; }}
</style></head>
<body>
{body}
<footer>rank_metrics {version}: the SQL of its dbt macros, run where the data lives.</footer>
</body></html>
"""
