"""The warnings of a run: columns left out or named as grades, groups without users, nothing met."""

from __future__ import annotations

import contextvars
import functools
import inspect
import math
import shlex
from typing import TYPE_CHECKING, Sequence

from ._arguments import METRICS, _as_list
from ._engines import _quote as engine_quote
from ._render import metric_registry
from ._render import namespace as _render_namespace
from ._render import render
from .errors import RankMetricsError, mention, warn


if TYPE_CHECKING:   # pandas is imported where a result is made, so `import rank_metrics` stays fast
    import pandas as pd


# set while a call with strict=True runs: the warnings of the data's shape are then errors
_STRICT = contextvars.ContextVar("rank_metrics_strict", default=False)


def check_argument_names(function: str, given, taken: list[str]) -> None:
    """An error naming the first of `given` that `function` does not take, and the nearest
    that it does (the macros' rule, as evaluate's message has it)."""
    unknown = sorted(set(given) - set(taken))
    if unknown:
        close = str(_render_namespace()._nearest_name(unknown[0], taken)).strip()
        raise RankMetricsError(f"rank_metrics: {function}: unknown argument {unknown[0]!r}"
                               f"{f' (did you mean {close!r}?)' if close else ''}; its arguments are {', '.join(taken)}")


def takes_strict(function):
    """A public function with the keyword strict=: True makes the warnings of the data's shape
    (a model column left out of by, lists merged, rows repeated, ids with a space in one table,
    a score passed as rank) errors, for pipelines that must not publish such a number."""
    parameters = inspect.signature(function).parameters.values()
    positional = [parameter.name for parameter in parameters
                  if parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD)]
    takes_any_keyword = any(parameter.kind == parameter.VAR_KEYWORD for parameter in parameters)
    keywords_taken = [parameter.name for parameter in parameters if parameter.kind != parameter.VAR_POSITIONAL]

    @functools.wraps(function)
    def with_strict(*arguments, strict=None, **keywords):
        # Python's own TypeErrors name neither the nearest argument nor, for a function made by
        # another (r_precision), the function: these do, as evaluate's messages
        name = with_strict.__name__
        if len(arguments) > len(positional):
            raise RankMetricsError(f"rank_metrics: {name} takes {len(positional)} arguments by position "
                                   f"({', '.join(positional)}), the others by keyword; got {len(arguments)}")
        if not takes_any_keyword:
            check_argument_names(name, keywords, keywords_taken + ["strict"])
        if strict not in (None, True, False):
            raise RankMetricsError(f"rank_metrics: {mention('strict', strict)} must be True or False; got {strict!r}")
        token = _STRICT.set(bool(strict) or _STRICT.get())
        try:
            return function(*arguments, **keywords)
        finally:
            _STRICT.reset(token)

    # help() shows strict among the keywords (before **options, if the function takes them)
    signature = inspect.signature(function)
    parameters = [parameter for parameter in signature.parameters.values() if parameter.name != "strict"]
    where = next((index for index, parameter in enumerate(parameters) if parameter.kind == parameter.VAR_KEYWORD),
                 len(parameters))
    parameters.insert(where, inspect.Parameter("strict", inspect.Parameter.KEYWORD_ONLY, default=None))
    with_strict.__signature__ = signature.replace(parameters=parameters)
    return with_strict


def _shape_warning(message: str) -> None:
    """A warning of the data's shape: a RankMetricsWarning, or under strict=True an error."""
    if _STRICT.get():
        raise RankMetricsError(f"rank_metrics: {message} ({mention('strict', True, text='strict=True')} makes this "
                               "warning an error)")
    warn(message)


def _warn_of_a_model_column_left_out(arguments: dict, engine, tables: dict, predictions_columns: list[dict]) -> bool:
    """A RankMetricsWarning when predictions have a column named as a model's would be (model,
    variant, run, ...: the macro _model_like_column) that no argument reads, and some user's rows
    hold two of its values: each user's lists from every model are then read as one list, and
    the number is no model's (the example data: 0.273 against the models' 0.31-0.34 at k = 12).
    A query (_users_with_two_values) only when such a column exists; a column with one value
    per user (an A/B test's arm) or in all (a TREC run file's run) is no blend. Whether it warned."""
    if _COUNTING_FOR_A_REPORT.get():
        return False
    used = [arguments[name] for name in ("user", "item", "rank", "score")] + list(_as_list(arguments["by"]))
    name = str(_render_namespace()._model_like_column(predictions_columns, used)).strip()
    if not name:
        return False
    (user,) = engine.first_row(render("_users_with_two_values", engine.name, relation=tables["predictions"],
                                      user=engine_quote(arguments["user"], engine.name),
                                      column=engine_quote(name, engine.name)))
    if user is None or (isinstance(user, float) and math.isnan(user)):   # NULL: no user's rows are split
        return False
    _shape_warning(f"predictions have a column {name!r} that by= does not name, and it holds more than one value for a user "
         f"({arguments['user']} {shown_values([user])}): each user's rows of every {name} are read as one "
         f"list, its ties and repeated items settled as one list's are, so the number is no "
         f"{name}'s; pass by={name!r} for a row per {name} (--by {shlex.quote(name)} on the command line)")
    return True


def _warn_of_colliding_rows_and_padded_ids(engine, plan: dict, predictions_columns: list[dict], truth_columns: list[dict],
                                           model_column_named: bool, implied: Sequence[str] = (),
                                           other: str = "truth") -> None:
    """RankMetricsWarnings for shapes of the data that give a plausible wrong number with no
    error: lists merged from several days or models (two rows of one list at one rank that
    differ in a column by= does not name), one row twice (which takes a place and moves the
    items after it down), and ids with a space at the start or end in one table only (which
    never meet). The queries of macros/building_blocks/_data_shape.sql: _shape_summary reads
    predictions once, a row per list, and only when some list's first ranks are not proven to be
    1, 2, 3, … does _shape_collisions read it again. The texts are the macros', which dbt logs too.
    `model_column_named`: the model-column warning has said a merge already; `implied`: the
    grouping columns the caller adds to by, which the advice leaves out (evaluate_over_time's period);
    `other`: the argument in truth's place of the plan (beyond_accuracy's train)."""
    if _COUNTING_FOR_A_REPORT.get() or plan["shapes"]["predictions"]["list"] or plan["shapes"]["truth"]["list"]:
        return
    names = _render_namespace(engine.name)
    unproven, *padded = engine.first_row(render("_shape_summary", engine.name, plan=plan,
                                                predictions_columns=predictions_columns, truth_columns=truth_columns))
    colliding = None if unproven == 0 else engine.first_row(render("_shape_collisions", engine.name, plan=plan,
                                                                   predictions_columns=predictions_columns))
    if colliding is not None and colliding[4] is not None and model_column_named:
        colliding = None
    messages = []
    names._shape_messages(messages, plan, colliding, padded, list(implied), other)
    for message in messages:
        if message.startswith("lists merged:"):
            by = [*(name for name in plan["names"]["by"] if name not in implied), colliding[4]]
            message += f" (--by {' '.join(map(shlex.quote, by))} on the command line)"
        elif message.startswith("tied at every rank:"):
            message += " (--by and --tie-break on the command line)" if other == "truth" else " (--by on the command line)"
        _shape_warning(message)


def _warn_of_a_score_read_as_rank(arguments: dict, engine, tables: dict, predictions_columns: list[dict]) -> None:
    """A RankMetricsWarning when the rank column is fractional and every value of it lies between
    0 and 1 (exclusive): a model's scores or probabilities passed as rank=, which reads every
    list backwards (the lowest score first) and gives a plausible number. A query only for a
    floating point or fractional decimal rank column; whole-number ranks, however sparse, and
    ranks of 1 and more raise nothing."""
    rank = arguments["rank"]
    if rank is None or _COUNTING_FOR_A_REPORT.get():
        return
    names = _render_namespace()
    if not str(names._rank_may_be_a_score(predictions_columns, rank, arguments["score"])).strip():
        return
    least, greatest = engine.first_row(render("_value_range", engine.name, relation=tables["predictions"],
                                              column=engine_quote(rank, engine.name)))
    # the macro's text (dbt logs it too), with the command line's flag
    message = str(names._score_as_rank_message(rank, None if least is None else float(least),
                                               None if greatest is None else float(greatest))).strip()
    if message:
        _shape_warning(f"{message} (--score {shlex.quote(rank)} on the command line)")


def _warn_of_groups_without_users(macro: str, result: pd.DataFrame, arguments: dict, engine, tables: dict, plan,
                                  named_as: str) -> None:
    """A RankMetricsWarning naming the groups of predictions (values of `by`) that no user is
    evaluated for, so they have no row: under users='both', a model whose every list is for a
    user truth lacks; with by columns truth has too (truth_by), a group whose values truth's
    rows never hold. A gate passed them without a word (a new user's trial). Under any other
    rule every group with a list has evaluated users, so predictions are read again only then;
    when no group has a row, _warn_if_nothing_met has said why."""
    by = _as_list(arguments["by"])
    if not by or _COUNTING_FOR_A_REPORT.get():
        return
    users, truth_by = plan()["users"], list(plan()["names"]["truth_by"])
    matched = f" and the same {', '.join(truth_by)}" if truth_by else ""
    if users == "both":
        reason = f"under users='both', a user counts only with a list and a truth row{matched}"
    elif truth_by and users in ("truth", "judged"):
        reason = f"under users={users!r}, the users are truth's, each counted for the {', '.join(truth_by)} of its rows"
    else:
        return
    columns = [engine_quote(name, engine.name) for name in by]
    listed = set(map(tuple, engine.run(render("_distinct_values", engine.name, relation=tables["predictions"],
                                              columns=columns)).itertuples(index=False)))
    present = set(map(tuple, result[by].itertuples(index=False)))
    if macro == "compare":   # whose rows leave out the baseline (in every segment), read by the SQL's rule
        from .comparison import _as_group_value
        baseline = _as_group_value(arguments["baseline"], [group[0] for group in listed])
        present |= {group for group in listed if group[0] == baseline}
    missing = sorted(listed - present, key=repr)
    if not missing:
        return
    label = f"{by[0]} {shown_values([group[0] for group in missing])}" if len(by) == 1 else \
        f"({', '.join(by)}) {shown_values(missing)}"
    one = len(missing) == 1
    warn(f"{named_as}{label} of predictions {'has' if one else 'have'} no evaluated user, so "
         f"{'it has' if one else 'they have'} no row ({reason})")


def shown_values(values: Sequence, most: int = 10) -> str:
    """The first values, text quoted, then … for the rest (as the baseline check in SQL shows them)."""
    shown = [repr(value) if isinstance(value, str) else str(value) for value in values[:most]]
    return ", ".join(shown + ["…"] * (len(values) > most))


# set while a report runs its queries after its metrics' query (_report._said_already): the
# nothing-met and the column warnings of those, the metrics' query has given
_COUNTING_FOR_A_REPORT = contextvars.ContextVar("rank_metrics_counting_for_a_report", default=False)


def _warn_about_columns(arguments: dict, predictions_columns: list[dict], truth_columns: list[dict]) -> None:
    """A RankMetricsWarning when truth has a numeric column named like grades (rel, label,
    rating, column3 of a file without a header, ...: the macro _unread_grade_column, which dbt's
    models warn with too) and no relevance= names it; and when numeric item ids meet
    convention='trec_eval', whose tie-break orders ids as text (_text_order_warning). From the
    column names and types only: no query more."""
    if _COUNTING_FOR_A_REPORT.get():
        return
    used = [arguments[name] for name in ("user", "item", "truth_user", "truth_item")] + list(_as_list(arguments["by"]))
    names = _render_namespace()
    truth_is_list = bool(str(names._truth_is_list(truth_columns, arguments.get("truth_item") or arguments["item"],
                                                  arguments.get("truth_shape"))).strip())
    _warn_of_an_unread_grade(truth_columns, str(names._unread_grade_column(truth_columns, arguments.get("relevance"), used,
                                                                          truth_is_list)), truth_is_list)
    text_order = str(names._text_order_warning(predictions_columns, arguments["item"], arguments["convention"],
                                               arguments["tie_break"])).strip()
    if text_order:
        warn(text_order)
    order = str(names._order_column_warning(arguments["rank"], arguments["score"])).strip()
    if order:   # the fix: the same column under the other flag
        flag, column = ("--score", arguments["rank"]) if arguments["rank"] is not None else ("--rank", arguments["score"])
        warn(f"{order} ({flag} {shlex.quote(column)} on the command line)")


def _warn_of_an_unread_grade(truth_columns: list[dict], name: str, truth_is_list: bool) -> None:
    """The warning of _unread_grade_column's column `name` ('' for none), which relevance= does not name."""
    name = name.strip()
    # the macro's text is stripped of its layout's spaces, and so of a name's own ('relevance ')
    name = next((column["name"] for column in truth_columns if column["name"].strip() == name), name) if name else ""
    if name:
        message = str(_render_namespace()._unread_grade_message(truth_columns, name, repr(name), truth_is_list)).strip()
        hint = "" if truth_is_list else f" (--relevance {shlex.quote(name)} on the command line)"
        warn(f"{message}{hint}")


def _warn_if_nothing_met(macro: str, result: pd.DataFrame, arguments: dict, counts) -> None:
    """A RankMetricsWarning when no evaluated user has a relevant item within the largest k
    (every value 0) or no user is evaluated at all. Both can be right, but most often the two
    tables' ids do not match (123 against '00123', ids offset by a join), a table is empty or no
    grade makes a truth row relevant, and the numbers alone would not say which. Only then is
    `counts` called: one query of the tables' counts (_nothing_met_counts) that says which."""
    if _COUNTING_FOR_A_REPORT.get():
        return
    if macro == "compare":
        # the pairs' means, each model's and the baseline's, as rows of values: all 0 is nothing
        # met (t test rows of difference 0, p 1, and no word why: a user's trial); no paired user
        # at all compare says itself
        paired = result[result["n_users"] > 0] if len(result) else result
        if not len(paired):
            return
        import pandas as pd

        result = pd.concat([paired[["metric", "k", "n_users", "value"]],
                            paired[["metric", "k", "n_users", "baseline_value"]].rename(columns={"baseline_value": "value"})])
    # a partial metric (AUC) has no value for users without a positive or a negative, and 0 for
    # users whose hits all come last: neither says that nothing was met, so its rows are set apart
    partial = {metric for metric, entry in metric_registry().items() if entry.get("partial")}
    import numpy as np

    of_partial = result["metric"].isin(partial).to_numpy() if "metric" in result else \
        np.full(len(result), macro in {METRICS[metric][0] for metric in partial})
    if len(result) and of_partial.all():
        if (result["n_users"] == 0).all():
            largest = max(arguments["k"]) if isinstance(arguments["k"], list) else arguments["k"]
            labels = " and ".join(sorted({metric_registry()[metric]["label"] for metric in partial
                                          if "metric" not in result or metric in set(result["metric"])}))
            warn(f"no evaluated user has both a relevant and a non-relevant item within the first {largest} items of "
                 f"their list, so {labels} has no value for any user")
        return
    result = result[~of_partial]
    nobody = not len(result) or ("n_users" in result and (result["n_users"] == 0).all())
    # a metric that reads the judged non-relevant items (bpref) is 0 wherever one is ranked above
    # each relevant item, hits or not: its 0 says nothing of what was met (a user's trial)
    judged = {metric for metric, entry in metric_registry().items() if entry.get("judged")}
    met = result[~result["metric"].isin(judged)] if "metric" in result else \
        result.iloc[:0] if macro in {METRICS[metric][0] for metric in judged} else result
    value_columns = ["value"] + [column for metric, (_, group, per_user) in METRICS.items() if metric not in partial | judged
                                 for column in (group, per_user)]
    columns = [column for column in value_columns if column in met]
    values = met[columns]
    all_zero = bool(columns) and len(met) > 0 and values.notna().all().all() and (values == 0).all().all()
    # such a metric alone, 0 for every user: no relevant item listed, or a judged non-relevant
    # item above each one (the ids may still not match)
    judged_columns = [column for column in ["value"] + [column for metric in judged for column in METRICS[metric][1:]]
                      if column in result]
    judged_values = result[judged_columns]
    judged_zero = not len(met) and not nobody and bool(judged_columns) and judged_values.notna().all().all() \
        and (judged_values == 0).all().all()
    if not (nobody or all_zero or judged_zero):
        return
    cause = _nothing_met_cause(arguments, *counts(), cut=not judged_zero)
    if nobody:
        warn(f"no user is evaluated, so there is no number; {cause}")
        return
    if judged_zero:
        present = set(result["metric"]) if "metric" in result else {metric for metric in judged if METRICS[metric][0] == macro}
        labels = " and ".join(sorted(metric_registry()[metric]["label"] for metric in judged & present))
        warn(f"every value of {labels} is 0: no evaluated user's list holds a relevant item, or a judged non-relevant item is "
             f"ranked above each one; {cause}")
        return
    largest = max(arguments["k"]) if isinstance(arguments["k"], list) else arguments["k"]
    # a metric of no k alone (R-precision, whose rows have k NULL) reads each user's first R items
    within = "R items (R: the user's relevant items)" if "k" in result and result["k"].isna().all() else f"{largest} items"
    warn(f"no evaluated user has a relevant item within the first {within} of their list, "
         f"so every value is 0; {cause}")


def _nothing_met_cause(arguments: dict, prediction_rows: int, truth_rows: int, relevant_rows: int,
                       shared_users: int, shared_groups: int | None, resolved: dict, shapes: dict, cut: bool = True) -> str:
    """Why nothing was met, from the tables' counts: an empty table, no relevant truth row, no
    user in both tables, users in both but never with the same values of the by columns truth
    also has (truth_by), or (users meet) no predicted item in truth. `resolved` and `shapes`: the
    column names and table shapes as the macros resolve them (the plan's names and shapes)."""
    if not prediction_rows or not truth_rows:
        table = "predictions" if not prediction_rows else "truth"
        # a list-shaped table's rows are its lists' items: it may have rows whose lists are empty
        return f"{table} has no {'items: every list is empty' if shapes[table]['list'] else 'rows'}"
    if not relevant_rows:
        threshold = arguments.get("relevance_threshold")
        below = "0 or less" if threshold is None else f"below relevance_threshold {threshold!r}"
        return f"no row of truth is relevant: every grade is {below}"
    columns = {"user": arguments["user"], "item": arguments["item"]}
    in_truth = {name: arguments.get(f"truth_{name}") or column for name, column in columns.items()}
    names = {name: repr(column) if column == in_truth[name] else f"{column!r} (in truth {in_truth[name]!r})"
             for name, column in columns.items()}
    if not shared_users:
        return (f"no user of predictions is in truth: check that {names['user']} holds the same ids in predictions and "
                "truth (same type and formatting: '00123' is not 123)")
    if shared_groups == 0:
        truth_by = resolved["truth_by"]
        shown = ", ".join(map(repr, truth_by))
        return (f"users meet, but never with the same {shown}: truth has the by column{'s' * (len(truth_by) > 1)} "
                f"{shown} too, and a by column both tables have is matched (each group is evaluated against "
                f"truth's rows of that group); if truth's {shown} {'is' if len(truth_by) == 1 else 'are'} not "
                "the groups of predictions, pass truth_by=[] (on the command line, --truth-by with no column)")
    # with grades, an item of truth may be met and not relevant (a new user read "not in truth")
    among = "in truth" if relevant_rows == truth_rows else \
        f"among truth's relevant rows ({relevant_rows} of its {truth_rows} rows are relevant)"
    if not cut:   # a metric of the whole list (bpref), 0 with items met too
        return (f"users meet: if lists should hold items {among}, check that {names['item']} holds the same ids in "
                "predictions and truth (same type and formatting: '00123' is not 123)")
    return (f"users meet, but none has a predicted item {among} within the cut: if that is unexpected, check that "
            f"{names['item']} holds the same ids in predictions and truth (same type and formatting: '00123' is not 123)")
