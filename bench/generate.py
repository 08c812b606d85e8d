"""Writes H&M-shaped evaluation data as Parquet, deterministically.

Users each get a ranked list of distinct items drawn from a 100,000-item catalogue with
Zipf(1) popularity; half of the users bought 1 + Poisson(2) items, about a third of them from
their own list. Variants:
    r12   12 predictions per user, ranked (rank 1..12)
    r100  100 predictions per user, ranked
    s12   the r12 lists with a score instead of a rank (higher is better), same order
Files: bench/data/predictions_<variant>_<rows>.parquet and truth_<length>_<rows>.parquet.

    python bench/generate.py --rows 1M 10M 100M [--variants r12 r100 s12]   (100K: CI's smoke run)

DuckDB does the work (it spills to disk past its memory limit); the SQL is the generator's own
and has nothing to do with the metric.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import duckdb

DATA = Path(__file__).resolve().parent / "data"
CATALOGUE = 100_000
SIZES = {"100K": 100_000, "1M": 1_000_000, "10M": 10_000_000, "100M": 100_000_000}
VARIANTS = {"r12": 12, "r100": 100, "s12": 12}
# cumulative Poisson(2) probabilities of 0, 1, 2, … : a purchase count is 1 + the first k above u
POISSON_2 = [0.1353, 0.4060, 0.6767, 0.8571, 0.9473, 0.9834, 0.9955, 0.9989, 0.9998]


def predictions_path(variant: str, size: str) -> Path:
    return DATA / f"predictions_{variant}_{size}.parquet"


def truth_path(variant: str, size: str) -> Path:
    return DATA / f"truth_{VARIANTS[variant]}_{size}.parquet"


def connect(memory_limit: str = "6GB") -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    con.execute(f"set memory_limit = '{memory_limit}'")
    con.execute(f"set temp_directory = '{DATA / 'spill'}'")
    con.execute("set preserve_insertion_order = false")
    # a uniform number in [0, 1) from a hash of two integers: deterministic in parallel
    con.execute("create macro uniform(a, b) as (hash(a, b) % 1000000007)::double / 1000000007")
    con.execute(f"""
        create table zipf as
        select item, sum(weight) over (order by item rows unbounded preceding) / sum(weight) over () as upper
        from (select range::integer as item, 1.0 / (range + 1) as weight from range({CATALOGUE}))
    """)
    return con


def write_ranked(con, length: int, size: str) -> None:
    users = SIZES[size] // length
    draws = int(length * 1.4) + 8     # Zipf repeats popular items; keep the first distinct ones
    con.execute(f"""
        copy (
            with draws as (
                select u.range::integer as user_id, d.range::integer as draw, uniform(u.range, d.range) as p
                from range({users}) as u, range({draws}) as d
            ),
            items as (
                select user_id, min(draw) as draw, item as item_id
                from draws asof join zipf on draws.p <= zipf.upper
                group by user_id, item
            )
            select user_id, item_id, row_number() over (partition by user_id order by draw)::integer as rank
            from items
            qualify rank <= {length}
        ) to '{predictions_path(f"r{length}", size)}' (format parquet)
    """)


def write_truth(con, length: int, size: str) -> None:
    users = SIZES[size] // length
    counts = " ".join(f"when p < {cumulative} then {index + 1}" for index, cumulative in enumerate(POISSON_2))
    con.execute(f"""
        copy (
            with buyers as (
                select range::integer as user_id, case {counts} else 10 end as bought
                from (select range, uniform(range, 1000003) as p from range({users}))
                where uniform(range, 1000001) < 0.5
            ),
            picks as (
                select b.user_id, t.range as pick, uniform(b.user_id, 2000000 + t.range) as p,
                    1 + (hash(b.user_id, 3000000 + t.range) % {length})::integer as own_rank
                from buyers as b, range(10) as t
                where t.range < b.bought
            ),
            own as (   -- about a third of the purchases were recommended to the buyer
                select picks.user_id, predictions.item_id
                from picks join read_parquet('{predictions_path(f"r{length}", size)}') as predictions
                    on predictions.user_id = picks.user_id and predictions.rank = picks.own_rank
                where picks.p < 0.33
            ),
            other as (
                select picks.user_id, zipf.item as item_id
                from (select user_id, uniform(user_id, 4000000 + pick) as q from picks where p >= 0.33) as picks
                asof join zipf on picks.q <= zipf.upper
            )
            select distinct user_id, item_id from (select * from own union all select * from other)
        ) to '{truth_path(f"r{length}", size)}' (format parquet)
    """)


def write_scored(con, size: str) -> None:
    # the r12 order, as a score: higher first, no ties
    con.execute(f"""
        copy (
            select user_id, item_id, (13 - rank) + 0.9 * uniform(user_id, rank) as score
            from read_parquet('{predictions_path("r12", size)}')
        ) to '{predictions_path("s12", size)}' (format parquet)
    """)


def generate(sizes, variants) -> None:
    DATA.mkdir(exist_ok=True)
    con = connect()
    for size in sizes:
        for variant in ("r12", "r100"):
            needed = variant in variants or (variant == "r12" and "s12" in variants)
            if needed and not predictions_path(variant, size).exists():
                started = time.perf_counter()
                write_ranked(con, VARIANTS[variant], size)
                write_truth(con, VARIANTS[variant], size)
                print(f"{variant} {size}: {time.perf_counter() - started:.1f} s")
        if "s12" in variants and not predictions_path("s12", size).exists():
            write_scored(con, size)
            print(f"s12 {size}: written")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", nargs="+", choices=SIZES, default=["1M"])
    parser.add_argument("--variants", nargs="+", choices=VARIANTS, default=list(VARIANTS))
    arguments = parser.parse_args()
    generate(arguments.rows, arguments.variants)


if __name__ == "__main__":
    main()
