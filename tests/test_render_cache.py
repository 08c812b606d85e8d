"""The cache of compiled macro files loads only what this user wrote.

jinja2 runs what a bytecode cache file holds (marshalled code), so a file someone else could
plant there is code run as us. Each test takes a copy of the cache a fresh process filled, swaps each file's
code for a payload that writes a marker file (the header, with the checksum of the real macro
source, is kept, so jinja2 would run it), spoils the files the way an attacker could, and runs
rank_metrics in another process: the marker must not appear and the result must stay right.
"""

import io
import marshal
import os
import pickle
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from jinja2.bccache import bc_magic

# renders the macros and runs the SQL in DuckDB: user 1's AP@2 with item 1 of 2 relevant at rank 1
SCRIPT = ("import pandas as pd, rank_metrics\n"
          "predictions = pd.DataFrame({'user_id': [1, 1], 'item_id': [1, 2], 'rank': [1, 2]})\n"
          "truth = pd.DataFrame({'user_id': [1, 1], 'item_id': [1, 3]})\n"
          "print(rank_metrics.map_at_k(predictions, truth, k=2))")
EXPECTED = "0.5"
NOBODY = 65534



def run(tmp_path: Path, cwd: Path | None = None, **environment) -> subprocess.CompletedProcess:
    """rank_metrics in a fresh process, with HOME in tmp_path unless said otherwise."""
    env = {name: value for name, value in os.environ.items()
           if name not in ("RANK_METRICS_NO_CACHE", "XDG_CACHE_HOME")}
    env["HOME"] = str(tmp_path / "home")
    env.update(environment)
    return subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          env=env, cwd=cwd or tmp_path)


@pytest.fixture(scope="module")
def first_cache(tmp_path_factory) -> Path:
    """The cache folder a first process fills (a file per macro file, compiled: seconds), once
    for the module; each test copies it, modes kept, as if its own first process had written it."""
    tmp_path = tmp_path_factory.mktemp("first_cache")
    result = run(tmp_path, XDG_CACHE_HOME=str(tmp_path / "cache"))
    assert result.stdout.strip() == EXPECTED, result.stderr
    return tmp_path / "cache" / "rank_metrics"


@pytest.fixture
def cache_files(first_cache: Path):
    """A function giving the files a first process kept in cache_home (one per macro file)."""
    def kept(cache_home: Path) -> list[Path]:
        cache_home.mkdir(parents=True, exist_ok=True)
        shutil.copytree(first_cache, cache_home / "rank_metrics")
        files = sorted((cache_home / "rank_metrics" / "jinja").iterdir())
        assert files
        return files
    return kept


def payload(cache_file: Path, marker: Path) -> bytes:
    """cache_file's header (jinja2's magic and the checksum of the real source) followed by
    code that writes marker: what jinja2 would load and run in place of the compiled macro."""
    data = cache_file.read_bytes()
    header = io.BytesIO(data)
    assert header.read(len(bc_magic)) == bc_magic
    pickle.load(header)   # the source checksum
    code = compile(f"open({str(marker)!r}, 'w').write('planted code ran')", "<planted>", "exec")
    return data[:header.tell()] + marshal.dumps(code)


def plant(files: list[Path], marker: Path) -> None:
    for path in files:
        path.write_bytes(payload(path, marker))


def assert_not_run_and_right(result: subprocess.CompletedProcess, marker: Path) -> None:
    assert not marker.exists(), "the planted cache file was run"
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == EXPECTED


def test_the_planted_payload_runs_when_this_user_wrote_it(tmp_path, cache_files):
    """The control for the tests below: the payload is one jinja2 loads and runs, when it is
    this user's own private file (the cache trusts this user, as it must)."""
    cache_home, marker = tmp_path / "cache", tmp_path / "marker"
    plant(cache_files(cache_home), marker)
    run(tmp_path, XDG_CACHE_HOME=str(cache_home))
    assert marker.exists()


def test_a_cache_file_another_user_owns_is_not_loaded(tmp_path, cache_files):
    """(chown to another user needs root, as make test and CI run.)"""
    cache_home, marker = tmp_path / "cache", tmp_path / "marker"
    files = cache_files(cache_home)
    plant(files, marker)
    for path in files:
        os.chown(path, NOBODY, NOBODY)
    assert_not_run_and_right(run(tmp_path, XDG_CACHE_HOME=str(cache_home)), marker)


def test_a_cache_file_that_is_a_symlink_is_not_followed(tmp_path, cache_files):
    cache_home, marker = tmp_path / "cache", tmp_path / "marker"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    files = cache_files(cache_home)
    plant(files, marker)
    for path in files:
        # the target is even this user's own private file: only the link is wrong
        target = elsewhere / path.name
        path.rename(target)
        path.symlink_to(target)
    planted = {path.name: path.read_bytes() for path in elsewhere.iterdir()}
    assert_not_run_and_right(run(tmp_path, XDG_CACHE_HOME=str(cache_home)), marker)
    # the links were replaced by files of this process, not written through
    assert {path.name: path.read_bytes() for path in elsewhere.iterdir()} == planted
    assert not any(path.is_symlink() for path in (cache_home / "rank_metrics" / "jinja").iterdir())


@pytest.mark.parametrize("mode", [0o620, 0o602], ids=["group writable", "world writable"])
def test_a_cache_file_others_may_write_is_not_loaded(tmp_path, mode, cache_files):
    cache_home, marker = tmp_path / "cache", tmp_path / "marker"
    files = cache_files(cache_home)
    plant(files, marker)
    for path in files:
        path.chmod(mode)
    assert_not_run_and_right(run(tmp_path, XDG_CACHE_HOME=str(cache_home)), marker)


def test_a_relative_xdg_cache_home_is_ignored(tmp_path, cache_files):
    """XDG_CACHE_HOME=. in a cloned repository that carries rank_metrics/jinja: git makes its
    files this user's, so only the XDG spec's rule (a relative path is ignored) stops them."""
    clone, marker = tmp_path / "clone", tmp_path / "marker"
    files = cache_files(clone)   # 0700 folders and 0600 files, all this user's
    plant(files, marker)
    assert_not_run_and_right(run(tmp_path, cwd=clone, XDG_CACHE_HOME="."), marker)
    assert list((tmp_path / "home" / ".cache" / "rank_metrics" / "jinja").iterdir())   # ~/.cache instead


def test_a_relative_home_means_no_cache(tmp_path, cache_files):
    clone, marker = tmp_path / "clone", tmp_path / "marker"
    files = cache_files(clone / ".cache")
    plant(files, marker)
    planted = {path: path.read_bytes() for path in files}
    for home in (".", ""):
        assert_not_run_and_right(run(tmp_path, cwd=clone, HOME=home), marker)
    kept = (clone / ".cache" / "rank_metrics" / "jinja").iterdir()
    assert {path: path.read_bytes() for path in kept} == planted   # neither loaded nor rewritten


def test_the_cache_is_used_and_holds_private_files_of_this_user(tmp_path, cache_files):
    cache_home = tmp_path / "cache"
    folder = cache_home / "rank_metrics" / "jinja"
    files = cache_files(cache_home)
    for path in (folder.parent, folder):
        assert stat.S_IMODE(path.lstat().st_mode) == 0o700
    kept = {}
    for path in files:
        status = path.lstat()
        assert stat.S_ISREG(status.st_mode) and status.st_uid == os.geteuid()
        assert stat.S_IMODE(status.st_mode) == 0o600
        assert path.suffix == ".cache"   # no temporary file left behind
        kept[path.name] = (status.st_ino, status.st_mtime_ns)
    result = run(tmp_path, XDG_CACHE_HOME=str(cache_home))
    assert result.stdout.strip() == EXPECTED, result.stderr
    # read back by the second process, not compiled and written again
    assert {path.name: (path.lstat().st_ino, path.lstat().st_mtime_ns) for path in folder.iterdir()} == kept


def test_a_macro_compiled_again_replaces_its_older_file(tmp_path, cache_files):
    """A file's name is <macro file and versions>-<hash of its source>: a file kept for an older
    source is never asked for again, so it is deleted when the macro is compiled anew."""
    cache_home = tmp_path / "cache"
    files = cache_files(cache_home)
    current = files[0]
    older = current.with_name(current.name.partition("-")[0] + "-" + "0" * 32 + ".cache")
    current.rename(older)
    result = run(tmp_path, XDG_CACHE_HOME=str(cache_home))
    assert result.stdout.strip() == EXPECTED, result.stderr
    assert current.is_file() and not older.exists()
    assert sorted((cache_home / "rank_metrics" / "jinja").iterdir()) == files
