"""The command line never shows a traceback: bad input and usage are one line with exit status 2,
a --check disagreement exits 3, any other failure one line with exit 1, a closed pipe quietly."""

import contextlib
import io
import os
import re
import subprocess
import sys
import time
from contextlib import redirect_stderr, redirect_stdout

import pandas as pd
import pytest

import rank_metrics
from rank_metrics import cli

from test_cli import COLUMNS, PURCHASES, RECOMMENDATIONS, run


def one_line_error(err: str) -> str:
    assert err.startswith("rank-metrics: error: "), err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    return err


@pytest.mark.parametrize("arguments, message", [
    (["map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "0"], "argument -k: k must be a positive integer; got '0'"),
    (["map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "five"], "argument -k: k must be a positive integer; got 'five'"),
    (["map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "5,10"],
     "argument -k: k must be a positive integer; got '5,10' (several k: -k 5 10)"),
    (["map-at-k", RECOMMENDATIONS, "-k", "5"], "the following arguments are required: truth"),
    (["map-at-k", RECOMMENDATIONS, PURCHASES], "the following arguments are required: -k (see"),
    # what argparse did not read, which it never said (a new user's trial: -K 5, --cutoff 5)
    (["map-at-k", RECOMMENDATIONS, PURCHASES, "-K", "5", "--by", "model"],
     "the following arguments are required: -k; not read: -K (see"),
    (["map-at-k", RECOMMENDATIONS, PURCHASES, "--cutoff=5", "--", "-x"],
     "the following arguments are required: -k; not read: --cutoff=5 (see"),
    (["map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "5", "--users", "everyone"],
     "argument --users: invalid choice: 'everyone'"),
    (["no-such-command"], "argument command: invalid choice: 'no-such-command'"),
    # a prefix of an option was read as it (--norm as --normalization): a typo could become another option
    (["map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "5", "--norm", "m"],
     "unrecognized arguments: --norm m (did you mean --normalization?)"),
    (["map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "5", "--u=truth"],
     "unrecognized arguments: --u=truth (did you mean --user or --users?)"),
    (["map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "5", "--rank", "a", "--score", "b"],
     "argument --score: not allowed with argument --rank"),
])
def test_usage_errors_are_one_line_with_status_2(arguments, message):
    code, out, err = run(*arguments)
    assert code == 2 and out == ""
    assert message in one_line_error(err)
    assert "--help" in err


@pytest.mark.parametrize("option, message", [
    (["--convention", "Kaggle"], "--convention must be one of 'evidently', 'kaggle', 'ml_metrics', 'ranx', "
                                 "'recommenders', 'sklearn', 'spark', 'torchmetrics', 'trec_eval'; got 'Kaggle' (did you mean 'kaggle'?)"),
    (["--metrics", "ndgc"], "--metrics: unknown metric 'ndgc' (did you mean 'ndcg'?); the metrics are "
                            + ", ".join(map(repr, rank_metrics.api.METRICS))),
    (["--confidence", "95"], "--confidence must be a number between 0 and 1 (0.95 for a 95% interval); got 95"),
])
def test_an_option_value_is_checked_before_the_files_are_read(option, message):
    """A bad --convention beside a missing file was said as the missing file (a new user's trial)."""
    code, out, err = run("evaluate", "no-such.csv", PURCHASES, "-k", "5", *option)
    assert (code, out, err) == (2, "", f"rank-metrics: error: {message}\n")


def test_k_takes_integers_only_so_file_names_after_it_stay_file_names():
    expected = rank_metrics.map_at_k(RECOMMENDATIONS, PURCHASES, k=[5, 12], by="model",
                                     user="customer_id", item="article_id")
    for arguments in (["-k", "5", "12", RECOMMENDATIONS, PURCHASES],
                      [RECOMMENDATIONS, "-k", "5", "12", PURCHASES],
                      [RECOMMENDATIONS, PURCHASES, "-k", "5", "12"],
                      ["-k", "5", RECOMMENDATIONS, "-k", "12", PURCHASES],
                      [RECOMMENDATIONS, PURCHASES, "--k", "5", "12"],   # --k, as the other options are spelt
                      ["--k=5", RECOMMENDATIONS, "--k", "12", PURCHASES]):
        code, out, err = run("map-at-k", *arguments, *COLUMNS, "--by", "model", "--format", "csv")
        assert (code, err) == (0, "")
        got = pd.read_csv(io.StringIO(out))
        assert list(got.columns) == list(expected.columns) and list(got.k) == list(expected.k)
        assert list(got.map_at_k) == pytest.approx(list(expected.map_at_k), rel=1e-12)


def test_check_disagreement_has_its_own_status(monkeypatch):
    from rank_metrics import reference

    evaluate = reference.evaluate

    def off_by_a_little(*args, **kwargs):
        user_rows, group_rows = evaluate(*args, **kwargs)
        return user_rows, [dict(row, map_at_k=row["map_at_k"] + 1e-6) for row in group_rows]

    monkeypatch.setattr(reference, "evaluate", off_by_a_little)
    code, out, err = run("map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "12", *COLUMNS, "--check")
    assert code == 3 and out == ""
    # the SQL's sum may differ from the reference's in its last digits (engines sum in any order)
    assert re.search(r"check: map_at_k for \{'k': 12\}: SQL 0\.273340071807819\d*, reference 0\.27334107180781925$",
                     one_line_error(err).strip())


def test_bad_input_is_status_2():
    code, _, err = run("map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "12", "--user", "k", "--item", "article_id")
    assert code == 2
    assert "user column k clashes with an output column" in one_line_error(err)


TAKES_NO_METRICS = "map_at_k takes no --metrics (metrics is an argument of evaluate, evaluate_users, compare); got "


@pytest.mark.parametrize("arguments, message", [
    (["--macro", "map_at_k", "--metrics", "ndcg"], TAKES_NO_METRICS + "--metrics ndcg"),
    (["--macro", "map_at_k", "--metrics", "ndcg", "recall"], TAKES_NO_METRICS + "--metrics ndcg recall"),
    # one value holding a comma or a bracket stays one value (found in review)
    (["--macro", "map_at_k", "--metrics", "ndcg,recall", "a]b"], TAKES_NO_METRICS + "--metrics ndcg,recall 'a]b'"),
    # a backslash or a quote: the macros quote text as repr does, so it reads back as given
    (["--macro", "map_at_k", "--metrics", "C:\\temp"], TAKES_NO_METRICS + "--metrics 'C:\\temp'"),
    (["--macro", "map_at_k", "--metrics", "it's", 'say "hi"'], TAKES_NO_METRICS + "--metrics 'it'\"'\"'s' 'say \"hi\"'"),
    (["--macro", "evaluate", "--baseline", "a"], "evaluate takes no --baseline (baseline is an argument of compare)"),
    # one value too, as a shell takes it back (found in review: 'a\\b' was shown doubled, "it's" not as a flag)
    (["--baseline", "a\\b"], "map_at_k takes no --baseline (baseline is an argument of compare); got --baseline 'a\\b'"),
    (["--baseline", "it's"], "map_at_k takes no --baseline (baseline is an argument of compare); got --baseline 'it'\"'\"'s'"),
    (["--macro", "ndcg_at_k", "--alpha", "0.1"], "ndcg_at_k takes no --alpha"),
    (["--per-user", "--macro", "evaluate"], "--per-user is --macro average_precision_at_k; it cannot go with --macro evaluate"),
])
def test_sql_refuses_an_argument_its_macro_would_drop(arguments, message):
    """`sql --metrics ndcg` printed MAP@k's query, which ignores metrics: a macro named with an
    argument it does not take fails (without --macro, --metrics asks for evaluate's query)."""
    code, out, err = run("sql", "p", "t", "-k", "12", *arguments)
    assert code == 2 and out == ""
    assert one_line_error(err).startswith(f"rank-metrics: error: {message}")


@pytest.mark.parametrize("arguments, message", [
    (["evaluate", "--metrics", "ndgc"], "--metrics: unknown metric 'ndgc' (did you mean 'ndcg'?); the metrics are 'map', 'ndcg',"),
    (["compare", "--by", "model", "--baseline", "3"], "--baseline: predictions has no rows with model = '3';"),
])
def test_the_option_a_message_is_about_is_named_as_a_flag(arguments, message):
    """Messages that begin with the argument they are about named it as Python does
    ('metrics: unknown metric'), where the command line names its flags (a README trial)."""
    code, _, err = run(arguments[0], RECOMMENDATIONS, PURCHASES, "-k", "12", *COLUMNS, *arguments[1:])
    assert code == 2
    assert one_line_error(err).startswith(f"rank-metrics: error: {message}")


def test_a_data_check_about_an_option_names_its_flag(tmp_path):
    (tmp_path / "sub.csv").write_text("customer_id,prediction\nc1,a b\n")
    (tmp_path / "sol.csv").write_text("customer_id,prediction\nc1,a\n")
    code, _, err = run("map-at-k", str(tmp_path / "sub.csv"), str(tmp_path / "sol.csv"), "-k", "12", "--user", "customer_id",
                       "--item", "prediction", "--predictions-shape", "list", "--truth-shape", "list", "--item-separator", ";")
    assert code == 2
    assert one_line_error(err).startswith("rank-metrics: error: --item-separator: ';' is in no value of column prediction "
                                          "of predictions, so each whole text would be one item, but ' ' is")


def test_an_engine_failure_is_one_line_with_status_1(monkeypatch):
    import duckdb

    def fails(*args, **kwargs):
        raise duckdb.IOException("IO Error: disk full\nwhile writing a temporary file")

    monkeypatch.setattr(rank_metrics.api, "map_at_k", fails)
    monkeypatch.delenv("RANK_METRICS_DEBUG", raising=False)
    code, _, err = run("map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "12", *COLUMNS)
    assert code == 1
    assert one_line_error(err) == ("rank-metrics: error: map-at-k failed: IOException: IO Error: disk full | "
                                   "while writing a temporary file (RANK_METRICS_DEBUG=1 shows the traceback)\n")
    monkeypatch.setenv("RANK_METRICS_DEBUG", "1")
    with pytest.raises(duckdb.IOException):
        cli.main(["map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "12", *COLUMNS])


def test_a_missing_optional_package_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy.stats", None)   # makes `import scipy.stats` fail
    code, _, err = run("compare", RECOMMENDATIONS, PURCHASES, "-k", "12", "--by", "model", "--baseline", "popularity",
                       *COLUMNS, "--metrics", "map")
    assert code == 2
    assert "needs the scipy package, which is not installed: pip install 'rank-metrics[stats]'" in one_line_error(err)


@pytest.mark.parametrize("arguments", [
    ["sql", "-k", "5"],
    ["map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "5", *COLUMNS, "--by", "model"],
])
def test_a_closed_pipe_ends_quietly(arguments):
    """`rank-metrics … | head` where the reader has gone: no traceback, the shell's status for it."""
    process = subprocess.Popen([sys.executable, "-m", "rank_metrics.cli", *arguments],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()
    assert process.stderr.read() == b""
    assert process.wait() == 141


def test_a_pipe_closed_part_way_through_a_large_output_is_seen(tmp_path):
    """`… --format csv | head -1` on a large output: Python's stdout reported the write the pipe
    took only 64 KiB of as done, and the command ended with status 0 (a README trial)."""
    users = range(20_000)
    pd.DataFrame({"user_id": [u for u in users for _ in range(3)], "item_id": [i % 7 for i in range(60_000)],
                  "rank": [1, 2, 3] * 20_000}).to_parquet(tmp_path / "p.parquet")
    pd.DataFrame({"user_id": list(users), "item_id": [u % 7 for u in users]}).to_parquet(tmp_path / "t.parquet")
    process = subprocess.Popen([sys.executable, "-m", "rank_metrics.cli", "evaluate-users", str(tmp_path / "p.parquet"),
                                str(tmp_path / "t.parquet"), "-k", "3", "--format", "csv"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout.readline().startswith(b"user_id,k,average_precision")
    process.stdout.close()
    assert process.wait() == 141
    assert process.stderr.read() == b""


def _users_of_two_models(tmp_path):
    """Model a's first three items are what each of 300 users bought; model b lists others."""
    users = range(300)
    rows = [(model, user, (user + step) % 50 if model == "a" else (user + step + 20) % 50, step)
            for model in "ab" for user in users for step in range(1, 11)]
    pd.DataFrame(rows, columns=["model", "user_id", "item_id", "rank"]).to_parquet(tmp_path / "p.parquet")
    pd.DataFrame([(user, (user + step) % 50) for user in users for step in range(1, 4)],
                 columns=["user_id", "item_id"]).to_parquet(tmp_path / "t.parquet")
    return str(tmp_path / "p.parquet"), str(tmp_path / "t.parquet")


def test_fail_if_worse_is_said_when_the_reader_went_away(tmp_path):
    """compare --fail-if-worse | head: the gate's status 4 and its line on stderr, not the
    pipe's 141 (found in review): a CI gate must not pass because its table was not read."""
    predictions, truth = _users_of_two_models(tmp_path)
    process = subprocess.Popen([sys.executable, "-m", "rank_metrics.cli", "compare", predictions, truth, "-k", "3",
                                "--by", "model", "--baseline", "a", "--fail-if-worse"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()
    assert process.wait() == 4
    assert process.stderr.read().decode().startswith("rank-metrics: worse than the baseline 'a': b map@3, b ndcg@3")


@pytest.mark.parametrize("how", ["unbuffered", "non-blocking", "unbuffered non-blocking"])
def test_an_unbuffered_or_non_blocking_stdout_gets_the_whole_output(tmp_path, how):
    """With PYTHONUNBUFFERED=1 stdout has no buffer, and a non-blocking one takes nothing while
    the pipe is full: neither is a reader gone (found in review). The whole output arrives."""
    script = ("import fcntl, os, sys\n"
              + ("fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) | os.O_NONBLOCK)\n" if "non-blocking" in how else "")
              + "from rank_metrics import cli\n"
              + f"sys.exit(cli.main(['evaluate-users', {str(tmp_path / 'p.parquet')!r}, {str(tmp_path / 't.parquet')!r},"
              + " '-k', '3', '--format', 'csv']))\n")
    users = range(20_000)
    pd.DataFrame({"user_id": [u for u in users for _ in range(3)], "item_id": [i % 7 for i in range(60_000)],
                  "rank": [1, 2, 3] * 20_000}).to_parquet(tmp_path / "p.parquet")
    pd.DataFrame({"user_id": list(users), "item_id": [u % 7 for u in users]}).to_parquet(tmp_path / "t.parquet")
    environment = dict(os.environ, PYTHONUNBUFFERED="1") if "unbuffered" in how else None
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=environment)
    time.sleep(1)   # the pipe fills and stays full a while
    out, err = process.communicate()
    assert process.returncode == 0, err
    assert out.count(b"\n") == 20_001 and out.startswith(b"user_id,k,average_precision")


def test_the_output_is_written_as_the_text_layer_would(monkeypatch, tmp_path):
    """The bytes go out past Python's text layer: a character the encoding lacks is an escape in
    a table for people (compare's marks on an ASCII terminal, also under the C locale's
    surrogateescape) but an error for CSV and SQL, where it would change an id, not Python's
    UnicodeEncodeError (found in review); and lines end as the platform's (Windows: \\r\\n)."""
    for encoding, errors in (("ascii", "strict"), ("ascii", "surrogateescape"), ("utf-8", "strict")):
        stream = io.TextIOWrapper(io.BytesIO(), encoding=encoding, errors=errors)
        monkeypatch.setattr(sys, "stdout", stream)
        cli._write_out("a ▲\nb\n", exact=False)
        assert stream.buffer.getvalue() == ("a \\u25b2\nb\n" if encoding == "ascii" else "a ▲\nb\n").encode()
    (tmp_path / "recs.csv").write_text(open(RECOMMENDATIONS).read().replace("two_tower", "modèle"))
    # sql takes table names, not files: its SQL holds the by column's name
    for inputs, output in (([str(tmp_path / "recs.csv"), PURCHASES], ["evaluate", "--format", "csv", "--by", "model"]),
                           (["recs", "purchases"], ["sql", "--by", "modèle"])):
        monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO(), encoding="ascii"))
        with redirect_stderr(io.StringIO()) as err:
            code = cli.main([output[0], *inputs, "-k", "5", *COLUMNS, *output[1:]])
        assert code == 2 and one_line_error(err.getvalue()).startswith(
            "rank-metrics: error: the output holds 'è', which standard output's encoding (ascii) cannot write: "
            "set PYTHONIOENCODING=utf-8"), err.getvalue()
    monkeypatch.setattr(os, "linesep", "\r\n")
    for output_format, first_line in (("csv", b"k,map_at_k,n_users\r\n5,"), ("table", b" k  map_at_k  n_users\r\n 5 ")):
        stream = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
        monkeypatch.setattr(sys, "stdout", stream)
        assert cli.main(["map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "5", *COLUMNS, "--format", output_format]) == 0
        assert stream.buffer.getvalue().startswith(first_line)


def test_a_closed_pipe_in_process():
    class ClosedPipe(io.StringIO):
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

    with redirect_stdout(ClosedPipe()), redirect_stderr(io.StringIO()) as err:
        assert cli.main(["sql", "-k", "5"]) == 141
    assert err.getvalue() == ""


@pytest.fixture
def database(tmp_path):
    """A DuckDB file holding the example data, one table ranked and one scored."""
    import duckdb

    path = tmp_path / "analytics.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("create table recs as select * from read_csv(?)", [RECOMMENDATIONS])
        con.execute("create table scored as select * exclude (rank), 1.0 / rank as score from recs")
        con.execute("create table purchases as select * from read_csv(?)", [PURCHASES])
    return str(path)


def test_database_gives_the_metric_commands_tables(database):
    expected = rank_metrics.map_at_k(RECOMMENDATIONS, PURCHASES, k=[5, 12], by="model",
                                     user="customer_id", item="article_id")
    code, out, err = run("map-at-k", "recs", "purchases", "--database", database, "-k", "5", "12",
                         "--by", "model", *COLUMNS, "--format", "csv", "--check")
    assert (code, err) == (0, "")
    got = pd.read_csv(io.StringIO(out))
    assert got[["model", "k", "n_users"]].values.tolist() == expected[["model", "k", "n_users"]].values.tolist()
    assert list(got.map_at_k) == pytest.approx(list(expected.map_at_k), rel=1e-12)


def test_database_lets_sql_look_the_columns_up(database):
    import duckdb

    # the scored table has no rank column: only a lookup can know to order by score
    code, text, err = run("sql", "scored", "purchases", "--database", database, "-k", "12", "--by", "model", *COLUMNS)
    assert (code, err) == (0, "")
    assert '"score" as rm_order_value' in text and "rm_order_value desc" in text
    with duckdb.connect(database, read_only=True) as con:
        got = sorted(con.execute(text).fetchall())
    expected = rank_metrics.map_at_k(RECOMMENDATIONS, PURCHASES, k=[12], by="model", user="customer_id",
                                     item="article_id")
    assert [row[2] for row in got] == pytest.approx(list(expected.map_at_k), rel=1e-12)
    # without the file nothing is looked up, and a table without a rank column cannot be guessed
    code, text, err = run("sql", "scored", "purchases", "-k", "12", *COLUMNS)
    assert code == 0 and '"rank"' in text


@pytest.mark.parametrize("command", [["sql"], ["map-at-k", "recs", "purchases"]])
def test_database_that_is_missing_or_not_duckdb(command, tmp_path):
    code, _, err = run(*command, "-k", "12", "--database", str(tmp_path / "nothing.duckdb"))
    assert code == 2
    assert f"rank-metrics: error: --database: no such file '{tmp_path / 'nothing.duckdb'}'" in one_line_error(err)
    # text, a CSV, a SQLite file (DuckDB would fetch its sqlite extension over the network), a folder
    import sqlite3

    (tmp_path / "notes.duckdb").write_text("just text")
    (tmp_path / "recs.csv").write_text("user_id,item_id,rank\n1,a,1\n")
    with contextlib.closing(sqlite3.connect(tmp_path / "shop.db")) as lite:
        lite.execute("create table recs (user_id)")
        lite.commit()
    for name in ("notes.duckdb", "recs.csv", "shop.db"):
        code, _, err = run(*command, "-k", "12", "--database", str(tmp_path / name))
        assert code == 2
        assert f"rank-metrics: error: --database: '{tmp_path / name}' is not a DuckDB database file" in one_line_error(err)
    code, _, err = run(*command, "-k", "12", "--database", str(tmp_path))
    assert code == 2 and f"--database: '{tmp_path}' is a folder, not a DuckDB database file" in one_line_error(err)


def test_sql_help_says_which_checks_the_printed_sql_does_not_make():
    code, out, _ = run("sql", "--help")
    assert code == 0
    text = " ".join(out.split())
    assert "Without --database no table is read, so nothing is detected" in text
    assert ("The printed SQL makes none of the data checks the metric commands make first: NULL users, items, "
            "ranks, scores or grades; NaN or infinite ranks, scores or grades") in text


def test_a_warning_is_one_line_and_the_numbers_still_print(tmp_path):
    (tmp_path / "p.csv").write_text("user_id,item_id,rank\n1,a,1\n2,b,1\n")
    (tmp_path / "t.csv").write_text("user_id,item_id\n11,a\n12,b\n")
    code, out, err = run("map-at-k", str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "3", "--format", "csv")
    assert (code, out) == (0, "k,map_at_k,n_users\n3,0.0,2\n")
    assert err == ("rank-metrics: warning: no evaluated user has a relevant item within the first 3 items of their list, "
                   "so every value is 0; no user of predictions is in truth: check that 'user_id' holds the same ids in "
                   "predictions and truth (same type and formatting: '00123' is not 123)\n")
    # no user evaluated: the table is its header alone (not pandas' "Empty DataFrame")
    code, out, err = run("map-at-k", str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "3", "--users", "both")
    assert (code, out) == (0, "k map_at_k n_users\n") and err.startswith("rank-metrics: warning: no user is evaluated")


def test_a_model_column_left_out_of_by_warns_on_the_example_data():
    """The README's example: three models' lists read as one without --by give 0.273, no model's
    number (0.31-0.34), and now a one-line warning that names --by; with --by, no warning."""
    code, out, err = run("map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "12", *COLUMNS, "--format", "csv")
    assert code == 0 and out.startswith("k,map_at_k,n_users\n12,0.2733")
    assert err == ("rank-metrics: warning: predictions have a column 'model' that by= does not name, and it holds more "
                   "than one value for a user (customer_id 1): each user's rows of every model are read as one list, "
                   "its ties and repeated items settled as one list's are, so the number is no "
                   "model's; pass by='model' for a row per model (--by model on the command line)\n")
    code, out, err = run("map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "12", *COLUMNS, "--by", "model")
    assert (code, err) == (0, "") and "two_tower" in out


def test_sql_takes_table_names_and_says_so_for_a_file_or_a_frame(tmp_path, monkeypatch):
    """`rank-metrics sql preds.csv truth` printed `from "preds"."csv"` (a schema and a table), and
    sql(a_dataframe, ...) put the frame's whole repr in its error (a new user's trial)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "preds.csv").write_text("user_id,item_id,rank\n1,a,1\n")
    code, out, err = run("sql", "preds.csv", "truth", "-k", "5")
    assert (code, out) == (2, "")
    assert err == ("rank-metrics: error: predictions: 'preds.csv' is a file, and the SQL printed reads tables by name: "
                   "load it as a table (in DuckDB: create table t as select * from 'preds.csv') and name the table\n")
    assert '"shop"."csv"' in rank_metrics.sql("shop.csv", "truth", k=5)   # no such file: a schema and a table
    with pytest.raises(rank_metrics.RankMetricsError, match=r"^rank_metrics: truth: expected a table name; got a pandas "
                       r"DataFrame \(the SQL printed reads tables by name; map_at_k and the other metric functions "
                       r"read frames\)$"):
        rank_metrics.sql("recs", pd.DataFrame({"user_id": range(50)}), k=5)


def test_messages_speak_the_command_lines_language(tmp_path):
    """What a new user's trial met: the API's argument names in messages (predictions_shape,
    item_separator, baseline), a rule named twice in front (--duplicates: --duplicates error:),
    report's errors named as compare's, a cast no command line can do, --metrics sent to map_at_k
    by sql, and a glob the shell expanded reported as an unknown argument without a word."""
    (tmp_path / "p.csv").write_text("user_id,item_id,rank\n1,10,1\n1,20,2\n2,50,1\n1,10,3\n")
    (tmp_path / "t.csv").write_text("user_id,item_id\n1,20\n2,50\n")
    (tmp_path / "lz.csv").write_text("user_id,item_id\n1,020\n2,050\n")
    (tmp_path / "s.csv").write_text("customer_id,prediction\na1,0100 0200\n")
    (tmp_path / "m.csv").write_text("model,user_id,item_id,rank\n1,1,10,1\n2,1,20,1\n")
    (tmp_path / "a.csv").write_text("model,user_id,item_id,rank\na,1,10,1\na,2,50,1\n")
    p, t, lz, s, m, a = (str(tmp_path / name) for name in ("p.csv", "t.csv", "lz.csv", "s.csv", "m.csv", "a.csv"))
    expected = [
        (["map-at-k", p, t, "-k", "3", "--duplicates", "error"],
         "--duplicates: user 1 has item 10 more than once in predictions, which --duplicates error refuses"),
        (["map-at-k", s, s, "-k", "3", "--user", "customer_id", "--item", "prediction", "--predictions-shape", "list",
          "--truth-shape", "list"], "for a row per item (long form), pass no --predictions-shape but its --rank or --score"),
        (["compare", m, t, "-k", "1", "--by", "model", "--baseline", "two", "--metrics", "map"],
         "--baseline 'two' is text, but by column model is BIGINT"),
        (["report", a, t, "-k", "3", "--by", "model", "--baseline", "a", "-o", str(tmp_path / "r.html")],
         "report: only the baseline 'a' has evaluated users"),
        (["map-at-k", p, lz, "-k", "3"], "is BIGINT in predictions but VARCHAR in truth; make them match (a CSV file's "
                                         "column types are its reader's guess from the values"),
        (["map-at-k", p, t, t, "-k", "3"],
         "unrecognized arguments: " + t + f"; more than two file names ({p}, {t}, {t}): a glob in quotes"),
    ]
    for arguments, message in expected:
        code, out, err = run(*arguments)
        assert (code, out) == (2, "") and message in one_line_error(err), (arguments, err)
    assert "takes no" not in run("sql", "recs", "purchases", "-k", "3", "--metrics", "ndcg")[2]
    code, out, _ = run("sql", "recs", "purchases", "-k", "3", "--metrics", "ndcg")
    assert code == 0 and "ndcg" in out and "ci_low" in out   # --metrics makes it evaluate's query


def test_output_that_cannot_be_written_is_one_line():
    """A full disk (/dev/full) and a closed standard output printed Python tracebacks, where the
    README promises none: each is one line with exit status 1."""
    arguments = [sys.executable, "-m", "rank_metrics.cli", "map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "3",
                 "--user", "customer_id", "--item", "article_id", "--by", "model"]
    with open("/dev/full", "w") as full:
        done = subprocess.run(arguments, stdout=full, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 1
    assert done.stderr == "rank-metrics: error: cannot write the result to standard output: No space left on device\n"
    done = subprocess.run(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          preexec_fn=lambda: os.close(1))
    assert done.returncode == 1
    assert done.stderr == "rank-metrics: error: standard output is closed, so the result cannot be written\n"


def test_a_text_file_of_one_column_without_a_space_is_named(tmp_path):
    """A .txt file DuckDB reads as one column, whose name has no space, crashed (AttributeError:
    DuckDB 2.0's relations have no fetchone; a new user's trial): its columns are named instead."""
    (tmp_path / "one.txt").write_text("secret-content-xyz\nline2\n")
    (tmp_path / "truth.csv").write_text("user_id,item_id\n1,a\n")
    code, out, err = run("map-at-k", str(tmp_path / "one.txt"), str(tmp_path / "truth.csv"), "-k", "2")
    assert (code, out) == (2, "")
    assert one_line_error(err) == ("rank-metrics: error: column user_id (--user) is not in predictions; its columns are: "
                                   "secret-content-xyz\n")
