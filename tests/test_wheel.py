"""The wheel carries the macros, and the package renders from them when installed."""

import subprocess
import sys
import zipfile

import rank_metrics

from conftest import ROOT


def test_wheel_contains_the_macros_and_renders_from_them(tmp_path):
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(tmp_path / "dist"),
                    str(ROOT)], check=True, capture_output=True)
    (wheel,) = (tmp_path / "dist").glob("rank_metrics-*.whl")
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
