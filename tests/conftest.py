import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
INTEGRATION = ROOT / "integration_tests"
PEER_DATA = ROOT / "tests" / "data"

# CI runs at least 500 random examples per property; `dev` is for a quick local loop.
settings.register_profile("ci", max_examples=600, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


class DbtProject:
    """The integration project, run in-process with dbtRunner, outputs kept in a temp folder."""

    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.database = workdir / "rank_metrics_integration.duckdb"
        os.environ["RANK_METRICS_DUCKDB_PATH"] = str(self.database)
        os.environ["DBT_SEND_ANONYMOUS_USAGE_STATS"] = "false"
        # every dbt command (deps takes no --target-path) writes here, not in the repository
        os.environ["DBT_TARGET_PATH"] = str(workdir / "target")
        os.environ["DBT_LOG_PATH"] = str(workdir / "logs")

    def invoke(self, *arguments: str, project: Path = INTEGRATION):
        from dbt.cli.main import dbtRunner

        result = dbtRunner().invoke([
            *arguments, "--project-dir", str(project), "--profiles-dir", str(INTEGRATION),
        ])
        return result

    def compiled(self, model: str) -> str:
        matches = list((self.workdir / "target" / "compiled").rglob(f"{model}.sql"))
        assert len(matches) == 1, matches
        return matches[0].read_text()


@pytest.fixture(scope="session")
def dbt_project(tmp_path_factory):
    """The integration project after `dbt deps` and `dbt build` (seeds, models and tests)."""
    project = DbtProject(tmp_path_factory.mktemp("dbt"))
    deps = project.invoke("deps")
    assert deps.success, deps.exception
    project.build = project.invoke("build")
    return project


@pytest.fixture(scope="session")
def trec_eval_data():
    folder = PEER_DATA / "trec_eval"
    assert (folder / "qrels.test").is_file(), f"peer data missing at {folder}"
    return folder
