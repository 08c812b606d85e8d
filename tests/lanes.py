"""The suite in pytest processes at once, each with the servers its tests use:

    python tests/lanes.py          (make test) three processes: Spark; the dbt projects on DuckDB
                                   and PostgreSQL, and Snowflake's emulator; the rest
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
SECOND_LANE = "spark"
# the fast tests' second lane: files that take about half their time
FAST_SECOND_LANE = ["test_compare.py", "test_exactness.py", "test_family_examples.py", "test_inputs.py",
                    "test_list_inputs.py", "test_properties.py", "test_repeatable.py", "test_report.py"]
NO_TESTS = 5   # pytest's exit status when a lane selects no test


def lanes(fast: bool) -> dict[str, list[str]]:
    if not fast:
        # Spark; the dbt projects on DuckDB and PostgreSQL, and the tests on Snowflake's
        # emulator; the rest. Three took 1,157 s against two's 1,324 s and four's 1,251 s; five
        # (Spark in two, each with its JVM; the rest in two by file) took 1,580 s on 2026-12-07
        # with the CPU 100% busy throughout (vmstat): the suite is bound by CPU (the JVMs' own
        # included), so more lanes only run each slower. Snowflake's emulator's tests (115 s)
        # moved from Spark's lane (1,374 s) to the dbt one (620 s) on 2026-12-08: 25.8 and 23.5
        # min in two runs against 26.2 (Spark's lane 1,373 s, then 1,231 s), within the runs' spread
        return {"all but the other lanes'": ["-m", f"not ({SECOND_LANE} or snowflake or dbt)"],
                "Spark": ["-m", SECOND_LANE],
                "dbt on DuckDB and PostgreSQL, and Snowflake's emulator": ["-m", f"(dbt or snowflake) and not ({SECOND_LANE})"]}
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
