"""The suite in pytest processes at once, each with the servers its tests use:

    python tests/lanes.py          (make test) five processes: Spark through the Python API; the
                                   dbt project on Spark and Snowflake's emulator; the dbt projects
                                   on DuckDB and PostgreSQL; the rest, in two halves by file
    python tests/lanes.py --fast   (make test-fast) the tests that need no server or outside
                                   program (markers, tests/conftest.py), in two halves by file

Other arguments go to every lane's pytest. `python -m pytest` runs the same tests one after
another. The first lane's output is printed live, the others' after it; the exit status is
nonzero when any lane fails."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FAST = "not (postgres or spark or snowflake or dbt or browser or peers or wheel or process)"
SERVERS = "spark or snowflake or dbt"
# the rest's second half: files that take about half its time (the peers' own venv and numba
# compilation, the property tests)
REST_SECOND_HALF = ["test_beyond_accuracy_sql.py", "test_peers.py", "test_peers_beyond_accuracy.py", "test_properties.py",
                    "test_report.py"]
# the fast tests' second lane: files that take about half their time
FAST_SECOND_LANE = ["test_compare.py", "test_exactness.py", "test_family_examples.py", "test_inputs.py",
                    "test_list_inputs.py", "test_properties.py", "test_repeatable.py", "test_report.py"]
NO_TESTS = 5   # pytest's exit status when a lane selects no test


def lanes(fast: bool) -> dict[str, list[str]]:
    files = sorted(path.name for path in (ROOT / "tests").glob("test_*.py"))
    if not fast:
        # Processes on two cores that wait on servers, JVMs and child processes: three lanes used
        # under one core between them (on 2026-12-07, 19 min of CPU in 22 min of lanes), Spark's
        # the longest (1,291 s: a query of a few rows takes seconds to plan), so Spark has two,
        # each with a JVM of its own
        return {"the rest, most files": ["-m", f"not ({SERVERS})", *(f"tests/{name}" for name in files
                                                                     if name not in REST_SECOND_HALF)],
                "the rest: " + ", ".join(REST_SECOND_HALF): ["-m", f"not ({SERVERS})",
                                                             *(f"tests/{name}" for name in REST_SECOND_HALF)],
                "Spark through the Python API": ["-m", "spark and not dbt and not snowflake"],
                "dbt on Spark, Snowflake's emulator": ["-m", "(spark and dbt) or snowflake"],
                "dbt on DuckDB and PostgreSQL": ["-m", "dbt and not (spark or snowflake)"]}
    return {"fast, most files": ["-m", FAST, *(f"tests/{name}" for name in files if name not in FAST_SECOND_LANE)],
            "fast, " + ", ".join(FAST_SECOND_LANE): ["-m", FAST, *(f"tests/{name}" for name in files
                                                                 if name in FAST_SECOND_LANE)]}


def main(arguments: list[str]) -> int:
    fast = "--fast" in arguments
    arguments = [argument for argument in arguments if argument != "--fast"]
    if any(argument == "-m" or argument.startswith(("-m", "--markexpr")) for argument in arguments):
        print("lanes.py: the lanes choose tests by marker (-m); run pytest itself for a -m of your own", file=sys.stderr)
        return 2
    (live_name, live), *kept = lanes(fast).items()
    started = time.monotonic()
    codes, times = {}, {}
    with contextlib.ExitStack() as stack:
        outputs = [stack.enter_context(tempfile.TemporaryFile("w+")) for _ in kept]
        others = [subprocess.Popen([sys.executable, "-m", "pytest", *options, *arguments], cwd=ROOT, stdout=output,
                                   stderr=subprocess.STDOUT) for (_, options), output in zip(kept, outputs)]
        codes[live_name] = subprocess.run([sys.executable, "-m", "pytest", *live, *arguments], cwd=ROOT).returncode
        times[live_name] = time.monotonic() - started
        for (name, _), process, output in zip(kept, others, outputs):
            codes[name] = process.wait()
            times[name] = time.monotonic() - started
            output.seek(0)
            print(f"\n{f' {name} ':=^100}")
            sys.stdout.write(output.read())
    print("\nlanes: " + ", ".join(f"{name} exited {codes[name]} after {times[name]:.0f} s" for name in codes))
    if all(code == NO_TESTS for code in codes.values()):
        return NO_TESTS
    return max((code for code in codes.values() if code != NO_TESTS), default=0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
