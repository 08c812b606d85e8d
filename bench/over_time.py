"""evaluate_over_time on DuckDB (issue 44): a daily table of 30 days x 3 models, built in full and
then one day more incrementally, against one evaluate(by=['model', 'day']) over the same rows.

    python bench/over_time.py --rows 30M [--runs 3] [--results bench/results/over_time.json]

Data (DuckDB's own SQL, deterministic): DAYS days; each day every model ranks 12 items for a tenth
of USERS users (rows / (DAYS x 3 x 12) lists a model and day), items from a 20,000-item
catalogue; each day's labels are a fifth of those users buying 1 to 3 items, the first among a
model's list half of the time, at a time within the day, loaded an hour later. Lines, each the
median of --runs (after one uncounted warm-up):
    full build        the macro's SQL for every day, written to a table (create table as): what
                      a dbt table model, or the first run of the incremental one, runs
    evaluate          evaluate(by=['model', 'day']) over the lists and the window's labels of every
                      day, already joined into a table (day, user_id, item_id): the same rows
                      evaluated, without the join the macro does itself
    window labels     that join alone (the labels of each day's 7-day window), for reference
    incremental day   one day more of lists and labels arrives: the macro's SQL with previous=
                      the table (the days it lacks, holds incomplete, or whose window received a
                      label loaded since), then its rows replacing those days' (delete + insert)
Every value of the full build equals evaluate's on the same day (checked, not timed)."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import duckdb

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent / "python"))

from rank_metrics._render import render  # noqa: E402

DAYS, MODELS, LENGTH, CATALOGUE, WINDOW = 30, 3, 12, 20_000, 7
SIZES = {"300K": 300_000, "3M": 3_000_000, "30M": 30_000_000}
K, METRICS = [10, 12], ["map", "ndcg", "recall"]


def generate(con, rows: int, days: int) -> None:
    lists = max(1, rows // (days * MODELS * LENGTH))   # lists a model and day
    users = lists * 10
    con.execute(f"""
        create or replace table lists as
        select 'model_' || m as model, date '2026-01-01' + cast(d as integer) as day, u as user_id,
            cast(hash(m, d, u, r) % {CATALOGUE} as bigint) as item_id, r as rank
        from range({days}) as t1(d), range({MODELS}) as t2(m),
            (select (hash(d2, n) % {users}) as u, d2 from range({days}) as t3(d2), range({lists}) as t4(n)) as us,
            range(1, {LENGTH + 1}) as t5(r)
        where us.d2 = d""")
    con.execute(f"""
        create or replace table labels as
        select user_id,
            case when hash(user_id, d, j) % 2 = 0 then item_id else cast(hash(user_id, j) % {CATALOGUE} as bigint) end as item_id,
            timestamp '2026-01-01' + to_days(cast(d as integer))
                + to_seconds(cast(hash(user_id, d, j) % 86400 as bigint)) as purchased_at,
            timestamp '2026-01-01' + to_days(cast(d as integer))
                + to_seconds(cast(hash(user_id, d, j) % 86400 as bigint) + 3600) as loaded_at
        from (
            select distinct user_id, day - date '2026-01-01' as d, first(item_id) as item_id
            from lists where model = 'model_0' and rank = 1 + cast(hash(user_id, day) % 12 as integer) and hash(user_id, day, 1) % 5 = 0
            group by all
        ) as buyers, range(1 + cast(hash(user_id, d) % 3 as integer)) as t(j)""")


def columns(con, table: str) -> list[dict]:
    return [{"name": name, "data_type": data_type} for name, data_type in
            con.execute("select column_name, data_type from information_schema.columns where table_name = ? "
                        "order by ordinal_position", [table]).fetchall()]


def over_time_sql(con, **options) -> str:
    return render("evaluate_over_time", predictions="lists", truth="labels", k=K, metrics=METRICS, rank="rank",
                  by="model", period="day", time="purchased_at", window=WINDOW, loaded_at="loaded_at",
                  predictions_columns=columns(con, "lists"), truth_columns=columns(con, "labels"), **options)


def timed(function, runs: int) -> float:
    function()   # warm-up
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", choices=SIZES, default="30M")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--results", default=str(BENCH / "results" / "over_time.json"))
    options = parser.parse_args(arguments)
    con = duckdb.connect()
    started = time.perf_counter()
    generate(con, SIZES[options.rows], DAYS + 1)
    # the last day arrives later: its lists, and labels loaded after the full build
    con.execute(f"create table late_lists as select * from lists where day = date '2026-01-01' + {DAYS}")
    con.execute(f"delete from lists where day = date '2026-01-01' + {DAYS}")
    con.execute("create table late_labels as select * from labels where purchased_at >= timestamp '2026-01-01' + "
                f"to_days({DAYS})")
    con.execute(f"delete from labels where purchased_at >= timestamp '2026-01-01' + to_days({DAYS})")
    rows = con.execute("select count(*) from lists").fetchone()[0]
    labels = con.execute("select count(*) from labels").fetchone()[0]
    print(f"data: {rows:,} list rows, {labels:,} labels, {time.perf_counter() - started:.1f} s", file=sys.stderr)

    full_sql = over_time_sql(con)
    window_sql = (f"create or replace table window_labels as select d.day, l.user_id, l.item_id from labels as l "
                  f"join (select distinct day from lists) as d on l.purchased_at >= d.day "
                  f"and l.purchased_at < d.day + interval {WINDOW} day")
    con.execute(window_sql)
    evaluate_sql = render("evaluate", predictions="lists", truth="window_labels", k=K, metrics=METRICS, rank="rank",
                          by=["model", "day"], truth_by=["day"], predictions_columns=columns(con, "lists"),
                          truth_columns=columns(con, "window_labels"))
    results = {
        "full build": timed(lambda: con.execute(f"create or replace table built as {full_sql}"), options.runs),
        "evaluate": timed(lambda: con.execute(f"create or replace table evaluated as {evaluate_sql}"), options.runs),
        "window labels": timed(lambda: con.execute(window_sql), options.runs),
    }
    # the full build's values are evaluate's, day by day
    differ = con.execute("""
        select count(*) from built as b join evaluated as e
            on b.day = e.day and b.model = e.model and b.metric = e.metric and b.k = e.k
        where abs(b.value - e.value) > 1e-12 or b.n_users <> e.n_users""").fetchone()[0]
    matched = con.execute("select count(*) from built as b join evaluated as e on b.day = e.day and b.model = e.model "
                          "and b.metric = e.metric and b.k = e.k").fetchone()[0]
    assert differ == 0 and matched == con.execute("select count(*) from evaluated").fetchone()[0] > 0, (differ, matched)

    def incremental():
        con.execute("create or replace table built_then as select * from built")
        con.execute("create or replace table lists_then as select * from lists")
        con.execute("create or replace table labels_then as select * from labels")
        con.execute("insert into lists select * from late_lists")
        con.execute("insert into labels select user_id, item_id, purchased_at, purchased_at + interval 30 day "
                    "from late_labels")
        started = time.perf_counter()
        con.execute(f"create or replace table recomputed as {over_time_sql(con, previous='built')}")
        con.execute("delete from built where day in (select day from recomputed)")
        con.execute("insert into built by name select * from recomputed")
        took = time.perf_counter() - started
        days = con.execute("select count(distinct day) from recomputed").fetchone()[0]
        # back to the state before, for the next run
        con.execute("create or replace table built as select * from built_then")
        con.execute("create or replace table lists as select * from lists_then")
        con.execute("create or replace table labels as select * from labels_then")
        return took, days

    incremental()   # warm-up
    runs = [incremental() for _ in range(options.runs)]
    results["incremental day"] = statistics.median(took for took, _ in runs)
    recomputed_days = runs[0][1]
    for line, seconds in results.items():
        print(f"{options.rows} {line:16} {seconds:8.2f} s", file=sys.stderr)
    print(f"full build / evaluate {results['full build'] / results['evaluate']:.2f}; incremental day / full build "
          f"{results['incremental day'] / results['full build']:.2f} ({recomputed_days} days recomputed: the new one "
          f"and the {recomputed_days - 1} whose {WINDOW}-day windows received its labels)", file=sys.stderr)
    Path(options.results).parent.mkdir(parents=True, exist_ok=True)
    Path(options.results).write_text(json.dumps({"rows": options.rows, "list_rows": rows, "labels": labels,
                                                 "seconds": results, "recomputed_days": recomputed_days,
                                                 "runs": options.runs}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
