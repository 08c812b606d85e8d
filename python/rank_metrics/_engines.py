"""Where the rendered macro SQL runs: DuckDB (the default), PostgreSQL or Spark.

Each engine turns what a user passes as `predictions` or `truth` into a relation the SQL can
name — a temporary view of our own where the engine has them — and looks up its columns, runs
the SQL into a pandas DataFrame, and reads rows for the reference implementation. No user's
table name, path or column is ever pasted into SQL text: names are quoted by the macros.
"""

from __future__ import annotations

import abc
import contextlib
import decimal
import glob
import os
import re
import signal
import threading
import uuid
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ._inputs import (_ANOTHER_NAME, _FILE_READERS, _file_reader, _folder_of_files, _headers_differ, _is_wide,
                      _literal_pattern, _module, _numpy_scalars_as_numbers, _numpy_text_hint, _parquet_by_content,
                      _refuse_a_repeated_header, _refuse_identical_files, _refuse_one_column, _refuse_special_file,
                      _text_not_utf8, read_once, _warn_of_spaced_values, _wide_integer_hint)
from ._render import metric_registry, render
from .errors import CheckFailed, RankMetricsError, mention

if TYPE_CHECKING:   # imported where a result is made, so `import rank_metrics` stays fast
    import pandas as pd

_COUNT_COLUMNS = ("k", "n_users", "n_relevant", "n_hits")
# Columns that hold a number or NULL: an engine returns a column of only NULLs (one user, no
# standard error) as objects, so they are made float64 (NULL as NaN) on every engine alike.
_VALUE_COLUMNS = ("value", "std_error", "ci_low", "ci_high", "baseline_value", "difference",
                  "relative_difference", "t", "p_value", "p_value_adjusted",
                  *(entry[column] for entry in metric_registry().values() for column in ("group_column", "user_column")))


@dataclass
class View:
    quoted: str               # what the SQL names: a quoted identifier or qualified name
    columns: list[dict]       # [{'name': ..., 'data_type': ...}]
    handle: object = None     # the engine's own object for reading rows


def _temporary_name(argument: str) -> str:
    return f"rank_metrics_{argument}_{uuid.uuid4().hex[:12]}"




def is_spark_dataframe(value) -> bool:
    return _module(value).startswith("pyspark.sql") and hasattr(value, "sparkSession")


def _table_name(value, argument: str, engine: str) -> str:
    """A table name on PostgreSQL, Snowflake or Spark, where the other inputs' engine decides: a frame of
    another library is named with its kind and the way to make it one (a pandas truth beside a
    Spark DataFrame said only 'expected a table name; got DataFrame')."""
    if isinstance(value, str) and not value:
        raise RankMetricsError(f"rank_metrics: {mention(argument)}: expected a table name; got ''")
    if not isinstance(value, str):
        kind = f"{_module(value).split('.')[0]} {type(value).__name__}" if _module(value) else type(value).__name__
        fix = ("make it a Spark DataFrame (spark.createDataFrame) or pass both inputs as the same kind of frame"
               if engine == "spark" else "write it to a table on the server, or use DuckDB (no con) for frames")
        where = {"spark": "Spark", "snowflake": "Snowflake"}.get(engine, "PostgreSQL")
        raise RankMetricsError(f"rank_metrics: {mention(argument)}: the inputs run on {where} "
                               f"(con, or the other input), which reads a table name there; got a {kind}: {fix}")
    return value


def _table_parts(value, argument: str, engine: str, expected: str, most: int) -> list[str]:
    """A table name's parts, at most `most` of them, none empty."""
    parts = _name_parts(_table_name(value, argument, engine))
    if len(parts) > most or not all(parts):
        raise RankMetricsError(f"rank_metrics: {mention(argument)}: expected {expected} (a part in SQL's double quotes may hold "
                               f"a dot); got {value!r}")
    return parts


def _name_parts(name: str) -> list[str]:
    """'schema.table' as its parts, each matched as written. A part may be in SQL's double
    quotes, as a PostgreSQL user writes it ('"Shop"."Recs"', '"a.b"' for a table whose name holds
    a dot; "" is a quote within): the quotes are not part of the name."""
    parts, part, quoted, index = [], "", False, 0
    while index < len(name):
        char = name[index]
        if char == '"' and quoted and name[index + 1:index + 2] == '"':
            part, index = part + '"', index + 2
            continue
        if char == '"':
            quoted = not quoted
        elif char == "." and not quoted:
            parts.append(part)
            part = ""
        else:
            part += char
        index += 1
    return parts + [part]


class Engine(abc.ABC):
    name = "default"
    _lock = None   # the lock of a caller's connection, held from hold() to close()

    def hold(self) -> None:
        """Serialise calls on one connection of the caller's: four threads sharing a DuckDB
        connection got "connection is busy" (blamed on the input) and left views behind; a
        PostgreSQL connection's savepoints would interleave. Held until close(), which the caller
        must reach (a try/finally): a lock left held would stop every other thread."""
        con = getattr(self, "con", None)
        if con is None or (self.name == "duckdb" and self._owned) or self._lock is not None:
            return
        with _LOCKS_LOCK:
            self._lock = _CONNECTION_LOCKS.setdefault(id(con), threading.RLock())
        self._lock.acquire()

    @contextlib.contextmanager
    def in_use(self):
        """One call's use of the engine: held (hold) and closed at the end, and a query's failure
        on an input that cannot be read to its end said as that input's (unreadable_input)."""
        try:
            self.hold()   # released by close(), in the finally below
            yield self
        except (RankMetricsError, CheckFailed):
            raise
        except Exception as error:
            # a file with a bad line deep inside fails only when a query reaches it: say which
            unreadable = self.unreadable_input(error)
            if unreadable is None:
                raise
            raise unreadable from None
        finally:
            self.close()

    @abc.abstractmethod
    def registered(self, value, argument: str, text_columns=(), id_columns=()):
        """A context manager yielding `value` as a View for the duration of the block.
        text_columns: columns to read as text where the engine infers types from a file's rows
        (CSV); tables of a database keep their declared types. id_columns: the user and item
        columns, which a CSV file's reader must not make numbers of when any is not one."""

    @abc.abstractmethod
    def run(self, sql: str) -> pd.DataFrame:
        """The rows of a query."""

    @abc.abstractmethod
    def rows(self, view: View) -> list[dict]:
        """Every row of an input, for the reference implementation."""

    def rows_of_query(self, sql: str, columns: list[dict]) -> list[dict]:
        """rows() of a query whose columns are an input's (check=True's sample of its users)."""
        return self.rows(View(quoted=f"({sql}) as rm_rows", columns=columns, handle=self._handle(sql)))

    def _handle(self, sql: str):
        """The engine's own object for a query's rows, where rows() reads one."""
        return None

    def close(self) -> None:
        self._release()

    def _release(self) -> None:
        if self._lock is not None:
            self._lock, lock = None, self._lock
            lock.release()

    def first_row(self, sql: str) -> tuple | None:
        """The first row of a query, or None when it has none (the data checks' answer)."""
        frame = self.run(sql)
        return tuple(frame.iloc[0]) if len(frame) else None

    def unreadable_input(self, error: Exception) -> RankMetricsError | None:
        """After a query failed with `error`: the error for an input that cannot be read to its
        end, or None. Files and frames are read lazily, so a bad line deep in a file, or a bad text
        in a frame, surfaces only in a query."""
        return None

    def result(self, sql: str) -> pd.DataFrame:
        """The rows of a metric query, with counts as int64 (Int64 where NULL) and values as
        float64 whatever the engine returned."""
        frame = self.run(sql)
        for column in _COUNT_COLUMNS:
            if column in frame.columns:
                counts = frame[column].astype("float64")
                if (counts.dropna() % 1 != 0).any():
                    # n_hits under tie_break='average': the expected number of hits
                    frame[column] = counts
                else:
                    # NULL only where a cutoff-free metric (R-precision) has no k, and no hits at one
                    frame[column] = frame[column].astype("Int64" if frame[column].isna().any() else "int64")
        for column in _VALUE_COLUMNS:
            if column in frame.columns:
                frame[column] = frame[column].astype("float64")
        return frame


class DuckDBEngine(Engine):
    name = "duckdb"

    def __init__(self, con=None):
        import duckdb

        self._duckdb = duckdb
        self._owned = con is None
        self.con = duckdb.connect() if con is None else con
        if con is None:
            # DuckDB draws a progress bar on stdout for queries longer than 2 s, even into a
            # pipe or a file (where it would corrupt a CSV): only where the CLI asks for it
            self.con.execute(f"set enable_progress_bar = {'true' if SHOW_PROGRESS else 'false'}")
        self._files = []   # (argument, path, relation) of each input read from files
        self._frames = []  # (argument, frame) of each pandas frame DuckDB reads as the query runs
        self._wide_ids = False   # whether an input has a column that pandas would make float64 (run)
        self.read_as_text = {}   # argument -> the columns of its CSV file read as text, not as sniffed

    def _relation(self, value, argument: str, text_columns=(), id_columns=()):
        duckdb = self._duckdb
        if isinstance(value, duckdb.DuckDBPyRelation):
            return value
        if not isinstance(value, (str, os.PathLike)):
            return None
        # A string names a table or view of the connection when one has that name; otherwise a
        # file or glob when it looks like one (a known suffix, a folder, a '*'). A pathlib.Path
        # is always a file. DuckDB's own lookup would read 'x.csv' as a file through a table name.
        # A string with a path separator is a path: no catalog lookup (a query of its own, about
        # 2% of MAP@12 on 10M rows, bench/README), since no table is named so unquoted.
        text = os.fspath(value)
        _refuse_special_file(argument, text)
        reader = _file_reader(text)
        in_a_folder = "/" in text or os.sep in text
        if isinstance(value, str) and not in_a_folder and self._in_catalog(text):
            try:
                return self.con.table(text)
            except duckdb.Error as error:   # e.g. in a schema off the search path: DuckDB names it
                raise RankMetricsError(f"rank_metrics: {mention(argument)}: a table or view named {text!r} is on the connection, "
                                       f"but not by that name alone: {_one_line(error)}") from None
        # On a connection of the caller's, a bare name that is no table stays an error even where
        # a folder or a Parquet file of that name exists here: the table was meant (a name off by
        # a letter, a table the --database file lacks). With no connection, names are files.
        # a file whose name tells no format is Parquet when its content says so (read once, here)
        by_content = None if reader else _parquet_by_content(text)
        found_here = self._owned and (os.path.isdir(text) or by_content is not None)
        if isinstance(value, str) and not (reader or in_a_folder or "*" in text or found_here):
            raise RankMetricsError(
                f"rank_metrics: {mention(argument)}: {text!r} is neither a table or view on the connection (con; "
                "--database on the command line) nor a file path (a name ending in " + ", ".join(sorted(_FILE_READERS))
                + f", a folder as {text + '/'!r}, a glob with *, or a pathlib.Path)"
                + (f"; it is a folder here: name it {text + '/'!r} to read it" if os.path.isdir(text)
                   else f"; it is a Parquet file here: name it {os.path.join('.', text)!r} to read it" if by_content
                   else f"; it is a file here, whose name does not tell its format ({_ANOTHER_NAME})" if os.path.isfile(text) else ""))
        # a name that exists, or a pathlib.Path, is that file, whatever its characters: 'p?.csv'
        # would otherwise be a pattern that reads px.csv too, and 'sub [1].csv' one that reads
        # nothing. `source` is what DuckDB reads, its glob characters escaped for such a name.
        if isinstance(value, os.PathLike) or os.path.exists(text):
            if not os.path.exists(text):
                raise RankMetricsError(f"rank_metrics: {mention(argument)}: no file {text!r}")
            matches, source = [text], _literal_pattern(text)
            # a folder is read as one whatever its name says (Spark writes x.csv/ as a folder),
            # and a file whose name tells no format by its content, if it is Parquet
            reader = None if os.path.isdir(text) else reader or by_content
        else:
            matches, source = sorted(glob.glob(text, recursive=True)), text   # ** as DuckDB reads it
            # a glob of Parquet files named without a suffix: they are known by their content
            if reader is None and matches and all(_parquet_by_content(match) for match in matches):
                reader, source = _FILE_READERS[".parquet"], [_literal_pattern(match) for match in matches]
        if not matches:
            raise RankMetricsError(f"rank_metrics: {mention(argument)}: no file matches {text!r}")
        for match in matches:
            _refuse_special_file(argument, match)
        if reader is None and len(matches) == 1 and os.path.isdir(matches[0]):
            text, reader, matches, source = _folder_of_files(argument, matches[0])
        if reader is None:
            raise RankMetricsError(
                f"rank_metrics: {mention(argument)}: cannot tell the format of {text!r}; "
                f"expected a name ending in one of {', '.join(sorted(_FILE_READERS))} ({_ANOTHER_NAME})")
        for match in matches:
            if os.path.isfile(match) and os.path.getsize(match) == 0:
                raise RankMetricsError(f"rank_metrics: {mention(argument)}: cannot read {match!r}: the file is empty")
        _refuse_identical_files(argument, text, matches)
        try:
            reader_name, options = reader
            # Spark's and Hive's folders name a partition column in the path (model=a/part-….parquet)
            if len(matches) > 1 or "*" in text or isinstance(source, list):
                if any("=" in part for match in matches for part in os.path.dirname(match).split(os.sep)):
                    options = dict(options, hive_partitioning=True)
                # several CSV files are matched by their headers' names, as Parquet files are:
                # by position, a file of columns item_id,user_id had its items read as users.
                # Only when the headers differ: DuckDB then sniffs every file (12 s more for 1,000)
                if reader_name == "read_csv" and "delimiter" in options and _headers_differ(matches):
                    options = dict(options, union_by_name=True)
            relation = getattr(self.con, reader_name)(source, **options)
            # DuckDB's sniffer tries , ; | and tabs, not spaces: a .txt of spaces (TREC's run and
            # qrels files) comes out one column, whose name or first value holds the spaces
            if reader_name == "read_csv" and "delimiter" not in options and len(relation.columns) == 1 \
                    and (" " in relation.columns[0] or " " in str(next(iter(relation.limit(1).fetchall()), ("",))[0])):
                options = dict(options, delimiter=" ")
                relation = self.con.read_csv(source, **options)
            # ids such as Kaggle's article ids are text, whatever the sniffer makes of the digits
            retyped = {column: "VARCHAR" for column, data_type in zip(relation.columns, relation.types)
                       if column in text_columns and str(data_type) != "VARCHAR"}
            # the sniffer types a column from its first rows: 30,000 numbers, then 0123, and the
            # column is BIGINT, 0123 read as 123 (meeting truth's 123), 123.7 as 124. An id
            # column of integers is read again as text, and read as text when any value is not
            # the spelling of its number.
            if reader_name == "read_csv":
                retyped.update({column: "VARCHAR" for column in self._ids_not_numbers(source, options, relation, id_columns)})
            if reader_name == "read_csv" and retyped:
                relation = self.con.read_csv(source, **options, dtype=retyped)
                self.read_as_text[argument] = set(retyped)
            _refuse_a_repeated_header(self.con, argument, text, reader_name, matches, options, relation.columns)
            # a .csv file is read with commas: a file of semicolons or tabs comes out one column
            if reader_name == "read_csv" and "delimiter" in options and len(relation.columns) == 1:
                _refuse_one_column(argument, text, relation.columns[0], options["delimiter"])
            # a CSV file's types come from its rows: with none, every column would be text
            first_rows = relation.limit(1).fetchall() if reader_name == "read_csv" else [()]
            if not first_rows:
                raise RankMetricsError(f"rank_metrics: {mention(argument)}: cannot read {text!r}: "
                                       "it has a header line but no rows")
            _warn_of_spaced_values(argument, text, relation.columns, first_rows[0])
        except duckdb.Error as error:
            # a file whose name says CSV but whose bytes are Parquet's is said as such, not as
            # ragged lines (a stranger's trial)
            if reader_name == "read_csv" and all(_parquet_by_content(match) for match in matches):
                raise RankMetricsError(f"rank_metrics: {mention(argument)}: {text!r} is named as a text file but holds Parquet: "
                                       "rename it to end in .parquet") from None
            hint = (" (do its lines have different numbers of fields?)"
                    if "not possible to automatically detect the CSV" in str(error) else "")
            raise RankMetricsError(f"rank_metrics: {mention(argument)}: cannot read {text!r}: {_one_line(error)}{hint}") from None
        self._files.append((argument, text, relation))
        return relation

    def _in_catalog(self, name: str) -> bool:
        """Whether a table or view of this name exists, as DuckDB resolves one (the macro
        relation_in_catalog says how)."""
        (found,) = self.first_row(render("relation_in_catalog", self.name, parts=_name_parts(name), name=name))
        return found > 0

    def unreadable_input(self, error: Exception) -> RankMetricsError | None:
        for argument, text, relation in self._files:
            try:   # a count of every column, so that every value is read and converted
                relation.aggregate(", ".join(f"count({_quote(column, self.name)})" for column in relation.columns)).fetchall()
            except self._duckdb.Error as error:
                return RankMetricsError(f"rank_metrics: {mention(argument)}: cannot read {text!r}: {_one_line(error)}")
        # the frames' text is looked at only for DuckDB's "cannot encode str as UTF-8" (a read of
        # every value: seconds for 10M rows)
        for argument, frame in self._frames if "UTF-8" in str(error) else ():
            found = _text_not_utf8(frame)
            if found:
                column, value = found
                return RankMetricsError(
                    f"rank_metrics: {mention(argument)}: column {str(column)!r} holds text that is no valid UTF-8, such as {value!r} "
                    "(a file name that os.listdir could not decode, say), which DuckDB cannot read: make it valid text, "
                    "e.g. text.encode('utf-8', 'surrogateescape').decode('utf-8', 'backslashreplace')")
        return None

    def _ids_not_numbers(self, source, options: dict, relation, id_columns) -> list[str]:
        """The integer-typed columns among id_columns of a CSV relation that hold a value whose text
        is not its number's spelling ('0123', '123.7', '1e3'), read from every row as text."""
        integers = [column for column, data_type in zip(relation.columns, relation.types)
                    if column in id_columns and str(data_type) in ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT",
                                                                   "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT")]
        if not integers:
            return []
        as_text = self.con.read_csv(source, **options, all_varchar=True)
        quoted = [_quote(column, "duckdb") for column in integers]
        found = as_text.aggregate(", ".join(
            f"bool_or({column} is not null and cast(try_cast(trim({column}) as hugeint) as varchar) is distinct from trim({column}))"
            for column in quoted)).fetchall()[0]
        return [column for column, spelt_otherwise in zip(integers, found) if spelt_otherwise]

    @contextlib.contextmanager
    def registered(self, value, argument: str, text_columns=(), id_columns=()):
        duckdb = self._duckdb
        name = _temporary_name(argument)
        relation = self._relation(value, argument, text_columns, id_columns)
        try:
            if relation is not None:
                try:
                    self.con.register(name, relation)
                except duckdb.InvalidInputException:
                    # a relation of another connection: bring its rows over, as Arrow where
                    # pyarrow is installed (the [arrow] extra), else as pandas (always installed)
                    try:
                        rows = relation.to_arrow_table()
                    except ImportError:
                        rows = relation.df()
                    self.con.register(name, rows)
            else:
                # a stream reads once, and the data checks read before the metric does
                value = read_once(value, argument)
                if _module(value).startswith("pandas") and type(value).__name__ == "DataFrame":
                    value = _numpy_scalars_as_numbers(value)
                    self._frames.append((argument, value))
                try:
                    self.con.register(name, value)   # pandas, polars, pyarrow and the like
                except (duckdb.Error, TypeError, ValueError) as error:
                    if re.search(r"ModuleNotFoundError: .*\bpyarrow\b", str(error)):   # DuckDB reads a polars frame as Arrow data
                        extra = "polars" if _module(value).startswith("polars") else "arrow"
                        raise RankMetricsError(f"rank_metrics: {mention(argument)}: reading a {_module(value).split('.')[0]} "
                                               f"{type(value).__name__} needs the pyarrow package, which is not "
                                               f"installed: pip install 'rank-metrics[{extra}]'") from None
                    if isinstance(error, duckdb.Error) and _module(value).split(".")[0] in ("pandas", "polars", "pyarrow"):
                        # a frame of a kind DuckDB reads, with a column it cannot
                        hint = _numpy_text_hint(value) if "Data type '<U" in str(error) else _wide_integer_hint(value)
                        raise RankMetricsError(f"rank_metrics: {mention(argument)}: DuckDB cannot read this {type(value).__name__}: "
                                               f"{_one_line(error)}{hint}") from None
                    raise RankMetricsError(
                        f"rank_metrics: {mention(argument)}: expected a pandas or polars DataFrame, a pyarrow "
                        "Table, a DuckDB relation, a Parquet/CSV path or glob, or a table name in con; "
                        f"got {type(value).__name__}") from None
            view = self.con.table(name)
            columns = [{"name": column, "data_type": str(data_type)}
                       for column, data_type in zip(view.columns, view.types)]
            self._wide_ids = self._wide_ids or any(_is_wide(column["data_type"]) for column in columns)
            yield View(quoted=_quote(name, self.name), columns=columns, handle=view)
        finally:
            with contextlib.suppress(duckdb.Error):
                self.con.unregister(name)

    def run(self, sql: str) -> pd.DataFrame:
        with _interrupts_as_keyboard_interrupt():
            return self._run(sql)

    def _run(self, sql: str) -> pd.DataFrame:
        # executed, not made a relation first: that binds the query twice (about 2 ms a query)
        if not self._wide_ids:
            return self.con.execute(sql).df()
        # pandas has no 128-bit integer, and DuckDB gives a HUGEINT column (a CSV's ids past 2^63)
        # as float64, where distinct ids become one: those come as Python ints. So do DECIMAL ids
        # (NUMBER(38, 0) exports), as Decimals, as PostgreSQL and Spark give them. They leave
        # DuckDB as text, the other columns as DuckDB gives them (a DATE as datetime64)
        relation = self.con.sql(sql)
        types = dict(zip(relation.columns, map(str, relation.types)))
        wide = [column for column, data_type in types.items()
                if _is_wide(data_type) and column not in _VALUE_COLUMNS + _COUNT_COLUMNS]
        if not wide:
            return relation.df()
        frame = relation.project(render("_columns_with_text", self.name, columns=relation.columns, as_text=wide)).df()
        import pandas as pd

        for column in wide:
            number = int if types[column] in ("HUGEINT", "UHUGEINT") else decimal.Decimal
            frame[column] = pd.Series([None if text is None else number(text) for text in frame[column]], dtype=object)
        return frame

    def _handle(self, sql: str):
        return self.con.sql(sql)

    def first_row(self, sql: str) -> tuple | None:
        # no DataFrame (a few ms a call, on its own); every row fetched, since a result left
        # unfinished blocks the caller's connection (con=) for its next query
        with _interrupts_as_keyboard_interrupt():
            rows = self.con.execute(sql).fetchall()
        return rows[0] if rows else None

    def rows(self, view: View) -> list[dict]:
        # DuckDB gives a TIMESTAMP_NS as a datetime, to the microsecond, where the metric's SQL
        # keeps the nanoseconds: the reference met days 1 ns apart as one. Those columns leave
        # DuckDB as text and come back as pandas Timestamps (equal to the datetimes of the other units)
        fine = [column["name"] for column in view.columns if column["data_type"] == "TIMESTAMP_NS"]
        relation = view.handle.project(render("_columns_with_text", self.name, columns=view.handle.columns,
                                              as_text=fine)) if fine else view.handle
        rows = [dict(zip(view.handle.columns, row)) for row in relation.fetchall()]
        if fine:
            import pandas as pd

            for row in rows:
                for column in fine:
                    row[column] = None if row[column] is None else pd.Timestamp(row[column])
        return rows

    def close(self) -> None:
        if self._owned:
            self.con.close()
        self._release()


class PostgresEngine(Engine):
    """A DB-API connection to PostgreSQL (psycopg2 or psycopg 3); inputs are table names."""

    name = "postgres"

    def __init__(self, con):
        # a closed connection, or one whose transaction an earlier error aborted, would fail at our
        # first query with the driver's own words (a user's trial)
        if getattr(con, "closed", False):
            raise RankMetricsError(f"rank_metrics: {mention('con')}: the PostgreSQL connection is closed; open a new one")
        status = getattr(getattr(con, "info", None), "transaction_status", None)
        if status is not None and int(status) == 3:   # INERROR, in psycopg2 and psycopg 3 alike
            raise RankMetricsError(f"rank_metrics: {mention('con')}: the PostgreSQL connection's transaction failed earlier and is "
                                   "aborted; call con.rollback() first")
        self.con = con

    @contextlib.contextmanager
    def registered(self, value, argument: str, text_columns=(), id_columns=()):
        parts = _table_parts(value, argument, self.name, "'table' or 'schema.table'", 2)
        schema, table = (None, parts[0]) if len(parts) == 1 else parts
        columns = self.run(render("relation_columns", self.name, schema=schema, table=table), argument=argument)
        if columns.empty:
            spelt = self.run(render("relation_in_another_case", self.name, schema=schema, table=table), argument=argument)
            hint = f"; it has {spelt.iloc[0, 0]!r}, in another case" if len(spelt) else ""
            raise RankMetricsError(f"rank_metrics: {mention(argument)}: no table {value!r} on the connection "
                                   f"(names are matched as written, case included){hint}")
        if not columns.readable[0]:
            raise RankMetricsError(f"rank_metrics: {mention(argument)}: the connection's role may not read table {value!r}: "
                                   "it needs SELECT on it")
        # read by its schema and name: the relation found here, whatever the queries' path
        yield View(quoted=".".join(_quote(part, self.name) for part in (columns.table_schema[0], table)),
                   columns=[{"name": row.column_name, "data_type": row.data_type} for row in columns.itertuples()])

    def run(self, sql: str, argument: str | None = None) -> pd.DataFrame:
        """The query's rows, read in a savepoint (in a transaction of its own when the caller has
        none open) that is rolled back after, with the session's settings that change what it
        reads set for it alone, in one statement (the macro query_settings says which and why).
        `argument`: the input a query reads alone, which a refusal of it names."""
        cursor = self.con.cursor()
        # a query that fails must leave the caller's connection usable, and the caller's open
        # transaction as it was: a rollback of the whole transaction threw away their uncommitted
        # rows and temporary tables (a user's trial), so each query runs within a savepoint. Under
        # autocommit a transaction may be open too (psycopg 3's `with con.transaction()`, or a
        # `begin`): the status says so, and a rollback of our own there lost it (a user's trial)
        status = getattr(getattr(self.con, "info", None), "transaction_status", None)
        in_transaction = not getattr(self.con, "autocommit", False) or (status is not None and int(status) != 0)
        import pandas as pd

        placed = False   # whether the savepoint (or transaction) is open, to be rolled back
        try:
            with _interrupts_held():
                cursor.execute("savepoint rank_metrics_query" if in_transaction else "begin")
                placed = True
                cursor.execute(render("query_settings", self.name))
            with _cancelled_on_interrupt(self.con):
                cursor.execute(sql)
            names = [column[0] for column in cursor.description]
            return pd.DataFrame(cursor.fetchall(), columns=names)
        except Exception as error:
            code = getattr(error, "pgcode", None) or getattr(error, "sqlstate", None)   # psycopg2's, psycopg 3's
            # insufficient_privilege: the driver's exception was raised as it was (a user's trial)
            if code == "42501":
                raise RankMetricsError(f"rank_metrics: {mention(argument) + ': ' if argument else ''}PostgreSQL refused to "
                                       f"read {'it' if argument else 'an input'}: {_one_line(error)} (the connection's role "
                                       "needs USAGE on the schema and SELECT on the table)") from None
            # indeterminate_collation: PostgreSQL's message names no column
            if code == "42P22":
                raise RankMetricsError(
                    "rank_metrics: PostgreSQL cannot compare the text ids of predictions and truth: a user, item or by "
                    f"column has one collation in one table and another in the other ({_one_line(error)}): give them one, "
                    "e.g. a view over one table that selects the column COLLATE \"C\"") from None
            raise
        finally:
            # Ctrl-C too: the savepoint stayed open in the caller's transaction; and a rollback
            # to a savepoint released already failed, and aborted the caller's transaction
            if placed and not getattr(self.con, "closed", False):
                with _interrupts_held():
                    if in_transaction:
                        cursor.execute("rollback to savepoint rank_metrics_query")
                        cursor.execute("release savepoint rank_metrics_query")
                    else:
                        cursor.execute("rollback")
            cursor.close()

    def rows(self, view: View) -> list[dict]:
        return self.run(render("relation_rows", self.name, relation=view.quoted, columns=view.columns)).to_dict("records")


class SnowflakeEngine(Engine):
    """A Snowflake connector connection (snowflake.connector.connect; fakesnow's in the tests);
    inputs are table names, as a user's own Snowflake SQL writes them: `recs`, `analytics.recs`,
    a part in double quotes matched exactly. Columns come back named as the dbt package names
    them: a plain upper-case column (CUSTOMER_ID) is customer_id."""

    name = "snowflake"

    def __init__(self, con):
        self.con = con

    def _named(self, stored: str) -> str:
        return render("column_as_named", self.name, stored=stored)

    @contextlib.contextmanager
    def registered(self, value, argument: str, text_columns=(), id_columns=()):
        parts = _table_parts(value, argument, self.name, "'table', 'schema.table' or 'database.schema.table'", 3)
        quoted = ".".join(_quote(part, self.name) for part in parts)
        cursor = self.con.cursor()
        try:   # the columns, from a query that reads no row
            cursor.execute(render("relation_no_rows", self.name, relation=quoted))
            described = cursor.description
        except Exception as error:   # the connector's ProgrammingError: no such table
            raise RankMetricsError(f"rank_metrics: {mention(argument)}: cannot read table {value!r} on the Snowflake connection: "
                                   f"{_one_line(error)}") from None
        finally:
            cursor.close()
        from snowflake.connector.constants import FIELD_ID_TO_NAME

        # the connector's type names as dbt-snowflake spells a column's type (NUMBER(38,0), FLOAT, VARCHAR)
        spelt = {"FIXED": lambda column: f"NUMBER({column[4] or 38},{column[5] or 0})", "REAL": lambda column: "FLOAT",
                 "TEXT": lambda column: "VARCHAR"}
        columns = []
        for column in described:
            kind = FIELD_ID_TO_NAME.get(column[1], "TEXT")
            columns.append({"name": self._named(column[0]), "data_type": spelt.get(kind, lambda _: kind)(column)})
        yield View(quoted=quoted, columns=columns)

    def run(self, sql: str) -> pd.DataFrame:
        import pandas as pd

        cursor = self.con.cursor()
        try:
            cursor.execute(sql)
            names = [self._named(column[0]) for column in cursor.description]
            return pd.DataFrame(cursor.fetchall(), columns=names)
        finally:
            cursor.close()

    def rows(self, view: View) -> list[dict]:
        return self.run(render("relation_rows", self.name, relation=view.quoted, columns=None)).to_dict("records")


class SparkEngine(Engine):
    """A SparkSession; inputs are Spark DataFrames or table names, seen through temp views."""

    name = "spark"

    def __init__(self, session):
        self.session = session

    @contextlib.contextmanager
    def registered(self, value, argument: str, text_columns=(), id_columns=()):
        if is_spark_dataframe(value):
            # a view is made in the DataFrame's own session: from another one the SQL would not
            # find it (a raw TABLE_OR_VIEW_NOT_FOUND), nor could it be dropped afterwards
            if not _same_session(value.sparkSession, self.session):
                raise RankMetricsError(f"rank_metrics: {mention(argument)}: this Spark DataFrame belongs to another SparkSession "
                                       "than the other input (or con): make both inputs in one session")
            frame = value
        else:
            name = _table_name(value, argument, self.name)
            try:
                frame = self.session.table(name)
            except Exception:
                raise RankMetricsError(f"rank_metrics: {mention(argument)}: no table {name!r} in the Spark session") from None
        # Catalog.dropTempView also uncaches every cached DataFrame whose plan the view holds, so
        # it would uncache a caller's cached input. Classic Spark drops through the session
        # catalog, which leaves the cache alone; Spark Connect has no other drop (nor does its
        # spark.sql(..., df=df), which uncaches too), so there a cached input keeps its view, one
        # per DataFrame, reused by the calls after.
        kept = self._connect_view_of_cached(frame)
        view_name = kept or _temporary_name(argument)
        if not kept:
            frame.createOrReplaceTempView(view_name)
        try:
            yield View(quoted=_quote(view_name, self.name), columns=_spark_columns(frame), handle=frame)
        finally:
            if not kept:
                self._drop_view(view_name)

    def _connect_view_of_cached(self, frame) -> str | None:
        """On Spark Connect, the view kept for a cached DataFrame (made at its first use); else None."""
        if hasattr(self.session, "_jsparkSession"):
            return None
        if frame in _KEPT_VIEWS:   # kept at an earlier call: storageLevel is a round trip to the server
            return _KEPT_VIEWS[frame]
        if not frame.storageLevel.useMemory and not frame.storageLevel.useDisk:
            return None
        _KEPT_VIEWS[frame] = _temporary_name("cached")
        frame.createOrReplaceTempView(_KEPT_VIEWS[frame])
        return _KEPT_VIEWS[frame]

    def _drop_view(self, name: str) -> None:
        """Drop our view and nothing else (classic Spark: the session catalog's drop, which
        uncaches nothing)."""
        try:
            self.session._jsparkSession.sessionState().catalog().dropTempView(name)
        except AttributeError:
            self.session.catalog.dropTempView(name)

    def run(self, sql: str) -> pd.DataFrame:
        frame = self.session.sql(sql)
        import pandas as pd

        return pd.DataFrame([tuple(row) for row in frame.collect()], columns=frame.columns)

    def rows(self, view: View) -> list[dict]:
        return [row.asDict() for row in view.handle.collect()]

    def _handle(self, sql: str):
        return self.session.sql(sql)


def _spark_columns(frame) -> list[dict]:
    """A DataFrame's columns (name, data_type), a table's char(n) or varchar(n) as declared: Spark
    reads char(5) as a string padded with spaces, so 'b' met no 'b' of a string column, and
    MAP@3 was 0 where the ids were the same (a user's trial); the type, as declared, is refused
    beside a string, as PostgreSQL's is."""
    declared = {field.name: field.metadata.get("__CHAR_VARCHAR_TYPE_STRING") for field in frame.schema.fields}
    return [{"name": column, "data_type": declared.get(column) or data_type} for column, data_type in frame.dtypes]


# Spark Connect: the temporary view of each cached input DataFrame, kept while the DataFrame lives
_KEPT_VIEWS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()

# set by the CLI when its output is a terminal: the connections rank_metrics opens itself show
# DuckDB's progress bar (never in pipes, files or CI logs; a connection a caller passes keeps
# its own setting)
SHOW_PROGRESS = False

# id(connection) -> its lock, for Engine.hold (a connection's id reused after it is gone only
# shares a lock that nobody holds)
_CONNECTION_LOCKS: dict = {}
_LOCKS_LOCK = threading.Lock()


@contextlib.contextmanager
def _interrupts_as_keyboard_interrupt():
    """DuckDB stops a query at Ctrl-C with a RuntimeError ("Query interrupted") or, interrupted
    by con.interrupt(), its InterruptException: raised on as the KeyboardInterrupt it is, so that no handler reads it
    as bad input, and a command line exits 130."""
    try:
        yield
    except Exception as error:
        if type(error).__name__ == "InterruptException" or (isinstance(error, RuntimeError) and "Query interrupted" in str(error)):
            raise KeyboardInterrupt from None
        raise


@contextlib.contextmanager
def _cancelled_on_interrupt(con):
    """A query of psycopg2's that Ctrl-C cancels on the server at once: psycopg2 waits for the
    server in C, where Python sees the interrupt only when the query ends (about 10 s later on
    the issue's data). A select() wait, set for the query, cancels it and gets the server's
    "canceling statement due to user request", raised here as the KeyboardInterrupt it was; and
    a Ctrl-C that came as a query was ending, too late to cancel it, is raised when it ends
    (psycopg2's own wait_select let it be lost, and the call ran on). (psycopg 3 cancels by itself.)"""
    if not _module(con).startswith("psycopg2"):
        yield
        return
    import psycopg2.extensions

    earlier = psycopg2.extensions.get_wait_callback()
    ours = earlier is None and threading.current_thread() is threading.main_thread()
    interrupted: list[bool] = []
    try:
        if ours:   # (set within the try, so that a Ctrl-C just after it cannot leave it set)
            psycopg2.extensions.set_wait_callback(lambda connection: _wait_for_the_server(connection, interrupted))
        yield
    except psycopg2.extensions.QueryCanceledError as error:
        if "user request" in str(error) and interrupted:
            raise KeyboardInterrupt from None
        raise
    finally:
        if ours:
            psycopg2.extensions.set_wait_callback(None)
    if interrupted:
        raise KeyboardInterrupt


@contextlib.contextmanager
def _interrupts_held():
    """Ctrl-C held back for the block and raised after it, in the main thread under a handler of
    Python's or the caller's: a statement and the note of what it did (a savepoint made or
    released) happen together, or neither. Python raises a pending Ctrl-C as a call returns, which
    fell between the two."""
    handler = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or not callable(handler):
        yield
        return
    caught: list[int] = []
    signal.signal(signal.SIGINT, lambda number, frame: caught.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, handler)
    if caught:
        handler(signal.SIGINT, None)


def _wait_for_the_server(connection, interrupted: list) -> None:
    """psycopg2's wait callback: select() on the connection until its query ends; a Ctrl-C
    asks the server to cancel the query and is noted in `interrupted`."""
    import select

    import psycopg2.extensions

    while True:
        try:
            state = connection.poll()
            if state == psycopg2.extensions.POLL_OK:
                return
            if state == psycopg2.extensions.POLL_READ:
                select.select([connection.fileno()], [], [])
            elif state == psycopg2.extensions.POLL_WRITE:
                select.select([], [connection.fileno()], [])
            else:
                raise psycopg2.OperationalError(f"unexpected state from poll(): {state}")
        except KeyboardInterrupt:
            connection.cancel()
            interrupted.append(True)


def _same_session(one, other) -> bool:
    """Whether two SparkSessions are one: the same object, or wrappers of one JVM session."""
    if one is other:
        return True
    ours, theirs = getattr(one, "_jsparkSession", None), getattr(other, "_jsparkSession", None)
    return ours is not None and theirs is not None and bool(ours.equals(theirs))


def engine_for(con, *inputs) -> Engine:
    """The engine of `con`, or of the inputs when con is None (Spark DataFrames bring theirs)."""
    if con is None:
        spark_frames = [value for value in inputs if is_spark_dataframe(value)]
        if spark_frames:
            return SparkEngine(spark_frames[0].sparkSession)
        return DuckDBEngine()
    module = _module(con)
    if module.startswith("duckdb") or module.startswith("_duckdb"):
        return DuckDBEngine(con)
    if module.startswith("pyspark") and type(con).__name__ == "SparkSession":
        return SparkEngine(con)
    if module.startswith("psycopg"):
        return PostgresEngine(con)
    if (module.startswith("snowflake.connector") or module.startswith("fakesnow")) and hasattr(con, "cursor"):
        return SnowflakeEngine(con)
    raise RankMetricsError(f"rank_metrics: {mention('con')} must be a DuckDB connection, a PostgreSQL connection "
                           f"(psycopg2 or psycopg), a Snowflake connection (snowflake.connector) or a SparkSession; "
                           f"got {type(con).__name__}")






































def _one_line(error: Exception, limit: int = 400) -> str:
    """An engine's message as one line: what went wrong and where, without the engine's list of
    hints that follows."""
    lines = []
    for line in str(error).splitlines():
        line = line.strip()
        if line.startswith(("Possible fixes", "Possible solutions", "The search space", "*")):
            break
        if line:
            lines.append(line)
    text = " | ".join(lines)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _quote(identifier: str, engine: str) -> str:
    return render("quote_identifier", engine, name=identifier)
