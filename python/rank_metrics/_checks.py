"""check=True: the SQL's numbers against the reference implementation's, on every user or on a
repeatable sample of them, raising CheckFailed where they differ."""

from __future__ import annotations

import datetime
import math
from typing import TYPE_CHECKING

from . import reference, stats
from ._arguments import METRICS
from ._engines import _quote as engine_quote
from ._render import render
from .errors import CheckFailed


if TYPE_CHECKING:   # pandas is imported where a result is made, so `import rank_metrics` stays fast
    import pandas as pd


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
                # a row of k has the metrics of a k, the row of k None the cutoff-free ones
                if (_key(row["k"]) is None) != (metric in reference.CUTOFF_FREE):
                    continue
                value, error = row[METRICS[metric][1]], row[METRICS[metric][1] + "_std_error"]
                low, high = reference.confidence_interval(value, error, columns["confidence"], columns["geometric"])
                for column, want in (("value", value), ("std_error", error), ("ci_low", low), ("ci_high", high)):
                    expected[(*(_key(row[key]) for key in by + ["k"]), metric, column)] = want
                expected[(*(_key(row[key]) for key in by + ["k"]), metric, "n_users")] = row[METRICS[metric][1] + "_n_users"]
        got = {(*(_key(row[key]) for key in by + ["k", "metric"]), column): row[column]
               for row in result.to_dict("records") for column in ("value", "std_error", "ci_low", "ci_high", "n_users")}
        return keys, expected, got
    keys = by + ["k", "column"]
    metric, value = next((metric, group) for metric, (function, group, _) in METRICS.items() if function == macro)
    # a cutoff-free metric's rows are those of k None
    group_rows = [row for row in group_rows if (_key(row["k"]) is None) == (metric in reference.CUTOFF_FREE)]
    # a value's key is (by, k), as shown in a message; n_users's (by, k, 'n_users')
    expected = {tuple(_key(row[key]) for key in by + ["k"]): row[value] for row in group_rows}
    expected.update({(*(_key(row[key]) for key in by + ["k"]), "n_users"): row[value + "_n_users"] for row in group_rows})
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
    if stats.missing(value):
        return None   # NULL (a cutoff-free metric's k), as pandas gives it
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


def _means_of_users(per_user: pd.DataFrame, by: list[str], value_columns: list[str], geometric: bool) -> list[dict]:
    """reference.evaluate's group rows made from per-user values (the SQL's, every user's): the
    means the reference takes of them, with their standard errors and n_users."""
    rows = []
    for key, positions in per_user.groupby(by + ["k"], sort=False, dropna=False).indices.items():
        key = key if isinstance(key, tuple) else (key,)
        # a NULL (AUC's user without a positive or a negative) is NaN in pandas: None to the reference
        rows.append({**dict(zip(by + ["k"], key)), **reference.group_means(
            {column: [None if value != value else value for value in per_user[column].to_numpy()[positions].tolist()]
             for column in value_columns}, geometric)})
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
    asked = (arguments.get("metrics") or reference.DEFAULT_METRICS) if macro in ("evaluate", "evaluate_users") else \
        [name for name, (function, _, _) in METRICS.items() if function == macro]
    user_rows, group_rows = reference.evaluate(prediction_rows, truth_rows, sorted(set(ks)), options=options,
                                               groups=groups, metrics=asked, **columns)
    columns["confidence"] = 0.95 if arguments.get("confidence") is None else arguments["confidence"]
    columns["geometric"] = options.mean == "geometric"
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
            name: value for name, value in arguments.items() if name not in ("confidence", "metrics", "mean")}, metrics=metrics))
    in_sample = per_user[columns["user"]].map(lambda user: _key(_hashable(user)) in sampled)
    _compare(macro if per_user_macro else f"{macro}'s per-user values (evaluate_users)", *_expected_and_got(
        per_user[in_sample], "evaluate_users", columns, user_rows, group_rows))
    if not per_user_macro:
        values = [column for _, _, column in METRICS.values() if column in per_user.columns]
        if options.auc_weight == "impressions":
            # GAUC weighs each user by its list length, which the per-user values leave out: its
            # mean is compared with the reference's below _CHECK_ALL_ROWS rows (or check='all') only
            if macro != "evaluate":
                return
            values = [column for column in values if column != METRICS["auc"][2]]
            result = result[result.metric != "auc"]
        # the means of the SQL's own per-user values: equal ones give that value on every engine
        _compare(macro, *_expected_and_got(result, macro, columns, user_rows,
                                           _means_of_users(per_user, columns["by"], values, columns["geometric"])), exact=True)


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
