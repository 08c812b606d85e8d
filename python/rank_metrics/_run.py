"""One run of a public macro: the inputs made relations on the engine, the plan, the query, the
data checks, the warnings and, with check=, the reference."""

from __future__ import annotations

import contextlib
import functools
import os
import re
from typing import TYPE_CHECKING, Sequence

from ._arguments import _OPTION_VALUES, OPTIONS, _as_list, _check_argument
from ._checks import _check, _hashable
from ._engines import _quote as engine_quote
from ._engines import engine_for
from ._inputs import _module, as_read
from ._render import namespace as _render_namespace
from ._render import render
from ._warnings import (_warn_about_columns, _warn_if_nothing_met, _warn_of_a_model_column_left_out,
                        _warn_of_colliding_rows_and_padded_ids, _warn_of_a_score_read_as_rank,
                        _warn_of_groups_without_users)
from .errors import RankMetricsError, _restored, mention


if TYPE_CHECKING:   # pandas is imported where a result is made, so `import rank_metrics` stays fast
    import pandas as pd


@contextlib.contextmanager
def _prepared(predictions, truth, con, arguments):
    """Both inputs seen by one engine, checked (SPEC §4) before any metric is computed."""
    # the options' values first (the macros' rule): a bad --convention was reported as the
    # missing file beside it (a new user's trial)
    render("_option_values", plan={}, k=arguments["k"], **{name: arguments.get(name) for name in _OPTION_VALUES})
    # the names the arguments give columns, and those columns found by name may have
    named = {value for name in ("user", "item", "rank", "score", "relevance", "truth_user", "truth_item")
             if isinstance(value := arguments.get(name), str)}
    named |= set(_as_list(arguments.get("by"))) | set(_as_list(arguments.get("truth_by")))
    # evaluate_over_time's period, time and load-time columns
    named |= {value for name in ("period", "time", "loaded_at") if isinstance(value := arguments.get(name), str)}
    # and the columns found by name when none is named: rank or score, relevance
    read = named | ({"rank", "score"} if arguments.get("rank") is None and arguments.get("score") is None else set()) \
        | ({"relevance"} if arguments.get("relevance") is None else set())
    predictions, truth = as_read(predictions, "predictions", read, named), as_read(truth, "truth", read, named)
    engine = engine_for(con, predictions, truth)
    # items split from text are text: item columns read from CSV files are then text in both
    # tables, so that ids like 0108775015 or 706016001 compare as the same text on both sides
    separated = arguments.get("item_separator") is not None
    text_predictions = [arguments["item"]] if separated else []
    text_truth = [arguments.get("truth_item") or arguments["item"]] if separated else []
    # trec_eval reads query and document ids as text, and breaks ties by the ids' text: under its
    # convention (and tie-break) the all-digit ids of CSV/TSV/TXT files are read as text too, when
    # both inputs are files (a frame's numbers beside them would no longer match)
    files = all(isinstance(value, (str, os.PathLike)) for value in (predictions, truth))
    if arguments.get("convention") == "trec_eval" and arguments.get("tie_break") is None and files:
        text_predictions = [arguments["user"], arguments["item"]]
        text_truth = [arguments.get("truth_user") or arguments["user"], arguments.get("truth_item") or arguments["item"]]
    with engine.in_use():   # held, and closed after the handler below (which may read the inputs)
        try:
            with contextlib.ExitStack() as stack:
                predictions_ids = [arguments["user"], arguments["item"]]
                truth_ids = [arguments.get("truth_user") or arguments["user"], arguments.get("truth_item") or arguments["item"]]
                predictions_view = stack.enter_context(engine.registered(predictions, "predictions", text_predictions,
                                                                         predictions_ids))
                # and a CSV file's ids are read as text when predictions' ids are text (a Parquet
                # submission of article ids against H&M's transactions, whose ids look like numbers)
                items_as_text = not text_truth and _text_items(predictions_view.columns, arguments["item"], engine.name)
                if items_as_text:
                    text_truth = [arguments.get("truth_item") or arguments["item"]]
                truth_view = stack.enter_context(engine.registered(truth, "truth", text_truth, truth_ids))
                if items_as_text and text_truth[0] in getattr(engine, "read_as_text", {}).get("truth", ()):
                    _require_one_spelling(arguments, engine, predictions_view, truth_view)
                # a CSV file's types are its reader's guess from the values: ids that are text in the
                # other table (guest, 7; not 007) make the file's all-digit ids text too, read again
                for argument, value, columns in _ids_to_read_as_text(arguments, predictions, truth, predictions_view,
                                                                     truth_view, engine):
                    earlier = text_predictions if argument == "predictions" else text_truth
                    view = stack.enter_context(engine.registered(value, argument, [*earlier, *columns],
                                                                 predictions_ids if argument == "predictions" else truth_ids))
                    predictions_view, truth_view = (view, truth_view) if argument == "predictions" else (predictions_view, view)
                tables = dict(predictions=predictions_view.quoted, truth=truth_view.quoted,
                              predictions_columns=predictions_view.columns,
                              truth_columns=truth_view.columns)
                # the texts of the checks that name arguments, with their mentions, which the SQL
                # returns as plain text (no marker goes into SQL)
                fragments: list[str] = []
                first_problem = engine.first_row(render("input_problems", engine.name, **tables, **arguments,
                                                        problem_mentions=fragments))
                if first_problem is not None:
                    argument, problem = first_problem
                    # a pandas NaN in a float column reaches the engine as NULL
                    table = {"predictions": predictions, "truth": truth}.get(problem.split(" ")[0])
                    pandas = _module(table).startswith("pandas") and " with NULL in column " in problem
                    hint = " (missing: pandas shows NULL as NaN or None)" if pandas else ""
                    raise RankMetricsError(f"rank_metrics: {mention(argument, arguments.get(argument))}: "
                                           f"{_restored(problem, fragments)}{hint}")
                yield engine, tables, predictions_view, truth_view
        except RankMetricsError as error:
            raise _of_an_empty_frame(_with_text_found_in_a_number_column(error, engine), predictions, truth) from None


def _ids_to_read_as_text(arguments, predictions, truth, predictions_view, truth_view, engine) -> list:
    """(argument, input, its id columns to read as text) for each input given as a file path whose
    user or item column is a number where the other table's is text of words (guest) and whole
    numbers (7), and nothing else that looks like a number (007, 7.0, which as text would not
    meet the file's 7: that stays an error)."""
    if engine.name != "duckdb":
        return []
    names = _render_namespace(engine.name)

    def family(columns, name):
        found = [column["data_type"] for column in columns if column["name"] == name]
        return str(names._type_family(found[0])).strip() if found else None

    def meets_as_text(view, column):
        (unlike,) = engine.first_row(render("_text_id_kinds", engine.name, relation=view.quoted, column=column))
        return unlike == 0

    found = {"predictions": [], "truth": []}
    for predicted, judged in ((arguments["user"], arguments.get("truth_user") or arguments["user"]),
                              (arguments["item"], arguments.get("truth_item") or arguments["item"])):
        kinds = family(predictions_view.columns, predicted), family(truth_view.columns, judged)
        if kinds == ("number", "string") and isinstance(predictions, (str, os.PathLike)) \
                and meets_as_text(truth_view, judged):
            found["predictions"].append(predicted)
        elif kinds == ("string", "number") and isinstance(truth, (str, os.PathLike)) \
                and meets_as_text(predictions_view, predicted):
            found["truth"].append(judged)
    return [(argument, value, found[argument]) for argument, value in (("predictions", predictions), ("truth", truth))
            if found[argument]]


def _of_an_empty_frame(error: RankMetricsError, predictions, truth) -> RankMetricsError:
    """A type mismatch where one side is a pandas frame without rows, whose columns pandas makes
    float64 or object when built from empty lists: said, with the way to type them (a user's
    empty truth met bigint user ids as a DOUBLE column)."""
    if " in predictions but " not in str(error):
        return error
    empty = [argument for argument, value in (("predictions", predictions), ("truth", truth))
             if _module(value).startswith("pandas") and type(value).__name__ == "DataFrame" and not len(value)]
    if not empty:
        return error
    # in place of the reason a column of ids is floating point when it has rows
    mismatch = error.marked.split(" (ids compared with a floating point column")[0]
    return RankMetricsError(f"{mismatch} ({empty[0]} has no rows, and pandas types the columns of an empty frame as "
                            "float64 or object: give them the other table's types, e.g. "
                            "pd.DataFrame({'user_id': pd.Series(dtype='int64'), …}))")


def _with_text_found_in_a_number_column(error: RankMetricsError, engine) -> RankMetricsError:
    """The error for a rank, score or grade column of a CSV file read as text, with a value that
    made it text: a file's NA (R's missing value, which pandas reads as one) is text to DuckDB's
    reader, where a missing value is an empty field (a new user's trial)."""
    found = re.match(r"rank_metrics: column (.+) \(argument \w+\) of (predictions|truth) is VARCHAR; .* must be a numeric",
                     str(error))
    files = {argument: relation for argument, _, relation in getattr(engine, "_files", [])}
    if not found or found.group(2) not in files:
        return error
    column = engine_quote(found.group(1), engine.name)
    value = files[found.group(2)].filter(f"{column} is not null and try_cast({column} as double) is null") \
        .project(column).limit(1).fetchall()
    if not value:
        return error
    text = value[0][0]
    missing = text in ("NA", "N/A", "null", "NULL", "None")
    why = "; in a CSV file a missing value is an empty field, and NA, as R writes one, is text" if missing else ""
    return RankMetricsError(f"{error.marked} (it holds text such as {text!r}{why})")


def _require_one_spelling(arguments: dict, engine, predictions_view, truth_view) -> None:
    """A truth CSV file's item ids, which its reader took for numbers, read as text to meet
    predictions' text ids, must be spelt as theirs: 010 against 10, or 7.0 against 7, met partly,
    with no word (a new user's trial)."""
    item, truth_item = arguments["item"], arguments.get("truth_item") or arguments["item"]
    found = [column["data_type"] for column in predictions_view.columns if column["name"] == item]
    lists = bool(found) and str(_render_namespace(engine.name)._element_type(found[0])).strip() != found[0]
    pair = engine.first_row(render("_one_number_spelt_two_ways", engine.name, predictions=predictions_view.quoted,
                                   truth=truth_view.quoted, item=item, truth_item=truth_item, items_are_lists=lists))
    if pair is not None:
        where = "" if truth_item == item else f" (truth's column {truth_item})"
        raise RankMetricsError(
            f"rank_metrics: column {item} {mention('item', item, 'argument')}{where}: predictions' item {pair[0]!r} and "
            f"truth's {pair[1]!r} "
            "are one number written two ways, and ids are compared as text (predictions' are text, so the truth "
            "file's are read as text too), where they never meet: write the ids alike in both")


def _text_items(columns: list[dict], item: str, engine: str) -> bool:
    """Whether the item column holds text, or lists of text (the macros' own type families)."""
    names = _render_namespace(engine)
    found = [column["data_type"] for column in columns if column["name"] == item]
    return bool(found) and str(names._type_family(str(names._element_type(found[0])).strip())).strip() == "string"


def _plan_of(arguments: dict, engine: str = "duckdb", **tables) -> dict:
    """The macros' plan of a call: its options as a convention and the defaults resolve them
    and, given the tables, its columns."""
    plan = {}
    tables = tables or {"predictions": "predictions", "truth": "truth"}
    _render_namespace(engine)._plan(plan=plan, k=arguments["k"], **{name: arguments[name] for name in OPTIONS}, **tables)
    return plan




def _run(macro: str, predictions, truth, arguments: dict, con, check: bool | str, groups_named_as: str | None = "") -> pd.DataFrame:
    """The macro's result, checked against the reference with `check`, with the warnings of
    what was read; `groups_named_as`: the prefix of the warning that names the groups of
    predictions without a row ("compare: "), or None for none (a query for an error message)."""
    check = _check_argument(check)
    with _prepared(predictions, truth, con, arguments) as (engine, tables, predictions_view, truth_view):
        _warn_about_columns(arguments, predictions_view.columns, truth_view.columns)
        result = engine.result(render(macro, engine.name, **tables, **arguments))

        @functools.cache
        def plan() -> dict:   # rendered again only when a check or a warning needs it
            return _plan_of(arguments, engine.name, **tables)

        if check:
            _check(result, macro, arguments, plan(), engine, tables, predictions_view, truth_view, check)
        _warn_if_nothing_met(macro, result, arguments, lambda: (
            *engine.first_row(render("_nothing_met_counts", engine.name, **tables, k=arguments["k"],
                                     **{name: arguments[name] for name in (*OPTIONS, "metrics") if name in arguments})),
            dict(plan()["names"]), plan()["shapes"]))
        if groups_named_as is not None and len(result):
            _warn_of_groups_without_users(macro, result, arguments, engine, tables, plan, groups_named_as)
        model_column_named = _warn_of_a_model_column_left_out(arguments, engine, tables, predictions_view.columns)
        _warn_of_colliding_rows_and_padded_ids(engine, plan(), predictions_view.columns, truth_view.columns,
                                               model_column_named)
        # the order column as the plan found it: a column named rank is read as ranks unnamed too
        ordered_by = {name: plan()["names"][name] for name in ("rank", "score")}
        _warn_of_a_score_read_as_rank({**arguments, **ordered_by}, engine, tables, predictions_view.columns)
    return result


def _sorted(frame: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    try:
        return frame.sort_values(list(keys), kind="stable").reset_index(drop=True)
    except TypeError:   # ids that are structs or lists come as dicts and lists: ordered as tuples
        return frame.sort_values(list(keys), kind="stable", key=lambda column: column.map(_hashable)).reset_index(drop=True)
