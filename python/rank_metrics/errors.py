"""The one exception type for bad input: arguments, columns, values and files."""


class RankMetricsError(ValueError):
    """Bad input to rank_metrics; the message names the argument, column or file at fault."""


class CheckFailed(AssertionError):
    """check=True found the SQL and the reference implementation computing different numbers."""
