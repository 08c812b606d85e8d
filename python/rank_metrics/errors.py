"""The one exception type for bad input: arguments, columns, values and files; and the one
way rank_metrics warns."""

import os
import sys
import warnings


class RankMetricsError(ValueError):
    """Bad input to rank_metrics; the message names the argument, column or file at fault."""


class RankMetricsWarning(UserWarning):
    """A result that is right by the definitions but most often means the inputs are not what
    the user meant (every value 0: no list met truth)."""


class CheckFailed(AssertionError):
    """check=True found the SQL and the reference implementation computing different numbers."""


def warn(message: str) -> None:
    """A RankMetricsWarning that points at the user's call, however deep inside the package it
    is found (compare's resampled tests, a report, a context manager's __enter__ in contextlib):
    at the frame that called the outermost frame of this package."""
    frame, level, users_level = sys._getframe(0), 1, 2
    while frame is not None:
        if os.path.dirname(frame.f_code.co_filename) == os.path.dirname(__file__):
            users_level = level + 1
        frame, level = frame.f_back, level + 1
    warnings.warn(f"rank_metrics: {message}", RankMetricsWarning, stacklevel=users_level)
