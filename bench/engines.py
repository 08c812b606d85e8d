"""The macros on the other engines, each against its own floor: Spark (local[2]) and PostgreSQL.

    python bench/engines.py --engine spark --rows 1M 10M [--runs 3] [--warmup 1]
    python bench/engines.py --engine postgres --rows 1M 10M

Unlike run.py (a fresh process per run), this measures warm: one session or server, the r12
inputs loaded once (Spark: cached DataFrames; PostgreSQL: analysed tables), every line run in
turn `--warmup` times uncounted (Spark's JVM compiles each plan's generated code as it runs: at
10M a line's second run took 20-35% less than its first, and its third to seventh a few percent
less again; the session keeps every line's generated code, which its default cache of 100
classes did not), then `--runs` times, the median kept. Lines per engine:
    floor       the hash join of predictions with truth, counted
    bound       the floor + a pass per list + a distinct count per truth user (what any exact
                MAP@k must do, as in run.py's line of that name; the pass per list is a max of
                the list counts, which Spark cannot rewrite away as it does their sum)
    Spark only: the bound as first written (the sum), which Spark runs with no pass per list
    MAP@12 SQL  rank_metrics.sql(..., dialect=engine) run as it is (default options)
    MAP@12 API  rank_metrics.map_at_k on the engine's inputs (its data checks included)
    Spark only: MAP@12 dbt-spark model, bench/dbt's model built by dbt-spark in the same session
                (the node's time: the data checks, the query and the one-row table it writes)
    evaluate    six metrics at k 5, 10, 20, 50, the SQL of rank_metrics.sql(macro='evaluate')
    Spark only: MAP@12 SQL under each convention preset (convention='spark' is what a user
                reproducing RankingMetrics passes), each checked against DuckDB's number under it
    Spark only: NDCG@12 and precision@12 SQL (macro='ndcg_at_k', 'precision_at_k'), and pyspark
                RankingMetrics.meanAveragePrecisionAt(12), ndcgAt(12) and precisionAt(12) from the
                same cached DataFrames (checked against convention='spark'), each metric against
                its own method
Results go to bench/results/engines.json and bench/README.md's table between the engines markers.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent / "tests"))

import generate  # noqa: E402

RESULTS = BENCH / "results" / "engines.json"
README = BENCH / "README.md"
START, END = "<!-- engines:start -->", "<!-- engines:end -->"
K, FAMILY_KS = 12, [5, 10, 20, 50]
# the convention presets, each a line of its own on Spark (issue 41: each within 1.5x the bound)
CONVENTIONS = ["kaggle", "ml_metrics", "spark", "recommenders", "trec_eval", "ranx", "torchmetrics", "evidently"]


class OwnTime(NamedTuple):
    """What a line returns when it times itself (a part of what the call does): its value and
    those seconds, which replace the call's wall time."""
    value: float
    seconds: float

# benchmark-only SQL, the floors: the metric SQL lives in macros/
FLOOR = "select count(*) from predictions as p join truth as t on p.user_id = t.user_id and p.item_id = t.item_id"
LIST_COUNTS = "(select count(*) as n from predictions group by user_id) as l"
TRUTH_COUNTS = "(select count(distinct item_id) as m from truth group by user_id) as r"


def _bound(of_list_counts: str) -> str:
    """The bound, reading the list counts through `of_list_counts`. The bound is max(n): Spark
    rewrites a sum of per-list counts (run.py's DuckDB SQL, and this bench's until 2026-11-24) into
    a count of rows with no group by (EXPLAIN: HashAggregate sum(1)), so that bound made no pass
    per list on Spark; it is kept as a line of its own."""
    return f"select ({FLOOR}), (select {of_list_counts}(n) from {LIST_COUNTS}), (select sum(m) from {TRUTH_COUNTS})"


BOUND, BOUND_AS_WRITTEN = _bound("max"), _bound("sum")
BOUND_AS_WRITTEN_LINE = "bound as first written: sum of the list counts (Spark makes it no pass per list)"

# benchmark-only SQL, a plan shaped for Spark that the macros do not have yet (issue 11): both
# inputs shuffled once, together, by user; every later window and group by is on user (or user
# and item) and needs no further shuffle. MAP@12 with the default options, no `by`.
ONE_SHUFFLE = """
with rm_rows as (
    select user_id as u, item_id as i, cast(rank as double) as o, 0 as side from predictions
    union all
    select user_id, item_id, cast(null as double), 1 from truth
),
rm_marked as (
    select u, i, o, side,
        max(side) over (partition by u, i) as in_truth,
        row_number() over (partition by u, i order by side desc, o) as nth
    from rm_rows
),
rm_positions as (
    select u, i, in_truth,
        row_number() over (partition by u order by o, i) as pos
    from rm_marked
    where side = 0
),
rm_first as (
    select u, pos, min(pos) over (partition by u, i) as first_pos
    from rm_positions
    where in_truth = 1
),
rm_hits as (
    select u, pos, row_number() over (partition by u order by pos) as h
    from rm_first
    where pos = first_pos and pos <= 12
),
rm_sums as (
    select u, sum(h / pos) as psum from rm_hits group by u
),
rm_m as (
    select u, count(*) as m from rm_marked where side = 1 and nth = 1 group by u
)
select avg(coalesce(s.psum, 0) / least(m.m, 12)) as map_at_k
from rm_m as m left join rm_sums as s on m.u = s.u
"""


@contextlib.contextmanager
def spark_lines(size: str):
    """A local[2] session with both inputs cached; yields the lines: (name, function, checked)."""
    import rank_metrics
    from pyspark.sql import SparkSession, functions as F
    from pyspark.mllib.evaluation import RankingMetrics

    workdir = Path(tempfile.mkdtemp(prefix="rank_metrics_spark_bench_"))
    session = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")   # progress bars would bury the lines' times
               .config("spark.sql.shuffle.partitions", "8").config("spark.driver.memory", "6g")
               # warm means compiled: with Spark's default cache of 100 generated classes, the lines
               # evicted each other's code, every run compiled again, and a line's time hung on
               # the line before it (2026-12-06: two identical queries in a row, 6.99 s then 6.03 s)
               .config("spark.sql.codegen.cache.maxEntries", "5000")
               .config("spark.sql.ansi.enabled", "false")   # as dbt-spark runs
               .config("spark.sql.warehouse.dir", str(workdir / "warehouse"))
               .config("spark.driver.extraJavaOptions", f"-Dderby.system.home={workdir / 'derby'}")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    predictions = session.read.parquet(str(generate.predictions_path("r12", size))).cache()
    truth = session.read.parquet(str(generate.truth_path("r12", size))).cache()
    predictions.count(), truth.count()
    predictions.createOrReplaceTempView("predictions")
    truth.createOrReplaceTempView("truth")
    map_sql = rank_metrics.sql("predictions", "truth", k=K, rank="rank", dialect="spark", con=session)
    evaluate_sql = rank_metrics.sql("predictions", "truth", k=FAMILY_KS, rank="rank", dialect="spark",
                                    macro="evaluate", con=session)
    convention_sql = {convention: rank_metrics.sql("predictions", "truth", k=K, rank="rank", dialect="spark", con=session,
                                                   convention=convention) for convention in CONVENTIONS}
    # the metrics RankingMetrics also has, each against its own method (issue 11's 3x target)
    ndcg_sql, precision_sql = (rank_metrics.sql("predictions", "truth", k=K, rank="rank", dialect="spark",
                                                macro=macro, con=session) for macro in ("ndcg_at_k", "precision_at_k"))

    def query(text, column=0):
        return lambda: session.sql(text).collect()[0][column]

    for name, text in (("floor", FLOOR), ("bound", BOUND), (BOUND_AS_WRITTEN_LINE, BOUND_AS_WRITTEN),
                       ("rank_metrics MAP@12 SQL", map_sql),
                       ("rank_metrics NDCG@12 SQL", ndcg_sql), ("rank_metrics precision@12 SQL", precision_sql),
                       ("hand-written Spark SQL: one shuffle by user (MAP@12)", ONE_SHUFFLE),
                       ("rank_metrics evaluate: 6 metrics at k 5, 10, 20, 50", evaluate_sql),
                       *((f"rank_metrics MAP@12 SQL, convention={convention}", text) for convention, text in convention_sql.items())):
        PLANS[name] = plan_shape(session, text)

    def ranking_metrics(method):
        def run():
            lists = (predictions.groupBy("user_id")
                     .agg(F.sort_array(F.collect_list(F.struct("rank", "item_id"))).alias("entries"))
                     .select("user_id", F.col("entries.item_id").alias("predicted")))
            labels = truth.groupBy("user_id").agg(F.collect_list("item_id").alias("actual"))
            pairs = (lists.join(labels, "user_id", "left")
                     .select("predicted", F.coalesce("actual", F.array().cast("array<int>")).alias("actual")))
            return getattr(RankingMetrics(pairs.rdd.map(tuple)), method)(K)
        return run

    lines = [
        ("floor", query(FLOOR), None),
        ("bound", query(BOUND), None),
        (BOUND_AS_WRITTEN_LINE, query(BOUND_AS_WRITTEN), None),
        ("rank_metrics MAP@12 SQL", query(map_sql, "map_at_k"), ("map", None)),
        ("rank_metrics.map_at_k (API)", lambda: rank_metrics.map_at_k(predictions, truth, k=K, rank="rank"), ("map", None)),
        ("rank_metrics MAP@12 dbt-spark model (its node's time)", dbt_spark_model(session), ("map", None)),
        ("rank_metrics NDCG@12 SQL", query(ndcg_sql, "ndcg_at_k"), ("ndcg", None)),
        ("rank_metrics precision@12 SQL", query(precision_sql, "precision_at_k"), ("precision", None)),
        ("hand-written Spark SQL: one shuffle by user (MAP@12)", query(ONE_SHUFFLE), ("map", None)),
        ("rank_metrics evaluate: 6 metrics at k 5, 10, 20, 50", lambda: float(
            session.sql(evaluate_sql).where("metric = 'map' and k = 50").collect()[0]["value"]), ("map", None, 50)),
        *((f"rank_metrics MAP@12 SQL, convention={convention}", query(text, "map_at_k"), ("map", convention))
          for convention, text in convention_sql.items()),
        ("RankingMetrics.meanAveragePrecisionAt(12)", ranking_metrics("meanAveragePrecisionAt"), ("map", "spark")),
        ("RankingMetrics.ndcgAt(12)", ranking_metrics("ndcgAt"), ("ndcg", "spark")),
        ("RankingMetrics.precisionAt(12)", ranking_metrics("precisionAt"), ("precision", "spark")),
    ]
    try:
        yield lines
    finally:
        session.stop()


def dbt_spark_model(session):
    """The bench's dbt model (bench/dbt/models/bench_map_at_k.sql) built by dbt-spark, `method:
    session`, which takes this process's session and so reads the cached inputs' views. Its time
    is the node's: the data checks, the query and the one-row table it writes, without dbt's
    start-up and parsing."""
    import implementations

    arguments = implementations.dbt_arguments("--target", "spark")
    implementations.dbt_deps(arguments)
    variables = "{predictions_table: predictions, truth_table: truth, k: %d, order: rank}" % K

    def run():
        node = implementations.dbt_run_model(arguments, variables)
        value = session.table("rank_metrics_bench.bench_map_at_k").collect()[0]["map_at_k"]
        return OwnTime(value, node.execution_time)
    return run


# per Spark line: the Exchange nodes and the scans of each cached input in its physical plan
PLANS: dict = {}


def plan_shape(session, text: str) -> dict:
    """What EXPLAIN FORMATTED shows of a query's physical plan (before adaptive execution changes
    it), counted from its numbered node details, subqueries included: shuffles (Exchange),
    broadcasts, shuffles reused, and how often the cached inputs are read."""
    plan = session.sql("explain formatted " + text).collect()[0][0]
    nodes = re.findall(r"^\(\d+\) (\w+)", plan, flags=re.MULTILINE)
    return {"exchanges": nodes.count("Exchange"), "broadcasts": nodes.count("BroadcastExchange"),
            "reused": nodes.count("ReusedExchange"), "input scans": nodes.count("InMemoryTableScan")}


@contextlib.contextmanager
def postgres_lines(size: str):
    """A throwaway server with both inputs as analysed tables; yields the lines: (name, function,
    checked), while the server runs."""
    import duckdb
    import psycopg2
    import rank_metrics
    from servers import postgres_cluster

    with postgres_cluster() as port:
        con = psycopg2.connect(host="127.0.0.1", port=port, user="postgres", dbname="postgres")
        con.autocommit = True
        with con.cursor() as cursor:
            cursor.execute("set work_mem = '256MB'")
            for table, path, columns in (("predictions", generate.predictions_path("r12", size),
                                          "user_id bigint, item_id bigint, rank bigint"),
                                         ("truth", generate.truth_path("r12", size), "user_id bigint, item_id bigint")):
                cursor.execute(f"create table {table} ({columns})")
                csv = Path(tempfile.mkdtemp()) / f"{table}.csv"
                names = ", ".join(column.split()[0] for column in columns.split(", "))
                duckdb.sql(f"copy (select {names} from read_parquet('{path}')) to '{csv}' (header false)")
                with open(csv) as rows:
                    cursor.copy_expert(f"copy {table} from stdin with (format csv)", rows)
                cursor.execute(f"analyze {table}")
        map_sql = rank_metrics.sql("predictions", "truth", k=K, rank="rank", dialect="postgres", con=con)
        evaluate_sql = rank_metrics.sql("predictions", "truth", k=FAMILY_KS, rank="rank", dialect="postgres",
                                        macro="evaluate", con=con)

        def query(text, where=""):
            def run():
                with con.cursor() as cursor:
                    cursor.execute(text if not where else f"select value from ({text}) as e where {where}")
                    return float(cursor.fetchone()[0])
            return run

        lines = [
            ("floor", query(FLOOR), None),
            ("bound", query(BOUND), None),
            ("rank_metrics MAP@12 SQL", query(f"select map_at_k from ({map_sql}) as m"), ("map", None)),
            ("rank_metrics.map_at_k (API)", lambda: rank_metrics.map_at_k("predictions", "truth", k=K, rank="rank",
                                                                          con=con), ("map", None)),
            ("rank_metrics evaluate: 6 metrics at k 5, 10, 20, 50", query(evaluate_sql, "metric = 'map' and k = 50"),
             ("map", None, 50)),
        ]
        try:
            yield lines
        finally:
            con.close()


def measure(engine: str, size: str, runs: int, warmup: int, only: list[str] | None = None) -> dict:
    import rank_metrics

    with (spark_lines if engine == "spark" else postgres_lines)(size) as lines:
        if only:
            # the floor and the bound always run: every other line is read against them
            unknown = set(only) - {name for name, _, _ in lines}
            if unknown:
                raise SystemExit(f"engines.py: --only: no line named {sorted(unknown)}; the lines: {[name for name, _, _ in lines]}")
            lines = [line for line in lines if line[0] in {"floor", "bound", *only}]
        times = {name: [] for name, _, _ in lines}
        values = {}
        for round_number in range(warmup + runs):
            for name, function, _ in lines:
                started = time.perf_counter()
                values[name] = function()
                seconds = time.perf_counter() - started
                if isinstance(values[name], OwnTime):
                    values[name], seconds = values[name]
                warming_up = round_number < warmup
                if not warming_up:
                    times[name].append(seconds)
                print(f"{engine} {size} {name}: {seconds:.2f} s{' (warm-up)' if warming_up else ''}", flush=True)
    # every metric line equals rank_metrics' own number on DuckDB under the matching convention
    predictions, truth = generate.predictions_path("r12", size), generate.truth_path("r12", size)
    for name, _, checked in lines:
        if checked is None:
            continue
        metric, convention, *k = checked
        function = getattr(rank_metrics, rank_metrics.api.METRICS[metric][0])
        expected = function(str(predictions), str(truth), k=(k or [K])[0], rank="rank", convention=convention)
        if not math.isclose(float(values[name]), expected, rel_tol=1e-9):
            raise AssertionError(f"{engine} {size}: {name} gives {values[name]!r}, rank_metrics on DuckDB {expected!r}")
    print(f"{engine} {size}: every line agrees with rank_metrics on DuckDB", flush=True)
    floor, bound = statistics.median(times["floor"]), statistics.median(times["bound"])
    # each line keeps the floor and bound of its own run: --only merges runs of different sessions
    return {name: {"seconds": statistics.median(seconds), "runs": len(seconds), "warm-up runs": warmup,
                   "floor seconds": floor, "bound seconds": bound, **PLANS.get(name, {})}
            for name, seconds in times.items()}


def table(results: dict) -> str:
    lines = ["| engine | rows | line | median s | × floor | × bound | plan: shuffles, input scans |",
             "| --- | ---: | --- | ---: | ---: | ---: | --- |"]
    for engine in sorted(results):
        for size in sorted(results[engine], key=generate.SIZES.get):
            entries = results[engine][size]
            for name, entry in entries.items():
                floor = entry.get("floor seconds", entries["floor"]["seconds"])
                bound = entry.get("bound seconds", entries["bound"]["seconds"])
                shape = (f"{entry['exchanges']} Exchange ({entry['reused']} reused), {entry['broadcasts']} broadcast, "
                         f"{entry['input scans']} scans" if "exchanges" in entry else "")
                lines.append(f"| {engine} | {size} | {name} | {entry['seconds']:.2f} | {entry['seconds'] / floor:.2f} | "
                             f"{entry['seconds'] / bound:.2f} | {shape} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", choices=["spark", "postgres"], help="measure this engine (else: only the table)")
    parser.add_argument("--rows", nargs="+", default=["1M"], choices=generate.SIZES)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=1, help="uncounted rounds before the runs")
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--only", nargs="+", metavar="LINE",
                        help="measure only these lines (and the floor and the bound), keeping the others' last results")
    arguments = parser.parse_args()
    results = json.loads(arguments.results.read_text()) if arguments.results.exists() else {}
    for size in arguments.rows if arguments.engine else []:
        generate.generate([size], ["r12"])
        measured = measure(arguments.engine, size, arguments.runs, arguments.warmup, arguments.only)
        engine_results = results.setdefault(arguments.engine, {})
        kept = engine_results.get(size, {}) if arguments.only else {}
        for entry in kept.values():   # the lines not measured again: read against their own run's floor and bound
            entry.setdefault("floor seconds", kept["floor"]["seconds"])
            entry.setdefault("bound seconds", kept["bound"]["seconds"])
        engine_results[size] = {**kept, **measured}
        arguments.results.parent.mkdir(parents=True, exist_ok=True)
        arguments.results.write_text(json.dumps(results, indent=1))   # lines in the order they ran
    text = table(results)
    readme = README.read_text()
    if arguments.results == RESULTS and START in readme and END in readme:
        before, rest = readme.split(START, 1)
        README.write_text(f"{before}{START}\n{text}{END}{rest.split(END, 1)[1]}")
    print(text)


if __name__ == "__main__":
    main()
