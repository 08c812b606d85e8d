"""The command line never shows a traceback: bad input and usage are one line with exit status 2,
a --check disagreement exits 3, any other failure one line with exit 1, a closed pipe quietly."""

import io
import re
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout

import pytest

import rank_metrics
from rank_metrics import cli

from conftest import ROOT

RECOMMENDATIONS = str(ROOT / "seeds" / "example_recommendations.csv")
PURCHASES = str(ROOT / "seeds" / "example_purchases.csv")
COLUMNS = ["--user", "customer_id", "--item", "article_id"]


def run(*arguments):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = cli.main(list(arguments))
        except SystemExit as exit_info:
            code = exit_info.code
    return code, out.getvalue(), err.getvalue()


def one_line_error(err: str) -> str:
    assert err.startswith("rank-metrics: error: "), err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    return err


@pytest.mark.parametrize("arguments, message", [
    (["map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "0"], "argument -k: k must be a positive integer; got '0'"),
    (["map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "five"], "argument -k: k must be a positive integer; got 'five'"),
    (["map-at-k", RECOMMENDATIONS, "-k", "5"], "the following arguments are required: truth"),
    (["map-at-k", RECOMMENDATIONS, PURCHASES], "the following arguments are required: -k"),
    (["map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "5", "--users", "everyone"],
     "argument --users: invalid choice: 'everyone'"),
    (["no-such-command"], "argument command: invalid choice: 'no-such-command'"),
    (["map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "5", "--rank", "a", "--score", "b"],
     "argument --score: not allowed with argument --rank"),
])
def test_usage_errors_are_one_line_with_status_2(arguments, message):
    code, out, err = run(*arguments)
    assert code == 2 and out == ""
    assert message in one_line_error(err)
    assert "--help" in err


def test_k_takes_integers_only_so_file_names_after_it_stay_file_names():
    expected = rank_metrics.map_at_k(RECOMMENDATIONS, PURCHASES, k=[5, 12], by="model",
                                     user="customer_id", item="article_id")
    for arguments in (["-k", "5", "12", RECOMMENDATIONS, PURCHASES],
                      [RECOMMENDATIONS, "-k", "5", "12", PURCHASES],
                      [RECOMMENDATIONS, PURCHASES, "-k", "5", "12"],
                      ["-k", "5", RECOMMENDATIONS, "-k", "12", PURCHASES]):
        code, out, err = run("map-at-k", *arguments, *COLUMNS, "--by", "model", "--format", "csv")
        assert (code, err) == (0, "")
        assert out == expected.to_csv(index=False)


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
    monkeypatch.setitem(sys.modules, "sqlglot", None)   # makes `import sqlglot` fail
    code, _, err = run("sql", "-k", "12", "--dialect", "snowflake")
    assert code == 2
    assert "needs the sqlglot package, which is not installed: pip install 'rank-metrics[warehouses]'" in one_line_error(err)


@pytest.mark.parametrize("arguments", [
    ["sql", "-k", "5"],
    ["map-at-k", RECOMMENDATIONS, PURCHASES, "-k", "5", *COLUMNS],
])
def test_a_closed_pipe_ends_quietly(arguments):
    """`rank-metrics … | head` where the reader has gone: no traceback, the shell's status for it."""
    process = subprocess.Popen([sys.executable, "-m", "rank_metrics.cli", *arguments],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()
    assert process.stderr.read() == b""
    assert process.wait() == 141


def test_a_closed_pipe_in_process():
    class ClosedPipe(io.StringIO):
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

    with redirect_stdout(ClosedPipe()), redirect_stderr(io.StringIO()) as err:
        assert cli.main(["sql", "-k", "5"]) == 141
    assert err.getvalue() == ""
