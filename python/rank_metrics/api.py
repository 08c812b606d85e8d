"""The Python API: the macro SQL, rendered with jinja2, run on DuckDB, PostgreSQL or Spark."""

from __future__ import annotations

import contextlib
import contextvars
import datetime
import functools
import inspect
import math
import numbers
import os
import re
import shlex
from typing import TYPE_CHECKING, Sequence

from . import reference
from ._engines import _name_parts, _quote as engine_quote, engine_for
from ._inputs import _file_reader, _module, as_read
from ._render import namespace as _render_namespace
from ._render import metric_registry, render
from .errors import CheckFailed, RankMetricsError, warn

if TYPE_CHECKING:   # pandas is imported where a result is made, so `import rank_metrics` stays fast
    import pandas as pd


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


# The arguments every metric takes after (predictions, truth, k), with their defaults: one
# list, from which each public function's signature is made. None means the convention's
# value, or the macro's own default.
OPTIONS = {
    "user": "user_id", "item": "item_id", "rank": None, "score": None, "relevance": None,
    "by": None, "truth_by": None, "normalization": None, "users": None, "duplicates": None,
    "tie_break": None, "convention": None, "gain": None, "gain_from": None,
    "precision_denominator": None, "recall_denominator": None, "truth_scope": None,
    "relevance_threshold": None, "truth_user": None, "truth_item": None,
    "predictions_shape": None, "truth_shape": None, "item_separator": None,
}


# the arguments the macro _option_values checks (besides k)
_OPTION_VALUES = ("normalization", "users", "duplicates", "tie_break", "convention", "gain", "gain_from",
                  "precision_denominator", "recall_denominator", "truth_scope", "metrics", "confidence")


def _metric_arguments(k, options: dict, own: Sequence[str] = ()) -> dict:
    """The metric options with their defaults and k, checked; `own`: the calling function's other
    keyword arguments, named in the message for one that is unknown."""
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        known = [*own, *OPTIONS, "con", "check"]
        # the macros' rule, which dbt's message uses too: one suggestion for one misspelling
        close = str(_render_namespace()._nearest_name(unknown[0], known)).strip()
        raise RankMetricsError(f"rank_metrics: unknown argument {unknown[0]!r}"
                               f"{f' (did you mean {close!r}?)' if close else ''}; the arguments are {', '.join(known)}")
    return dict(OPTIONS, **options, k=_k_argument(k))


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
    try:
        engine.hold()   # released by engine.close(), in the finally below
        with contextlib.ExitStack() as stack:
            predictions_view = stack.enter_context(engine.registered(predictions, "predictions", text_predictions))
            # and a CSV file's ids are read as text when predictions' ids are text (a Parquet
            # submission of article ids against H&M's transactions, whose ids look like numbers)
            items_as_text = not text_truth and _text_items(predictions_view.columns, arguments["item"], engine.name)
            if items_as_text:
                text_truth = [arguments.get("truth_item") or arguments["item"]]
            truth_view = stack.enter_context(engine.registered(truth, "truth", text_truth))
            if items_as_text and text_truth[0] in getattr(engine, "read_as_text", {}).get("truth", ()):
                _require_one_spelling(arguments, engine, predictions_view, truth_view)
            # a CSV file's types are its reader's guess from the values: ids that are text in the
            # other table (guest, 7; not 007) make the file's all-digit ids text too, read again
            for argument, value, columns in _ids_to_read_as_text(arguments, predictions, truth, predictions_view,
                                                                 truth_view, engine):
                earlier = text_predictions if argument == "predictions" else text_truth
                view = stack.enter_context(engine.registered(value, argument, [*earlier, *columns]))
                predictions_view, truth_view = (view, truth_view) if argument == "predictions" else (predictions_view, view)
            tables = dict(predictions=predictions_view.quoted, truth=truth_view.quoted,
                          predictions_columns=predictions_view.columns,
                          truth_columns=truth_view.columns)
            first_problem = engine.first_row(render("input_problems", engine.name, **tables, **arguments))
            if first_problem is not None:
                argument, problem = first_problem
                # a pandas NaN in a float column reaches the engine as NULL
                table = {"predictions": predictions, "truth": truth}.get(problem.split(" ")[0])
                pandas = _module(table).startswith("pandas") and " with NULL in column " in problem
                hint = " (missing: pandas shows NULL as NaN or None)" if pandas else ""
                raise RankMetricsError(f"rank_metrics: {argument}: {problem}{hint}")
            yield engine, tables, predictions_view, truth_view
    except RankMetricsError as error:
        raise _of_an_empty_frame(_with_text_found_in_a_number_column(error, engine), predictions, truth) from None
    except CheckFailed:
        raise
    except Exception as error:
        # a file with a bad line deep inside fails only when a query reaches it: say which
        unreadable = engine.unreadable_input(error)
        if unreadable is None:
            raise
        raise unreadable from None
    finally:
        engine.close()


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
    mismatch = str(error).split(" (ids compared with a floating point column")[0]
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
    return RankMetricsError(f"{error} (it holds text such as {text!r}{why})")


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
            f"rank_metrics: column {item} (argument item){where}: predictions' item {pair[0]!r} and truth's {pair[1]!r} "
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


def _long_rows(rows: list[dict], item: str, shape: dict, position: str | None) -> list[dict]:
    """List-shaped rows as the long rows they stand for (the reference's own reading of them):
    one per item, with its place in the list (1, 2, …) under `position`."""
    if not shape["list"]:
        return rows
    long_rows = []
    for row in rows:
        items = row[item]
        if items is None or (isinstance(items, float) and math.isnan(items)):   # NULL, as pandas reads it
            items = []
        elif shape["separator"] is not None:
            items = [one for one in items.split(shape["separator"]) if one != ""]
        for index, one in enumerate(items, start=1):
            long_rows.append({**row, item: one, **({position: index} if position else {})})
    return long_rows


# metric name -> (its public function and macro, its column per group, its column per user),
# from the metric registry (macros/metrics/_registry.sql)
METRICS = {metric: (entry["macro"], entry["group_column"], entry["user_column"])
           for metric, entry in metric_registry().items()}


def _expected_and_got(result: pd.DataFrame, macro: str, columns: dict, user_rows, group_rows):
    """The reference's and the SQL's values, keyed alike, for the rows and columns the macro returns."""
    by, user = columns["by"], columns["user"]
    if macro in ("evaluate_users", "average_precision_at_k"):
        keys = by + [user, "k"]
        values = [column for _, _, column in METRICS.values() if column in result.columns]
        expected = {(*(_key(row[key]) for key in keys), value): row[value] for row in user_rows for value in values}
        got = {(*(_key(_hashable(row[key])) for key in keys), value): row[value]
               for row in result.to_dict("records") for value in values}
        return keys + ["column"], expected, got
    if macro == "evaluate":
        keys = by + ["k", "metric", "column"]
        metrics = list(dict.fromkeys(result["metric"]))
        expected = {}
        for row in group_rows:
            for metric in metrics:
                value, error = row[METRICS[metric][1]], row[METRICS[metric][1] + "_std_error"]
                low, high = reference.confidence_interval(value, error, columns["confidence"])
                for column, want in (("value", value), ("std_error", error), ("ci_low", low), ("ci_high", high)):
                    expected[(*(_key(row[key]) for key in by + ["k"]), metric, column)] = want
                expected[(*(_key(row[key]) for key in by + ["k"]), metric, "n_users")] = row["n_users"]
        got = {(*(_key(row[key]) for key in by + ["k", "metric"]), column): row[column]
               for row in result.to_dict("records") for column in ("value", "std_error", "ci_low", "ci_high", "n_users")}
        return keys, expected, got
    keys = by + ["k", "column"]
    value = next(group for function, group, _ in METRICS.values() if function == macro)
    # a value's key is (by, k), as shown in a message; n_users's (by, k, 'n_users')
    expected = {tuple(_key(row[key]) for key in by + ["k"]): row[value] for row in group_rows}
    expected.update({(*(_key(row[key]) for key in by + ["k"]), "n_users"): row["n_users"] for row in group_rows})
    got = {}
    for row in result.to_dict("records"):
        got[tuple(_key(row[key]) for key in by + ["k"])] = row[value]
        got[(*(_key(row[key]) for key in by + ["k"]), "n_users")] = row["n_users"]
    return keys, expected, got


def _key(value):
    """A value of a key column as both sides are matched on: DuckDB's DATE comes out of a result
    as a pandas Timestamp and out of the reference's rows as a date, which are never equal
    (check=True failed for every by column of dates: the README's daily recipe)."""
    if isinstance(value, datetime.date) and not isinstance(value, datetime.datetime):
        import pandas as pd

        return pd.Timestamp(value)
    if isinstance(value, memoryview):   # PostgreSQL's bytea, as psycopg2 gives it
        return bytes(value)
    return value


class _NullInId:
    """A NULL field of a struct id, or a NULL element of a list id, where Python's sort cannot
    compare None: ordered as the engine orders it, after every value (DuckDB, PostgreSQL) or
    before (Spark), and equal to another such NULL, as the engines' joins find them."""

    def __init__(self, last: bool):
        self.last = last

    def __eq__(self, other):
        return isinstance(other, _NullInId)

    def __hash__(self):
        return hash(_NullInId)

    def __lt__(self, other):
        return not self.last and not isinstance(other, _NullInId)

    def __gt__(self, other):
        return self.last and not isinstance(other, _NullInId)

    def __repr__(self):
        return "None"


def _hashable(value, null_last: bool = True, nested: bool = False):
    """An id as the reference can keep it in a set: a struct (a dict, in its fields' order, so
    that ties break as the engine orders structs) or a list (or numpy array) as a tuple; bytes
    that psycopg2 gives as a memoryview (PostgreSQL's bytea), which orders no other, as bytes."""
    if isinstance(value, dict):
        return tuple(_hashable(one, null_last, True) for one in value.values())
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(one, null_last, True) for one in value)
    if type(value).__name__ == "ndarray":   # a list column as DuckDB's df() gives it
        return tuple(_hashable(one, null_last, True) for one in value.tolist())
    if value is None and nested:
        return _NullInId(null_last)
    if isinstance(value, memoryview):
        return bytes(value)
    return value


# check=True checks every user while the two tables together have at most _CHECK_ALL_ROWS rows
# (the reference holds every row as a dict: 4.9 GB and 51 s at 10M rows); past that, the users
# of a sample of _CHECK_SAMPLE_USERS. check='all' checks every user whatever the size.
_CHECK_ALL_ROWS = 100_000
_CHECK_SAMPLE_USERS = 1_000


def _check_argument(check):
    """check as given: False, True (every user of small tables, else a sample) or 'all'."""
    if check is None or check is False or check is True or check == "all":
        return check or False
    raise RankMetricsError(f"rank_metrics: check must be True, False or 'all'; got {check!r}")


def _means_of_users(per_user: pd.DataFrame, by: list[str], value_columns: list[str]) -> list[dict]:
    """reference.evaluate's group rows made from per-user values (the SQL's, every user's): the
    means the reference takes of them, with their standard errors and n_users."""
    rows = []
    for key, positions in per_user.groupby(by + ["k"], sort=False, dropna=False).indices.items():
        key = key if isinstance(key, tuple) else (key,)
        rows.append({**dict(zip(by + ["k"], key)), **reference.group_means(
            {column: per_user[column].to_numpy()[positions].tolist() for column in value_columns})})
    return rows


def _check(result: pd.DataFrame, macro: str, arguments: dict, plan: dict, engine, tables: dict, predictions_view,
           truth_view, check):
    """Raise CheckFailed unless the reference implementation computes the same rows; `plan`:
    the macros' plan of the call, whose names are the columns as the macro resolves them (rank
    or score, relevance, truth_by) and whose shapes say each table's (long, or list-shaped).

    Past _CHECK_ALL_ROWS rows (unless check='all'), the reference reads the rows of a sample of
    users only (macros/building_blocks/_check_sample.sql) and is compared with the SQL's per-user values of those users;
    an aggregate is then compared with the reference's means of the SQL's per-user values of
    every user (evaluate_users' SQL), which a wrong mean, user count or standard error fails."""
    columns, shapes = dict(plan["names"]), plan["shapes"]
    ks = arguments["k"] if isinstance(arguments["k"], list) else [arguments["k"]]
    options = reference.resolve_options(arguments["convention"], **{
        name: arguments[name] for name in reference.Options.__dataclass_fields__ if name in arguments})
    sample = None
    if check != "all":
        (rows,) = engine.first_row(render("_check_row_count", engine.name, predictions=tables["predictions"],
                                          truth=tables["truth"]))
        if rows > _CHECK_ALL_ROWS:
            sample = render("_check_sample", engine.name, predictions=tables["predictions"], truth=tables["truth"],
                            user=plan["user"], truth_user=plan["truth_user"], size=_CHECK_SAMPLE_USERS)
            sampled = {_key(_hashable(user)) for user in engine.run(sample).iloc[:, 0].tolist()}
    # the reference reads one user and one item column name in both tables: truth's are renamed
    # to them, and list-shaped tables are read as the long rows they stand for
    truth_user, truth_item = columns.pop("truth_user"), columns.pop("truth_item")
    renamed = {truth_user: columns["user"], truth_item: columns["item"]}
    if sample is None:
        truth_given, given_rows = engine.rows(truth_view), engine.rows(predictions_view)
        # a list-shaped table's groups are those of its rows, empty lists included
        groups = [tuple(row[column] for column in columns["by"]) for row in given_rows]
    else:
        truth_given = engine.rows_of_query(render("_check_rows_of_sample", engine.name, relation=tables["truth"],
                                                  user=plan["truth_user"], sample=sample), truth_view.columns)
        given_rows = engine.rows_of_query(render("_check_rows_of_sample", engine.name, relation=tables["predictions"],
                                                 user=plan["user"], sample=sample), predictions_view.columns)
        # every group of predictions, sampled users or not: users='truth' evaluates a user in each
        by = [column for column in predictions_view.columns if column["name"] in columns["by"]]
        groups = [tuple(row[column] for column in columns["by"]) for row in engine.rows_of_query(
            render("_check_groups", engine.name, predictions=tables["predictions"],
                   by=[engine_quote(column["name"], engine.name) for column in by]), by)] if by else []
    truth_rows = [{renamed.get(name, name): value for name, value in row.items()
                   if name not in (columns["user"], columns["item"]) or name in renamed}
                  for row in _long_rows(truth_given, truth_item, shapes["truth"], None)]
    prediction_rows = _long_rows(given_rows, columns["item"], shapes["predictions"], columns["rank"])
    # ids that are structs, maps or lists come as dicts and lists, which a set cannot hold
    for row in (*truth_rows, *prediction_rows):
        for column in (columns["user"], columns["item"]):
            row[column] = _hashable(row[column], null_last=engine.name != "spark")
    user_rows, group_rows = reference.evaluate(prediction_rows, truth_rows, sorted(set(ks)), options=options,
                                               groups=groups, **columns)
    columns["confidence"] = 0.95 if arguments.get("confidence") is None else arguments["confidence"]
    if sample is None:
        _compare(macro, *_expected_and_got(result, macro, columns, user_rows, group_rows), exact=engine.name == "duckdb")
        return
    per_user_macro = macro in ("evaluate_users", "average_precision_at_k")
    if per_user_macro:
        per_user = result
    else:   # the SQL's per-user values of the metrics the aggregate reports
        metrics = arguments["metrics"] if macro == "evaluate" else \
            [name for name, (function, _, _) in METRICS.items() if function == macro]
        per_user = engine.result(render("evaluate_users", engine.name, **tables, **{
            name: value for name, value in arguments.items() if name not in ("confidence", "metrics")}, metrics=metrics))
    in_sample = per_user[columns["user"]].map(lambda user: _key(_hashable(user)) in sampled)
    _compare(macro if per_user_macro else f"{macro}'s per-user values (evaluate_users)", *_expected_and_got(
        per_user[in_sample], "evaluate_users", columns, user_rows, group_rows))
    if not per_user_macro:
        values = [column for _, _, column in METRICS.values() if column in per_user.columns]
        # the means of the SQL's own per-user values: equal ones give that value on every engine
        _compare(macro, *_expected_and_got(result, macro, columns, user_rows,
                                           _means_of_users(per_user, columns["by"], values)), exact=True)


def _compare(macro: str, keys: list, expected: dict, got: dict, exact: bool = False) -> None:
    """Raise CheckFailed where the SQL's rows or values (got) differ from the reference's; with
    `exact`, bit for bit where the reference is exact (DuckDB, whose sums of a user's terms are
    exact too, so a perfect list's NDCG is 1.0 there; PostgreSQL's and Spark's may be an ulp off)."""
    if expected.keys() != got.keys():
        raise CheckFailed(f"rank_metrics: check: the SQL and the reference disagree on the rows: "
                          f"only SQL {sorted(got.keys() - expected.keys(), key=repr)[:5]}, "
                          f"only reference {sorted(expected.keys() - got.keys(), key=repr)[:5]}")
    for key, want in expected.items():
        if want is None and (got[key] is None or math.isnan(got[key])):   # no std_error under 2 users
            continue
        if exact and isinstance(want, reference.Exact) and got[key] != want:   # equal values: their mean, bit for bit
            raise CheckFailed(f"rank_metrics: check: {macro} for {dict(zip(keys, key))}: SQL {got[key]!r}, "
                              f"reference {float(want)!r} exactly (the mean of equal values is that value: docs/definitions.md)")
        if want is None or not math.isclose(got[key], want, rel_tol=1e-9, abs_tol=1e-12):
            raise CheckFailed(f"rank_metrics: check: {macro} for {dict(zip(keys, key))}: "
                              f"SQL {got[key]!r}, reference {want!r}")


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
            *engine.first_row(render("_nothing_met_counts", engine.name, **tables, **arguments)),
            dict(plan()["names"]), plan()["shapes"]))
        if groups_named_as is not None and len(result):
            _warn_of_groups_without_users(macro, result, arguments, engine, tables, plan, groups_named_as)
        _warn_of_a_model_column_left_out(arguments, engine, tables, predictions_view.columns)
    return result


def _warn_of_a_model_column_left_out(arguments: dict, engine, tables: dict, predictions_columns: list[dict]) -> None:
    """A RankMetricsWarning when predictions have a column named as a model's would be (model,
    variant, run, ...: the macro _model_like_column) that no argument reads, and some user's rows
    hold two of its values: each user's lists from every model are then read as one list, and
    the number is no model's (the example data: 0.273 against the models' 0.31-0.34 at k = 12).
    A query (_users_with_two_values) only when such a column exists; a column with one value
    per user (an A/B test's arm) or in all (a TREC run file's run) is no blend."""
    if _COUNTING_FOR_A_REPORT.get():
        return
    used = [arguments[name] for name in ("user", "item", "rank", "score")] + list(_as_list(arguments["by"]))
    name = str(_render_namespace()._model_like_column(predictions_columns, used)).strip()
    if not name:
        return
    (user,) = engine.first_row(render("_users_with_two_values", engine.name, relation=tables["predictions"],
                                      user=engine_quote(arguments["user"], engine.name),
                                      column=engine_quote(name, engine.name)))
    if user is None or (isinstance(user, float) and math.isnan(user)):   # NULL: no user's rows are split
        return
    warn(f"predictions have a column {name!r} that by= does not name, and it holds more than one value for a user "
         f"({arguments['user']} {shown_values([user])}): each user's rows of every {name} are read as one "
         f"list, whose ties and repeated items the tie-break and duplicates rules settle, so the number is no "
         f"{name}'s; pass by={name!r} for a row per {name} (--by {shlex.quote(name)} on the command line)")


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
    if macro == "compare":   # whose rows leave out the baseline, read by the SQL's rule
        from .comparison import _as_group_value
        present.add((_as_group_value(arguments["baseline"], [group[0] for group in listed]),))
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
    name = str(names._unread_grade_column(truth_columns, arguments.get("relevance"), used, truth_is_list)).strip()
    # the macro's text is stripped of its layout's spaces, and so of a name's own ('relevance ')
    name = next((column["name"] for column in truth_columns if column["name"].strip() == name), name) if name else ""
    if name:
        message = str(names._unread_grade_message(truth_columns, name, repr(name), truth_is_list)).strip()
        hint = "" if truth_is_list else f" (--relevance {shlex.quote(name)} on the command line)"
        warn(f"{message}{hint}")
    text_order = str(names._text_order_warning(predictions_columns, arguments["item"], arguments["convention"],
                                               arguments["tie_break"])).strip()
    if text_order:
        warn(text_order)
    order = str(names._order_column_warning(arguments["rank"], arguments["score"])).strip()
    if order:   # the fix: the same column under the other flag
        flag, column = ("--score", arguments["rank"]) if arguments["rank"] is not None else ("--rank", arguments["score"])
        warn(f"{order} ({flag} {shlex.quote(column)} on the command line)")


def _warn_if_nothing_met(macro: str, result: pd.DataFrame, arguments: dict, counts) -> None:
    """A RankMetricsWarning when no evaluated user has a relevant item within the largest k
    (every value 0) or no user is evaluated at all. Both can be right, but most often the two
    tables' ids do not match (123 against '00123', ids offset by a join), a table is empty or no
    grade makes a truth row relevant, and the numbers alone would not say which. Only then is
    `counts` called: one query of the tables' counts (_nothing_met_counts) that says which."""
    if _COUNTING_FOR_A_REPORT.get():
        return
    if macro == "compare":
        return
    nobody = not len(result) or ("n_users" in result and (result["n_users"] == 0).all())
    value_columns = ["value"] + [column for _, group, per_user in METRICS.values() for column in (group, per_user)]
    columns = [column for column in value_columns if column in result]
    values = result[columns]
    all_zero = bool(columns) and values.notna().all().all() and (values == 0).all().all()
    if not (nobody or all_zero):
        return
    cause = _nothing_met_cause(arguments, *counts())
    if nobody:
        warn(f"no user is evaluated, so there is no number; {cause}")
        return
    largest = max(arguments["k"]) if isinstance(arguments["k"], list) else arguments["k"]
    warn(f"no evaluated user has a relevant item within the first {largest} items of their list, "
         f"so every value is 0; {cause}")


def _nothing_met_cause(arguments: dict, prediction_rows: int, truth_rows: int, relevant_rows: int,
                       shared_users: int, shared_groups: int | None, resolved: dict, shapes: dict) -> str:
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
    return (f"users meet, but none has a predicted item {among} within the cut: if that is unexpected, check that "
            f"{names['item']} holds the same ids in predictions and truth (same type and formatting: '00123' is not 123)")


def _as_list(by) -> list:
    return [] if by is None else ([by] if isinstance(by, str) else list(by))


def _sorted(frame: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    try:
        return frame.sort_values(list(keys), kind="stable").reset_index(drop=True)
    except TypeError:   # ids that are structs or lists come as dicts and lists: ordered as tuples
        return frame.sort_values(list(keys), kind="stable", key=lambda column: column.map(_hashable)).reset_index(drop=True)


def _signature(*extra: str) -> inspect.Signature:
    """(predictions, truth, k, *, <OPTIONS>, <extra>, con=None, check=False), for help() and IDEs."""
    keyword = inspect.Parameter.KEYWORD_ONLY
    positional = [inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD)
                  for name in ("predictions", "truth", "k")]
    return inspect.Signature(positional + [
        inspect.Parameter(name, keyword, default=default)
        for name, default in [*OPTIONS.items(), *((name, None) for name in extra), ("con", None), ("check", False)]])


_OPTIONS_DOC = """
    predictions, truth: a pandas or polars DataFrame, a pyarrow Table, a DuckDB relation, a
    Parquet/CSV path or glob, a table name in `con`, or a Spark DataFrame. k: an integer, or any
    iterable of them. The keyword arguments are those of the dbt macros (docs/definitions.md; README
    "Options"); con: a DuckDB or PostgreSQL connection or a SparkSession; check=True also runs
    the reference implementation and raises CheckFailed where the numbers differ: on every user
    up to 100,000 rows in the two tables, past that on a repeatable sample of 1,000 users (and
    an aggregate against the mean of every user's value); check='all' on every user."""


def _metric_at_k_function(metric: str):
    name, group_column, _ = METRICS[metric]

    def metric_at_k(predictions, truth, k, *, con=None, check=False, **options):
        arguments = _metric_arguments(k, options)
        result = _sorted(_run(name, predictions, truth, arguments, con, check), _as_list(arguments["by"]) + ["k"])
        if arguments["by"] is None and _one_k(k):
            return float(result[group_column].iloc[0]) if len(result) else math.nan
        return result

    metric_at_k.__name__ = metric_at_k.__qualname__ = name
    metric_at_k.__signature__ = _signature()
    metric_at_k.__doc__ = f"""{name}: {metric_registry()[metric]["description"]}

    Returns a float when k is one integer and by is None; otherwise a pandas DataFrame with
    columns <by columns>, k, {group_column}, n_users (a row per group and k). A float over an
    empty set of evaluated users is NaN.
    """ + _OPTIONS_DOC
    return metric_at_k


# a metric that needs no more than the hit counts: the cheapest query, where only the users or
# groups a pass evaluates are wanted
HITS_ONLY_METRIC = next(metric for metric, entry in metric_registry().items() if entry["sums"] == ["hits"])

# a function per registered metric: map_at_k, ndcg_at_k, ... (rank_metrics exports each)
METRIC_FUNCTIONS = {function: _metric_at_k_function(metric) for metric, (function, _, _) in METRICS.items()}
globals().update(METRIC_FUNCTIONS)


def _metrics_argument(metrics):
    return [metrics] if isinstance(metrics, str) else (None if metrics is None else list(metrics))


def evaluate(predictions, truth, k, *, metrics=None, confidence=None, con=None, check=False,
             **options) -> pd.DataFrame:
    arguments = dict(_metric_arguments(k, options, own=("metrics", "confidence")), metrics=_metrics_argument(metrics),
                     confidence=confidence)
    result = _run("evaluate", predictions, truth, arguments, con, check)
    order = {metric: index for index, metric in enumerate(METRICS)}
    result = result.assign(rm_order=result["metric"].map(order))
    return _sorted(result, _as_list(arguments["by"]) + ["k", "rm_order"]).drop(columns="rm_order")


def evaluate_users(predictions, truth, k, *, metrics=None, con=None, check=False, **options) -> pd.DataFrame:
    arguments = dict(_metric_arguments(k, options, own=("metrics",)), metrics=_metrics_argument(metrics))
    result = _run("evaluate_users", predictions, truth, arguments, con, check)
    return _sorted(result, _as_list(arguments["by"]) + [arguments["user"], "k"])


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


def sql(predictions, truth, k, *, con=None, dialect=None, macro="map_at_k", metrics=None,
        confidence=None, baseline=None, test=None, correction=None, alpha=None, **options) -> str:
    """The macro SQL for tables named `predictions` and `truth` ('table' or 'schema.table').

    Each dialect is rendered through its own dispatch variants, then its parent's (redshift:
    postgres, databricks: spark), then the default ones, as the dbt package renders it on that
    adapter: what is printed is what dbt runs. The dialect defaults to con's engine's,
    else duckdb. A name's parts may be in SQL's double quotes ('"my.table"', '"Shop"."Recs"').
    With `con` (a connection holding the tables) their columns are looked up, as in map_at_k; without it, name rank or score
    (default: a column `rank`), relevance and truth_by explicitly where they apply.
    confidence is evaluate's; baseline (required), test ('t', the only test SQL has: its p-value
    is the normal approximation), correction and alpha compare's.
    """
    engine = None if con is None else engine_for(con)
    if dialect is None:   # the SQL of the connection's engine, which runs there as printed
        dialect = "duckdb" if engine is None else engine.name
    if isinstance(dialect, str):   # Snowflake, postgresql, sparksql
        dialect = DIALECT_NAMES.get(dialect.lower(), dialect.lower())
    if dialect not in DIALECTS:
        raise RankMetricsError(f"rank_metrics: dialect must be one of {', '.join(DIALECTS)}; got {dialect!r}")
    if macro not in MACROS:
        raise RankMetricsError(f"rank_metrics: macro must be one of {', '.join(MACROS)}; got {macro!r}")
    for argument, value in (("predictions", predictions), ("truth", truth)):
        if not isinstance(value, str) or not value:
            # a frame's repr would fill the message: its type says what was given
            module = type(value).__module__.split(".")[0]
            got = repr(value) if module == "builtins" else f"a {module} {type(value).__name__}"
            raise RankMetricsError(f"rank_metrics: {argument}: expected a table name; got {got} (the SQL printed reads "
                                   f"tables by name; map_at_k and the other metric functions read frames)")
        if _file_reader(value) is not None and os.path.isfile(value):
            # 'preds.csv' would be read as schema "preds", table "csv"
            raise RankMetricsError(f"rank_metrics: {argument}: {value!r} is a file, and the SQL printed reads tables "
                                   f"by name: load it as a table (in DuckDB: create table t as select * from "
                                   f"'{value}') and name the table")
    # the macro says which of these it takes: one given to a macro that does not take it fails
    given = dict(metrics=_metrics_argument(metrics), confidence=confidence, baseline=baseline, test=test,
                 correction=correction, alpha=alpha)
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
