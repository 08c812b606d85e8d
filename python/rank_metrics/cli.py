"""The command line: `rank-metrics map-at-k PREDICTIONS TRUTH -k 12` and `rank-metrics sql`."""

from __future__ import annotations

import argparse
import sys

from . import __version__, api, reference
from .errors import CheckFailed, RankMetricsError


def _k_values(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"k must be a positive integer; got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"k must be a positive integer; got {text!r}")
    return value


def _add_metric_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-k", dest="k", type=_k_values, nargs="+", required=True,
                        help="the cutoff; several values give a row per k")
    parser.add_argument("--user", default="user_id", help="user column (default: user_id)")
    parser.add_argument("--item", default="item_id", help="item column (default: item_id)")
    order = parser.add_mutually_exclusive_group()
    order.add_argument("--rank", help="rank column, ascending (default: a column named rank)")
    order.add_argument("--score", help="score column, descending (default: a column named score)")
    parser.add_argument("--relevance", help="relevance grade column of truth; grades <= 0 are not relevant")
    parser.add_argument("--by", nargs="+", help="group by these prediction columns")
    parser.add_argument("--truth-by", nargs="+", help="by columns to match in truth (default: those truth has)")
    parser.add_argument("--normalization", choices=reference.NORMALIZATIONS)
    parser.add_argument("--users", choices=reference.USERS)
    parser.add_argument("--duplicates", choices=reference.DUPLICATES)
    parser.add_argument("--tie-break", choices=reference.TIE_BREAKS)
    parser.add_argument("--convention", choices=sorted(reference.CONVENTIONS))


def _metric_keywords(arguments: argparse.Namespace) -> dict:
    return dict(k=arguments.k if len(arguments.k) > 1 else arguments.k[0], user=arguments.user,
                item=arguments.item, rank=arguments.rank, score=arguments.score,
                relevance=arguments.relevance, by=arguments.by, truth_by=arguments.truth_by,
                normalization=arguments.normalization, users=arguments.users,
                duplicates=arguments.duplicates, tie_break=arguments.tie_break,
                convention=arguments.convention)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rank-metrics", description="Ranking metrics, MAP@k first.")
    parser.add_argument("--version", action="version", version=f"rank-metrics {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    for name, help_text in (("map-at-k", "MAP@k per group and k"),
                            ("average-precision-at-k", "AP@k per user and k")):
        command = commands.add_parser(name, help=help_text)
        command.add_argument("predictions", help="Parquet or CSV file or glob")
        command.add_argument("truth", help="Parquet or CSV file or glob")
        _add_metric_options(command)
        command.add_argument("--format", choices=("table", "csv", "json"), default="table")
        command.add_argument("--check", action="store_true",
                             help="also run the reference implementation and fail if it disagrees")

    command = commands.add_parser("sql", help="print the SQL for tables named PREDICTIONS and TRUTH")
    command.add_argument("predictions", nargs="?", default="predictions", help="table name (default: predictions)")
    command.add_argument("truth", nargs="?", default="truth", help="table name (default: truth)")
    _add_metric_options(command)
    command.add_argument("--dialect", default="duckdb")
    command.add_argument("--per-user", action="store_true", help="the per-user AP@k query instead of MAP@k")
    return parser


def main(argv: list[str] | None = None) -> int:
    arguments = _parser().parse_args(argv)
    try:
        keywords = _metric_keywords(arguments)
        if arguments.command == "sql":
            print(api.sql(arguments.predictions, arguments.truth, dialect=arguments.dialect,
                          macro="average_precision_at_k" if arguments.per_user else "map_at_k",
                          **keywords))
            return 0
        function = api.map_at_k if arguments.command == "map-at-k" else api.average_precision_at_k
        if function is api.map_at_k:
            keywords["k"] = arguments.k   # always a table, even for one k
        result = function(arguments.predictions, arguments.truth, check=arguments.check, **keywords)
    except (RankMetricsError, CheckFailed) as error:
        print(f"rank-metrics: error: {error}", file=sys.stderr)
        return 2
    if arguments.format == "csv":
        sys.stdout.write(result.to_csv(index=False))
    elif arguments.format == "json":
        sys.stdout.write(result.to_json(orient="records", double_precision=15) + "\n")
    else:
        sys.stdout.write(result.to_string(index=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
