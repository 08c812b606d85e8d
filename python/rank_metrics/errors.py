"""The one exception type for bad input: arguments, columns, values and files."""


class RankMetricsError(ValueError):
    """Bad input to rank_metrics; the message names the argument, column or file at fault."""


class RankMetricsWarning(UserWarning):
    """A result that is right by the definitions but most often means the inputs are not what
    the user meant (every value 0: no list met truth)."""


class CheckFailed(AssertionError):
    """check=True found the SQL and the reference implementation computing different numbers."""
