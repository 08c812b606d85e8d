"""The wheel carries the macros, and the package renders from them when installed."""

import atexit
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import rank_metrics

from conftest import ROOT, early_fixture, run_beside


@early_fixture
def wheel_and_venv():
    """The wheel, built once, and a new venv where it is installed with no extras (pip install
    rank-metrics): beside the tests from the session's start (the install takes half a minute)."""
    folder = Path(tempfile.mkdtemp(prefix="rank_metrics_wheel_"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    run_beside([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", folder / "dist", ROOT], check=True,
               capture_output=True, cwd=ROOT)
    (wheel,) = (folder / "dist").glob("rank_metrics-*.whl")
    venv = folder / "venv"
    run_beside([sys.executable, "-m", "venv", venv], check=True, capture_output=True, cwd=folder)
    run_beside([venv / "bin" / "pip", "install", "--quiet", wheel], check=True, capture_output=True, cwd=folder)
    return wheel, venv


def test_wheel_contains_the_macros_and_renders_from_them(wheel_and_venv, tmp_path):
    wheel, _ = wheel_and_venv
    assert wheel.name.startswith(f"rank_metrics-{rank_metrics.__version__}-")
    names = set(zipfile.ZipFile(wheel).namelist())
    macros = {f"rank_metrics/_dbt/macros/{path.relative_to(ROOT / 'macros').as_posix()}"
              for path in (ROOT / "macros").rglob("*.sql")}
    assert macros <= names, macros - names
    assert "rank_metrics/_dbt/dbt_project.yml" in names
    assert "rank_metrics/reference.py" in names

    installed = tmp_path / "installed"
    zipfile.ZipFile(wheel).extractall(installed)
    script = ("import rank_metrics, sys; print(rank_metrics.__file__); print(rank_metrics.__version__); "
              "sys.stdout.write(rank_metrics.sql('p', 't', k=[5, 12], by='model'))")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(installed), "PATH": "/usr/bin:/bin"}, cwd=tmp_path)
    file_line, version_line, sql = run.stdout.split("\n", 2)
    assert file_line.startswith(str(installed))
    assert version_line == rank_metrics.__version__
    assert sql == rank_metrics.sql("p", "t", k=[5, 12], by="model")


def test_a_plain_install_without_extras(wheel_and_venv, tmp_path):
    """pip install rank-metrics (duckdb, jinja2, pandas and nothing else): DataFrames, files,
    DuckDB relations (also of another connection, with no pyarrow) and the command line work."""
    _, venv = wheel_and_venv
    script = """
import duckdb, importlib.util, pandas as pd, rank_metrics
assert importlib.util.find_spec("pyarrow") is None and importlib.util.find_spec("polars") is None
truth = pd.DataFrame({"user_id": [1, 2], "item_id": ["a", "b"]})
predictions = pd.DataFrame({"user_id": [1, 2], "item_id": ["a", "a"], "rank": [1, 1]})
other = duckdb.connect()
relation = other.sql("select * from (values (1, 'a', 1), (2, 'a', 1)) as t(user_id, item_id, rank)")
print(rank_metrics.map_at_k(predictions, truth, k=1, check=True), rank_metrics.map_at_k(relation, truth, k=1))
# a warehouse's SQL is its own variants' rendering: no package more (sqlglot is the tests')
print(importlib.util.find_spec("sqlglot") is None, rank_metrics.sql("p", "t", k=1, dialect="snowflake").splitlines()[0])
"""
    run = subprocess.run([str(venv / "bin" / "python"), "-c", script], capture_output=True, text=True, check=True)
    assert run.stdout.splitlines() == ["0.5 0.5", f"True -- rank_metrics {rank_metrics.__version__}: map_at_k"]
    (tmp_path / "p.csv").write_text("user_id,item_id,rank\n1,a,1\n2,a,1\n")
    (tmp_path / "t.csv").write_text("user_id,item_id\n1,a\n2,b\n")
    cli = subprocess.run([str(venv / "bin" / "rank-metrics"), "map-at-k", "p.csv", "t.csv", "-k", "1", "--format", "csv"],
                         capture_output=True, text=True, cwd=tmp_path)
    assert (cli.returncode, cli.stdout, cli.stderr) == (0, "k,map_at_k,n_users\n1,0.5,2\n", "")
