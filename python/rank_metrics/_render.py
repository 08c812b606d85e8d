"""Rendering the dbt macro files with plain jinja2: the one copy of the metric SQL.

The files under ``macros/`` (except ``macros/dbt/``, which only dbt can run) are loaded as jinja2
templates. Their macros are reached through a ``rank_metrics`` namespace that resolves a name the
way ``adapter.dispatch`` does: ``<engine>__name``, then the engine's parent adapter's (its
engine_profile's parent: dbt-redshift inherits dbt-postgres, dbt-databricks dbt-spark), then
``default__name``.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import secrets
import stat
import sys
from pathlib import Path

import jinja2

from . import errors
from .errors import RankMetricsError

_PACKAGE_DIR = Path(__file__).resolve().parent


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


class _StructuredErrors:
    """``rank_metrics_structured_errors`` inside the macros: defined when Python renders them (dbt
    has no such name), so that rank_metrics._mention writes a mention as a marker that
    RankMetricsError reads back (errors.py), where under dbt it writes the plain text."""

    @staticmethod
    def mention(name, value, form, text):
        return errors.mention(name, value, form, text)

    @staticmethod
    def plain(text):
        """Text for SQL, where no marker goes: each mention as the API spells it."""
        return errors.plain(text)


class _Namespace:
    """``rank_metrics.<name>`` inside the macros, with dbt's dispatch order for one engine."""

    def __init__(self, engine: str):
        self._prefixes = [engine, "default"]   # and the engine's parent, once its profile is read
        self._macros: dict[str, jinja2.runtime.Macro] = {}

    def _read_parent(self) -> None:
        """The parent adapter of the engine's profile (macros/engine/engine_profile.sql), tried
        after the engine's own variants, as dbt's dispatch does."""
        parent = str(self.engine_profile("parent")).strip()
        if parent:
            self._prefixes = [self._prefixes[0], parent, "default"]

    def __getattr__(self, name):
        for candidate in [f"{prefix}__{name}" for prefix in self._prefixes] + [name]:
            if candidate in self._macros:
                return self._macros[candidate]
        raise AttributeError(f"rank_metrics has no macro {name!r}")


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    """Compiled macro files kept between processes: compiling them all costs about 0.15 s, paid
    by every command-line call and every fresh process otherwise. The folder ($XDG_CACHE_HOME or
    ~/.cache, then rank_metrics/jinja) is made private (0700), and one that is a symlink, that
    another user owns or that others may write to is not used: what is loaded from it runs as
    code. RANK_METRICS_NO_CACHE=1 turns the cache off; so does an unusable folder, and so does a
    system without O_NOFOLLOW (Windows), on which the files could not be checked."""
    if os.environ.get("RANK_METRICS_NO_CACHE", "") not in ("", "0") or not hasattr(os, "O_NOFOLLOW"):
        return None
    try:
        home = _cache_home()
        if home is None:
            return None
        parent = home / "rank_metrics"
        directory = parent / "jinja"
        for folder in (parent, directory):
            folder.mkdir(mode=0o700, exist_ok=True, parents=folder is parent)
            if not _trusted(folder.lstat(), stat.S_ISDIR):   # lstat: a symlink is not a folder
                return None
    except OSError:
        return None
    return _PrivateBytecodeCache(directory) if os.access(directory, os.W_OK) else None


def _cache_home() -> Path | None:
    """$XDG_CACHE_HOME, else ~/.cache. A relative XDG_CACHE_HOME is ignored, as the XDG spec says:
    it would be read from the current folder, which may be a cloned repository carrying a
    rank_metrics/jinja of someone else's code, in files git made ours. No usable home, no cache."""
    configured = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(configured):
        return Path(configured)
    # HOME if set (an empty or relative one is unusable), else the password database's
    home = os.environ["HOME"] if "HOME" in os.environ else os.path.expanduser("~")
    return Path(home) / ".cache" if os.path.isabs(home) else None


def _trusted(status: os.stat_result, is_kind) -> bool:
    """Of the kind wanted, owned by this process's (effective) user, writable by nobody else."""
    return (is_kind(status.st_mode) and status.st_uid == os.geteuid()
            and not status.st_mode & (stat.S_IWGRP | stat.S_IWOTH))


class _PrivateBytecodeCache(jinja2.BytecodeCache):
    """jinja2's FileSystemBytecodeCache, loading only files this user wrote. A cache file is
    marshalled code that jinja2 runs, so a file planted by anyone else would be their code run as
    us: one that is a symlink, not a regular file, another user's, or writable by others is
    treated as missing (compiled afresh, and replaced)."""

    def __init__(self, directory: Path):
        self.directory = directory
        # compiled code differs between jinja2 and Python versions; a file's name says which made it
        # (jinja2.__version__, not importlib.metadata, whose import alone costs 30 ms)
        self._versions = f"{getattr(jinja2, '__version__', '')}|{sys.version}"

    def get_bucket(self, environment, name, filename, source):
        # <macro file and versions>-<its source>: the name alone picks the right file (jinja2 still
        # compares a checksum of the source kept inside it), and the first part finds a file's
        # older versions to delete
        file_key = _sha256(f"{name}|{filename}|{self._versions}")[:32]
        bucket = jinja2.bccache.Bucket(environment, f"{file_key}-{_sha256(source)[:32]}",
                                       self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def _path(self, key: str) -> Path:
        return self.directory / f"{key}.cache"

    def load_bytecode(self, bucket):
        try:
            # O_NOFOLLOW: a symlink fails to open rather than its target being read; O_NONBLOCK:
            # a FIFO cannot hang the open
            descriptor = os.open(self._path(bucket.key), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            return   # a miss: jinja2 compiles the file and calls dump_bytecode
        with open(descriptor, "rb") as file:
            # checked on the descriptor that is read, not on the path: the file cannot be swapped
            # between the check and the read
            if _trusted(os.fstat(descriptor), stat.S_ISREG):
                bucket.load_bytecode(file)

    def dump_bytecode(self, bucket):
        path = self._path(bucket.key)
        # written to a new private file beside it (O_EXCL: never one that exists, O_NOFOLLOW: nor
        # through a symlink; 0600), then renamed over the name: a reader sees a whole file, and a
        # symlink or another user's file at that name is replaced, not written through
        temporary = path.with_name(f"{path.name}.{secrets.token_hex(8)}.tmp")
        try:
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        except OSError:
            return   # the cache only saves time
        try:
            with open(descriptor, "wb") as file:
                bucket.write_bytecode(file)
            os.replace(temporary, path)
            # the files of this macro's older sources will not be asked for again
            for stale in self.directory.glob(f"{bucket.key.partition('-')[0]}-*.cache"):
                if stale != path:
                    stale.unlink(missing_ok=True)
        except OSError:
            with contextlib.suppress(OSError):
                temporary.unlink()


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def namespace(engine: str = "duckdb") -> _Namespace:
    """The macros as one engine's dispatch sees them, loaded once per engine and process."""
    return _loaded_namespace(engine)   # one cache key per engine, however the caller passes it


@functools.lru_cache(maxsize=None)
def _loaded_namespace(engine: str, structured_errors: bool = True) -> _Namespace:
    """The macros as one engine's dispatch sees them; without `structured_errors`, as dbt renders
    them (its messages plain text: no rank_metrics_structured_errors)."""
    macros_dir = dbt_project_dir() / "macros"
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(macros_dir)),
        extensions=["jinja2.ext.do"],
        undefined=jinja2.StrictUndefined,
        bytecode_cache=_bytecode_cache(),
    )
    names = _Namespace(engine)
    env.globals.update(rank_metrics=names, exceptions=_Exceptions())
    if structured_errors:
        env.globals["rank_metrics_structured_errors"] = _StructuredErrors()
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
    names._read_parent()
    return names


@functools.lru_cache(maxsize=None)
def metric_registry() -> dict[str, dict]:
    """The metric registry (macros/metrics/_registry.sql): metric name -> its macro, group
    column, user column, label, sums and description, in the order results list them."""
    return _registry("metrics/_registry.sql", "_metric_registry")


@functools.lru_cache(maxsize=None)
def beyond_accuracy_registry() -> dict[str, dict]:
    """The beyond-accuracy metrics (macros/metrics/beyond_accuracy.sql): metric name -> its label,
    description and, for each library that defines it, whether it is a mean over users."""
    return _registry("metrics/beyond_accuracy.sql", "_beyond_accuracy_registry")


def _registry(path: str, macro: str) -> dict[str, dict]:
    """The dict a registry macro fills, read from its one file alone, so that importing the
    package loads no other macro."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(dbt_project_dir() / "macros")),
                             extensions=["jinja2.ext.do"], undefined=jinja2.StrictUndefined)
    template = env.get_template(path)
    context = template.new_context()
    for _ in template.root_render_func(context):
        pass
    registry: dict[str, dict] = {}
    context.vars[macro](registry)
    return registry


def render(macro: str, engine: str = "duckdb", /, **arguments) -> str:
    """The SQL of one public macro (map_at_k, average_precision_at_k, input_problems), or the
    text of an internal one (its checks: _macro_arguments, whose own argument is `macro`)."""
    try:
        return str(getattr(namespace(engine), macro)(**arguments)).strip()
    except RankMetricsError as error:
        if os.environ.get("RANK_METRICS_DEBUG"):
            raise
        # the macro's message says what is wrong; the frames of jinja and of the macro files
        # (30 lines in a notebook, some pointing at lines they did not run) add nothing to it
        raise error.with_traceback(None) from None
