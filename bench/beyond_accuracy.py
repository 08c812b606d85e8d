"""The beyond-accuracy metrics at scale, against MAP@12 alone on the same lists and, with --peers,
against recommenders' own functions (the same numbers asserted):

    python bench/beyond_accuracy.py --rows 1M 10M --train-rows 10M --runs 3
    python bench/beyond_accuracy.py --rows 1M --train-rows 10M --runs 1 --peers

The lists are bench/generate.py's r12 files (12 ranked items per user); train is written here
once, deterministically: one row per (user, item) pair, users drawn over a million ids (so most
listed users have a history), items from the 100,000-item catalogue with a skew towards the
popular ones. Each line is the median of --runs runs in a row, each on a fresh DuckDB connection
(memory_limit 3GB), reading the Parquet files."""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import duckdb

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate  # noqa: E402

TRAIN_SIZES = {"1M": 1_000_000, "10M": 10_000_000}
CATALOG_LEVEL = ["catalog_coverage", "distributional_coverage", "gini", "personalization", "novelty"]
LINES = {
    "MAP@12 alone": None,
    "catalog-level metrics and novelty (recommenders')": dict(metrics=CATALOG_LEVEL),
    "ARP and Evidently's novelty (train's distinct users)": dict(metrics=["arp", "arp_normalized", "novelty"],
                                                                 convention="evidently"),
    "diversity (co-occurrence)": dict(metrics=["diversity"]),
    "serendipity (co-occurrence)": dict(metrics=["serendipity"]),
}
RESULTS = Path(__file__).resolve().parent / "results" / "beyond_accuracy.json"


def train_path(size: str) -> Path:
    return generate.DATA / f"train_{size}.parquet"


def write_train(size: str) -> None:
    path = train_path(size)
    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)   # (a fresh clone has no bench/data yet)
    con = duckdb.connect()
    rows = TRAIN_SIZES[size]
    # hash-drawn, so the same file every time: a user over 1M ids, an item skewed to low ids (popular)
    con.execute(f"""
        copy (
            select distinct user_id, item_id
            from (
                select cast(hash(i) % 1000000 as bigint) as user_id,
                       cast(least({generate.CATALOGUE - 1},
                                  floor({generate.CATALOGUE} * pow((hash(i + 1000000000000) % 1000003) / 1000003.0, 3)))
                            as bigint) as item_id
                from range({int(rows * 1.02)}) as r(i)
            )
        ) to '{path}' (format parquet)""")
    con.close()


def measure(size: str, train_size: str, line: str) -> tuple[float, object]:
    import rank_metrics

    predictions = str(generate.predictions_path("r12", size))
    con = duckdb.connect(config={"memory_limit": "3GB"})
    try:
        started = time.perf_counter()
        if LINES[line] is None:
            value = rank_metrics.map_at_k(predictions, str(generate.DATA / f"truth_12_{size}.parquet"), k=12, con=con)
        else:
            value = rank_metrics.beyond_accuracy(predictions, str(train_path(train_size)), 12, con=con, **LINES[line])
            value = dict(zip(value.metric, value.value))
        return time.perf_counter() - started, value
    finally:
        con.close()


def peers(size: str, train_size: str) -> dict:
    """recommenders' own catalog_coverage, distributional_coverage and novelty (pandas) against
    rank_metrics' on the same lists, timed alike from the files. recommenders refuses a listed
    item the user has in train, so both read the lists without those entries."""
    import pandas as pd
    import rank_metrics
    from recommenders.evaluation import python_evaluation as evaluation

    unseen = generate.DATA / f"predictions_r12_{size}_unseen_{train_size}.parquet"
    if not unseen.exists():
        duckdb.connect().execute(f"""
            copy (select p.* from read_parquet('{generate.predictions_path("r12", size)}') as p
                  anti join read_parquet('{train_path(train_size)}') as t on p.user_id = t.user_id and p.item_id = t.item_id)
            to '{unseen}' (format parquet)""")
    found = {}
    started = time.perf_counter()
    ours = rank_metrics.beyond_accuracy(str(unseen), str(train_path(train_size)), 12,
                                        metrics=["catalog_coverage", "distributional_coverage", "novelty"],
                                        convention="recommenders")
    found["rank_metrics (the three, one query)"] = (time.perf_counter() - started, None)
    ours = dict(zip(ours.metric, ours.value))
    started = time.perf_counter()
    lists = pd.read_parquet(unseen)
    train = pd.read_parquet(train_path(train_size))
    read = time.perf_counter() - started
    columns = dict(col_user="user_id", col_item="item_id")
    for name in ("catalog_coverage", "distributional_coverage", "novelty"):
        started = time.perf_counter()
        value = float(getattr(evaluation, name)(train, lists, **columns))
        assert abs(value - ours[name]) <= 1e-9 * max(1.0, abs(value)), (name, value, ours[name])
        found[f"recommenders {name} (+ {read:.2f} s reading the files)"] = (time.perf_counter() - started, value)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", nargs="+", default=["1M"], choices=generate.SIZES)
    parser.add_argument("--train-rows", default="10M", choices=TRAIN_SIZES)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--peers", action="store_true", help="recommenders' own functions too (slow)")
    parser.add_argument("--results", type=Path, default=RESULTS)
    options = parser.parse_args()
    write_train(options.train_rows)
    results = json.loads(options.results.read_text()) if options.results.exists() else {}
    for size in options.rows:
        subprocess.run([sys.executable, str(Path(generate.__file__)), "--rows", size, "--variants", "r12"], check=True)
        # a line's runs one after another, the light lines first: measured after diversity's and
        # serendipity's gigabytes in the same process, ARP took 1.55 s against 0.94 s before them
        times = {line: [measure(size, options.train_rows, line)[0] for _ in range(options.runs)] for line in LINES}
        entry = {line: {"median_s": statistics.median(seconds), "runs": len(seconds)} for line, seconds in times.items()}
        base = entry["MAP@12 alone"]["median_s"]
        for line, seconds in entry.items():
            print(f"{size} lists, {options.train_rows} train: {line}: {seconds['median_s']:.2f} s "
                  f"({seconds['median_s'] / base:.1f}x MAP@12)", flush=True)
        if options.peers:
            for name, (seconds, _) in peers(size, options.train_rows).items():
                entry[name] = {"median_s": seconds, "runs": 1}
                print(f"{size} lists without their train items: {name}: {seconds:.2f} s", flush=True)
        # (a run without --peers keeps the peers' lines of an earlier run)
        results[f"{size}/{options.train_rows}"] = {**results.get(f"{size}/{options.train_rows}", {}), **entry}
    options.results.parent.mkdir(parents=True, exist_ok=True)
    options.results.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
