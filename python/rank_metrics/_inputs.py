"""The caller's inputs before any engine reads them: files (Parquet, CSV, TSV, text; a folder or
a glob of them), and the frames whose columns no engine reads right (mixed types, numpy
scalars, text that is not UTF-8, integers past 64 bits). Everything here treats a path or a
file as written by a stranger: it is read as data, never run, and a special file is refused.
"""

from __future__ import annotations

import collections
import contextlib
import glob
import numbers
import os
import re
import stat

from .errors import RankMetricsError, mention, warn


# file suffix -> DuckDB reader and its options. The delimiter of .csv and .tsv is fixed, so that a
# ragged file fails instead of being sniffed into a single column of whole lines, and CSV files
# are read from their first line: left to itself DuckDB's sniffer skips lines that have fewer
# fields than a later one (a header and a good row above a row with an extra field), takes the
# wider row for the header and drops the rows above it without a word.
_FILE_READERS = {".parquet": ("read_parquet", {}), ".pq": ("read_parquet", {}),
                 ".csv": ("read_csv", {"delimiter": ",", "skiprows": 0}),
                 ".tsv": ("read_csv", {"delimiter": "\t", "skiprows": 0}),
                 ".txt": ("read_csv", {"skiprows": 0})}


# what to do with a text file whose name tells no format (trec_eval's own test files)
_ANOTHER_NAME = "a text file of another name, such as trec_eval's qrels.test, is read as .txt: copy or link it under such a name"


def _module(value) -> str:
    return type(value).__module__ or ""


def _suffixes(path: str) -> tuple[str, str]:
    """A file name's format and compression suffixes: ('.csv', '.gz'), ('.parquet', '')."""
    lowered = path.lower()
    compression = next((suffix for suffix in (".gz", ".zst") if lowered.endswith(suffix)), "")
    return os.path.splitext(lowered.removesuffix(compression))[1], compression


def _file_reader(text: str) -> tuple[str, dict] | None:
    return _FILE_READERS.get(_suffixes(text)[0])


def _refuse_special_file(argument: str, path: str) -> None:
    """A FIFO, a socket or a device is no file to read: reading a FIFO waits for a writer forever."""
    with contextlib.suppress(OSError):
        mode = os.stat(path).st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            kind = "a FIFO (named pipe)" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
            raise RankMetricsError(f"rank_metrics: {mention(argument)}: {path!r} is {kind}, not a file: "
                                   "write the rows to a Parquet or CSV file and pass that")


def _parquet_by_content(text: str) -> tuple[str, dict] | None:
    """The Parquet reader for an existing file that Parquet's mark (PAR1) opens and closes, as
    every Parquet file's does, whatever its name: such a file can be nothing else."""
    if not os.path.isfile(text):
        return None
    with contextlib.suppress(OSError), open(text, "rb") as file:
        head = file.read(4)
        if os.fstat(file.fileno()).st_size >= 12:   # the mark opens and closes a Parquet file
            file.seek(-4, os.SEEK_END)
            if head == b"PAR1" and file.read(4) == b"PAR1":
                return _FILE_READERS[".parquet"]
    return None


def read_once(value, argument: str):
    """A pyarrow RecordBatchReader as the Table of its rows (anything else as it is): a reader
    gives its rows once, and rank_metrics reads an input more than once. An empty one is said:
    most often a reader that an earlier call has read."""
    if not (_module(value).startswith("pyarrow") and type(value).__name__ == "RecordBatchReader"):
        return value
    table = value.read_all()
    if table.num_rows == 0:
        warn(f"{argument}: the RecordBatchReader gave no rows; a reader reads once, so one read before "
             "(by an earlier call) gives none the second time: pass a pyarrow Table to read it again")
    return table


def _folder_of_files(argument: str, folder: str) -> tuple[str, tuple[str, dict], list[str], str | list[str]]:
    """A folder as Spark writes one (part-….parquet files, maybe in partition folders such as
    model=a/, beside _SUCCESS and .crc files): (a glob of its data files, their reader, the files,
    what DuckDB reads: the glob with the folder's name escaped), or (the folder, …, each file's
    own pattern) when its files are read one by one: Parquet files named without a suffix (Hive's
    000000_0), alone or beside .parquet files."""
    files = [path for path in sorted(glob.glob(os.path.join(glob.escape(folder), "**", "*"), recursive=True))
             if os.path.isfile(path) and not os.path.basename(path).startswith(("_", "."))]
    suffixes = sorted({"".join(_suffixes(path)) for path in files if _file_reader(path)})
    unnamed = [path for path in files if not _file_reader(path)]
    parquet_unnamed = [path for path in unnamed if _parquet_by_content(path)]
    if parquet_unnamed and (not suffixes or suffixes in ([".parquet"], [".pq"])):
        if not suffixes and len(parquet_unnamed) < len(unnamed):
            others = [os.path.relpath(path, folder) for path in unnamed if path not in parquet_unnamed]
            raise RankMetricsError(f"rank_metrics: {mention(argument)}: cannot tell the format of folder {folder!r}: beside "
                                   f"Parquet files named without a suffix it has files of no format it can tell "
                                   f"({', '.join(map(repr, others[:3]))}); name the files to read with a glob that "
                                   "matches them alone")
        matches = sorted(parquet_unnamed + [path for path in files if _file_reader(path)])
        return folder, _FILE_READERS[".parquet"], matches, [_literal_pattern(match) for match in matches]
    if len(suffixes) != 1:
        found = f"files ending in {', '.join(suffixes)}" if suffixes else "no file ending in one of " + ", ".join(sorted(_FILE_READERS))
        hint = (f"; name its files of one kind with a glob, e.g. {os.path.join(folder, '*' + suffixes[-1])!r}" if suffixes
                else "; give its files a name that tells their format (part-0.csv)" if files else "")
        raise RankMetricsError(f"rank_metrics: {mention(argument)}: cannot tell the format of folder {folder!r}: it has {found} "
                               f"(files starting with _ or . left aside){hint}")
    pattern = os.path.join(folder, "**", "*" + suffixes[0])
    return (pattern, _file_reader(pattern), [path for path in files if path.lower().endswith(suffixes[0])],
            _literal_pattern(folder) + pattern[len(folder):])


def _literal_pattern(path: str) -> str:
    """A path as a DuckDB file pattern that matches that path alone: DuckDB reads *, ? and [ as a
    glob's, and a character in brackets as itself."""
    return re.sub(r"([*?\[])", r"[\1]", path)


def _refuse_a_repeated_header(con, argument: str, text: str, reader_name: str, matches, options: dict, columns) -> None:
    """A file that names a column twice is an error, as a frame that does is (as_read): DuckDB
    reads the first and renames the second name_1 (a CSV of user_id,item_id,item_id,rank was read
    by its first items without a word; a new user's trial). The file's own names are read only when
    a column's name is another's with _1, _2, … after it."""
    lowered = {column.lower() for column in columns}   # DuckDB matches names whatever their case
    renamed = {found.group(1) for column in columns
               if (found := re.fullmatch(r"(.+)_\d+", column)) and found.group(1).lower() in lowered}
    first = next((match for match in matches if os.path.isfile(match)), None)
    if not renamed or first is None:
        return
    if reader_name == "read_parquet":
        rows = con.execute("select name, num_children from parquet_schema($1)", [first]).fetchall()
        names, at = [], 1   # the first row is the schema's root; a nested column's fields follow it

        def after(index: int) -> int:
            end = index + 1
            for _ in range(rows[index][1] or 0):
                end = after(end)
            return end
        while at < len(rows):
            names.append(rows[at][0])
            at = after(at)
    elif first.lower().endswith((".csv", ".tsv", ".txt", ".gz")):
        import csv
        import gzip

        delimiter = options.get("delimiter") or con.execute("select Delimiter from sniff_csv($1)", [first]).fetchall()[0][0]
        with (gzip.open if first.lower().endswith(".gz") else open)(first, "rt", encoding="utf-8", errors="replace",
                                                                      newline="") as file:
            names = next(csv.reader(file, delimiter=delimiter), [])
        names = [name.lstrip("\ufeff") for name in names]
    else:
        return
    counts = collections.Counter(name.lower() for name in names)
    repeated = sorted(name for name in renamed if counts[name.lower()] > 1)
    if repeated:
        alike = [name for name in names if name.lower() == repeated[0].lower()]
        spelt = f" ({', '.join(alike)}: DuckDB matches names whatever their case)" if len(set(alike)) > 1 else ""
        raise RankMetricsError(f"rank_metrics: {mention(argument)}: column {alike[0]!r} appears {len(alike)} times in {text!r}"
                               f"{spelt}; drop or rename all but one, so that it is clear which is read")


def _refuse_one_column(argument: str, text: str, column: str, delimiter: str) -> None:
    """A file of another separator read as one column: say so, rather than miss its columns later."""
    others = [separator for separator in (",", ";", "\t", "|") if separator != delimiter and separator in column]
    if others:
        names = {",": "commas", "\t": "tabs"}
        raise RankMetricsError(
            f"rank_metrics: {mention(argument)}: cannot read {text!r}: it reads as one column, {column!r}: a {os.path.splitext(text)[1]} "
            f"file is read with {names[delimiter]} between fields, and this one has {others[0]!r} between them; "
            f"save it with {names[delimiter]}, or name it .txt to have its separator detected")


def _refuse_identical_files(argument: str, text: str, matches: list) -> None:
    """Two files of one glob with the same bytes (a copy, a link, data.csv beside data (1).csv)
    would be read twice: every row doubled, each list's items repeated, every metric changed
    without a word. Only files of one size are opened, and only those of one first 64 KiB too
    are compared whole: a folder of a thousand part files costs their sizes."""
    import filecmp

    by_size = collections.defaultdict(list)
    for match in matches:
        if os.path.isfile(match):
            by_size[os.path.getsize(match)].append(match)
    alike = collections.defaultdict(list)
    for size, files in by_size.items():
        for match in files if len(files) > 1 else ():
            with open(match, "rb") as file:
                alike[size, file.read(65536)].append(match)
    for same in alike.values():
        for index, first in enumerate(same):
            for second in same[index + 1:]:
                if filecmp.cmp(first, second, shallow=False):
                    raise RankMetricsError(
                        f"rank_metrics: {mention(argument)}: {text!r} matches {first!r} and {second!r}, which hold the same "
                        "bytes: their rows would be read twice; name the files to read with a narrower glob")


def _warn_of_spaced_values(argument: str, text: str, columns: list, first_row: tuple) -> None:
    """A file written with ', ' between fields keeps the space in each text value after the first
    (as pandas and Spark read it too): ' a' is no 'a', and no id of the other table would match.
    Said when every text value after the first of the first row begins with a space."""
    spaced = [(column, value) for column, value in list(zip(columns, first_row))[1:] if isinstance(value, str)]
    if spaced and all(value.startswith(" ") and value.strip() for _, value in spaced):
        column, value = spaced[0]
        warn(f"{argument}: {text!r} has a space after each separator (column {column!r} reads {value!r}); the spaces "
             f"are kept as part of the values, so {value!r} does not match {value.strip()!r}: write the file without "
             "them, or in Python read it with pandas.read_csv(..., skipinitialspace=True) and pass the DataFrame")


def _headers_differ(paths) -> bool:
    """Whether the first lines of these CSV files (plain or .gz) may differ: a file of another
    compression is not read here, and may."""
    import gzip

    headers = set()
    for path in paths:
        if not os.path.isfile(path):
            continue
        if path.lower().endswith((".zst", ".zstd", ".bz2", ".xz")):
            return True
        opener = gzip.open if path.lower().endswith(".gz") else open
        with opener(path, "rb") as file:
            headers.add(file.readline().lstrip(b"\xef\xbb\xbf").rstrip(b"\r\n"))
    return len(headers) > 1


def as_read(value, argument: str, read: set, named: set):
    """A pandas frame or pyarrow Table as the call reads it, `read` being the column names it may
    read and `named` those its arguments name: a named index level of a `read` name becomes a
    column (set_index('user_id') was "not in predictions", and a frame whose every column was in
    its index could not be read; an index called rank beside a score column stays an index),
    and a `read` name on two columns is an error (pd.concat(axis=1) makes them; DuckDB read the
    first and renamed the second, so which was the rank was chance). New users' trials."""
    kind = _module(value).split(".")[0], type(value).__name__
    if kind not in (("pandas", "DataFrame"), ("pyarrow", "Table"), ("polars", "DataFrame"), ("pyspark", "DataFrame")):
        return value
    names = [str(name) for name in (value.column_names if kind[0] == "pyarrow" else value.columns)]
    # DuckDB matches names whatever their case (of a frame's rank and RANK it renamed one RANK_1,
    # and rank='RANK' was not found: a user's trial), and Spark unless spark.sql.caseSensitive is on
    blind = kind[0] != "pyspark" or str(value.sparkSession.conf.get("spark.sql.caseSensitive", "false")).lower() != "true"
    spelt = (lambda name: name.lower()) if blind else (lambda name: name)
    counts = collections.Counter(spelt(name) for name in names)

    def unclear(name) -> bool:
        """A read name on two columns: spelt alike, or (DuckDB) in another case before it, where
        DuckDB keeps the first and renames the rest (Spark refuses either)."""
        alike = [one for one in names if spelt(one) == spelt(name)]
        return len(alike) > 1 and (kind[0] == "pyspark" or alike.count(name) > 1 or alike[0] != name)
    repeated = sorted(name for name in read if unclear(name))
    if repeated:
        alike = [name for name in names if spelt(name) == spelt(repeated[0])]
        raise RankMetricsError(f"rank_metrics: {mention(argument)}: column {repeated[0]!r} appears {len(alike)} times in this "
                               f"{kind[1]}" + (f" ({', '.join(alike)}: {'Spark' if kind[0] == 'pyspark' else 'DuckDB'} "
                                               "matches names whatever their case)"
                                               if len(set(alike)) > 1 else "")
                               + "; drop or rename all but one, so that it is clear which is read")
    if kind[0] == "pandas":
        # a level named like a column stays out: which of the two to read would be a guess; so
        # does a rank or score level beside a score or rank column (the order is the column)
        order_column = bool({"rank", "score"} & set(counts))
        levels = [name for name in value.index.names if name not in counts and
                  (name in named or (name in read and not (name in ("rank", "score") and order_column)))]
        if levels:
            value = value.reset_index(level=levels)
        _refuse_mixed_types(value, argument, read)
    return value


def _is_wide(data_type: str) -> bool:
    """A DuckDB type that pandas would hold as float64, where distinct ids become one."""
    return data_type in ("HUGEINT", "UHUGEINT") or data_type.startswith("DECIMAL")


def _refuse_mixed_types(frame, argument: str, read: set) -> None:
    """An object column that holds scalars of several Python types (1 and '1') is an error:
    DuckDB reads it as text, where 1 and '1' are one id; pandas and the user count two. Numbers
    of several types (int, float, Decimal) are numbers to DuckDB too, and lists are lists."""
    import numpy as np
    import pandas as pd

    for column, values in frame.items():
        if str(column) not in read:
            continue
        # a categorical is read as an enum of its categories' text
        if isinstance(values.dtype, pd.CategoricalDtype):
            values = pd.Series(values.cat.categories, dtype=object)
        if values.dtype != object:
            continue
        # 'mixed-integer': integers beside other values; 'mixed': any other blend, or one type
        # pandas does not name (uuid.UUID); a numpy array's items are read in C, a Series' not
        if pd.api.types.infer_dtype(values, skipna=True) not in ("mixed", "mixed-integer"):
            continue
        present = values.dropna().to_numpy()
        types = set(map(type, present))
        if any(issubclass(kind, (list, tuple, dict, set, np.ndarray)) for kind in types):
            continue
        kinds = {"number" if issubclass(kind, numbers.Number) and not issubclass(kind, bool) else kind.__name__
                 for kind in types}
        if len(kinds) > 1:
            examples = {}   # the first value of each type, in the column's order
            for value in present:
                examples.setdefault(type(value).__name__, value)
            shown = ", ".join(f"{kind} such as {value!r}" for kind, value in sorted(examples.items()))
            raise RankMetricsError(
                f"rank_metrics: {mention(argument)}: column {str(column)!r} holds values of several types ({shown}); "
                f"they would be compared as text, where 1 and '1' are one id: make it one type, "
                f"e.g. df[{str(column)!r}].astype(str)")


def _numpy_scalars_as_numbers(frame):
    """The frame with each object column of numpy numbers (what exploding numpy arrays gives)
    made a numeric column. DuckDB reads such a column as text, where item 10 sorts before 9 in
    a tie and 9 never meets truth's 9 (a new user's trial); Python numbers it reads as numbers.
    Only a column with a numpy number among its first 1,000 values is looked at whole (DuckDB
    too decides a column's type from a sample)."""
    import numpy as np
    import pandas as pd

    made = {}
    for place, (_, values) in enumerate(frame.items()):
        if values.dtype != object:
            continue
        if not any(isinstance(value, np.generic) for value in values.array[:1000]):
            continue
        kind = pd.api.types.infer_dtype(values, skipna=True)
        try:
            if kind == "integer":
                made[place] = values.astype("Int64")
            elif kind in ("floating", "mixed-integer-float"):
                made[place] = values.astype("Float64")
            elif kind == "boolean":
                made[place] = values.astype("boolean")
        except (OverflowError, TypeError, ValueError):   # past int64: unsigned, as pandas infers it
            made[place] = values.infer_objects()
    if not made:
        return frame
    frame = frame.copy(deep=False)
    for place, values in made.items():
        frame.isetitem(place, values)
    return frame


def _text_not_utf8(frame):
    """(column, value) of the first text in a pandas frame's object columns that UTF-8 cannot
    encode (a lone surrogate, as os.listdir gives for a name that is no UTF-8), or None."""
    for column, values in frame.items():
        if values.dtype != object:
            continue
        for value in values.to_numpy():
            # a list column's items too
            for text in (value if isinstance(value, (list, tuple)) or hasattr(value, "__array__") else [value]):
                if isinstance(text, str):
                    try:
                        text.encode("utf-8")
                    except UnicodeEncodeError:
                        return column, text
    return None


def _numpy_text_hint(frame) -> str:
    """DuckDB reads a column of lists, not a pandas column of numpy arrays of text (dtype '<U…',
    what `items[np.argsort(-scores)[:12]]` gives): which column, and the fix."""
    found = [column for column in frame.columns
             if frame[column].dtype == object and len(frame[column])
             and getattr(getattr(frame[column].iloc[0], "dtype", None), "kind", None) == "U"]
    column = repr(found[0]) if found else "column"
    return f" ({'column ' + column if found else 'a column'} holds numpy arrays of text: make each a list, e.g. df[{column}].map(list))"


def _wide_integer_hint(frame) -> str:
    """polars has 128-bit integers, which DuckDB does not read through Arrow (its message names
    only an Arrow format string): which column, and the fix. Empty for any other frame."""
    schema = frame.schema if _module(frame).startswith("polars") else {}
    found = [(column, str(dtype)) for column, dtype in schema.items() if str(dtype) in ("Int128", "UInt128")]
    if not found:
        return ""
    column, dtype = found[0]
    return (f" (column {column!r} is {dtype}, which DuckDB does not read from Arrow: cast it, e.g. "
            f"pl.col({column!r}).cast(pl.Int64) when its values fit, else pl.String)")
