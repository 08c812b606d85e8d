"""What a newcomer meets before any metric: a fast import, a cache of compiled macros that is
private and can be turned off, a LICENSE, and an sdist that holds the package and nothing else."""

import os
import stat
import subprocess
import sys
import tarfile
import zipfile

import pytest

from conftest import ROOT

SCRIPT = "import rank_metrics; print(rank_metrics.sql('recs', 'purchases', k=12, rank='rank'))"


def run_python(code, **environment):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={**os.environ, **environment}).stdout


def test_import_and_version_do_not_import_pandas():
    loaded = run_python("import sys, rank_metrics; print('pandas' in sys.modules)")
    assert loaded.strip() == "False"
    version = run_python("import sys\nfrom rank_metrics import cli\n"
                         "try:\n    cli.main(['--version'])\nexcept SystemExit:\n    pass\n"
                         "print('pandas' in sys.modules)")
    assert version.splitlines() == ["rank-metrics 0.2.0", "False"]


def test_the_cache_folders_are_made_private(tmp_path):
    run_python(SCRIPT, XDG_CACHE_HOME=str(tmp_path))
    for folder in (tmp_path / "rank_metrics", tmp_path / "rank_metrics" / "jinja"):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert list((tmp_path / "rank_metrics" / "jinja").iterdir())


@pytest.mark.parametrize("spoil", ["other owner", "group writable", "world writable", "a symlink"])
def test_a_cache_folder_others_control_is_not_used(tmp_path, spoil):
    cache = tmp_path / "rank_metrics" / "jinja"
    if spoil == "a symlink":
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir(mode=0o700)
        (tmp_path / "rank_metrics").mkdir(mode=0o700)
        cache.symlink_to(elsewhere)
        watched = elsewhere
    else:
        cache.mkdir(parents=True, mode=0o700)
        watched = cache
        if spoil == "other owner":
            os.chown(cache, 4242, 4242)   # the tests run as root, as CI does
        else:
            cache.chmod(0o770 if spoil == "group writable" else 0o707)
    expected = run_python(SCRIPT, RANK_METRICS_NO_CACHE="1")
    assert run_python(SCRIPT, XDG_CACHE_HOME=str(tmp_path)) == expected   # still renders
    assert list(watched.iterdir()) == []                                  # but keeps nothing there


def test_the_cache_can_be_turned_off(tmp_path):
    run_python(SCRIPT, XDG_CACHE_HOME=str(tmp_path), RANK_METRICS_NO_CACHE="1")
    assert not (tmp_path / "rank_metrics").exists()
    run_python(SCRIPT, XDG_CACHE_HOME=str(tmp_path), RANK_METRICS_NO_CACHE="0")
    assert (tmp_path / "rank_metrics" / "jinja").is_dir()


def test_license_is_apache_2():
    text = (ROOT / "LICENSE").read_text()
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "Copyright 2026 The rank_metrics authors" in text


def test_dbt_docs_document_every_public_macro_and_argument():
    """macros/dbt/macros.yml is what `dbt docs` shows: every public macro and release gate, each
    with a description and every argument it takes (the README promises it)."""
    import re

    import yaml

    from rank_metrics._render import metric_registry
    from rank_metrics.api import OPTIONS

    dbt_macros = ROOT / "macros" / "dbt"
    public = re.findall(r"{% macro ([a-z]\w*)\(", (dbt_macros / "entry_points.sql").read_text())
    # each metric's public macro is in its own file (macros/metrics/<metric>.sql)
    public += [name for path in (ROOT / "macros" / "metrics").glob("*.sql")
               for name in re.findall(r"{% macro ([a-z]\w*)\(", path.read_text()) if "__" not in name]
    gates = ["test_" + name for file in ("gates.sql", "table_gates.sql")
             for name in re.findall(r"{% test (\w+)\(", (dbt_macros / file).read_text())]
    entries = yaml.safe_load((dbt_macros / "macros.yml").read_text())["macros"]
    documented = {entry["name"]: entry for entry in entries if entry.get("docs", {}).get("show", True)}
    assert sorted(documented) == sorted(public + gates)
    # the rest, the engine helpers the SQL dispatches to among them, are hidden from dbt docs
    # (tests/test_docs.py: every macro under macros/ is documented or hidden)
    hidden = [entry["name"] for entry in entries if entry["name"] not in documented]
    dispatchers = re.findall(r"{% macro ([a-z]\w*)\(", (dbt_macros / "engine_dispatch.sql").read_text())
    assert set(dispatchers) <= set(hidden)
    own = {"evaluate": {"metrics", "confidence"}, "evaluate_users": {"metrics"},
           "compare": {"metrics", "baseline", "test", "correction", "family", "alpha"},
           "test_metric_at_least": {"model", "metric", "min_value"},
           "test_no_significant_regression": {"model", "metric", "baseline", "alpha", "min_users"}}
    own["evaluate_over_time"] = {"metrics", "confidence", "period", "time", "window", "as_of", "loaded_at"}
    # beyond accuracy reads train (and optionally truth, item features) and options of its own
    beyond = {"predictions", "train", "k", "metrics", "by", "convention", "similarity", "truth", "item_features", "user",
              "item", "rank", "score", "train_user", "train_item", "truth_user", "truth_item", "relevance", "features_item",
              "predictions_shape", "truth_shape", "item_separator"}
    for name, entry in documented.items():
        arguments = {argument["name"]: argument["description"] for argument in entry["arguments"]}
        if name in ("beyond_accuracy", "beyond_accuracy_users"):
            assert set(arguments) == beyond, name
            continue
        if name == "compare_beyond_accuracy":
            assert set(arguments) == beyond | {"baseline", "test", "correction", "family", "alpha"}, name
            continue
        if name == "test_no_significant_drop":   # it reads a built metric table: no inputs, no options
            assert set(arguments) == {"model", "periods", "alpha", "min_drop", "period"}
            continue
        # a metric that takes no k (R-precision) has no k argument
        takes_k = name not in {entry["macro"] for entry in metric_registry().values() if entry.get("cutoff_free")}
        inputs = {"truth"} | ({"k"} if takes_k else set()) | ({"model"} if name.startswith("test_") else {"predictions"})
        assert set(arguments) == inputs | set(OPTIONS) | {"validate"} | own.get(name, set()), name
        assert entry["description"] and all(arguments.values()), name


def test_the_unknown_argument_message_lists_every_argument():
    """_plan names the arguments in its message by hand (Jinja cannot read a macro's signature,
    and dbt's macros are not Jinja's): that list must match _plan's own signature and the Python
    API's OPTIONS, with the arguments only evaluate, compare and dbt take."""
    import re

    from rank_metrics import _render
    from rank_metrics.api import OPTIONS
    from rank_metrics.errors import RankMetricsError

    plan = _render.namespace("duckdb")._macros["_plan"]
    with pytest.raises(RankMetricsError) as raised:
        plan({}, "p", "t", 3, normalisation="m")
    listed = set(re.findall(r"\b[a-z_]+\b", str(raised.value).split(" are ", 1)[1])) - {"and", "evaluate", "compare", "dbt"}
    internal = {"plan", "predictions", "truth", "k", "predictions_columns", "truth_columns"}
    assert listed == set(plan.arguments) - internal | {"baseline", "test", "correction", "family", "alpha", "validate"}
    assert listed == set(OPTIONS) | {"metrics", "confidence", "baseline", "test", "correction", "family", "alpha", "validate"}


def _files(folder):
    """The files under a folder of the repository, as the sdist names them (no bytecode)."""
    return {path.relative_to(ROOT).as_posix() for path in (ROOT / folder).rglob("*")
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"}


def test_the_sdist_holds_what_the_wheel_needs_and_nothing_else(tmp_path):
    """The sdist's include patterns are anchored: unanchored, "macros/" also took
    integration_tests/macros/ (and models/, seeds/ their integration_tests/ namesakes and bench's
    files). Built as pip would (the wheel from the unpacked sdist), so the sdist is enough."""
    subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(tmp_path), str(ROOT)],
                   check=True, capture_output=True)
    (sdist,) = tmp_path.glob("rank_metrics-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    # .gitignore and PKG-INFO are hatchling's own: the one keeps caches out of a wheel built from it
    assert {name.split("/")[0] for name in names} == {
        ".gitignore", "PKG-INFO", "pyproject.toml", "README.md", "LICENSE", "dbt_project.yml", "macros", "python", "docs",
        "CHANGELOG.md", "CONTRIBUTING.md"}
    docs = {path for path in _files("docs") if path.endswith(".md")}
    assert docs and {name for name in names if "/" in name} == _files("python/rank_metrics") | _files("macros") | docs
    unwanted = ("integration_tests/", "bench/", "tests/", ".ci/", "models/", "seeds/", "__pycache__", ".pyc")
    assert [name for name in names if any(part in name for part in unwanted)] == []

    (wheel,) = tmp_path.glob("rank_metrics-*.whl")   # built from the sdist
    wheel_names = set(zipfile.ZipFile(wheel).namelist())
    package = {name for name in wheel_names if not name.startswith("rank_metrics-")}
    assert package == {name.removeprefix("python/") for name in _files("python/rank_metrics")} | {
        "rank_metrics/_dbt/" + name for name in _files("macros") | {"dbt_project.yml"}}


def test_the_dbt_floor_is_the_dbt_the_suite_runs():
    """The package declared dbt >= 1.8 while the gates' YAML (`arguments: {...}`) needs 1.10: on
    1.9 a user met "unknown argument 'arguments'". The floor it declares is the dbt-core minor the
    suite installs (the dbt extra's) and runs."""
    import importlib.metadata
    import re

    import yaml

    declared = yaml.safe_load((ROOT / "dbt_project.yml").read_text())["require-dbt-version"]
    floor = next(version for version in declared if version.startswith(">=")).removeprefix(">=")
    extra = re.search(r'dbt = \["dbt-core>=([\d.]+),', (ROOT / "pyproject.toml").read_text()).group(1)
    running = importlib.metadata.version("dbt-core")
    assert floor.split(".")[:2] == extra.split(".")[:2] == running.split(".")[:2], (floor, extra, running)
