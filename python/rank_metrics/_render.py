"""Rendering the dbt macro files with plain jinja2: the one copy of the metric SQL.

The files under ``macros/`` (except ``macros/dbt/``, which only dbt can run) are loaded as jinja2
templates. Their macros are reached through a ``rank_metrics`` namespace that resolves a name the
way ``adapter.dispatch`` does: ``<engine>__name``, then the engine's parent adapter's
(dbt-redshift inherits dbt-postgres, dbt-databricks dbt-spark), then ``default__name``.
"""

from __future__ import annotations

import functools
import os
import stat
from pathlib import Path

import jinja2

from .errors import RankMetricsError

_PACKAGE_DIR = Path(__file__).resolve().parent

# dbt adapters whose dispatch falls back to another adapter's variants before default__
PARENT_ENGINES = {"redshift": "postgres", "databricks": "spark"}


def dbt_project_dir() -> Path:
    """The folder holding dbt_project.yml and macros/: inside the wheel, or the checkout root."""
    for candidate in (_PACKAGE_DIR / "_dbt", _PACKAGE_DIR.parent.parent):
        if (candidate / "macros").is_dir() and (candidate / "dbt_project.yml").is_file():
            return candidate
    raise RankMetricsError(
        f"rank_metrics: cannot find the dbt macros next to the package ({_PACKAGE_DIR}); "
        "the installation is incomplete"
    )


class _Exceptions:
    """What the macros call as ``exceptions``; dbt has its own with the same method."""

    @staticmethod
    def raise_compiler_error(message):
        raise RankMetricsError(str(message))


class _Namespace:
    """``rank_metrics.<name>`` inside the macros, with dbt's dispatch order for one engine."""

    def __init__(self, engine: str):
        self._prefixes = [engine] + ([PARENT_ENGINES[engine]] if engine in PARENT_ENGINES else []) + ["default"]
        self._macros: dict[str, jinja2.runtime.Macro] = {}

    def __getattr__(self, name):
        for candidate in [f"{prefix}__{name}" for prefix in self._prefixes] + [name]:
            if candidate in self._macros:
                return self._macros[candidate]
        raise AttributeError(f"rank_metrics has no macro {name!r}")


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    """Compiled macro files kept between processes: compiling them all costs about 0.15 s, paid
    by every command-line call and every fresh process otherwise. jinja2 compares each file's
    checksum (and the Python version) before using what it kept, so an edited macro is compiled
    afresh. The folder ($XDG_CACHE_HOME or ~/.cache, then rank_metrics/jinja) is made private
    (0700), and one that another user owns or others may write to is not used: compiled code is
    loaded from it. RANK_METRICS_NO_CACHE=1 turns the cache off; so does an unusable folder."""
    if os.environ.get("RANK_METRICS_NO_CACHE", "") not in ("", "0"):
        return None
    try:
        parent = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rank_metrics"
        directory = parent / "jinja"
        for folder in (parent, directory):
            folder.mkdir(mode=0o700, exist_ok=True, parents=folder is parent)
            if not _private(folder):
                return None
    except (OSError, RuntimeError):   # RuntimeError: no home folder to be found
        return None
    return jinja2.FileSystemBytecodeCache(str(directory)) if os.access(directory, os.W_OK) else None


def _private(folder: Path) -> bool:
    """Owned by this user, a real folder, and writable by nobody else."""
    status = folder.lstat()
    return (stat.S_ISDIR(status.st_mode) and status.st_uid == os.getuid()
            and not status.st_mode & (stat.S_IWGRP | stat.S_IWOTH))


def namespace(engine: str = "duckdb") -> _Namespace:
    """The macros as one engine's dispatch sees them, loaded once per engine and process."""
    return _loaded_namespace(engine)   # one cache key per engine, however the caller passes it


@functools.lru_cache(maxsize=None)
def _loaded_namespace(engine: str) -> _Namespace:
    macros_dir = dbt_project_dir() / "macros"
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(macros_dir)),
        extensions=["jinja2.ext.do"],
        undefined=jinja2.StrictUndefined,
        bytecode_cache=_bytecode_cache(),
    )
    names = _Namespace(engine)
    env.globals.update(rank_metrics=names, exceptions=_Exceptions())
    for path in sorted(macros_dir.rglob("*.sql")):
        relative = path.relative_to(macros_dir)
        if relative.parts[0] == "dbt":
            continue
        # run the file's top level to define its macros; a module would hide the _private ones
        template = env.get_template(relative.as_posix())
        context = template.new_context()
        for _ in template.root_render_func(context):
            pass
        for name, value in context.vars.items():
            if isinstance(value, jinja2.runtime.Macro):
                names._macros[name] = value
    return names


def render(macro: str, engine: str = "duckdb", **arguments) -> str:
    """The SQL of one public macro (map_at_k, average_precision_at_k, input_problems)."""
    try:
        return str(getattr(namespace(engine), macro)(**arguments)).strip()
    except RankMetricsError as error:
        if os.environ.get("RANK_METRICS_DEBUG"):
            raise
        # the macro's message says what is wrong; the frames of jinja and of the macro files
        # (30 lines in a notebook, some pointing at lines they did not run) add nothing to it
        raise error.with_traceback(None) from None
