"""What the benchmark runs: each implementation computes MAP@k from the same Parquet files.

Every function gets (predictions path, truth path, k, variant) and returns (value, timings),
where timings maps a phase name to seconds; "total" is what the tables report. Imports and
engine start-up happen before the clock starts. Each runs in a process of its own (run.py), so
its peak memory is its own.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
DUCKDB_MEMORY_LIMIT = "3GB"


def _duckdb():
    import duckdb

    spill = tempfile.mkdtemp(prefix="rank_metrics_spill_")
    return duckdb.connect(config={"memory_limit": DUCKDB_MEMORY_LIMIT, "temp_directory": spill,
                                  "preserve_insertion_order": False})


def _order(variant: str) -> dict:
    return {"score": "score"} if variant.startswith("s") else {"rank": "rank"}


def floor(predictions, truth, k, variant):
    """The work no MAP@k can avoid: read both files and find the hits (a hash join, counted)."""
    con = _duckdb()
    started = time.perf_counter()
    # benchmark-only SQL, not a metric: the metric SQL lives in macros/
    (count,) = con.execute(
        "select count(*) from read_parquet($1) as p join read_parquet($2) as t using (user_id, item_id)",
        [str(predictions), str(truth)]).fetchone()
    return float(count), {"total": time.perf_counter() - started}


def floor_with_passes(predictions, truth, k, variant):
    """The floor plus the two passes SPEC §1 asks of any exact MAP@k: one over every list (its
    positions are 1..n whatever the rank column holds, so each list must be seen whole) and one
    over truth (m(u) counts distinct relevant items). A bound from below, not a metric."""
    con = _duckdb()
    started = time.perf_counter()
    # benchmark-only SQL, not a metric: the metric SQL lives in macros/
    (count, _, _) = con.execute(
        "select (select count(*) from read_parquet($1) as p join read_parquet($2) as t using (user_id, item_id)),"
        " (select sum(n) from (select count(*) as n from read_parquet($1) group by user_id)),"
        " (select sum(m) from (select count(distinct item_id) as m from read_parquet($2) group by user_id))",
        [str(predictions), str(truth)]).fetchone()
    return float(count), {"total": time.perf_counter() - started}


def rank_metrics_api(predictions, truth, k, variant, convention=None):
    import pandas  # noqa: F401  (an import like the others': rank_metrics imports it on first use)
    import rank_metrics

    con = _duckdb()
    started = time.perf_counter()
    value = rank_metrics.map_at_k(str(predictions), str(truth), k=k, con=con, convention=convention,
                                  **_order(variant))
    value = float(value) if not isinstance(k, list) else float(value.map_at_k.iloc[-1])
    return value, {"total": time.perf_counter() - started}


def rank_metrics_family(predictions, truth, k, variant):
    """All six metrics at k = 5, 10, 20, 50 in one query (rank_metrics.evaluate); its MAP@50 is
    checked (FAMILY_K)."""
    import pandas  # noqa: F401
    import rank_metrics

    con = _duckdb()
    started = time.perf_counter()
    frame = rank_metrics.evaluate(str(predictions), str(truth), k=[5, 10, 20, 50], con=con, **_order(variant))
    value = float(frame[(frame.metric == "map") & (frame.k == 50)].value.iloc[0])
    return value, {"total": time.perf_counter() - started}


def rank_metrics_with_the_ir_family(predictions, truth, k, variant):
    """Every metric of the registry in one query: the six, RBP, its residual, ERR and AUC at k = 5, 10, 20, 50,
    R-precision and bpref; its ERR@50 is checked (issue 45 asks the IR family's additions within 1.3x of MAP@12
    alone)."""
    import pandas  # noqa: F401
    import rank_metrics

    con = _duckdb()
    started = time.perf_counter()
    frame = rank_metrics.evaluate(str(predictions), str(truth), k=[5, 10, 20, 50], con=con, **_order(variant),
                                  metrics=list(rank_metrics.api.METRICS))
    value = float(frame[(frame.metric == "err") & (frame.k == 50)].value.iloc[0])
    return value, {"total": time.perf_counter() - started}


def _two_models(con, predictions, variant):
    """The file as model a, and model b: the same lists in reverse order (a paired comparison
    needs the same users on both sides), twice the rows."""
    order = "rank" if variant.startswith("r") else "score"
    reversed_order = "-rank" if order == "rank" else "-score"
    # benchmark-only SQL, the bench's second model: the metric SQL lives in macros/
    return con.sql(f"select 'a' as model, user_id, item_id, {order} from read_parquet('{predictions}') "
                   f"union all select 'b', user_id, item_id, {reversed_order} from read_parquet('{predictions}')")


def rank_metrics_two_models(predictions, truth, k, variant):
    """evaluate by model over two models (twice the rows): what compare starts from."""
    import pandas  # noqa: F401
    import rank_metrics

    con = _duckdb()
    started = time.perf_counter()
    frame = rank_metrics.evaluate(_two_models(con, predictions, variant), str(truth), k=list(FAMILY_KS),
                                  by="model", con=con, **_order(variant))
    value = float(frame[(frame.model == "a") & (frame.metric == "map") & (frame.k == 50)].value.iloc[0])
    return value, {"total": time.perf_counter() - started}


def rank_metrics_compare(predictions, truth, k, variant, test="t"):
    """compare b against a over the same two models, six metrics at four k (the t test's
    p-values from the SQL's t and df, or a permutation test from the per-user values)."""
    import pandas  # noqa: F401
    import rank_metrics

    con = _duckdb()
    started = time.perf_counter()
    frame = rank_metrics.compare(_two_models(con, predictions, variant), str(truth), k=list(FAMILY_KS),
                                 by="model", baseline="a", test=test, seed=1, con=con, **_order(variant))
    value = float(frame[(frame.metric == "map") & (frame.k == 50)].baseline_value.iloc[0])
    return value, {"total": time.perf_counter() - started}


def dbt_arguments(*options: str) -> list[str]:
    """The arguments that point dbt at the bench's project (bench/dbt), its profiles beside it."""
    project = BENCH / "dbt"
    return ["--project-dir", str(project), "--profiles-dir", str(project), *options, "--quiet"]


def dbt_deps(arguments: list[str]) -> None:
    from dbt.cli.main import dbtRunner

    assert dbtRunner().invoke(["deps", *arguments]).success


def dbt_run_model(arguments: list[str], variables: str):
    """`dbt run` of the bench's one model (bench/dbt/models/bench_map_at_k.sql); its node, whose
    execution_time is the model's own time (its data checks, query and one-row table, without
    dbt's start-up and parsing)."""
    from dbt.cli.main import dbtRunner

    result = dbtRunner().invoke(["run", *arguments, "--vars", variables])
    assert result.success, result.exception
    (node,) = result.result.results
    return node


def dbt_model(predictions, truth, k, variant):
    """The dbt model (bench/dbt/models/bench_map_at_k.sql) built on DuckDB: its node's time."""
    import duckdb

    workdir = Path(tempfile.mkdtemp(prefix="rank_metrics_dbt_"))
    os.environ.update({"DBT_SEND_ANONYMOUS_USAGE_STATS": "false", "DBT_TARGET_PATH": str(workdir / "target"),
                       "DBT_LOG_PATH": str(workdir / "logs"), "BENCH_DUCKDB_PATH": str(workdir / "bench.duckdb"),
                       "BENCH_SPILL": str(workdir / "spill"), "BENCH_MEMORY_LIMIT": DUCKDB_MEMORY_LIMIT})
    arguments = dbt_arguments()
    dbt_deps(arguments)
    variables = ("{predictions: '%s', truth: '%s', k: %d, order: '%s'}"
                 % (predictions, truth, k, "score" if variant.startswith("s") else "rank"))
    started = time.perf_counter()
    node = dbt_run_model(arguments, variables)
    wall = time.perf_counter() - started
    with duckdb.connect(str(workdir / "bench.duckdb")) as con:   # dbt keeps it open in-process
        (value,) = con.execute("select map_at_k from bench_map_at_k").fetchone()
    return float(value), {"total": node.execution_time, "dbt run wall": wall}


def reference(predictions, truth, k, variant):
    import pyarrow.parquet as pq

    from rank_metrics import reference as ref

    started = time.perf_counter()
    predictions_rows = pq.read_table(predictions).to_pylist()
    truth_rows = pq.read_table(truth).to_pylist()
    _, groups = ref.evaluate(predictions_rows, truth_rows, [k], options=ref.resolve_options(),
                             **_order(variant))
    return groups[0]["map_at_k"], {"total": time.perf_counter() - started}


def _ranx_inputs(predictions, truth):
    """ranx's Qrels and Run from the files (a run is query -> {doc: score}), and the time taken."""
    import pandas as pd
    from ranx import Qrels, Run

    started = time.perf_counter()
    run_frame = pd.read_parquet(predictions)
    truth_frame = pd.read_parquet(truth)
    if "rank" in run_frame:   # ranx ranks by score, descending
        run_frame["score"] = -run_frame["rank"].astype("float64")
    run_frame["user_id"] = run_frame["user_id"].astype(str)
    run_frame["item_id"] = run_frame["item_id"].astype(str)
    truth_frame = truth_frame.assign(user_id=truth_frame.user_id.astype(str), item_id=truth_frame.item_id.astype(str),
                                     relevance=1)
    qrels = Qrels.from_df(truth_frame, q_id_col="user_id", doc_id_col="item_id", score_col="relevance")
    run = Run.from_df(run_frame, q_id_col="user_id", doc_id_col="item_id", score_col="score")
    return qrels, run, {"DataFrame conversion": time.perf_counter() - started}


def ranx(predictions, truth, k, variant):
    """ranx: map@k divides by all relevant docs (convention ranx)."""
    from ranx import evaluate

    qrels, run, timings = _ranx_inputs(predictions, truth)
    first = time.perf_counter()
    evaluate(qrels, run, f"map@{k}", make_comparable=True)
    warm = time.perf_counter()
    value = evaluate(qrels, run, f"map@{k}", make_comparable=True)
    done = time.perf_counter()
    return float(value), {"total": done - warm, **timings, "first evaluate (compiles)": warm - first,
                          "warm evaluate": done - warm}


def _recommenders_inputs(predictions, truth):
    """(rating_true, rating_pred) DataFrames as recommenders takes them: it ranks by a
    prediction score, descending; every truth row has rating 1."""
    import pandas as pd

    rating_pred = pd.read_parquet(predictions)
    if "rank" in rating_pred:
        rating_pred["prediction"] = -rating_pred.pop("rank").astype("float64")
    else:
        rating_pred = rating_pred.rename(columns={"score": "prediction"})
    return pd.read_parquet(truth).assign(rating=1.0), rating_pred


def recommenders(predictions, truth, k, variant):
    from recommenders.evaluation.python_evaluation import map_at_k

    started = time.perf_counter()
    rating_true, rating_pred = _recommenders_inputs(predictions, truth)
    value = map_at_k(rating_true, rating_pred, col_user="user_id", col_item="item_id", col_rating="rating",
                     col_prediction="prediction", relevancy_method="top_k", k=k)
    return float(value), {"total": time.perf_counter() - started}


def _spark_pairs(predictions, truth):
    """A local[2] session and the (predicted items, actual items) pairs RankingMetrics takes:
    a row per user with predictions (convention spark), items in list order."""
    from pyspark.sql import SparkSession, functions as F

    session = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
               .config("spark.sql.shuffle.partitions", "8").config("spark.driver.memory", "3g").getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    started = time.perf_counter()
    frame = session.read.parquet(str(predictions))
    order = F.col("rank") if "rank" in frame.columns else -F.col("score")
    lists = (frame.select("user_id", F.struct(order.alias("o"), F.col("item_id").alias("i")).alias("e"))
             .groupBy("user_id").agg(F.sort_array(F.collect_list("e")).alias("es"))
             .select("user_id", F.col("es.i").alias("predicted")))
    labels = session.read.parquet(str(truth)).groupBy("user_id").agg(F.collect_list("item_id").alias("actual"))
    pairs = (lists.join(labels, "user_id", "left")
             .select("predicted", F.coalesce("actual", F.array().cast("array<int>")).alias("actual")))
    return pairs.rdd.map(lambda row: (row.predicted, row.actual)), started


def spark(predictions, truth, k, variant):
    """pyspark's RankingMetrics in local mode: lists per user with predictions (convention spark)."""
    from pyspark.mllib.evaluation import RankingMetrics

    pairs, started = _spark_pairs(predictions, truth)
    value = RankingMetrics(pairs).meanAveragePrecisionAt(k)
    return float(value), {"total": time.perf_counter() - started}


def spark_family(predictions, truth, k, variant):
    """RankingMetrics' ndcgAt, precisionAt and recallAt at each of FAMILY_KS, from one cached RDD."""
    from pyspark.mllib.evaluation import RankingMetrics

    pairs, started = _spark_pairs(predictions, truth)
    metrics = RankingMetrics(pairs.cache())
    values = {(name, one_k): getattr(metrics, name)(one_k) for one_k in FAMILY_KS
              for name in ("ndcgAt", "precisionAt", "recallAt")}
    return float(values["precisionAt", 50]), {"total": time.perf_counter() - started}


def ranx_family(predictions, truth, k, variant):
    """ranx's evaluate with all six metrics at each of FAMILY_KS in one call (warm, like ranx())."""
    from ranx import evaluate

    qrels, run, timings = _ranx_inputs(predictions, truth)
    names = [f"{metric}@{one_k}" for one_k in FAMILY_KS
             for metric in ("ndcg", "precision", "recall", "mrr", "hit_rate", "map")]
    first = time.perf_counter()
    evaluate(qrels, run, names, make_comparable=True)
    warm = time.perf_counter()
    values = evaluate(qrels, run, names, make_comparable=True)
    done = time.perf_counter()
    return float(values["ndcg@50"]), {"total": done - warm, **timings, "first evaluate (compiles)": warm - first,
                                      "warm evaluate": done - warm}


def recommenders_family(predictions, truth, k, variant):
    """recommenders' ndcg_at_k, precision_at_k, recall_at_k and map_at_k at each of FAMILY_KS."""
    from recommenders.evaluation import python_evaluation

    started = time.perf_counter()
    rating_true, rating_pred = _recommenders_inputs(predictions, truth)
    columns = dict(col_user="user_id", col_item="item_id", col_rating="rating", col_prediction="prediction",
                   relevancy_method="top_k")
    values = {(name, one_k): getattr(python_evaluation, name)(rating_true, rating_pred, k=one_k, **columns)
              for one_k in FAMILY_KS for name in ("ndcg_at_k", "precision_at_k", "recall_at_k", "map_at_k")}
    return float(values["precision_at_k", 50]), {"total": time.perf_counter() - started}


def polars_by_hand(predictions, truth, k, variant):
    """What a skilled polars user writes for MAP@k (SPEC's defaults): positions by (order, item),
    the first k, hits, precision at each hit, over min(m, k), every truth user counted."""
    import polars as pl

    started = time.perf_counter()
    order = "rank" if variant.startswith("r") else "score"
    truth_items = pl.scan_parquet(str(truth)).unique(["user_id", "item_id"])
    relevant = truth_items.group_by("user_id").agg(pl.len().alias("m"))
    ranked = (pl.scan_parquet(str(predictions))
              .group_by("user_id", "item_id")   # SPEC: an item counts at its best place
              .agg(pl.col(order).min() if order == "rank" else pl.col(order).max())
              .sort("user_id", order, "item_id", descending=[False, order == "score", False])
              .with_columns(position=pl.int_range(1, pl.len() + 1).over("user_id"))
              .filter(pl.col("position") <= k))
    hits = (ranked.join(truth_items, on=["user_id", "item_id"])
            .sort("user_id", "position")
            .with_columns(hits=pl.int_range(1, pl.len() + 1).over("user_id"))
            .group_by("user_id").agg((pl.col("hits") / pl.col("position")).sum().alias("precision_sum")))
    value = (relevant.join(hits, on="user_id", how="left")
             .select((pl.col("precision_sum").fill_null(0) / pl.min_horizontal("m", pl.lit(k))).mean())
             .collect().item())
    return float(value), {"total": time.perf_counter() - started}


def duckdb_by_hand(predictions, truth, k, variant):
    """What a skilled SQL user writes for MAP@k (SPEC's defaults) as one DuckDB window query."""
    con = _duckdb()
    order = "rank asc" if variant.startswith("r") else "score desc"
    started = time.perf_counter()
    # benchmark-only SQL, the baseline a user would write by hand: the metric SQL lives in macros/
    (value,) = con.execute(f"""
        with truth as (select distinct user_id, item_id from read_parquet($1)),
        relevant as (select user_id, count(*) as m from truth group by user_id),
        firsts as (  -- an item counts at its best place
            select user_id, item_id, {'min(rank) as o' if variant.startswith('r') else 'max(score) as o'}
            from read_parquet($2) group by user_id, item_id),
        ranked as (
            select user_id, item_id, row_number() over (partition by user_id order by o {order.split()[1]}, item_id) as position
            from firsts),
        hits as (
            select r.user_id, r.position, row_number() over (partition by r.user_id order by r.position) as hits_so_far
            from ranked as r join truth as t using (user_id, item_id)
            where r.position <= {int(k)})
        select avg(coalesce(h.precision_sum, 0) / least(r.m, {int(k)}))
        from relevant as r
        left join (select user_id, sum(hits_so_far / position) as precision_sum from hits group by user_id) as h
            using (user_id)""", [str(truth), str(predictions)]).fetchone()
    return float(value), {"total": time.perf_counter() - started}


FAMILY_KS = (5, 10, 20, 50)

IMPLEMENTATIONS = {
    "floor (DuckDB hash join, counted)": floor,
    "floor + a pass per list and per truth user": floor_with_passes,
    "rank_metrics (Python API, DuckDB)": rank_metrics_api,
    "rank_metrics, 4 k values": lambda p, t, k, v: rank_metrics_api(p, t, [3, 6, 9, k], v),
    "rank_metrics evaluate: 6 metrics at k 5, 10, 20, 50": rank_metrics_family,
    "rank_metrics evaluate: the 6 and RBP, its residual, ERR, AUC, R-precision, bpref at k 5, 10, 20, 50": rank_metrics_with_the_ir_family,
    "rank_metrics evaluate by model, 2 models: 6 metrics at k 5, 10, 20, 50": rank_metrics_two_models,
    "rank_metrics compare, t test: the same 2 models": rank_metrics_compare,
    "rank_metrics compare, permutation test: the same 2 models":
        lambda p, t, k, v: rank_metrics_compare(p, t, k, v, test="permutation"),
    "dbt model (DuckDB)": dbt_model,
    "hand-written DuckDB window query": duckdb_by_hand,
    "hand-written polars pipeline": polars_by_hand,
    "reference (pure Python)": reference,
    "ranx": ranx,
    "ranx evaluate: 6 metrics at k 5, 10, 20, 50": ranx_family,
    "recommenders": recommenders,
    "recommenders: ndcg, precision, recall, map at k 5, 10, 20, 50": recommenders_family,
    "pyspark RankingMetrics": spark,
    "pyspark RankingMetrics: ndcgAt, precisionAt, recallAt at k 5, 10, 20, 50": spark_family,
}
# what run.py checks each number against: rank_metrics' (metric, k, convention); the others
# compute the default (kaggle) MAP at the run's k, and the floors a count
CHECKED = {
    "rank_metrics evaluate: 6 metrics at k 5, 10, 20, 50": ("map", 50, None),
    "rank_metrics evaluate: the 6 and RBP, its residual, ERR, AUC, R-precision, bpref at k 5, 10, 20, 50": ("err", 50, None),
    "rank_metrics evaluate by model, 2 models: 6 metrics at k 5, 10, 20, 50": ("map", 50, None),
    "rank_metrics compare, t test: the same 2 models": ("map", 50, None),
    "rank_metrics compare, permutation test: the same 2 models": ("map", 50, None),
    "ranx": ("map", None, "ranx"),
    "ranx evaluate: 6 metrics at k 5, 10, 20, 50": ("ndcg", 50, "ranx"),
    "recommenders": ("map", None, "recommenders"),
    "recommenders: ndcg, precision, recall, map at k 5, 10, 20, 50": ("precision", 50, "recommenders"),
    "pyspark RankingMetrics": ("map", None, "spark"),
    "pyspark RankingMetrics: ndcgAt, precisionAt, recallAt at k 5, 10, 20, 50": ("precision", 50, "spark"),
}
# engines that keep to a memory limit of their own (DuckDB's memory_limit, Spark's driver
# memory) and spill past it: their memory does not grow with the data
BOUNDED_MEMORY = {"floor (DuckDB hash join, counted)", "floor + a pass per list and per truth user",
                  "rank_metrics (Python API, DuckDB)",
                  "rank_metrics, 4 k values", "rank_metrics evaluate: 6 metrics at k 5, 10, 20, 50",
                  "rank_metrics evaluate by model, 2 models: 6 metrics at k 5, 10, 20, 50",
                  "rank_metrics compare, t test: the same 2 models",
                  "dbt model (DuckDB)", "hand-written DuckDB window query", "pyspark RankingMetrics",
                  "pyspark RankingMetrics: ndcgAt, precisionAt, recallAt at k 5, 10, 20, 50"}
