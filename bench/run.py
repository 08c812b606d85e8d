"""One command runs every implementation on the same files, alternating, and reports the median
time and the peak memory of each; then checks that their numbers agree.

    python bench/run.py --rows 1M 10M --runs 3            # the r12 files; bench/generate.py first
    python bench/run.py --rows 1M --runs 1 --variant s12   # scored lists

Each measurement is a fresh process (so its peak memory is its own), running one implementation
once; runs alternate between implementations so that drift on the machine hits them all alike.
An implementation is not started at a size where its previous size, grown linearly, would take
longer than --give-up seconds (default 600, ten minutes; judged by the whole run, conversions
included) or more than 16 GB (unless its engine caps its memory), and is dropped once a run
takes longer than --give-up. Results go to bench/results/results.json.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import selectors
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import generate  # noqa: E402
import implementations  # noqa: E402

RESULTS = BENCH / "results" / "results.json"
# what the pure-Python reference can hold in memory on this machine (rows as dicts)
REFERENCE_LIMIT = 1_000_000
# no run is started that would need more memory than this, judging by the size before
MEMORY_LIMIT_MB = 16_000


def child(name: str, variant: str, size: str, k: int) -> None:
    """In the measured process: run one implementation once, print its result as JSON, with the
    peak resident memory of this process and its children (Spark's JVM) sampled every 50 ms."""
    import threading

    import psutil

    peak = [0]
    done = threading.Event()

    def sample():
        me = psutil.Process()
        while not done.wait(0.05):
            with contextlib.suppress(psutil.Error):
                tree = [me, *me.children(recursive=True)]
                peak[0] = max(peak[0], sum(process.memory_info().rss for process in tree))

    threading.Thread(target=sample, daemon=True).start()
    # spill files and dbt's work go to a folder of this run's, next to the data, removed after
    tempfile.tempdir = tempfile.mkdtemp(prefix="run_", dir=generate.DATA)
    try:
        function = implementations.IMPLEMENTATIONS[name]
        value, timings = function(generate.predictions_path(variant, size), generate.truth_path(variant, size),
                                  k, variant)
    finally:
        done.set()
        shutil.rmtree(tempfile.tempdir, ignore_errors=True)
    print("RESULT " + json.dumps({"value": value, "timings": timings, "tree_peak_mb": peak[0] / 2**20}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", nargs="+", default=["1M"], choices=generate.SIZES)
    parser.add_argument("--variant", default="r12", choices=generate.VARIANTS)
    parser.add_argument("-k", type=int, default=12)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", nargs="+", choices=implementations.IMPLEMENTATIONS)
    parser.add_argument("--give-up", type=float, default=600.0)
    parser.add_argument("--results", type=Path, default=RESULTS, help="where to keep the results (JSON)")
    parser.add_argument("--child")
    arguments = parser.parse_args()
    if arguments.child:
        child(arguments.child, arguments.variant, arguments.rows[0], arguments.k)
        return
    run(arguments)


def run(arguments) -> None:
    names = arguments.only or list(implementations.IMPLEMENTATIONS)
    results = json.loads(arguments.results.read_text()) if arguments.results.exists() else {}
    given_up = set()
    for size in arguments.rows:
        # in a process of its own: a child forked from a parent that grew to gigabytes while
        # writing the data would report the parent's memory as its own peak
        subprocess.run([sys.executable, str(Path(generate.__file__)), "--rows", size, "--variants",
                        arguments.variant], check=True)
        rows = generate.SIZES[size]
        active = [name for name in names if name not in given_up
                  and not (name.startswith("reference") and rows > REFERENCE_LIMIT)]
        measurements = {name: [] for name in active}
        for name in list(active):
            reason = projected_past_limits(results.get(arguments.variant, {}), name, size, arguments.give_up)
            if reason:
                print(f"{size} {name}: not run, {reason}", flush=True)
                active.remove(name)
                measurements[name] = reason
        for _ in range(arguments.runs):
            for name in list(active):
                outcome = measure_with_memory(name, arguments.variant, size, arguments.k, arguments.give_up)
                if outcome.get("timed_out"):
                    print(f"{size} {name}: gave up after {arguments.give_up:.0f} s", flush=True)
                    given_up.add(name)
                    active.remove(name)
                    measurements[name] = "gave up"
                    continue
                measurements[name].append(outcome)
                print(f"{size} {name}: {outcome['timings']['total']:.2f} s, {outcome['peak_mb']:.0f} MB", flush=True)
        summary = summarize(measurements, arguments, size)
        check_agreement(summary, arguments, size)
        results.setdefault(arguments.variant, {}).setdefault(size, {}).update(summary)
        results["_machine"] = machine()
        arguments.results.parent.mkdir(parents=True, exist_ok=True)
        arguments.results.write_text(json.dumps(results, indent=1, sort_keys=True))


def machine() -> dict:
    """What the numbers were measured on."""
    import platform
    from importlib import metadata

    versions = {}
    for package in ("duckdb", "dbt-core", "dbt-duckdb", "ranx", "recommenders", "pyspark", "pandas"):
        with contextlib.suppress(metadata.PackageNotFoundError):
            versions[package] = metadata.version(package)
    memory_gb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return {"cores": os.cpu_count(), "memory": f"{memory_gb:.0f} GiB", "python": platform.python_version(),
            "DuckDB memory_limit": implementations.DUCKDB_MEMORY_LIMIT, **versions}


def measure_with_memory(name, variant, size, k, timeout) -> dict:
    """One run in a fresh process, with that process's peak resident memory (its own and its
    children's, e.g. Spark's JVM), read from wait4."""
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, __file__, "--child", name, "--variant", variant, "--rows", size,
                                "-k", str(k)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = started + timeout
    stdout_chunks, stderr_chunks = [], []
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ, stdout_chunks)
    selector.register(process.stderr, selectors.EVENT_READ, stderr_chunks)
    open_streams = 2
    while open_streams:
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            process.kill()
            os.wait4(process.pid, 0)
            return {"timed_out": True}
        for key, _ in selector.select(timeout=min(remaining, 5)):
            data = key.fileobj.readline()
            if not data:
                selector.unregister(key.fileobj)
                open_streams -= 1
            else:
                key.data.append(data)
    _, status, usage = os.wait4(process.pid, 0)
    stdout, stderr = "".join(stdout_chunks), "".join(stderr_chunks)
    lines = [line for line in stdout.splitlines() if line.startswith("RESULT ")]
    if status != 0 or not lines:
        raise RuntimeError(f"{name} {variant} {size} failed:\n{stderr[-3000:]}")
    result = json.loads(lines[-1][len("RESULT "):])
    result["peak_mb"] = max(usage.ru_maxrss / 1024, result.pop("tree_peak_mb"))
    result["wall"] = time.perf_counter() - started
    return result


def projected_past_limits(variant_results: dict, name: str, size: str, give_up: float) -> str | None:
    """Why not to run `name` at `size`, judging by its last smaller size: linear growth past the
    time limit, or past MEMORY_LIMIT_MB of memory (which would endanger the machine) for those
    whose memory is not capped."""
    smaller = [s for s in variant_results if generate.SIZES[s] < generate.SIZES[size]
               and "seconds" in variant_results[s].get(name, {})]
    if not smaller:
        return None
    last = max(smaller, key=generate.SIZES.get)
    growth = generate.SIZES[size] / generate.SIZES[last]
    entry = variant_results[last][name]
    run_seconds = entry.get("wall", entry["seconds"])   # results kept before runs' walls were
    if run_seconds * growth > give_up:
        return f"projected {run_seconds * growth:.0f} s from a {run_seconds:.1f} s run at {last}"
    if entry["peak_mb"] * growth > MEMORY_LIMIT_MB and name not in implementations.BOUNDED_MEMORY:
        return f"projected {entry['peak_mb'] * growth / 1024:.0f} GB of memory from {entry['peak_mb']:.0f} MB at {last}"
    return None


def summarize(measurements: dict, arguments, size: str) -> dict:
    summary = {}
    for name, runs in measurements.items():
        if runs == "gave up":
            summary[name] = {"gave_up_after_s": arguments.give_up}
            continue
        if isinstance(runs, str):
            summary[name] = {"not_run": runs}
            continue
        phases = {phase: statistics.median(run["timings"][phase] for run in runs) for phase in runs[0]["timings"]}
        summary[name] = {"seconds": phases["total"], "phases": phases, "runs": len(runs),
                         "wall": statistics.median(run["wall"] for run in runs),
                         "peak_mb": max(run["peak_mb"] for run in runs), "value": runs[0]["value"]}
    return summary


def check_agreement(summary: dict, arguments, size: str) -> None:
    """Every number must equal rank_metrics' under the peer's convention (1e-9 relative): MAP
    at the run's k, or the metric and k implementations.CHECKED names."""
    import rank_metrics

    predictions = generate.predictions_path(arguments.variant, size)
    truth = generate.truth_path(arguments.variant, size)
    order = {"score": "score"} if arguments.variant.startswith("s") else {"rank": "rank"}
    expected = {}
    for name, entry in summary.items():
        if "value" not in entry or name.startswith("floor"):
            continue
        metric, k, convention = implementations.CHECKED.get(name, ("map", None, None))
        k = k or arguments.k
        if (metric, k, convention) not in expected:
            function = getattr(rank_metrics, rank_metrics.api.METRICS[metric][0])
            expected[metric, k, convention] = function(str(predictions), str(truth), k=k, convention=convention,
                                                       **order)
        if not math.isclose(entry["value"], expected[metric, k, convention], rel_tol=1e-9):
            raise AssertionError(f"{size}: {name} gives {entry['value']!r}, rank_metrics' {metric}@{k} with "
                                 f"convention={convention!r} gives {expected[metric, k, convention]!r}")
        entry["agrees_with"] = f"rank_metrics convention={convention or 'kaggle (default)'}"
    print(f"{size}: every implementation agrees with rank_metrics under its convention", flush=True)


if __name__ == "__main__":
    main()
