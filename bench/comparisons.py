"""compare's three tests on the same comparisons: the t test (its SQL, then the exact Student
p-value), the permutation test and the bootstrap (10,000 resamples each, in Python).

    python bench/comparisons.py [--rows 1M] [--runs 3]

Data: the r12 lists of bench/generate.py as the baseline model, and two models made from them
(each user's list reversed for a third of the users; rotated by one for a fifth), against the
same truth: 2 models x 3 metrics (MAP, NDCG, hit rate) at k = 12, six comparisons over the
users truth has (about 41,700 at 1M rows). Each run is a whole rank_metrics.compare call on
DuckDB, the median of `--runs` kept. Results go to bench/results/comparisons.json and
bench/README.md's table between the comparisons markers. Issue 43's goal: the permutation test
and the bootstrap each within 3x the t test's time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import warnings
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import generate  # noqa: E402

RESULTS = BENCH / "results" / "comparisons.json"
README = BENCH / "README.md"
START, END = "<!-- comparisons:start -->", "<!-- comparisons:end -->"
TESTS = ("t", "permutation", "bootstrap")

# benchmark-only SQL: the three models' lists, from the generator's one model
MODELS = """
select 'base' as model, user_id, item_id, rank from read_parquet(?)
union all
select 'reversed', user_id, item_id, case when user_id % 3 = 0 then 13 - rank else rank end from read_parquet(?)
union all
select 'rotated', user_id, item_id, case when user_id % 5 = 0 then rank % 12 + 1 else rank end from read_parquet(?)
"""


def measure(size: str, runs: int) -> dict:
    import duckdb

    import rank_metrics

    generate.generate([size], ["r12"])
    con = duckdb.connect()
    predictions_file = str(generate.predictions_path("r12", size))
    con.execute("create table predictions as " + MODELS, [predictions_file] * 3)
    con.execute("create table truth as select * from read_parquet(?)", [str(generate.truth_path("r12", size))])
    results, frames = {}, {}
    for test in TESTS:
        seconds = []
        for _ in range(runs):
            started = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                frames[test] = rank_metrics.compare("predictions", "truth", k=12, by="model", baseline="base",
                                                    metrics=["map", "ndcg", "hit_rate"], test=test, con=con)
            seconds.append(time.perf_counter() - started)
            print(f"{size} compare test={test}: {seconds[-1]:.2f} s", flush=True)
        results[test] = {"seconds": statistics.median(seconds), "runs": runs,
                         "comparisons": len(frames[test]), "paired users": int(frames[test]["n_users"].max())}
    # the three tests compare the same pairs: the same differences, whatever their p-values
    for test in TESTS[1:]:
        assert frames[test]["difference"].round(12).tolist() == frames["t"]["difference"].round(12).tolist(), test
    print(f"{size}: the three tests agree on every difference", flush=True)
    return results


def table(results: dict) -> str:
    lines = ["| rows | test | comparisons | paired users | median s | × t test |", "| ---: | --- | ---: | ---: | ---: | ---: |"]
    for size, entries in results.items():
        for test, entry in entries.items():
            lines.append(f"| {size} | {test} | {entry['comparisons']} | {entry['paired users']:,} | {entry['seconds']:.2f} | "
                         f"{entry['seconds'] / entries['t']['seconds']:.2f} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", nargs="+", default=["1M"], choices=generate.SIZES)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--results", type=Path, default=RESULTS)
    arguments = parser.parse_args()
    results = json.loads(arguments.results.read_text()) if arguments.results.exists() else {}
    for size in arguments.rows:
        results[size] = measure(size, arguments.runs)
        arguments.results.parent.mkdir(parents=True, exist_ok=True)
        arguments.results.write_text(json.dumps(results, indent=1))
    text = table(results)
    readme = README.read_text()
    if arguments.results == RESULTS and START in readme and END in readme:
        before, rest = readme.split(START, 1)
        README.write_text(f"{before}{START}\n{text}{END}{rest.split(END, 1)[1]}")
    print(text)


if __name__ == "__main__":
    main()
