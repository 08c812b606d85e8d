"""Turning what a user passes as `predictions` or `truth` into a view on a DuckDB connection.

Every input becomes a temporary view with a name of our own, so the metric SQL only ever names
that view (quoted) and never pastes a user's table name, path or column into SQL text.
"""

from __future__ import annotations

import contextlib
import glob
import os
import uuid
from dataclasses import dataclass

import duckdb

from .errors import RankMetricsError

_FILE_READERS = {".parquet": "read_parquet", ".pq": "read_parquet", ".csv": "read_csv",
                 ".tsv": "read_csv", ".txt": "read_csv"}


@dataclass
class View:
    name: str                 # the temporary view's name, unquoted
    columns: list[dict]       # [{'name': ..., 'data_type': ...}]
    relation: duckdb.DuckDBPyRelation

    @property
    def quoted(self) -> str:
        return '"' + self.name.replace('"', '""') + '"'


def _file_reader(text: str) -> str | None:
    lowered = text.lower()
    for suffix in (".gz", ".zst"):
        lowered = lowered.removesuffix(suffix)
    return _FILE_READERS.get(os.path.splitext(lowered)[1])


def _relation_of(con: duckdb.DuckDBPyConnection, value, argument: str) -> duckdb.DuckDBPyRelation:
    if isinstance(value, duckdb.DuckDBPyRelation):
        return value
    if isinstance(value, (str, os.PathLike)):
        text = os.fspath(value)
        reader = _file_reader(text)
        is_path = isinstance(value, os.PathLike) or reader is not None or os.sep in text or "*" in text
        if not is_path:
            try:
                return con.table(text)
            except duckdb.Error:
                if not os.path.exists(text):
                    raise RankMetricsError(
                        f"rank_metrics: {argument}: {text!r} is neither a table on the connection "
                        "(con) nor an existing file") from None
                is_path = True
        if not glob.glob(text):
            raise RankMetricsError(f"rank_metrics: {argument}: no file matches {text!r}")
        if reader is None:
            raise RankMetricsError(
                f"rank_metrics: {argument}: cannot tell the format of {text!r}; "
                f"expected a name ending in one of {', '.join(sorted(_FILE_READERS))}")
        try:
            return getattr(con, reader)(text)
        except duckdb.Error as error:
            raise RankMetricsError(f"rank_metrics: {argument}: cannot read {text!r}: {error}") from None
    return None


@contextlib.contextmanager
def registered(con: duckdb.DuckDBPyConnection, value, argument: str):
    """`value` as a temporary view on `con`, for the duration of the block."""
    name = f"rank_metrics_{argument}_{uuid.uuid4().hex[:12]}"
    relation = _relation_of(con, value, argument)
    try:
        if relation is not None:
            try:
                con.register(name, relation)
            except duckdb.InvalidInputException:
                # a relation of another connection: bring its rows over
                con.register(name, relation.to_arrow_table())
        else:
            try:
                con.register(name, value)   # pandas, polars, pyarrow and the like
            except (duckdb.Error, TypeError, ValueError):
                raise RankMetricsError(
                    f"rank_metrics: {argument}: expected a pandas or polars DataFrame, a pyarrow "
                    "Table, a DuckDB relation, a Parquet/CSV path or glob, or a table name in con; "
                    f"got {type(value).__name__}") from None
        view = con.table(name)
        columns = [{"name": column, "data_type": str(data_type)}
                   for column, data_type in zip(view.columns, view.types)]
        yield View(name=name, columns=columns, relation=view)
    finally:
        with contextlib.suppress(duckdb.Error):
            con.unregister(name)
