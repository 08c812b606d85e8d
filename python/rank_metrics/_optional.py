"""Optional packages: imported where needed, and a missing one named with the extra to install."""

from __future__ import annotations

import importlib

from .errors import RankMetricsError

# module -> the extra of rank-metrics that installs it
EXTRAS = {"polars": "polars", "pyarrow": "arrow", "psycopg2": "postgres",
          "pyspark": "spark", "dbt": "dbt", "scipy": "stats", "matplotlib": "plot"}


def missing(module: str, needed_for: str) -> RankMetricsError:
    package = module.split(".")[0]   # scipy.stats is installed as scipy
    extra = EXTRAS.get(package)
    install = f"pip install 'rank-metrics[{extra}]'" if extra else f"pip install {package}"
    return RankMetricsError(f"rank_metrics: {needed_for} needs the {package} package, which is not installed: {install}")


def load(module: str, needed_for: str):
    """The module, or a RankMetricsError naming the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError:
        raise missing(module, needed_for) from None
