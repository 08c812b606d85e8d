"""What a newcomer meets before any metric: a fast import, a cache of compiled macros that is
private and can be turned off, and a LICENSE."""

import os
import stat
import subprocess
import sys

import pytest

from conftest import ROOT

SCRIPT = "import rank_metrics; print(rank_metrics.sql('recs', 'purchases', k=12, rank='rank'))"


def run_python(code, **environment):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={**os.environ, **environment}).stdout


def test_import_and_version_do_not_import_pandas():
    loaded = run_python("import sys, rank_metrics; print('pandas' in sys.modules)")
    assert loaded.strip() == "False"
    version = run_python("import sys\nfrom rank_metrics import cli\n"
                         "try:\n    cli.main(['--version'])\nexcept SystemExit:\n    pass\n"
                         "print('pandas' in sys.modules)")
    assert version.splitlines() == ["rank-metrics 0.1.0", "False"]


def test_the_cache_folders_are_made_private(tmp_path):
    run_python(SCRIPT, XDG_CACHE_HOME=str(tmp_path))
    for folder in (tmp_path / "rank_metrics", tmp_path / "rank_metrics" / "jinja"):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert list((tmp_path / "rank_metrics" / "jinja").iterdir())


@pytest.mark.parametrize("spoil", ["other owner", "group writable", "world writable", "a symlink"])
def test_a_cache_folder_others_control_is_not_used(tmp_path, spoil):
    cache = tmp_path / "rank_metrics" / "jinja"
    if spoil == "a symlink":
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir(mode=0o700)
        (tmp_path / "rank_metrics").mkdir(mode=0o700)
        cache.symlink_to(elsewhere)
        watched = elsewhere
    else:
        cache.mkdir(parents=True, mode=0o700)
        watched = cache
        if spoil == "other owner":
            os.chown(cache, 4242, 4242)   # the tests run as root, as CI does
        else:
            cache.chmod(0o770 if spoil == "group writable" else 0o707)
    expected = run_python(SCRIPT, RANK_METRICS_NO_CACHE="1")
    assert run_python(SCRIPT, XDG_CACHE_HOME=str(tmp_path)) == expected   # still renders
    assert list(watched.iterdir()) == []                                  # but keeps nothing there


def test_the_cache_can_be_turned_off(tmp_path):
    run_python(SCRIPT, XDG_CACHE_HOME=str(tmp_path), RANK_METRICS_NO_CACHE="1")
    assert not (tmp_path / "rank_metrics").exists()
    run_python(SCRIPT, XDG_CACHE_HOME=str(tmp_path), RANK_METRICS_NO_CACHE="0")
    assert (tmp_path / "rank_metrics" / "jinja").is_dir()


def test_license_is_apache_2():
    text = (ROOT / "LICENSE").read_text()
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "Copyright 2026 The rank_metrics authors" in text
