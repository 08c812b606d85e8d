"""The command line: tables, csv, json, the SQL, and errors as messages with exit code 2."""

import io
import json
from contextlib import redirect_stderr, redirect_stdout

import duckdb
import pytest

import rank_metrics
from rank_metrics.cli import main

from conftest import ROOT

RECOMMENDATIONS = str(ROOT / "seeds" / "example_recommendations.csv")
PURCHASES = str(ROOT / "seeds" / "example_purchases.csv")
COLUMNS = ["--user", "customer_id", "--item", "article_id"]


def run(*arguments):
    """(exit status, stdout, stderr) of one command line, argparse's own exits included."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(list(arguments))
        except SystemExit as exit_info:
            code = exit_info.code
    return code, out.getvalue(), err.getvalue()


def test_map_at_k_table_csv_json():
    expected = rank_metrics.map_at_k(RECOMMENDATIONS, PURCHASES, k=[5, 12], by="model",
                                     user="customer_id", item="article_id")
    code, table, _ = run("map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "5", "12", "--by", "model", *COLUMNS, "--check")
    assert code == 0
    assert table.split("\n")[0].split() == ["model", "k", "map_at_k", "n_users"]
    assert len(table.strip().split("\n")) == 7
    code, csv_text, _ = run("map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "5", "12", "--by", "model",
                            *COLUMNS, "--format", "csv")
    assert csv_text.splitlines()[0] == "model,k,map_at_k,n_users"
    code, json_text, _ = run("map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "5", "12", "--by", "model",
                             *COLUMNS, "--format", "json")
    rows = json.loads(json_text)
    # every digit, as in csv (pandas' own to_json would keep 15): the same doubles as Python's
    assert [row["map_at_k"] for row in rows] == list(expected.map_at_k)
    assert [row["n_users"] for row in rows] == [1042] * 6


def test_json_gives_null_for_a_missing_value(tmp_path):
    """One user has no standard error (SPEC §7): NULL in csv, null in JSON, never NaN."""
    predictions, truth = tmp_path / "p.csv", tmp_path / "t.csv"
    predictions.write_text("user_id,item_id,rank\n1,a,1\n")
    truth.write_text("user_id,item_id\n1,a\n")
    code, json_text, _ = run("evaluate", str(predictions), str(truth), "-k", "1", "--metrics", "map", "--format", "json")
    assert code == 0
    assert json.loads(json_text) == [{"k": 1, "metric": "map", "value": 1.0, "n_users": 1,
                                      "std_error": None, "ci_low": None, "ci_high": None}]
    # and the table a -, as compare's does
    code, table_text, _ = run("evaluate", str(predictions), str(truth), "-k", "1", "--metrics", "map")
    assert table_text.splitlines()[1].split() == ["1", "map", "1.0", "1", "-", "-", "-"]


def test_average_precision_per_user():
    code, csv_text, _ = run("average-precision-at-k", RECOMMENDATIONS, PURCHASES, "-k", "12", *COLUMNS,
                            "--by", "model", "--format", "csv")
    assert code == 0
    assert csv_text.splitlines()[0] == "model,customer_id,k,average_precision,n_relevant,n_hits"
    assert len(csv_text.splitlines()) == 1 + 3 * 1042


def test_sql_runs_on_duckdb_tables():
    code, sql_text, _ = run("sql", "recs", "purchases", "-k", "12", *COLUMNS, "--rank", "rank", "--by", "model")
    assert code == 0
    con = duckdb.connect()
    con.execute("create table recs as select * from read_csv(?)", [RECOMMENDATIONS])
    con.execute("create table purchases as select * from read_csv(?)", [PURCHASES])
    got = sorted(con.execute(sql_text).fetchall())
    expected = rank_metrics.map_at_k(RECOMMENDATIONS, PURCHASES, k=[12], by="model",
                                     user="customer_id", item="article_id")
    assert [row[0] for row in got] == list(expected.model)
    assert [row[2] for row in got] == pytest.approx(list(expected.map_at_k), rel=1e-12)


def test_errors_are_messages_not_tracebacks():
    code, _, err = run("map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "12", "--user", "nobody")
    assert code == 2
    assert err.startswith("rank-metrics: error: column nobody (--user) is not in predictions")
    code, _, err = run("map-at-k", "/tmp/missing.parquet", PURCHASES, "-k", "12")
    assert code == 2 and "predictions: no file matches" in err
    code, _, err = run("sql", "-k", "12", "--dialect", "oracle")
    assert code == 2 and "dialect must be one of duckdb" in err
    with pytest.raises(SystemExit) as exit_info, redirect_stderr(io.StringIO()):
        main(["map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "0"])
    assert exit_info.value.code == 2


def test_sql_for_a_warehouse_dialect():
    import sqlglot

    code, sql_text, _ = run("sql", "recs", "purchases", "-k", "5", "12", "--by", "model", "--dialect", "snowflake")
    assert code == 0
    assert sqlglot.parse_one(sql_text, read="snowflake").find(sqlglot.exp.Window) is not None


def test_sql_for_a_dashboard_as_a_new_users_trial_wrote_it(tmp_path):
    """What an analytics engineer's trial of `rank-metrics sql` (2026-11-25) found missing: the
    grade warning with --database, --confidence, dialects spelt as their makers do, and a
    BigQuery translation that wrote a line of its own on stderr."""
    database = tmp_path / "wh.duckdb"
    with duckdb.connect(str(database)) as con:
        con.execute("create table recs as select * from read_csv(?)", [RECOMMENDATIONS])
        con.execute("create table graded as select customer_id, article_id, 1 as rating from read_csv(?)", [PURCHASES])
    code, sql_text, err = run("sql", "recs", "graded", "-k", "12", *COLUMNS, "--by", "model", "--database", str(database))
    assert code == 0 and "select" in sql_text
    assert err.startswith("rank-metrics: warning: truth has a column 'rating' that is not read") and len(err.splitlines()) == 1
    code, sql_text, _ = run("sql", "recs", "graded", "-k", "12", "--macro", "evaluate", "--confidence", "0.9", *COLUMNS)
    assert code == 0 and "1.644853" in sql_text
    for spelt, dialect in (("BigQuery", "bigquery"), ("postgresql", "postgres"), ("Snowflake", "snowflake")):
        code, sql_text, err = run("sql", "recs", "graded", "-k", "12", "--macro", "evaluate", *COLUMNS, "--dialect", spelt)
        assert (code, err) == (0, ""), spelt
        assert sql_text == run("sql", "recs", "graded", "-k", "12", "--macro", "evaluate", *COLUMNS, "--dialect", dialect)[1]
    # a name in SQL's quotes, as DuckDB reads it (it was refused, with the advice to drop them)
    code, sql_text, _ = run("sql", 'main."recs"', "graded", "-k", "12", *COLUMNS, "--database", str(database))
    assert code == 0 and 'from "main"."recs" as' in sql_text
    code, _, err = run("sql", "recs", "graded", "-k", "12", "--baseline", "x")
    assert err.strip() == ("rank-metrics: error: map_at_k takes no --baseline (baseline is an argument of compare); "
                           "got --baseline x")


def test_compiled_macros_are_kept_between_processes(tmp_path):
    """Each command-line call is a fresh process: the macro files it compiles are kept in the
    user's cache folder, and an unusable cache folder changes nothing but the speed."""
    import os
    import subprocess
    import sys

    script = "import rank_metrics; print(rank_metrics.sql('recs', 'purchases', k=12, rank='rank'))"

    def sql_with_cache_home(cache_home):
        return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                              env={**os.environ, "XDG_CACHE_HOME": str(cache_home)}).stdout

    expected = rank_metrics.sql("recs", "purchases", k=12, rank="rank") + "\n"
    assert sql_with_cache_home(tmp_path / "cache") == expected
    kept = list((tmp_path / "cache" / "rank_metrics" / "jinja").iterdir())
    macro_files = [path for path in (ROOT / "macros").rglob("*.sql") if "dbt" not in path.relative_to(ROOT / "macros").parts]
    assert len(kept) == len(macro_files)
    written = {path.name: path.stat().st_mtime_ns for path in kept}
    assert sql_with_cache_home(tmp_path / "cache") == expected
    assert {path.name: path.stat().st_mtime_ns for path in kept} == written   # read back, not compiled again
    (tmp_path / "a_file").write_text("not a folder")
    assert sql_with_cache_home(tmp_path / "a_file") == expected


def test_progress_bar_only_on_a_terminal(tmp_path):
    """DuckDB draws its bar on stdout for queries over 2 s, into pipes too: the CLI turns it on
    for a terminal only (and never under CI), so a long run's CSV stays clean."""
    import io
    import os

    from rank_metrics import _engines
    from rank_metrics.cli import _progress_wanted

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    environment = dict(os.environ)
    os.environ.pop("CI", None)
    try:
        assert _progress_wanted(Terminal()) and not _progress_wanted(io.StringIO())
        os.environ["CI"] = "true"
        assert not _progress_wanted(Terminal())
    finally:
        os.environ.clear()
        os.environ.update(environment)
    for wanted in (True, False):
        _engines.SHOW_PROGRESS = wanted
        try:
            engine = _engines.engine_for(None)
            ((setting,),) = engine.con.execute("select current_setting('enable_progress_bar')").fetchall()
        finally:
            _engines.SHOW_PROGRESS = False
        assert setting is wanted


def test_every_option_of_every_command_has_help():
    """`--help` explains each option (a new user found --format, --title and -o without a word)."""
    import argparse

    from rank_metrics.cli import _parser

    commands = next(action for action in _parser()._actions if isinstance(action, argparse._SubParsersAction))
    unexplained = [f"{name} {action.option_strings[-1] if action.option_strings else action.dest}"
                   for name, command in commands.choices.items() for action in command._actions
                   if not action.help and not isinstance(action, argparse._HelpAction)]
    assert unexplained == []


@pytest.mark.parametrize("arguments, message", [
    (("map-at-k", "--gain", "exponential"), "--gain changes ndcg and rbp only (ndcg-at-k, rbp-at-k, or evaluate with ndcg or rbp); "
     "map-at-k does not read it"),
    (("ndcg-at-k", "--normalization", "m"), "--normalization changes map only (map-at-k, or evaluate with map); ndcg-at-k"),
    (("precision-at-k", "--recall-denominator", "min_m_k"), "--recall-denominator changes recall only"),
    (("average-precision-at-k", "--precision-denominator", "k"), "average-precision-at-k does not read it"),
    (("sql", "--gain", "exponential"), "--gain changes ndcg and rbp only (ndcg-at-k, rbp-at-k, or evaluate with ndcg or rbp); "
     "--macro map_at_k does not read it"),
])
def test_a_single_metric_command_refuses_what_it_would_not_read(arguments, message):
    """A new user passed --gain to map-at-k and got MAP unchanged, exit 0: each single-metric
    command now refuses the options of another metric (and its --help leaves them out)."""
    command, *options = arguments
    files = () if command == "sql" else (RECOMMENDATIONS, PURCHASES)
    code, _, err = run(command, *files, "-k", "5", *COLUMNS, *options)
    assert code == 2 and message in err


def test_the_options_a_command_reads_still_work():
    code, out, _ = run("ndcg-at-k", RECOMMENDATIONS, PURCHASES, "-k", "5", *COLUMNS, "--gain", "exponential", "--format", "csv")
    assert code == 0 and out.startswith("k,ndcg_at_k,n_users")
    code, out, _ = run("evaluate", RECOMMENDATIONS, PURCHASES, "-k", "5", *COLUMNS, "--metrics", "map", "ndcg",
                       "--gain", "exponential", "--normalization", "m", "--format", "csv")
    assert code == 0 and len(out.splitlines()) == 3
    code, out, _ = run("sql", "-k", "5", "--macro", "ndcg_at_k", "--gain", "exponential")
    assert code == 0 and out.startswith("-- rank_metrics ") and "gain='exponential'" in out.splitlines()[1]


def test_messages_name_the_command_line_flags(tmp_path):
    """The API's messages say rank= and (argument user); the command line says --rank and --user."""
    truth = tmp_path / "t.csv"
    truth.write_text("user_id,item_id\n1,a\n")
    code, _, err = run("map-at-k", str(truth), RECOMMENDATIONS, "-k", "5")
    assert code == 2 and "name one with --rank or --score (its columns are: user_id, item_id); truth has rank: " \
                          "are predictions and truth the other way round?" in err
    code, _, err = run("map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "5", "--user", "customer", "--item", "article_id")
    assert code == 2 and "column customer (--user) is not in predictions" in err
    code, _, err = run("map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "5", *COLUMNS, "--truth-user", "buyer")
    assert code == 2 and "column buyer (--truth-user) is not in truth" in err


def test_json_gives_days_as_csv_does(tmp_path):
    """DuckDB gives a DATE as a timestamp at midnight: JSON printed "2024-01-01 00:00:00" where
    CSV prints 2024-01-01 (a new user's trial); a time of day is kept."""
    import json

    predictions, truth = tmp_path / "p.csv", tmp_path / "t.csv"
    predictions.write_text("day,user_id,item_id,rank\n2024-01-01,1,a,1\n2024-01-02,1,a,1\n")
    truth.write_text("user_id,item_id\n1,a\n")
    code, out, _ = run("map-at-k", str(predictions), str(truth), "-k", "1", "--by", "day", "--format", "json")
    assert code == 0 and [row["day"] for row in json.loads(out)] == ["2024-01-01", "2024-01-02"]
    predictions.write_text("at,user_id,item_id,rank\n2024-01-01 10:30:00,1,a,1\n")
    code, out, _ = run("map-at-k", str(predictions), str(truth), "-k", "1", "--by", "at", "--format", "json")
    assert code == 0 and [row["at"] for row in json.loads(out)] == ["2024-01-01 10:30:00"]


def test_no_relevance_reads_no_grade_column(tmp_path):
    """--no-relevance is Python's relevance=False: truth has no grades, even in a column named
    relevance; --relevance none was the YAML hint, which the command line has no use for."""
    predictions, truth = tmp_path / "p.csv", tmp_path / "t.csv"
    predictions.write_text("user_id,item_id,rank\n1,a,1\n1,b,2\n")
    truth.write_text("user_id,item_id,relevance\n1,a,0\n1,b,1\n")
    arguments = ("precision-at-k", str(predictions), str(truth), "-k", "2", "--format", "csv")
    assert run(*arguments) == (0, "k,precision_at_k,n_users\n2,0.5,1\n", "")   # grade 0: a is not relevant
    assert run(*arguments, "--no-relevance") == (0, "k,precision_at_k,n_users\n2,1.0,1\n", "")
    code, _, err = run(*arguments, "--relevance", "none")
    assert (code, err) == (2, "rank-metrics: error: column none (--relevance) is not in truth; its columns are: user_id, "
                              "item_id, relevance; for no grade column, pass --no-relevance\n")
    code, _, err = run(*arguments, "--user", "none")
    assert (code, err) == (2, "rank-metrics: error: column none (--user) is not in predictions; its columns are: user_id, "
                              "item_id, rank\n")
    code, _, err = run(*arguments, "--relevance", "relevance", "--no-relevance")
    assert code == 2 and "argument --no-relevance: not allowed with argument --relevance" in err


def test_a_command_of_several_queries_warns_once(tmp_path):
    """report runs evaluate and more on the same inputs: each warning is printed once."""
    predictions, truth = tmp_path / "p.csv", tmp_path / "t.csv"
    predictions.write_text("user_id,item_id,rank\n1,a,1\n1,b,2\n")
    truth.write_text("user_id,item_id,rel\n1,a,0\n1,b,1\n")
    code, _, err = run("report", str(predictions), str(truth), "-k", "2", "-o", str(tmp_path / "r.html"))
    assert code == 0
    assert err.splitlines()[:-1] == ["rank-metrics: warning: truth has a column 'rel' that is not read: every truth row counts as "
                                "relevant, whatever 'rel' holds; if it holds relevance grades (0 or less: not relevant), "
                                "pass relevance='rel' (--relevance rel on the command line)"]


def test_a_resampled_p_value_of_zero_reads_below_one_over_resamples():
    """No resample as extreme as the data: p < 1/resamples, not p = 0 (SPEC §7's share; a new
    user's report), and adjusted (Holm over two rows) p < 2/resamples, not 1/resamples (a new
    user's trial: that overstated the evidence); csv keeps the share itself."""
    arguments = ("compare", RECOMMENDATIONS, PURCHASES, "-k", "12", "--by", "model", "--baseline", "popularity",
                 *COLUMNS, "--metrics", "ndcg", "--test", "permutation", "--seed", "7", "--resamples", "1000")
    code, text, _ = run(*arguments)
    (two_tower,) = [line.split() for line in text.splitlines() if line.lstrip().startswith("two_tower")]
    assert code == 0 and two_tower[-3:] == ["<0.001", "<0.002", "1042"]
    code, csv_text, _ = run(*arguments, "--format", "csv")
    rows = [line.split(",") for line in csv_text.splitlines()]
    assert float(rows[[row[0] for row in rows].index("two_tower")][rows[0].index("p_value")]) == 0.0


def test_item_separator_backslash_t_is_a_tab(tmp_path):
    """A shell passes '\\t' as a backslash and a t, and the message then showed both as \\t (a
    new user's trial): on the command line it is a tab, as in Python."""
    (tmp_path / "p.csv").write_text('user_id,item_id\nu1,"a\tb"\nu2,c\n')
    (tmp_path / "t.csv").write_text("user_id,item_id\nu1,b\nu2,c\n")
    code, out, err = run("map-at-k", str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "2",
                         "--predictions-shape", "list", "--item-separator", "\\t", "--format", "csv")
    assert (code, out.splitlines()[1], err) == (0, "2,0.75,2", "")


@pytest.mark.parametrize("command, flag, meant", [("map-at-k", "--user-id", " (did you mean --user?)"),
                                                 ("map-at-k", "--metrics", ""), ("evaluate", "--seeds", "")])
def test_an_unknown_flag_points_to_the_commands_own_help(command, flag, meant):
    # "see rank-metrics --help" lists the commands, not the flags of this one (a new user's trial)
    code, out, err = run(command, RECOMMENDATIONS, PURCHASES, "-k", "5", *COLUMNS, flag, "x")
    assert (code, out) == (2, "")
    assert err == f"rank-metrics: error: unrecognized arguments: {flag} x{meant} (see rank-metrics {command} --help)\n"
