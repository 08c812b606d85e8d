"""The command line: `rank-metrics map-at-k PREDICTIONS TRUTH -k 12` and `rank-metrics sql`.

Exit status: 0 done; 2 bad input or usage (one line on stderr); 3 --check found the SQL and
the reference disagreeing; 130 Ctrl-C (one line); 1 anything else (one line; RANK_METRICS_DEBUG=1
shows the traceback).
"""

from __future__ import annotations

import argparse
import inspect
import codecs
import contextlib
import functools
import os
import re
import select
import signal
import sys
import threading
import warnings

from . import __version__, _engines, api, beyond, over_time, reference
from ._optional import missing
from ._render import metric_registry
from ._render import namespace as _render_namespace
from ._tables import BETTER, WORSE
from .comparison import MIN_PAIRED_USERS, RESAMPLES
from .comparison import compare as api_compare
from .errors import CheckFailed, RankMetricsError, RankMetricsWarning, mention

EXIT_BAD_INPUT = 2
EXIT_CHECK_FAILED = 3
EXIT_FAILED = 1
EXIT_WORSE = 4   # compare --fail-if-worse: a model significantly worse than the baseline
EXIT_BROKEN_PIPE = 141   # as a shell reports a process ended by SIGPIPE
EXIT_INTERRUPTED = 130   # 128 + SIGINT, as a shell reports a process ended by Ctrl-C


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors as one line (not usage plus message) and exit status 2, and no
    option read from a prefix of its name (--norm was --normalization; a typo of one option could
    be read as another)."""

    def __init__(self, *args, arguments: list[str] = (), **kwargs):
        super().__init__(*args, allow_abbrev=False, **kwargs)
        self.arguments = list(arguments)   # the command line being read, for error()

    def error(self, message):
        if message.startswith("the following arguments are required"):
            # argparse stops at the first missing argument and never says what it did not read:
            # `-K 5` or `--cutoff 5` for -k got "required: -k" alone
            options = self.arguments[:self.arguments.index("--")] if "--" in self.arguments else self.arguments
            unread = [token for token in options if token.startswith("-") and len(token) > 1
                      and not token[1:2].isdigit() and token.split("=")[0] not in self._option_string_actions]
            if unread:
                message += f"; not read: {' '.join(unread)}{_meant_options(unread, self)}"
        sys.stderr.write(f"rank-metrics: error: {message} (see {self.prog} --help)\n")
        sys.exit(EXIT_BAD_INPUT)


def _meant_options(tokens: list[str], parser: argparse.ArgumentParser) -> str:
    """ (did you mean --normalization?) for options a parser does not know: those its name begins
    (--norm: a prefix is not read as the option) or, for none, the one it is a misspelling of
    (--normalisation; the macros' rule, as Python's unknown keyword arguments get)."""
    options = [option for option in parser._option_string_actions if option.startswith("--")]
    meant = []
    for token in (token.split("=")[0] for token in tokens if token.startswith("--")):
        found = [option for option in options if option.startswith(token) and option != token]
        if not found:
            nearest = str(_render_namespace()._nearest_name(token[2:].replace("-", "_"),
                                                               [option[2:].replace("-", "_") for option in options])).strip()
            found = ["--" + nearest.replace("_", "-")] if nearest else []
        meant += [option for option in found if option not in meant]
    return f" (did you mean {' or '.join(meant)}?)" if meant else ""


def _separator(text: str) -> str:
    """--item-separator '\\t' (a backslash and a t, as a shell passes it) is a tab, as in Python."""
    return "\t" if text == "\\t" else text


def _spread_k(argv: list[str]) -> list[str]:
    """`-k 5 10 preds truth` as `-k 5 -k 10 preds truth`: -k takes the integers that follow it
    and no more, so the file names after it stay file names. --k, as the other options are
    spelt, is -k (argparse would have said `-k` is missing and `--k` unrecognized)."""
    spread, index = [], 0
    while index < len(argv):
        token = argv[index]
        spread.append(token)
        index += 1
        if token == "--":
            spread.extend(argv[index:])
            break
        if token == "--k" or token.startswith("--k="):
            spread[-1] = "-k"
            if token != "--k":
                argv = [*argv[:index], token.removeprefix("--k="), *argv[index:]]
            token = "-k"
        if token == "-k" and index < len(argv):
            spread.append(argv[index])   # the first value, whatever it is: -k checks it
            index += 1
            while index < len(argv) and re.fullmatch(r"[+-]?\d+", argv[index]):
                spread.extend(["-k", argv[index]])
                index += 1
    return spread


def _k_values(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        several = re.fullmatch(r"\d+(?:,\d+)+", text.replace(" ", ""))   # -k 5,10: as Python's k=[5, 10]
        hint = f" (several k: -k {text.replace(' ', '').replace(',', ' ')})" if several else ""
        raise argparse.ArgumentTypeError(f"k must be a positive integer; got {text!r}{hint}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"k must be a positive integer; got {text!r}")
    return value


# options that change some metrics only, each to the metrics that read it (the metric registry's:
# persistence is RBP's and its residual's); a command of another single metric refuses them (the
# Python API takes them everywhere, so that one set of options fits each)
_ONE_METRIC_OPTIONS = {option: [metric for metric, entry in metric_registry().items() if option in entry["options"]]
                       for entry in metric_registry().values() for option in entry["options"]}


def _single_metric(function: str) -> str | None:
    """The one metric a command or macro computes (map for AP per user), or None for several."""
    if function == "average_precision_at_k":
        return "map"   # AP@k per user is MAP@k's per-user value
    return next((metric for metric, (name, _, _) in api.METRICS.items() if name == function), None)


def _takes_k(function: str) -> bool:
    """Whether a command or macro takes a k: all but those of one cutoff-free metric."""
    metric = _single_metric(function)
    return metric is None or not metric_registry()[metric].get("cutoff_free")


def _refuse_unread_options(arguments: argparse.Namespace, metric: str | None, what: str) -> None:
    for option, readers in _ONE_METRIC_OPTIONS.items():
        if metric is not None and metric not in readers and getattr(arguments, option) is not None:
            flag = "--" + option.replace("_", "-")
            commands = ", ".join(api.METRICS[reader][0].replace("_", "-") for reader in readers)
            raise RankMetricsError(f"rank_metrics: {flag} changes {' and '.join(readers)} only ({commands}, "
                                   f"or evaluate with {' or '.join(readers)}); {what} does not read it")


def _add_metric_options(parser: argparse.ArgumentParser, metric: str | None = None, k_required: bool = True) -> None:
    if metric is None or not metric_registry()[metric].get("cutoff_free"):   # R-precision and bpref take no k
        parser.add_argument("-k", dest="k", type=_k_values, action="append", required=k_required,
                            help="the cutoff; several values (-k 5 10 20) give a row per k" +
                                 ("" if k_required else " (none for --macro r_precision or bpref, which take no k)"))
    else:   # read, unlisted, so that the function says why it takes none (not "unrecognized arguments")
        parser.add_argument("-k", dest="k", type=_k_values, action="append", help=argparse.SUPPRESS)
    parser.add_argument("--user", default="user_id", help="user column (default: user_id)")
    parser.add_argument("--item", default="item_id", help="item column (default: item_id)")
    order = parser.add_mutually_exclusive_group()
    order.add_argument("--rank", help="rank column, ascending (default: a column named rank)")
    order.add_argument("--score", help="score column, descending (default: a column named score)")
    grades = parser.add_mutually_exclusive_group()
    grades.add_argument("--relevance", help="relevance grade column of truth; grades <= 0 are not relevant "
                        "(default: a column named relevance)")
    grades.add_argument("--no-relevance", dest="relevance", action="store_const", const=False,
                        help="truth has no grades: every truth row is relevant, a column named relevance too")
    parser.add_argument("--by", nargs="+", help="group by these prediction columns")
    parser.add_argument("--truth-by", nargs="*", help="by columns to match in truth (default: those truth has); "
                        "with no column, every group is evaluated against all of truth")
    parser.add_argument("--truth-user", help="truth's user column, when its name differs from --user")
    parser.add_argument("--truth-item", help="truth's item column, when its name differs from --item")
    parser.add_argument("--predictions-shape", help="long (a row per item) or list (a row per user, the items "
                        "in a list or, with --item-separator, in text); default: list for a list column")
    parser.add_argument("--truth-shape", help="long or list, as --predictions-shape")
    parser.add_argument("--item-separator", type=_separator, help="the separator of items in a text column of a "
                        "list-shaped table (' ' for a Kaggle submission file: customer_id,prediction; '\\t' for a tab)")
    def shown(option: str, text: str) -> str:   # not in the help of a command that would refuse it
        return argparse.SUPPRESS if metric is not None and metric not in _ONE_METRIC_OPTIONS[option] else text

    parser.add_argument("--normalization", choices=reference.NORMALIZATIONS,
                        help=shown("normalization", "AP's denominator: min(m, k) (default), m, or the hits within k"))
    parser.add_argument("--users", choices=reference.USERS,
                        help="who is averaged (default truth: every user with a relevant item)")
    parser.add_argument("--duplicates", choices=reference.DUPLICATES,
                        help="a repeated item in a list (default first: keeps its place, never a hit again)")
    parser.add_argument("--tie-break", choices=reference.TIE_BREAKS,
                        help="equal rank or score (default item: the lower item first)")
    parser.add_argument("--convention", help="a peer's preset: " + ", ".join(sorted(reference.CONVENTIONS)))
    # the family's options (SPEC §6); the macros check their values and name the allowed ones
    parser.add_argument("--gain", help=shown("gain", "NDCG's gain: linear, exponential or binary; graded: RBP weighs "
                                                    "each item by its grade over --max-grade"))
    parser.add_argument("--gain-from", help=shown("gain_from", "which items add gain: graded or relevant"))
    parser.add_argument("--precision-denominator", help=shown("precision_denominator", "k or list_length"))
    parser.add_argument("--recall-denominator", help=shown("recall_denominator", "m or min_m_k"))
    parser.add_argument("--truth-scope", help="all or listed")
    parser.add_argument("--relevance-threshold", type=_number, help="relevant = grade >= this number (trec_eval -l)")
    parser.add_argument("--persistence", type=_number, help=shown("persistence", "RBP's p, the chance of reading on to "
                                                                                 "the next position (default 0.8)"))
    parser.add_argument("--mean", choices=reference.MEANS,
                        help="a group's value: the arithmetic mean of its users' (default) or the geometric (trec_eval's gm_map)")
    parser.add_argument("--max-grade", type=_number, help=shown("max_grade", "ERR's and graded RBP's largest grade "
                                                                             "(default: the largest grade in truth; gdeval: 4)"))
    parser.add_argument("--auc-weight", choices=reference.AUC_WEIGHTS,
                        help=shown("auc_weight", "GAUC's weights: users (each user 1, default) or impressions (each "
                                                 "user its list length)"))


def _users(text: str) -> int:
    """--min-users: a whole number of 0 or more, as the dbt gate's min_users (-3 was taken)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number of 0 or more; got {text!r}")
    return value


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number; got {text!r}") from None
    return int(value) if value.is_integer() and "." not in text and "e" not in text.lower() else value


def _metric_keywords(arguments: argparse.Namespace) -> dict:
    """The API's keyword arguments from the parsed command line (the options named in api.OPTIONS)."""
    keywords = {name: getattr(arguments, name) for name in api.OPTIONS}
    if getattr(arguments, "k", None) is not None:   # (a cutoff-free metric's command says it takes none)
        keywords["k"] = arguments.k if len(arguments.k) > 1 else arguments.k[0]
    if getattr(arguments, "strict", False):   # the commands that read tables (not sql)
        keywords["strict"] = True
    return keywords


# command -> (the API function, its help); the per-metric commands come from api.METRICS
_COMMANDS = {
    "evaluate": ("evaluate", "several metrics per group, k and metric (--metrics; default all six)"),
    "evaluate-users": ("evaluate_users", "several metrics per user and k"),
    **{function.replace("_", "-"): (function, f"{metric} per group" + ("" if metric_registry()[metric].get("cutoff_free") else " and k"))
       for metric, (function, _, _) in api.METRICS.items()},
    "average-precision-at-k": ("average_precision_at_k", "AP@k per user and k"),
}


SQL_DESCRIPTION = """Prints one SELECT computing the metric for tables named PREDICTIONS and TRUTH,
for a dashboard or another warehouse (--dialect).

Without --database no table is read, so nothing is detected: the order column is --rank
(default: a column named rank) or --score, and a grade column or matched by columns are used
only when named (--relevance, --truth-by). With --database FILE.duckdb the tables' columns are
looked up as the metric commands do.

The printed SQL makes none of the data checks the metric commands make first: NULL users,
items, ranks, scores or grades; NaN or infinite ranks, scores or grades; no relevant truth row
(--users truth) or no truth row (--users judged); a repeated item under --duplicates error.
On such data it returns numbers. Check the tables with a metric command (or rank_metrics in
Python) before trusting a dashboard built on it."""


def _connection(path: str | None, *inputs: str):
    """The DuckDB file of --database, read-only and sandboxed, or None. A DuckDB file may hold
    views, and a view runs whatever SQL its author wrote: read_text('/etc/passwd') or glob('~/*')
    would print this machine's files through our output. So the file is opened with external
    access off and the configuration locked: a view reads what is in the file and nothing else.
    The `inputs` that are files here (PREDICTIONS or TRUTH given as a path beside --database) are
    the only files it may read, each by its exact path; a glob or a folder is refused."""
    if path is None:
        return None
    if os.path.isdir(path):
        raise RankMetricsError(f"rank_metrics: --database: {path!r} is a folder, not a DuckDB database file")
    if not os.path.isfile(path):
        raise RankMetricsError(f"rank_metrics: --database: no such file {path!r}")
    # a DuckDB file says DUCK at byte 8; anything else DuckDB would try to read with an extension
    # (SQLite's, fetched over the network) or fail on with a message about read-only mode
    with open(path, "rb") as file:
        header = file.read(12)
    if header[8:12] != b"DUCK":
        raise RankMetricsError(f"rank_metrics: --database: {path!r} is not a DuckDB database file (for a Parquet "
                               "or CSV file, pass it as PREDICTIONS or TRUTH without --database)")
    for name in inputs:
        # DuckDB lists a folder or a glob's matches itself, which the sandbox cannot allow file by
        # file (a table name has no / unquoted: a bare name may be a table even where a folder is)
        if "*" in name or ((os.sep in name or "/" in name) and os.path.isdir(name)):
            raise RankMetricsError(f"rank_metrics: with --database, PREDICTIONS and TRUTH are tables of that file or "
                                   f"single files; {name!r} is a {'glob' if '*' in name else 'folder'}, which is not "
                                   "read beside a database file (opened with external access off, so that a view in it "
                                   "can read nothing outside it): load it into a table, or pass both inputs as files "
                                   "without --database")
    import duckdb

    try:
        # no extension loaded or installed for the file's sake (a view could name one)
        con = duckdb.connect(path, read_only=True, config={"autoload_known_extensions": False,
                                                           "autoinstall_known_extensions": False,
                                                           "allow_community_extensions": False})
    except duckdb.Error as error:
        raise RankMetricsError(f"rank_metrics: --database: cannot open {path!r} as a DuckDB file: "
                               f"{str(error).splitlines()[0]}") from None
    # a macro stored in the file under the name of one of DuckDB's functions answers in its place
    # (ln, sqrt: every nDCG 1.0 and every std_error 1.0, a new user's trial): such a file is refused
    shadowing = [name for (name,) in con.execute(
        "select distinct function_name from duckdb_functions() where not internal and function_name in "
        "(select function_name from duckdb_functions() where internal) order by function_name").fetchall()]
    if shadowing:
        con.close()
        raise RankMetricsError(f"rank_metrics: --database: {path!r} defines {'a macro' if len(shadowing) == 1 else 'macros'} "
                               f"named as DuckDB's own function{'s' if len(shadowing) > 1 else ''} "
                               f"({', '.join(map(repr, shadowing[:10]))}{', …' if len(shadowing) > 10 else ''}), which "
                               "would answer in their place in the metrics' SQL: copy the tables into a file without them")
    # allowed_paths can be set only while external access is on, and this order leaves no query
    # of the file's run before the lock (opening a file runs none of its views)
    files = [os.path.abspath(name) for name in inputs if os.path.isfile(name)]
    if files:
        con.execute("set allowed_paths = $1", [files])
    # set here as the engine sets it on a connection of its own: nothing can once it is locked
    con.execute(f"set enable_progress_bar = {'true' if _engines.SHOW_PROGRESS else 'false'}")
    con.execute("set enable_external_access = false")
    con.execute("set lock_configuration = true")
    return con


# the connections of --database, closed when main() ends: while one is open, DuckDB gives the
# same file's next connect (a test's next command) that instance, its configuration locked
_opened = []


def _database(arguments: argparse.Namespace):
    """--database's connection, which may read the PREDICTIONS and TRUTH given as files."""
    con = _connection(arguments.database, arguments.predictions, arguments.truth)
    if con is not None:
        _opened.append(con)
    return con


def _sandbox_refusal(error: Exception, database: str | None) -> RankMetricsError | None:
    """DuckDB's refusal of a file that a view of --database reads (or an input the sandbox does
    not allow), as one line that says why; None for any other error."""
    found = re.search(r'Permission Error: Cannot access (file|directory) ("[^"]*")', str(error))
    if database is None or not found:
        return None
    # the engine's message names the input (predictions:) but, for a view, blames its name
    argument = re.match(r"rank_metrics: (predictions|truth): ", str(error))
    return RankMetricsError(f"rank_metrics: {mention(argument.group(1)) + ': ' if argument else ''}DuckDB refused to read "
                            f"{found.group(1)} {found.group(2)}: --database {database!r} is opened read-only with "
                            "external access off, so a view in it can read nothing outside the file (and a file "
                            "input only when PREDICTIONS or TRUTH names that one file)")


def _table_command(commands, name: str, help_text: str, metrics: bool = True,
                   metric: str | None = None) -> argparse.ArgumentParser:
    """A command reading PREDICTIONS and TRUTH (files, or tables of --database) with the metric options."""
    command = commands.add_parser(name, help=help_text)
    files = ("a .parquet, .csv, .tsv or .txt file (also .gz or .zst compressed), a glob, or a folder of them "
             "(as Spark writes one)")
    command.add_argument("predictions", help=f"{files}; or, with --database, a table in it")
    command.add_argument("truth", help=f"{files}; or, with --database, a table in it")
    _add_metric_options(command, metric)
    command.add_argument("--database", metavar="FILE.duckdb",
                         help="a DuckDB file whose tables PREDICTIONS and TRUTH name; opened read-only with "
                              "external access off, so a view in it can read nothing outside the file (PREDICTIONS "
                              "or TRUTH may still name a file, one file each: no glob or folder)")
    if metrics:
        command.add_argument("--metrics", nargs="+", help="among " + ", ".join(api.METRICS))
    command.add_argument("--strict", action="store_true",
                         help="fail (status 2) on what is otherwise a warning of the data's shape: lists merged, rows "
                              "repeated, ids with a space in one table, a model column left out of --by, a score "
                              "passed as --rank")
    return command


def _add_beyond_accuracy_command(commands) -> None:
    """beyond-accuracy: PREDICTIONS and TRAIN files, and beyond_accuracy's options as flags."""
    command = commands.add_parser("beyond-accuracy", help="catalog coverage, popularity, novelty, personalization, "
                                                          "diversity and serendipity of the lists (TRAIN: the interactions "
                                                          "the model learned from)")
    files = "a .parquet, .csv, .tsv or .txt file (also .gz or .zst compressed), a glob, or a folder of them"
    command.add_argument("predictions", help=f"the lists: {files}")
    command.add_argument("train", help=f"the (user, item) interactions the model learned from: {files}")
    command.add_argument("-k", dest="k", type=_k_values, action="append", required=True,
                         help="the cutoff; several values (-k 5 10 20) give a row per k")
    command.add_argument("--metrics", nargs="+", help="among " + ", ".join(beyond.metric_names()))
    command.add_argument("--convention", help="recommenders or evidently: each metric as that library defines it "
                                              "(default: recommenders' where it has the metric, else Evidently's)")
    command.add_argument("--similarity", help="cooccurrence (default; features under --convention evidently) or features")
    command.add_argument("--truth", help=f"serendipity's relevant items (user, item): {files}")
    command.add_argument("--relevance", help="truth's grade column (default: a column named relevance, if any); "
                                             "items graded 0 or less are not relevant")
    command.add_argument("--item-features", help=f"an item column and numeric feature columns (--similarity features): {files}")
    command.add_argument("--by", nargs="+", help="group by these prediction columns")
    command.add_argument("--user", default="user_id", help="user column (default: user_id)")
    command.add_argument("--item", default="item_id", help="item column (default: item_id)")
    order = command.add_mutually_exclusive_group()
    order.add_argument("--rank", help="rank column, ascending (default: a column named rank)")
    order.add_argument("--score", help="score column, descending (default: a column named score)")
    for name in ("train-user", "train-item", "truth-user", "truth-item", "features-item"):
        table, column = name.split("-")
        command.add_argument(f"--{name}", help=f"{table}'s {column} column (default: --{column}'s)")
    command.add_argument("--predictions-shape", choices=("long", "list"),
                         help="list: a row per user, its items in order in one column (with --item-separator for text)")
    command.add_argument("--truth-shape", choices=("long", "list"), help="the same for --truth")
    command.add_argument("--item-separator", type=_separator, help="the separator of items in a text column of a "
                                                                   "list-shaped table (' ' in a Kaggle submission)")
    command.add_argument("--per-user", action="store_true", help="a row per user and k with each per-user metric "
                                                                 "(beyond_accuracy_users)")
    _add_comparison_options(command, baseline_required=False)
    command.add_argument("--strict", action="store_true",
                         help="fail (status 2) on what is otherwise a warning of the data's shape: lists merged, rows "
                              "repeated, ids with a space in one of predictions and train, a model column left out of "
                              "--by, a score passed as --rank")
    command.set_defaults(database=None)   # (the inputs are files: no --database)
    command.add_argument("--format", choices=("table", "csv", "json"), default="table",
                         help="table (default: rounded for reading), or csv or json with every digit")


def _beyond_accuracy(arguments: argparse.Namespace) -> int:
    """beyond-accuracy: beyond_accuracy's rows (or, with --per-user, beyond_accuracy_users'; with
    --baseline, compare_beyond_accuracy's)."""
    function = beyond.beyond_accuracy_users if arguments.per_user else beyond.beyond_accuracy
    compared = {}
    if arguments.baseline is not None:
        if arguments.per_user:
            raise RankMetricsError("rank_metrics: --baseline compares the models' per-user values; it has no "
                                   "--per-user rows (leave one out)")
        _require_a_by(arguments.command, arguments.by)
        function = beyond.compare_beyond_accuracy
        compared = {name: getattr(arguments, name) for name in ("baseline", "test", "correction", "family", "alpha",
                                                                "seed")}
    result = function(arguments.predictions, arguments.train, arguments.k if len(arguments.k) > 1 else arguments.k[0],
                      **compared, strict=arguments.strict,
                      metrics=arguments.metrics, by=arguments.by, convention=arguments.convention,
                      similarity=arguments.similarity, truth=arguments.truth, item_features=arguments.item_features,
                      user=arguments.user, item=arguments.item, rank=arguments.rank, score=arguments.score,
                      train_user=arguments.train_user, train_item=arguments.train_item, truth_user=arguments.truth_user,
                      truth_item=arguments.truth_item, relevance=arguments.relevance,
                      features_item=arguments.features_item, predictions_shape=arguments.predictions_shape,
                      truth_shape=arguments.truth_shape, item_separator=arguments.item_separator)
    if compared and arguments.format == "table":   # as compare's table reads
        resamples = inspect.signature(beyond.compare_beyond_accuracy).parameters["resamples"].default
        _write_out(_comparison_table(result, arguments.by, arguments, resamples), exact=False)
    else:
        _write_table(result, arguments.format)
    return 0


def _add_comparison_options(command: argparse.ArgumentParser, baseline_required: bool, resampling: bool = True) -> None:
    """--baseline, --test, --correction, --family, --alpha and, where the tests run in Python, --seed."""
    command.add_argument("--baseline", required=baseline_required,
                         help="the value of the --by column that names the baseline model")
    # `sql` (no resampling) leaves them unset, so that its macro can refuse them unless it is compare
    command.add_argument("--test", default="t" if resampling else None,
                         help="t (default), permutation or bootstrap" if resampling
                         else "t only (its normal-approximation p-value): SQL has no resampling test")
    command.add_argument("--correction", default="holm" if resampling else None, help="holm (default), bonferroni or none")
    command.add_argument("--family", default="metric_and_k" if resampling else None,
                         help="what one correction spans: metric_and_k (default: one metric at one k across the models) "
                              "or all (every row)")
    command.add_argument("--alpha", type=_number, default=0.05 if resampling else None,
                         help="significance level (default 0.05)")
    if resampling:
        command.add_argument("--seed", type=int, default=0,
                             help="for --test permutation and bootstrap (default 0: the same p-values every run)")


def _add_over_time_options(command: argparse.ArgumentParser) -> None:
    """evaluate_over_time's flags, and the trend gate's (but --alpha, whose default differs)."""
    command.add_argument("--period", default="period", help="predictions' column of the day a list was served (default period)")
    command.add_argument("--time", default="label_time",
                         help="truth's column of the time of a label: a timestamp, or a date (default label_time)")
    command.add_argument("--window", type=int, default=7, help="the window of labels, in days from the period's start (default 7)")
    command.add_argument("--as-of", help="the time completeness is judged at (default: the latest label time)")
    command.add_argument("--loaded-at", help="truth's column of the time each label was loaded")
    command.add_argument("--periods", type=int, default=7, help="the trend gate's periods before the latest (default 7)")
    command.add_argument("--min-drop", type=_number, default=0.0, help="the trend gate's smallest drop that fails (default 0)")


def _parser(arguments: list[str] = ()) -> argparse.ArgumentParser:
    """The command's parser, and its subcommands' parsers, each knowing the command line
    `arguments` it will read (error() names what it did not read)."""
    parser = _Parser(prog="rank-metrics", description="Ranking metrics: MAP@k, NDCG, precision, recall, MRR, hit rate.",
                     arguments=arguments,
                     epilog="Exit status: 0 done, 2 bad input, 3 --check disagreement, 4 a model significantly worse "
                            "(compare --fail-if-worse), 1 any other failure.")
    parser.add_argument("--version", action="version", version=f"rank-metrics {__version__}")
    commands = parser.add_subparsers(dest="command", required=True,
                                     parser_class=functools.partial(_Parser, arguments=arguments))

    for name, (function, help_text) in _COMMANDS.items():
        command = _table_command(commands, name, help_text, metrics=function.startswith("evaluate"),
                                 metric=_single_metric(function))
        if function == "evaluate":
            command.add_argument("--confidence", type=_number,
                                 help="of the interval ci_low..ci_high around each value (default 0.95)")
        command.add_argument("--format", choices=("table", "csv", "json"), default="table",
                             help="table (default: rounded for reading), or csv or json with every digit")
        command.add_argument("--check", action="store_true",
                             help="also run the reference implementation and fail if it disagrees (every user up to "
                                  "100,000 rows in the two inputs, past that a repeatable sample of 1,000 users)")
        command.add_argument("--check-all", action="store_const", const="all", dest="check",
                             help="--check on every user, however large the inputs")

    command = _table_command(commands, "compare", "each model (--by) against --baseline: paired tests per k and metric")
    _add_comparison_options(command, baseline_required=True)
    command.add_argument("--resamples", type=int, default=RESAMPLES,
                         help=f"sign flips or bootstrap resamples (default {RESAMPLES})")
    command.add_argument("--format", choices=("table", "markdown", "latex", "csv", "json"), default="table",
                         help="table (default), markdown or latex for a document, csv or json with every digit")
    command.add_argument("--check", action="store_true",
                         help="also check the pairs and differences against the reference implementation (a sample "
                              "of 1,000 users past 100,000 rows)")
    command.add_argument("--check-all", action="store_const", const="all", dest="check",
                         help="--check on every user, however large the inputs")
    command.add_argument("--fail-if-worse", action="store_true",
                         help=f"exit with status {EXIT_WORSE} when a model is significantly worse than the baseline "
                              "(a row marked ▼): a release gate for CI outside dbt")
    command.add_argument("--min-users", type=_users, default=MIN_PAIRED_USERS,
                         help=f"--fail-if-worse fails only on rows of at least this many paired users; fewer are "
                              f"warned of (default {MIN_PAIRED_USERS})")

    for name, help_text in (("report", "one self-contained HTML page: comparison, charts, users, options"),
                            ("plot", "each metric against k per group with its confidence band, as an image")):
        command = _table_command(commands, name, help_text)
        command.add_argument("--confidence", type=_number, help="of the bands (default 0.95)")
        command.add_argument("-o", "--output", required=True,
                             help="the file to write: " + ("an .html page" if name == "report" else ".png, .svg or .pdf"))
        if name == "report":
            _add_comparison_options(command, baseline_required=False)
            command.add_argument("--title", help="the page's heading (default: Ranking metrics, or Ranking metrics over time)")
            command.add_argument("--train", help="the (user, item) interactions the model learned from: the page then "
                                                 "shows the beyond-accuracy metrics beside accuracy")
            command.add_argument("--beyond-convention", help="their definitions: recommenders or evidently (default: "
                                                             "recommenders' where it has the metric, else Evidently's)")
            command.add_argument("--over-time", action="store_true",
                                 help="the dashboard over time instead: each metric per --period against each period's "
                                      "window of labels (--time, --window), incomplete periods marked, the trend gate's "
                                      "drops (--periods, --alpha: default 0.01, --min-drop) highlighted")
            _add_over_time_options(command)
            # --alpha: the comparison's (default 0.05) or, over time, the trend gate's (default 0.01)
            command.set_defaults(alpha=None)

    command = _table_command(commands, "over-time", "every metric per period (--period) against each period's window of "
                                                     "labels (--time, --window days), with a complete flag")
    _add_over_time_options(command)
    command.add_argument("--confidence", type=_number, help="of the interval ci_low..ci_high around each value (default 0.95)")
    command.add_argument("--format", choices=("table", "csv", "json"), default="table",
                         help="table (default: rounded for reading), or csv or json with every digit")
    command.add_argument("--fail-if-drop", action="store_true",
                         help=f"exit with status {EXIT_WORSE} when the latest complete period is significantly below the "
                              "periods before it (the trend gate: --periods, --alpha, --min-drop), naming each drop")
    command.add_argument("--alpha", type=_number, default=0.01, help="for --fail-if-drop: the one-sided level (default 0.01)")

    _add_beyond_accuracy_command(commands)

    command = commands.add_parser(
        "sql", help="print the SQL for tables named PREDICTIONS and TRUTH", description=SQL_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    command.add_argument("predictions", nargs="?", default="predictions", help="table name (default: predictions)")
    command.add_argument("truth", nargs="?", default="truth", help="table name (default: truth)")
    _add_metric_options(command, k_required=False)
    command.add_argument("--database", metavar="FILE.duckdb",
                         help="look the tables' columns up in this DuckDB file; opened read-only with external "
                              "access off, so a view in it can read nothing outside the file")
    command.add_argument("--dialect", default="duckdb", help="one of " + ", ".join(api.DIALECTS) + " (default duckdb)")
    command.add_argument("--macro", help="the query: " + ", ".join(api.MACROS)
                         + " (default map_at_k; evaluate with --metrics)")
    command.add_argument("--metrics", nargs="+", help="for --macro evaluate (the default with it), evaluate_users or "
                         "compare: among " + ", ".join(api.METRICS))
    command.add_argument("--per-user", action="store_true", help="the per-user AP@k query (--macro average_precision_at_k)")
    command.add_argument("--confidence", type=_number,
                         help="for --macro evaluate: of the interval ci_low..ci_high (default 0.95)")
    _add_comparison_options(command, baseline_required=False, resampling=False)   # for --macro compare
    parser.commands = commands.choices   # each command's own parser, for its errors
    return parser


_shown_warnings: set[str] = set()   # a command that runs several queries (report) warns once


def _show_warning(message, category, filename, lineno, file=None, line=None, show=warnings.showwarning):
    """rank_metrics' own warnings as one line, like its errors, each once; any other the usual way."""
    if issubclass(category, RankMetricsWarning):
        if str(message) not in _shown_warnings:
            _shown_warnings.add(str(message))
            print("rank-metrics: warning: " + str(message).removeprefix("rank_metrics: "), file=sys.stderr)
    else:
        show(message, category, filename, lineno, file, line)


_interrupted = False   # whether Ctrl-C was pressed during this main()


def _on_interrupt(signum, frame):
    """Ctrl-C as Python's own handler takes it (a KeyboardInterrupt, which DuckDB's running query
    also sees and stops on), and remembered: DuckDB raises an error of its own instead (2.0:
    RuntimeError: Query interrupted; others an InterruptException), which may be wrapped again."""
    global _interrupted
    _interrupted = True
    raise KeyboardInterrupt


def _was_interrupted(error: Exception) -> bool:
    """Whether an engine's error is Ctrl-C's (an InterruptException also where SIGINT was not ours)."""
    duckdb = sys.modules.get("duckdb")   # not imported: none of its errors can have happened
    return _interrupted or (duckdb is not None and isinstance(error, duckdb.InterruptException))


def main(argv: list[str] | None = None) -> int:
    global _interrupted
    shown_before, warnings.showwarning = warnings.showwarning, _show_warning
    _shown_warnings.clear()
    _interrupted = False
    # only where Python's own handler is (not under nohup's ignored SIGINT, nor a caller's handler)
    ours = threading.current_thread() is threading.main_thread() \
        and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    handler_before = signal.signal(signal.SIGINT, _on_interrupt) if ours else None
    try:
        return _main(argv)
    except BrokenPipeError:
        # the reader went away (`| head`): nothing more to say, and no traceback at exit either
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except _OutputFailed as error:   # a full disk, a closed standard output
        return _fail(str(error), EXIT_FAILED)
    except RankMetricsError as error:   # the output itself (_write_out)
        return _fail(error, EXIT_BAD_INPUT)
    except KeyboardInterrupt:
        return _say_interrupted()
    finally:
        warnings.showwarning = shown_before
        if ours:
            signal.signal(signal.SIGINT, handler_before)
        while _opened:
            with contextlib.suppress(Exception):
                _opened.pop().close()


def _say_interrupted() -> int:
    """Ctrl-C: one line and status 130, as a shell tool ends; no traceback, whatever was running."""
    with contextlib.suppress(OSError, ValueError):
        print("rank-metrics: interrupted", file=sys.stderr)
    return EXIT_INTERRUPTED


class _OutputFailed(Exception):
    """Standard output took no more: its OS error as one line, not a traceback."""


# encodings whose encoder begins every text it is given with a byte-order mark
_MARKED_ENCODINGS = ("utf-8-sig", "utf-16", "utf-32")


def _write_out(text: str, exact: bool = True) -> None:
    """Write the output whole, or raise BrokenPipeError. Python's buffered stdout reports a large
    write that the pipe took only part of (the reader of `| head` went away after 64 KiB) as done,
    and the rest was lost with status 0: the bytes are written here until the pipe has taken them
    all or refuses. What the text layer would do is done here too: its encoding and its newlines
    on Windows. A character the encoding lacks (an ASCII terminal) is a RankMetricsError for output
    that must be `exact` (CSV, SQL: an id written otherwise would be another id), and an escape
    in a table for people to read (compare's ▲ and ▼)."""
    if sys.stdout is None:   # started with standard output closed (`>&-`)
        raise _OutputFailed("rank_metrics: standard output is closed, so the result cannot be written")
    try:
        _write_all(text, exact)
    except BrokenPipeError:
        raise
    except OSError as error:
        raise _OutputFailed("rank_metrics: cannot write the result to standard output: "
                            f"{error.strerror or error}") from None


def _write_all(text: str, exact: bool) -> None:
    stream = getattr(sys.stdout, "buffer", None)
    encoding = codecs.lookup(getattr(sys.stdout, "encoding", None) or "utf-8").name
    if stream is None or encoding in _MARKED_ENCODINGS:   # a test's StringIO; a marked encoding
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    sys.stdout.flush()
    if os.linesep != "\n":
        text = text.replace("\n", os.linesep)
    try:
        encoded = text.encode(encoding, errors=sys.stdout.errors or "strict")
    except UnicodeEncodeError as error:
        if exact:
            raise RankMetricsError(
                f"rank_metrics: the output holds {error.object[error.start:error.end]!r}, which standard output's "
                f"encoding ({encoding}) cannot write: set PYTHONIOENCODING=utf-8 (or a UTF-8 locale)") from None
        encoded = text.encode(encoding, errors="backslashreplace")
    data = memoryview(encoded)
    while data:
        try:
            written = stream.write(data)
        except BlockingIOError as error:   # a non-blocking stdout, full for now
            written = error.characters_written
        if not written:   # nothing taken (non-blocking): wait until the pipe takes more or breaks
            select.select([], [stream.fileno()], [])
            continue
        data = data[written:]
    while True:
        try:
            stream.flush()
            return
        except BlockingIOError:
            select.select([], [stream.fileno()], [])


def _silence_stdout() -> None:
    with open(os.devnull, "w") as devnull:
        try:
            os.dup2(devnull.fileno(), sys.stdout.fileno())
        except (OSError, ValueError):   # stdout is not a real file (as under a test's redirect)
            pass


# the API's arguments that the command line takes as flags of the same name (--truth-user for
# truth_user): the mentions of an error (errors.py) are named so; others (k: -k; predictions and
# truth, its positional arguments; con, check) as the API spells them
_FLAGS = frozenset([*api.OPTIONS, "dialect", "macro", "metrics", "confidence", "baseline", "test", "correction", "family",
                    "alpha", "seed", "resamples", "strict", "period", "time", "window", "as_of", "loaded_at", "periods",
                    "min_drop", "similarity", "train_user", "train_item", "features_item", "item_features",
                    "beyond_convention"])


def _command_line_text(error: Exception | str) -> str:
    """An error's message as the command line says it: each argument it names as its flag
    (errors.Mention: '(--truth-user)', '--predictions-shape list', 'takes no --baseline')."""
    if not isinstance(error, RankMetricsError):
        return str(error)
    # a type the command line cannot cast: a CSV file's types are its reader's guess
    return error.for_command_line(_FLAGS).replace(
        "; cast one so they match", "; make them match (a CSV file's column types are its reader's guess from the "
        "values: ids written alike in both files are read alike)")


def _fail(error: Exception | str, status: int) -> int:
    if _interrupted:   # Ctrl-C, whatever error it became on its way up (a file "cannot be read")
        return _say_interrupted()
    message = _command_line_text(error)
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    # the API's messages start "rank_metrics: "; after the command's own prefix that says it twice
    print("rank-metrics: error: " + " | ".join(lines).removeprefix("rank_metrics: "), file=sys.stderr)
    return status


def _main(argv: list[str] | None) -> int:
    command_line = _spread_k(list(sys.argv[1:] if argv is None else argv))
    parser = _parser(command_line)
    arguments, unknown = parser.parse_known_args(command_line)
    if unknown:   # said by the command's parser, whose --help lists the flags it takes
        # file names past the two inputs: most often a glob the shell expanded (a new user's trial)
        files = not any(token.startswith("-") for token in unknown)
        names = [getattr(arguments, "predictions", None), getattr(arguments, "truth", None), *unknown]
        glob = (f"; more than two file names ({', '.join(map(str, names))}): a glob in quotes ('parts/*.csv') is "
                "read by rank-metrics as one input, where the shell would give each file as an argument" if files else "")
        command = parser.commands[arguments.command]
        command.error(f"unrecognized arguments: {' '.join(unknown)}{_meant_options(unknown, command)}{glob}")
    _engines.SHOW_PROGRESS = _progress_wanted(sys.stdout)
    try:
        if arguments.command == "beyond-accuracy":
            return _beyond_accuracy(arguments)
        keywords = _metric_keywords(arguments)
        if arguments.command == "sql":
            arguments.macro = arguments.macro or ("evaluate" if arguments.metrics else "map_at_k")
            if arguments.per_user and arguments.macro not in ("map_at_k", "average_precision_at_k"):
                raise RankMetricsError(f"rank_metrics: --per-user is --macro average_precision_at_k; it cannot go with "
                                       f"--macro {arguments.macro} (evaluate_users is the per-user query of evaluate)")
            macro = "average_precision_at_k" if arguments.per_user else arguments.macro
            _refuse_unread_options(arguments, _single_metric(macro), f"--macro {macro}")
            takes_k = _takes_k(macro)
            if takes_k and arguments.k is None:
                parser.commands["sql"].error("the following arguments are required: -k")
            if not takes_k and arguments.k is not None:
                raise RankMetricsError(f"rank_metrics: --macro {macro} takes no -k: each user's cutoff is its R, the number "
                                       "of its relevant items")
            keywords.setdefault("k", 1)   # (unread by a metric of no k)
            _write_out(api.sql(arguments.predictions, arguments.truth, dialect=arguments.dialect, macro=macro,
                               metrics=arguments.metrics, confidence=arguments.confidence,
                               baseline=arguments.baseline, test=arguments.test,
                               correction=arguments.correction, family=arguments.family, alpha=arguments.alpha,
                               con=_database(arguments), **keywords) + "\n")
            return 0
        if arguments.command == "compare":
            return _compare(arguments, keywords)
        if arguments.command == "over-time":
            return _over_time(arguments, keywords)
        if arguments.command in ("report", "plot"):
            try:
                return _picture(arguments, keywords)
            except RankMetricsError as error:   # its comparison's errors, named as the command
                named = error.marked.replace("rank_metrics: compare: ", f"rank_metrics: {arguments.command}: ", 1)
                raise RankMetricsError(named) from None
        function_name = _COMMANDS[arguments.command][0]
        _refuse_unread_options(arguments, _single_metric(function_name), arguments.command)
        if function_name.startswith("evaluate"):
            keywords["metrics"] = arguments.metrics
        if function_name == "evaluate":
            keywords["confidence"] = arguments.confidence
        elif _takes_k(function_name):
            keywords["k"] = arguments.k   # always a table, even for one k
        else:   # a cutoff-free metric: a table, even without by (a k given, it says it takes none)
            keywords["by"] = keywords["by"] or []
        result = getattr(api, function_name)(arguments.predictions, arguments.truth, check=arguments.check,
                                             con=_database(arguments), **keywords)
    except RankMetricsError as error:
        return _fail(_sandbox_refusal(error, arguments.database) or error, EXIT_BAD_INPUT)
    except CheckFailed as error:
        return _fail(str(error), EXIT_CHECK_FAILED)
    except ModuleNotFoundError as error:
        return _fail(str(missing(error.name or "a package", f"rank-metrics {arguments.command}")), EXIT_BAD_INPUT)
    except BrokenPipeError:
        raise
    except Exception as error:   # an engine's own failure: one line, the traceback on request
        if _was_interrupted(error):
            raise KeyboardInterrupt from None
        refused = _sandbox_refusal(error, arguments.database)
        if refused is not None:   # the input's fault (a view reading outside its file), not ours
            return _fail(refused, EXIT_BAD_INPUT)
        if os.environ.get("RANK_METRICS_DEBUG"):
            raise
        return _fail(f"{arguments.command} failed: {type(error).__name__}: {error} "
                     "(RANK_METRICS_DEBUG=1 shows the traceback)", EXIT_FAILED)
    _write_table(result, arguments.format)
    return 0


def _over_time(arguments: argparse.Namespace, keywords: dict) -> int:
    """over-time: evaluate_over_time's rows; with --fail-if-drop, the trend gate's drops named on
    standard error and exit status EXIT_WORSE."""
    result = over_time.evaluate_over_time(
        arguments.predictions, arguments.truth, metrics=arguments.metrics, confidence=arguments.confidence,
        period=arguments.period, time=arguments.time, window=arguments.window, as_of=arguments.as_of,
        loaded_at=arguments.loaded_at, con=_database(arguments), **keywords)
    drops = over_time.no_significant_drop(result, periods=arguments.periods, alpha=arguments.alpha,
                                          min_drop=arguments.min_drop, period=arguments.period) \
        if arguments.fail_if_drop else None
    _write_table(result, arguments.format)
    if drops is not None and len(drops):
        for row in drops.to_dict("records"):
            group = ", ".join(f"{name} {row[name]}" for name in drops.columns[:list(drops.columns).index("metric")])
            day = str(row[arguments.period]).removesuffix(" 00:00:00")   # a date read as a timestamp
            print(f"rank-metrics: drop: {group + ', ' if group else ''}{row['metric']}@{row['k']} on {day}: "
                  f"{row['value']:.6g} against {row['base']:.6g} before (z {row['z']:.3f}, p {row['p_value']:.3g} "
                  f"< alpha {arguments.alpha:g})", file=sys.stderr)
        return EXIT_WORSE
    return 0


def _write_table(result, output_format: str) -> None:
    if output_format == "csv":
        _write_out(result.to_csv(index=False, lineterminator="\n"))
    elif output_format == "json":
        _write_out(_json(result) + "\n")
    elif not len(result):   # the header alone, not pandas' "Empty DataFrame"
        _write_out(" ".join(result.columns) + "\n", exact=False)
    else:
        # a missing value as the comparison table shows it, not pandas' NaN
        _write_out(result.to_string(index=False, na_rep="-") + "\n", exact=False)


def _progress_wanted(stream) -> bool:
    """DuckDB's progress bar (which it draws on stdout) on a terminal only: not in a pipe, a file
    or a CI log."""
    try:
        return stream.isatty() and not os.environ.get("CI")
    except (AttributeError, ValueError):
        return False


def _compare(arguments: argparse.Namespace, keywords: dict) -> int:
    """rank-metrics compare: the comparison table, markers on significant results."""
    _require_a_by(arguments.command, keywords["by"])
    result = api_compare(arguments.predictions, arguments.truth, metrics=arguments.metrics, baseline=arguments.baseline,
                         test=arguments.test, correction=arguments.correction, family=arguments.family, alpha=arguments.alpha,
                         seed=arguments.seed, resamples=arguments.resamples, check=arguments.check,
                         con=_database(arguments), **keywords)
    model, segments = keywords["by"][0], keywords["by"][1:]

    def named(row) -> str:   # a model, and its segment when there are segments
        return str(row[model]) + (f" ({', '.join(f'{column} {row[column]}' for column in segments)})" if segments else "")
    worse = result[(result["significant"] == 1) & (result["difference"] < 0)]
    if arguments.fail_if_worse:
        too_few = worse[worse["n_users"] < arguments.min_users]
        if len(too_few):
            rows = ", ".join(f"{named(row)} {row['metric']}@{row['k']} ({row['n_users']} users)" for row in too_few.to_dict("records"))
            print(f"rank-metrics: warning: worse than the baseline {arguments.baseline!r} but on fewer than --min-users "
                  f"{arguments.min_users} paired users, so not failed: {rows}", file=sys.stderr)
        worse = worse[worse["n_users"] >= arguments.min_users]
    failed = arguments.fail_if_worse and len(worse)
    try:
        if arguments.format == "csv":
            _write_out(result.to_csv(index=False, lineterminator="\n"))
        elif arguments.format == "json":
            _write_out(_json(result) + "\n")
        else:
            _write_out(_comparison_table(result, keywords["by"], arguments, arguments.resamples), exact=False)
    except BrokenPipeError:
        if not failed:
            raise
        _silence_stdout()   # the gate's verdict matters more than the table nobody reads: said below
    if failed:
        rows = ", ".join(f"{named(row)} {row['metric']}@{row['k']}" for row in worse.to_dict("records"))
        print(f"rank-metrics: worse than the baseline {arguments.baseline!r}: {rows}", file=sys.stderr)
        return EXIT_WORSE
    return 0


def _comparison_table(result, groups, arguments: argparse.Namespace, resamples: int) -> str:
    """compare's rows for people to read (compare's and beyond-accuracy --baseline's): ▲ and ▼,
    and a legend of the test, correction and family."""
    from ._tables import comparison_text

    # the baseline as written (repr doubled its backslashes, which Markdown's escape doubled again)
    legend = (f"{BETTER} / {WORSE}: significantly better / worse than '{arguments.baseline}' "
              f"(adjusted p < {arguments.alpha}; test {arguments.test}, correction {arguments.correction} over "
              f"{_FAMILY_WORDS[arguments.family]})")
    return comparison_text(result, groups, arguments.format, legend, None if arguments.test == "t" else resamples,
                           arguments.correction, arguments.family)


# the family a correction spans, as the table's legend says it
_FAMILY_WORDS = {"metric_and_k": "each metric at each k", "all": "every row"}


def _json(result) -> str:
    """The rows as JSON records with every digit (pandas' to_json keeps at most 15), NaN as null;
    a column of days (DuckDB gives a DATE as a timestamp at midnight) as its days, as CSV has it."""
    import json

    for name in result.columns:
        column = result[name]
        if str(column.dtype).startswith("datetime64") and (column.dropna() == column.dropna().dt.normalize()).all():
            result = result.assign(**{name: column.dt.strftime("%Y-%m-%d")})
    records = result.astype(object).where(result.notna(), None).to_dict(orient="records")
    return json.dumps(records, default=lambda value: value.item() if hasattr(value, "item") else str(value))


def _require_a_by(command: str, by: list | None) -> None:
    """compare's models are the values of the first --by column, its segments those of the others."""
    if not by:
        raise RankMetricsError(f"rank_metrics: {command}: --by must name the column whose values are the models "
                               "(--baseline is one of them), then any segment columns; --by is missing")


def _require_one_by(command: str, by: list | None) -> None:
    """compare's models are the values of one --by column (the API's message names `by`)."""
    if not by or len(by) != 1:
        got = "got --by " + " ".join(by) if by else "--by is missing"
        raise RankMetricsError(f"rank_metrics: {command}: --by must name one column, the one whose values are the "
                               f"models (--baseline is one of them); {got}")


def _picture(arguments: argparse.Namespace, keywords: dict) -> int:
    """rank-metrics report / plot: write the page or the chart to --output."""
    from . import _report as report

    common = dict(metrics=arguments.metrics, confidence=arguments.confidence, con=_database(arguments),
                  **keywords)
    # the name is checked before anything is computed: the format follows from it
    form = os.path.splitext(arguments.output)[1].lower().lstrip(".")
    forms = ("png", "svg", "pdf") if arguments.command == "plot" else ("html", "htm")
    if form not in forms:
        raise RankMetricsError(f"rank_metrics: --output: expected a name ending in {', '.join('.' + one for one in forms[:-1])} "
                               f"or .{forms[-1]}; got {arguments.output!r}"
                               + ("" if arguments.command == "plot" else " (report writes one HTML page)"))
    folder = os.path.dirname(os.path.abspath(arguments.output))
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise RankMetricsError(f"rank_metrics: --output: cannot write {arguments.output!r}: "
                               f"{'no folder' if not os.path.isdir(folder) else 'no permission to write in'} {folder!r}")
    if arguments.command == "plot":
        figure = report.plot(arguments.predictions, arguments.truth, **common)
        try:
            report.save_figure(figure, arguments.output, form)
        except (ValueError, OSError) as error:
            raise RankMetricsError(f"rank_metrics: --output: cannot write {arguments.output!r}: {error}") from None
    else:
        if arguments.baseline is not None:
            _require_one_by(arguments.command, keywords["by"])
        over_time = dict(over_time=True, period=arguments.period, time=arguments.time, window=arguments.window,
                         as_of=arguments.as_of, loaded_at=arguments.loaded_at, periods=arguments.periods,
                         min_drop=arguments.min_drop) if arguments.over_time else {}
        page = report.report(arguments.predictions, arguments.truth, baseline=arguments.baseline, test=arguments.test,
                             correction=arguments.correction, family=arguments.family, alpha=arguments.alpha,
                             seed=arguments.seed, title=arguments.title, train=arguments.train,
                             beyond_convention=arguments.beyond_convention, **over_time, **common)
        try:
            with open(arguments.output, "w", encoding="utf-8") as out:
                out.write(page)
        except OSError as error:
            raise RankMetricsError(f"rank_metrics: --output: cannot write {arguments.output!r}: {error}") from None
    print(f"wrote {arguments.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
