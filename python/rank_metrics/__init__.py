"""rank_metrics: MAP@k, NDCG, precision, recall, MRR and hit rate computed where the data lives.

The metric SQL lives once, in the dbt macros; this package renders those macros with jinja2 and
runs them in DuckDB, and checks them against an independent reference implementation.
"""

from ._version import __version__
from .api import METRIC_FUNCTIONS, average_precision_at_k, evaluate, evaluate_users, sql
from .beyond import beyond_accuracy, beyond_accuracy_users, compare_beyond_accuracy
from .comparison import compare
from .errors import CheckFailed, RankMetricsError, RankMetricsWarning
from .lists import apk, mapk
from .over_time import evaluate_over_time, no_significant_drop
from ._report import plot, report

# a function per metric of the registry (macros/metrics/_registry.sql): map_at_k, ndcg_at_k,
# precision_at_k, recall_at_k, mrr_at_k, hit_rate_at_k
globals().update(METRIC_FUNCTIONS)

__all__ = ["__version__", "apk", "mapk", *METRIC_FUNCTIONS, "average_precision_at_k", "evaluate", "evaluate_users", "compare",
           "evaluate_over_time", "no_significant_drop", "beyond_accuracy", "beyond_accuracy_users",
           "compare_beyond_accuracy",
           "plot", "report", "sql", "RankMetricsError", "RankMetricsWarning", "CheckFailed"]
