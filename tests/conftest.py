import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import servers

ROOT = Path(__file__).resolve().parent.parent
INTEGRATION = ROOT / "integration_tests"
PEER_DATA = ROOT / "tests" / "data"

# CI runs at least 500 random examples per property on DuckDB and PostgreSQL; `dev` is for a
# quick local loop. Spark pays seconds per query, so its properties run fewer (test_properties).
settings.register_profile("ci", max_examples=600, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


class DbtProject:
    """The integration project on one target, run in-process with dbtRunner; everything dbt
    writes goes to a temp folder, none of it into the repository."""

    def __init__(self, workdir: Path, target: str = "duckdb"):
        self.workdir = workdir
        self.target = target
        self.database = workdir / "rank_metrics_integration.duckdb"

    def invoke(self, *arguments: str, project: Path = INTEGRATION, callbacks=()):
        from dbt.cli.main import dbtRunner

        # deps takes no --target-path or --target, so everything is said through the environment
        os.environ.update({
            "DBT_SEND_ANONYMOUS_USAGE_STATS": "false",
            "DBT_TARGET": self.target,
            "DBT_TARGET_PATH": str(self.workdir / "target"),
            "DBT_LOG_PATH": str(self.workdir / "logs"),
            "RANK_METRICS_DUCKDB_PATH": str(self.database),
        })
        return dbtRunner(callbacks=list(callbacks)).invoke([*arguments, "--project-dir", str(project), "--profiles-dir", str(INTEGRATION)])

    def compiled(self, model: str) -> str:
        matches = list((self.workdir / "target" / "compiled").rglob(f"{model}.sql"))
        assert len(matches) == 1, matches
        return matches[0].read_text()


@pytest.fixture(scope="session")
def dbt_project(tmp_path_factory):
    """The integration project on DuckDB after `dbt deps` and `dbt build`, examples included."""
    project = DbtProject(tmp_path_factory.mktemp("dbt_duckdb"))
    deps = project.invoke("deps")
    assert deps.success, deps.exception
    project.build = project.invoke("build")
    return project


@pytest.fixture(scope="session")
def postgres_port():
    """A throwaway PostgreSQL cluster for the whole session."""
    with servers.postgres_cluster() as port:
        os.environ["RANK_METRICS_PG_PORT"] = str(port)
        yield port


@pytest.fixture(scope="session")
def postgres(postgres_port):
    """A psycopg2 connection to the test cluster."""
    import psycopg2

    con = psycopg2.connect(host="127.0.0.1", port=postgres_port, user="postgres", dbname="postgres")
    yield con
    con.close()


@pytest.fixture(scope="session")
def spark(tmp_path_factory):
    """One local SparkSession for the session; dbt-spark's `session` method reuses it."""
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
