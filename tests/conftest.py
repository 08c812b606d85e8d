import inspect
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import servers

ROOT = Path(__file__).resolve().parent.parent
INTEGRATION = ROOT / "integration_tests"
PEER_DATA = ROOT / "tests" / "data"

# CI runs 600 random examples per property (or what a test names through examples(), below);
# `dev` (make test-fast) a tenth, for a quick local loop.
settings.register_profile("ci", max_examples=600, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def examples(ci: int) -> int:
    """A property's number of random examples: `ci` under the "ci" profile, as many tenths under
    "dev"."""
    return max(1, round(ci * settings.default.max_examples / 600))


# Markers, one per engine or outside program a test needs (pyproject.toml registers them), put on
# each test by what it uses: its fixtures, an engine it is parametrized over and asks for by name,
# or a program its code calls. `make test-fast` runs the tests that need no server or outside
# program (DuckDB, the reference); `pytest -m spark` runs Spark's alone.
FIXTURE_MARKERS = {"postgres_port": {"postgres"}, "spark": {"spark"}, "dbt_deps": {"dbt"},
                   "dbt_postgres": {"dbt", "postgres"}, "dbt_spark": {"dbt", "spark"}}
PROGRAM_MARKERS = {"fakesnow": "snowflake", "chromium(": "browser", "BENCH_PYTHON": "peers", "peer_numbers(": "peers",
                   "DbtProject(": "dbt",
                   '"-m", "build"': "wheel", "sys.executable": "process"}


def _source(function) -> str:
    try:
        return inspect.getsource(function)
    except (OSError, TypeError):
        return ""


def _markers(item) -> set[str]:
    markers = set().union(*(FIXTURE_MARKERS.get(name, set()) for name in item.fixturenames))
    source = _source(item.function)
    # the code it runs: its own, its fixtures' and the functions of its module it calls
    called = [getattr(item.module, name) for name in getattr(item.function, "__code__", _source.__code__).co_names
              if inspect.isfunction(getattr(item.module, name, None))]
    code = source + "".join(_source(getattr(definition.func, "job", definition.func)) for name in item.fixturenames
                            for definition in item._fixtureinfo.name2fixturedefs.get(name, ()))
    code += "".join(_source(function) for function in called)
    markers |= {marker for text, marker in PROGRAM_MARKERS.items() if text in code}
    # an engine the test is parametrized over (directly or through a fixture's params), whose
    # fixture it or that fixture asks for with request.getfixturevalue
    params = getattr(getattr(item, "callspec", None), "params", {})
    engines = {name: value for name, value in params.items() if isinstance(value, str)}
    for name, value in engines.items():
        definitions = item._fixtureinfo.name2fixturedefs.get(name, ())
        if value in ("postgres", "spark") and "getfixturevalue" in source + "".join(_source(d.func) for d in definitions):
            markers.add(value)
    if "target" in engines:   # a dbt target
        markers.add("dbt")
    if not markers & {"postgres", "spark", "snowflake"} or "duckdb" in engines.values():
        markers.add("duckdb")
    return markers


def pytest_collection_modifyitems(items):
    for item in items:
        for marker in sorted(_markers(item) - {mark.name for mark in item.iter_markers()}):
            item.add_marker(marker)


_running = []


def pytest_runtest_setup(item):
    _running[:] = [item]


def _require_marker(marker: str) -> None:
    """A server started for a test that is not marked as needing it would run in `make test-fast`:
    an error, so that the markers stay true."""
    if _running and _running[0].get_closest_marker(marker) is None:
        raise RuntimeError(f"{_running[0].nodeid} uses {marker} but has no {marker} marker: tests/conftest.py "
                           f"marks a test by its fixtures and parameters; add @pytest.mark.{marker}")


# Work done in processes of its own (the peers' venv, a Spark Connect server, a wheel's build and
# install) starts when the session does, in one thread beside the tests, when a selected test uses
# it; that test then waits only for what is left. Its processes run at a lower priority, on the
# CPU the tests leave idle, with the environment as it was at import (not as a test running beside
# them may have changed it).
_early = {}
ENVIRONMENT = dict(os.environ)


def run_beside(command, niceness=10, **options):
    """subprocess.run for an early job: niced (unless niceness is 0), in the environment as it was
    at import."""
    import subprocess

    niced = ["nice", "-n", str(niceness)] if niceness else []
    return subprocess.run([*niced, *map(str, command)], **{"env": ENVIRONMENT, **options})


BENCH_PYTHON = ROOT / "bench" / ".venv" / "bin" / "python"


def peer_numbers(script: str, cases: list, niceness: int = 10) -> list:
    """The peers' numbers for `cases`, from tests/peers/<script> run in the bench's venv (where the
    peers are installed) beside the tests: it reads the cases as JSON and prints a result per case.
    Niced by default; niceness=0 runs it at the tests' own priority, for a long computation
    (ranx's 20,000 resamples, niced beside the Spark lane, took 84 s instead of 24)."""
    import json

    assert BENCH_PYTHON.exists(), "the bench venv is missing: make test builds it (make bench/.venv/.installed)"
    run = run_beside([BENCH_PYTHON, ROOT / "tests" / "peers" / script], niceness, cwd=ROOT, input=json.dumps(cases),
                     capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


def early_fixture(function):
    """A session fixture of function's name, whose value is function() computed in the early
    jobs' thread (in the order the fixtures are defined)."""
    _early[function.__name__] = function

    def result(_early_jobs):
        return _early_jobs[function.__name__].result()
    result.job = function   # whose code _markers reads
    return pytest.fixture(name=function.__name__, scope="session")(result)


@pytest.fixture(scope="session", autouse=True)
def _early_jobs(request):
    from concurrent.futures import ThreadPoolExecutor

    used = {name for item in request.session.items for name in item.fixturenames}
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="early") as pool:
        jobs = {name: pool.submit(function) for name, function in _early.items() if name in used}
        yield jobs
        for job in jobs.values():
            job.cancel()


class DbtProject:
    """The integration project on one target, run in-process with dbtRunner; everything dbt
    writes goes to a temp folder, none of it into the repository.

    dbt parses the whole project again (seconds: 800 macros) whenever --vars differ from the
    last run's in the same target folder, so each project and set of vars has a target folder of
    its own, where its partial parse is kept: `target` for the integration project without vars."""

    def __init__(self, workdir: Path, target: str = "duckdb"):
        self.workdir = workdir
        self.target = target
        self.database = workdir / "rank_metrics_integration.duckdb"
        self.target_path = workdir / "target"   # the last run's
        self._runs = {}

    def invoke_once(self, *arguments: str):
        """invoke's result, the first time these arguments are given; then that result again (a
        build that several tests look at, built once)."""
        if arguments not in self._runs:
            self._runs[arguments] = self.invoke(*arguments)
        return self._runs[arguments]

    def invoke(self, *arguments: str, project: Path = INTEGRATION, callbacks=()):
        import hashlib

        from dbt.cli.main import dbtRunner

        _require_marker("dbt")
        variables = arguments[arguments.index("--vars") + 1] if "--vars" in arguments else ""
        folder = "target" if (project, variables) == (INTEGRATION, "") else \
            "target-" + hashlib.sha1(f"{project}\n{variables}".encode()).hexdigest()[:12]
        self.target_path = self.workdir / folder
        # deps takes no --target-path or --target, so everything is said through the environment
        os.environ.update({
            "DBT_SEND_ANONYMOUS_USAGE_STATS": "false",
            "DBT_TARGET": self.target,
            "DBT_TARGET_PATH": str(self.target_path),
            "DBT_LOG_PATH": str(self.workdir / "logs"),
            "RANK_METRICS_DUCKDB_PATH": str(self.database),
        })
        return dbtRunner(callbacks=list(callbacks)).invoke([*arguments, "--project-dir", str(project), "--profiles-dir", str(INTEGRATION)])

    def compiled(self, model: str) -> str:
        matches = list((self.workdir / "target" / "compiled").rglob(f"{model}.sql"))
        assert len(matches) == 1, matches
        return matches[0].read_text()


@pytest.fixture(scope="session")
def dbt_deps(tmp_path_factory):
    """`dbt deps` when the package is not installed in integration_tests/dbt_packages, where every
    target's project reads it: a link to this checkout (a local package), so once is enough. Under
    a lock, so that sessions at once (make test's lanes) do not install it over each other."""
    import fcntl
    import hashlib
    import tempfile

    installed = INTEGRATION / "dbt_packages" / "rank_metrics"
    lock = Path(tempfile.gettempdir()) / f"rank_metrics_dbt_deps_{hashlib.sha1(str(ROOT).encode()).hexdigest()[:12]}.lock"
    with open(lock, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        if not (installed.is_symlink() and installed.resolve() == ROOT.resolve()):
            deps = DbtProject(tmp_path_factory.mktemp("dbt_deps")).invoke("deps")
            assert deps.success, deps.exception


@pytest.fixture(scope="session")
def dbt_project(tmp_path_factory, dbt_deps):
    """The integration project on DuckDB after `dbt build`, examples included: the session's one
    DuckDB project."""
    project = DbtProject(tmp_path_factory.mktemp("dbt_duckdb"))
    project.build = project.invoke("build")
    return project


# The integration build on PostgreSQL and Spark (test_engines asserts it; test_gates builds its
# gate models on the seeds it loaded): once a session. The example data (72,000 seed rows) is
# DuckDB's: seeding it row by row costs a minute there.
ENGINE_BUILD = ("build", "--vars", "{rank_metrics_examples: false}")


@pytest.fixture(scope="session")
def dbt_postgres(tmp_path_factory, dbt_deps, postgres_port):
    """The session's one integration project on PostgreSQL (built by the tests that use it)."""
    return DbtProject(tmp_path_factory.mktemp("dbt_postgres"), "postgres")


@pytest.fixture(scope="session")
def dbt_spark(tmp_path_factory, dbt_deps, spark):
    """The session's one integration project on Spark (built by the tests that use it)."""
    return DbtProject(tmp_path_factory.mktemp("dbt_spark"), "spark")


@pytest.fixture(scope="session")
def postgres_port():
    """A throwaway PostgreSQL cluster for the whole session."""
    _require_marker("postgres")
    with servers.postgres_cluster() as port:
        os.environ["RANK_METRICS_PG_PORT"] = str(port)
        yield port


_postgres_connections = []


@pytest.fixture(scope="session")
def postgres(postgres_port):
    """A psycopg2 connection to the test cluster, rolled back after each test (below)."""
    import psycopg2

    con = psycopg2.connect(host="127.0.0.1", port=postgres_port, user="postgres", dbname="postgres")
    _postgres_connections.append(con)
    yield con
    _postgres_connections.remove(con)
    con.close()


@pytest.fixture(autouse=True)
def _postgres_rolled_back():
    """A query a test read on the session's connection without committing held its tables'
    locks, and the next test to drop them on a connection of its own waited for ever (`pytest -m
    spark` ran two such tests in a row): whatever a test leaves open is rolled back."""
    yield
    for con in _postgres_connections:
        if not con.closed:
            con.rollback()


@pytest.fixture(scope="session")
def spark(tmp_path_factory):
    """One local SparkSession for the session; dbt-spark's `session` method reuses it."""
    _require_marker("spark")
    workdir = tmp_path_factory.mktemp("spark")
    os.environ["RANK_METRICS_SPARK_DIR"] = str(workdir)
    session = servers.spark_session(workdir)
    yield session
    session.stop()


@pytest.fixture(scope="session")
def trec_eval_data():
    folder = PEER_DATA / "trec_eval"
    assert (folder / "qrels.test").is_file(), f"peer data missing at {folder}"
    return folder
