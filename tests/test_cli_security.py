"""The command line on untrusted input and on Ctrl-C: a --database file is sandboxed (its views
read nothing outside it), and an interrupted run exits 130 with one line, never a traceback."""

import io
import signal
import subprocess
import sys
import time

import duckdb
import pandas as pd
import pytest

from rank_metrics import api, cli

from test_cli import run

SECRET = "TOP-SECRET-7f3a9c"   # the content of a file no view may read
HIDDEN = "hidden-name-51e2"    # a file name no glob of a view may list


def cli_process(*arguments, cwd):
    return subprocess.run([sys.executable, "-m", "rank_metrics.cli", *arguments], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def one_error_line(err: str) -> str:
    assert err.startswith("rank-metrics: error: ") and err.count("\n") == 1 and err.endswith("\n"), err
    assert "Traceback" not in err
    return err


@pytest.fixture
def evil(tmp_path):
    """A DuckDB file whose views read this machine's files, as a stranger's could."""
    (tmp_path / "secret.csv").write_text(SECRET + "\n")
    (tmp_path / f"{HIDDEN}.txt").write_text("x")
    secret, folder = str(tmp_path / "secret.csv"), str(tmp_path)
    path = tmp_path / "evil.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("create table truth as select 1 as user_id, 'a' as item_id")
        # the secret as a --by value, which the table prints
        con.execute(f"create view preds as select 1 as user_id, 'a' as item_id, 1 as rank, content as model "
                    f"from read_text('{secret}')")
        # the folder's listing as --by values
        con.execute(f"create view listing as select 1 as user_id, 'a' as item_id, 1 as rank, file as model "
                    f"from glob('{folder}/*')")
        # the secret in an error message: DuckDB quotes the text it cannot convert
        con.execute(f"create view casting as select cast(content as integer) as user_id, 'a' as item_id, 1 as rank, "
                    f"'m' as model from read_text('{secret}')")
        # the secret through a CSV reader; and as a column's name, which a warning would quote
        con.execute(f"create view as_csv as select 1 as user_id, column0 as item_id, 1 as rank, 'm' as model "
                    f"from read_csv('{secret}', header = false)")
        con.execute(f"create view truth_file as select 1 as user_id, 'a' as item_id, * from '{secret}'")
    return path


@pytest.mark.parametrize("arguments", [
    ["map-at-k", "preds", "truth", "-k", "5", "--by", "model"],
    ["map-at-k", "listing", "truth", "-k", "5", "--by", "model"],
    ["map-at-k", "casting", "truth", "-k", "5", "--by", "model"],
    ["evaluate", "as_csv", "truth", "-k", "5", "--by", "model"],
    ["average-precision-at-k", "preds", "truth_file", "-k", "5", "--by", "model"],
    ["sql", "preds", "truth", "-k", "5", "--by", "model"],   # which looks the columns up
])
def test_a_view_of_database_reads_no_file_outside_it(evil, tmp_path, arguments):
    """A view calling read_text('/etc/hostname') or glob('/root/.*') printed this machine's files
    through the command line: the file is opened with external access off, so DuckDB refuses."""
    done = cli_process(*arguments, "--database", str(evil), cwd=tmp_path)
    output = done.stdout + done.stderr
    assert SECRET not in output and HIDDEN not in output
    assert (done.returncode, done.stdout) == (2, "")
    err = one_error_line(done.stderr)
    assert "DuckDB refused to read file" in err
    assert "is opened read-only with external access off, so a view in it can read nothing outside the file" in err


def test_a_database_whose_macros_shadow_duckdbs_functions_is_refused(tmp_path):
    """Macros stored in the file under the names of DuckDB's functions answered in their place in
    the metrics' SQL (ln and sqrt: every nDCG 1.0, every std_error 1.0; a new user's trial). Such a
    file is refused, naming them; a macro of a name of its own is left alone."""
    path = tmp_path / "shadow.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("create table recs as select * from (values (1, 'a', 1), (1, 'b', 2), (2, 'c', 1)) as t(user_id, item_id, rank)")
        con.execute("create table bought as select * from (values (1, 'b'), (2, 'd')) as t(user_id, item_id)")
        con.execute("create macro mine(x) as x + 1")
    done = cli_process("evaluate", "recs", "bought", "-k", "2", "--database", str(path), "--format", "csv", cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == ""
    with duckdb.connect(str(path)) as con:
        con.execute("create macro ln(x) as 1.0")
        con.execute("create macro sqrt(x) as 1000.0")
    done = cli_process("evaluate", "recs", "bought", "-k", "2", "--database", str(path), cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert one_error_line(done.stderr) == (
        f"rank-metrics: error: --database: {str(path)!r} defines macros named as DuckDB's own functions ('ln', 'sqrt'), "
        "which would answer in their place in the metrics' SQL: copy the tables into a file without them\n")


def test_database_connection_is_locked(evil, tmp_path):
    """Nothing run on the connection can turn the sandbox off or fetch an extension."""
    con = cli._connection(str(evil), "preds", "truth")
    try:
        for statement in ("set enable_external_access = true", "set lock_configuration = false",
                          "set allowed_paths = ['/']", "set autoinstall_known_extensions = true",
                          f"select * from read_text('{tmp_path / 'secret.csv'}')", "load httpfs", "install httpfs"):
            with pytest.raises(duckdb.Error):
                con.execute(statement).fetchall()
        settings = dict(con.execute("select name, value from duckdb_settings() where name in ("
                                    "'enable_external_access', 'lock_configuration', 'autoload_known_extensions', "
                                    "'autoinstall_known_extensions', 'allow_community_extensions')").fetchall())
        assert settings == {"enable_external_access": "false", "lock_configuration": "true",
                            "autoload_known_extensions": "false", "autoinstall_known_extensions": "false",
                            "allow_community_extensions": "false"}
    finally:
        con.close()


@pytest.fixture
def benign(tmp_path):
    """Two users: AP@3 of user 1 (a, b, c ranked; a and c bought) is (1/1 + 2/3) / 2 = 5/6, of
    user 2 (d, e; e bought) (1/2) / 1 = 1/2; MAP@3 = (5/6 + 1/2) / 2 = 2/3."""
    path = tmp_path / "shop.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("create table recs as select * from (values (1, 'a', 1), (1, 'b', 2), (1, 'c', 3), (2, 'd', 1), "
                    "(2, 'e', 2)) as t(user_id, item_id, rank)")
        con.execute("create table bought as select * from (values (1, 'a'), (1, 'c'), (2, 'e')) "
                    "as t(user_id, item_id)")
        con.execute("create view bought_view as select user_id, item_id from bought")   # a view of the file itself
    (tmp_path / "recs.csv").write_text("user_id,item_id,rank\n1,a,1\n1,b,2\n1,c,3\n2,d,1\n2,e,2\n")
    return path


@pytest.mark.parametrize("predictions, truth", [("recs", "bought"), ("recs", "bought_view"),
                                                ("recs.csv", "bought")])   # a file beside --database
def test_a_database_of_tables_gives_the_metric(benign, tmp_path, predictions, truth):
    done = cli_process("map-at-k", predictions, truth, "-k", "3", "--database", str(benign), "--format", "csv",
                       cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    got = pd.read_csv(io.StringIO(done.stdout))
    assert list(got.columns) == ["k", "map_at_k", "n_users"]
    assert got.values.tolist() == [[3, pytest.approx(2 / 3, rel=1e-12), 2]]


@pytest.mark.parametrize("predictions, what", [("parts/*.csv", "glob"), ("parts/", "folder")])
def test_a_glob_or_folder_beside_database_is_refused_in_one_line(benign, tmp_path, predictions, what):
    """DuckDB lists a glob's or folder's files itself, which the sandbox cannot allow file by file."""
    (tmp_path / "parts").mkdir()
    (tmp_path / "parts" / "part-0.csv").write_text("user_id,item_id,rank\n1,a,1\n")
    done = cli_process("map-at-k", predictions, "bought", "-k", "3", "--database", str(benign), cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    err = one_error_line(done.stderr)
    assert f"with --database, PREDICTIONS and TRUTH are tables of that file or single files; {predictions!r} " \
           f"is a {what}" in err


def test_help_says_the_database_is_sandboxed():
    for command in ("map-at-k", "sql"):
        code, out, _ = run(command, "--help")
        assert code == 0
        assert "opened read-only with external access off, so a view in it can read nothing outside the file" \
            in " ".join(out.split())


@pytest.mark.parametrize("raised", [KeyboardInterrupt,
                                    lambda: duckdb.InterruptException("INTERRUPT Error: Interrupted!")])
def test_an_interrupted_engine_exits_130(monkeypatch, raised):
    """Whatever the engine raises for Ctrl-C: one line and 128 + SIGINT, as a shell tool ends."""
    def interrupted(*arguments, **keywords):
        raise raised()

    monkeypatch.setattr(api, "map_at_k", interrupted)
    code, out, err = run("map-at-k", "p.csv", "t.csv", "-k", "5")
    assert (code, out, err) == (130, "", "rank-metrics: interrupted\n")


def test_ctrl_c_during_a_query_exits_130_without_a_traceback(tmp_path):
    """Ctrl-C during a DuckDB query ended the command with status 1 and 'RuntimeError: Query
    interrupted' (DuckDB 2.0's error for it)."""
    predictions, truth = tmp_path / "p.parquet", tmp_path / "t.parquet"
    with duckdb.connect() as con:   # 25M rows: the metric's query takes seconds
        con.execute(f"copy (select range // 10 as user_id, hash(range) % 100000 as item_id, range % 10 + 1 as rank "
                    f"from range(25000000)) to '{predictions}'")
        con.execute(f"copy (select range // 5 as user_id, hash(range * 7) % 100000 as item_id "
                    f"from range(12500000)) to '{truth}'")
    (tmp_path / "tiny.csv").write_text("user_id,item_id,rank\n1,a,1\n")

    def start(*inputs):
        # SIGINT as a terminal's Ctrl-C sends it, whatever this test's own runner ignores
        return subprocess.Popen([sys.executable, "-m", "rank_metrics.cli", "map-at-k", *map(str, inputs), "-k", "10"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))

    # the start-up (Python, pandas, DuckDB, a tiny query): the signal is sent a second after it
    began = time.monotonic()
    tiny = start(tmp_path / "tiny.csv", tmp_path / "tiny.csv")
    assert tiny.wait(timeout=120) == 0
    startup = time.monotonic() - began

    process = start(predictions, truth)
    time.sleep(startup + 1.0)
    # 25M rows take seconds here (about 11 s): the query is still running, or the test says it did not
    assert process.poll() is None, "the query ended before the signal: give it more rows to interrupt"
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert (process.returncode, out, err) == (130, "", "rank-metrics: interrupted\n")
