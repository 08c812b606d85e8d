"""The suite in two pytest processes at once, one a core, each with the servers its tests use:

    python tests/lanes.py          (make test) the Spark tests and those of Snowflake's emulator
                                   beside the rest
    python tests/lanes.py --fast   (make test-fast) the tests that need no server or outside
                                   program (markers, tests/conftest.py), in two halves by file

Other arguments go to both lanes' pytest. `python -m pytest` runs the same tests one after
another. The first lane's output is printed live, the second's after it; the exit status is
nonzero when either lane fails."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FAST = "not (postgres or spark or snowflake or dbt or browser or peers or wheel or process)"
SECOND_LANE = "spark or snowflake"
# the fast tests' second lane: files that take about half their time
FAST_SECOND_LANE = ["test_compare.py", "test_exactness.py", "test_family_examples.py", "test_inputs.py",
                    "test_list_inputs.py", "test_properties.py", "test_repeatable.py", "test_report.py"]
NO_TESTS = 5   # pytest's exit status when a lane selects no test


def lanes(fast: bool) -> dict[str, list[str]]:
    if not fast:
        # the second lane: Spark, and the tests on Snowflake's emulator, which balance the two
        # (on 2026-12-06: Spark 800 s, the emulator 85 s, the rest 900 s with the peers' venv, the
        # wheel's build and Chromium, 40 s, which were in the second lane before)
        return {"all but the second lane's": ["-m", f"not ({SECOND_LANE})"], "Spark and Snowflake's emulator": ["-m", SECOND_LANE]}
    files = sorted(path.name for path in (ROOT / "tests").glob("test_*.py"))
    return {"fast, most files": ["-m", FAST, *(f"tests/{name}" for name in files if name not in FAST_SECOND_LANE)],
            "fast, " + ", ".join(FAST_SECOND_LANE): ["-m", FAST, *(f"tests/{name}" for name in files
                                                                 if name in FAST_SECOND_LANE)]}


def main(arguments: list[str]) -> int:
    fast = "--fast" in arguments
    arguments = [argument for argument in arguments if argument != "--fast"]
    if any(argument == "-m" or argument.startswith(("-m", "--markexpr")) for argument in arguments):
        print("lanes.py: the lanes choose tests by marker (-m); run pytest itself for a -m of your own", file=sys.stderr)
        return 2
    (live_name, live), (kept_name, kept) = lanes(fast).items()
    started = time.monotonic()
    with tempfile.TemporaryFile("w+") as output:
        second = subprocess.Popen([sys.executable, "-m", "pytest", *kept, *arguments], cwd=ROOT, stdout=output,
                                  stderr=subprocess.STDOUT)
        first = subprocess.run([sys.executable, "-m", "pytest", *live, *arguments], cwd=ROOT)
        first_time = time.monotonic() - started
        second.wait()
        second_time = time.monotonic() - started
        output.seek(0)
        print(f"\n{f' {kept_name} ':=^100}")
        sys.stdout.write(output.read())
    codes = {live_name: first.returncode, kept_name: second.returncode}
    print(f"\nlanes: {live_name} exited {first.returncode} after {first_time:.0f} s, {kept_name} {second.returncode} "
          f"after {second_time:.0f} s")
    if all(code == NO_TESTS for code in codes.values()):
        return NO_TESTS
    return max((code for code in codes.values() if code != NO_TESTS), default=0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
