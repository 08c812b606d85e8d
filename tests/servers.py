"""The engines the test suite starts itself: a throwaway PostgreSQL cluster and a local Spark.

Missing software is a broken set-up (`make test` installs it), never a reason to skip."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def postgres_cluster():
    """A PostgreSQL server on a free port of 127.0.0.1, trusting user postgres; yields the port.

    Its collation is C (byte order), so text ties break in the same order as in Python."""
    binaries = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not binaries:
        raise RuntimeError("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): "
                           "`make test` installs Debian's postgresql package; run it, or install it")
    bin_dir = Path(binaries[-1]).parent
    data_dir = Path(tempfile.mkdtemp(prefix="rank_metrics_pg_"))
    as_postgres = []
    if os.geteuid() == 0:   # initdb refuses to run as root
        shutil.chown(data_dir, "postgres", "postgres")
        as_postgres = ["runuser", "-u", "postgres", "--"]
    port = free_port()
    subprocess.run([*as_postgres, str(bin_dir / "initdb"), "-D", str(data_dir), "-U", "postgres",
                    "--auth=trust", "--no-sync", "--no-locale", "--encoding=UTF8"], check=True, capture_output=True)
    # a test that waits on a lock another left held fails after a minute instead of hanging
    options = f"-c listen_addresses=127.0.0.1 -p {port} -k {data_dir} -c fsync=off -c lock_timeout=60s"
    subprocess.run([*as_postgres, str(bin_dir / "pg_ctl"), "-D", str(data_dir), "-w", "-l",
                    str(data_dir / "server.log"), "-o", options, "start"], check=True, capture_output=True)
    try:
        yield port
    finally:
        subprocess.run([*as_postgres, str(bin_dir / "pg_ctl"), "-D", str(data_dir), "-m", "fast", "stop"],
                       capture_output=True)
        shutil.rmtree(data_dir, ignore_errors=True)


SPARK_SETTINGS = {
    "spark.master": "local[2]",
    "spark.ui.enabled": "false",
    "spark.sql.shuffle.partitions": "2",
    # what dbt-spark runs with, so raw pyspark and dbt agree
    "spark.sql.ansi.enabled": "false",
}
# Spark's own defaults otherwise. Measured on 2026-12-07 and left out: without code generation
# (spark.sql.codegen.factoryMode NO_CODEGEN) small queries took half the JVM's CPU, but the dbt
# integration build took longer and spark.catalog.listTables failed (a Spark bug of that mode);
# the JIT's first tier only (-XX:TieredStopAtLevel=1) with adaptive execution off took that build
# from 203 s to 299 s.


def spark_session(workdir: Path):
    """A local SparkSession whose warehouse and metastore live in workdir."""
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("rank_metrics tests")
    for key, value in SPARK_SETTINGS.items():
        builder = builder.config(key, value)
    builder = builder.config("spark.sql.warehouse.dir", str(workdir / "warehouse"))
    builder = builder.config("spark.driver.extraJavaOptions", f"-Dderby.system.home={workdir / 'derby'}")
    builder = builder.enableHiveSupport()
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    return session
