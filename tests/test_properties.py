"""Property tests: the SQL against the reference implementation on random inputs.

Inputs have ties in rank and score, repeated items, users with empty lists on either side
(users only in predictions, only in truth), relevance grades ≤ 0 and graded or binary truth,
groups matched in truth or shared, every option of SPEC §1 and §6 and every convention, any
subset of the metrics, k alone or as a list. Every metric of every evaluated user is compared,
and every group's mean. The same properties run on DuckDB (arrow tables), PostgreSQL (tables on
a connection) and Spark (Spark DataFrames).

Most cases run batched: BATCH random cases that share their options (the call's arguments),
stacked in one table with a case_id column and evaluated in one query with by='case_id', each
case's rows compared with the reference's (a query per case cost seconds on Spark, and most of
the suite's time). The tests of one case per query keep the paths a batch cannot take: no `by`
(one number back), and errors of one case (an empty table, a duplicate)."""

import math

import pyarrow as pa
import pytest
from conftest import examples
from engine_tables import to_postgres, to_spark
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

import rank_metrics
from rank_metrics import reference

# random inputs often have no hit at all: the warning that ids may not match (tested in
# test_errors.py) would fill the log, and these tests compare numbers
pytestmark = pytest.mark.filterwarnings("ignore::rank_metrics.RankMetricsWarning")

# The random cases each engine checks, under the "ci" profile (tests/conftest.py) of 600 examples;
# the "dev" profile scales them down. A batch is BATCH cases in one query (each case a case_id).
# Per function: DuckDB 120 single cases and 600 batched (720, where one case a query was 600);
# PostgreSQL (three functions on each case) 60 and 600 (660, was 600); Spark (two functions),
# where a query costs seconds whatever its size, 6 and 240 in batches of 30 (246, was 120).
BATCH = 20
SPARK_BATCH = 30
SINGLE_EXAMPLES = examples(120)
BATCHED_EXAMPLES = examples(600 // BATCH)
POSTGRES_SINGLE_EXAMPLES = examples(60)
SPARK_SINGLE_EXAMPLES = examples(6)
SPARK_BATCHED_EXAMPLES = examples(240 // SPARK_BATCH)
# ties scored by expectation (tie_break='average'): 200 cases on PostgreSQL, 60 on Spark
TIES_BATCHED_EXAMPLES = examples(200 // BATCH)
SPARK_TIES_BATCHED_EXAMPLES = examples(60 // SPARK_BATCH)

USERS = st.integers(min_value=1, max_value=4)
ITEMS = st.sampled_from(list("abcdef"))
MODELS = st.sampled_from(["m1", "m2"])
# few distinct values, so that ties are common
RANKS = st.integers(min_value=1, max_value=5)
SCORES = st.sampled_from([0.1, 0.25, 0.5, 0.75, 0.9])
GRADES = st.integers(min_value=-1, max_value=3)
METRICS = list(reference.METRICS)
ORDERED_TIE_BREAKS = [tie_break for tie_break in reference.TIE_BREAKS if tie_break != "average"]
TIES_BY_EXPECTATION = ["ndcg", "precision", "recall", "hit_rate"]

PREDICTION_ROW = st.tuples(MODELS, USERS, ITEMS, RANKS, SCORES)
truth_rows = st.lists(st.tuples(MODELS, USERS, ITEMS, GRADES), max_size=25)
# k = 62 is past the 64-bit word of hit positions: AP's running count then comes from a window
K = st.sampled_from([1, 2, 3, 4, 5, 6, 7, 62])
ks = st.one_of(K, st.lists(K, min_size=1, max_size=4))


def option(values):
    return st.one_of(st.none(), st.sampled_from(values))


@st.composite
def case_data(draw, rank_offsets=(None, 0.0, 0.4, 0.6), nonempty=False):
    """A case's rows: what may differ between the cases of one query."""
    return dict(
        predictions=draw(st.lists(PREDICTION_ROW, min_size=int(nonempty), max_size=40)),
        truth=draw(truth_rows),
        # a (user, item) judged twice must count once: repeat some truth rows often
        repeated_truth=draw(st.integers(min_value=0, max_value=5)),
        # ranks rewritten to 1..n per list, as most rank columns are (the SQL's no-sort path)
        dense_ranks=draw(st.booleans()),
        # an integer rank column, or a double one holding whole numbers or numbers between them
        # (0.4 rounds down and 0.6 up, so casts that round and casts that truncate both show)
        rank_offset=draw(st.sampled_from(rank_offsets)),
    )


@st.composite
def cases(draw):
    return dict(
        **draw(case_data()),
        k=draw(ks),
        order=draw(st.sampled_from(["rank", "score"])),
        graded=draw(st.booleans()),
        # no groups; groups sharing one truth; groups matched in truth (an evaluation date, say)
        grouping=draw(st.sampled_from(["none", "shared", "matched"])),
        normalization=draw(option(reference.NORMALIZATIONS)),
        users=draw(option(reference.USERS)),
        duplicates=draw(option(reference.DUPLICATES)),
        # ties broken by item: scored by expectation (tie_break='average', the sklearn preset) only
        # four metrics, over lists without repeats, are (tests/test_ties.py)
        tie_break=draw(option(ORDERED_TIE_BREAKS)),
        convention=draw(option(sorted(set(reference.CONVENTIONS) - {"sklearn"}))),
        gain=draw(option(reference.GAINS)),
        gain_from=draw(option(reference.GAIN_FROM)),
        precision_denominator=draw(option(reference.PRECISION_DENOMINATORS)),
        recall_denominator=draw(option(reference.RECALL_DENOMINATORS)),
        truth_scope=draw(option(reference.TRUTH_SCOPES)),
        # thresholds at, between and below the grades (0: grade-0 rows become relevant)
        relevance_threshold=draw(st.sampled_from([None, None, 0, 1, 2, 1.5])),
        persistence=draw(st.sampled_from([None, 0.5, 0.95])),
        # ERR's g_max: the largest grade in truth, or below and above the grades drawn
        max_grade=draw(st.sampled_from([None, None, 1, 4])),
        # a group's value: the arithmetic mean, or the geometric (per-user output takes none)
        mean=draw(option(reference.MEANS)),
        # GAUC's weights (a group's value: per-user output takes none)
        auc_weight=draw(option(reference.AUC_WEIGHTS)),
        metrics=draw(st.one_of(st.none(), st.lists(st.sampled_from(METRICS), min_size=1, max_size=8, unique=True))),
    )


@st.composite
def hit_pattern_cases(draw):
    """Cases whose group results count users per hit pattern (every k within the 64-bit word,
    NDCG's gains all 1), with k often past a list's length and precision over that length: the
    pattern then has to carry n(u) as well."""
    case = draw(cases())
    graded = case["graded"]
    return {**case, "k": draw(st.lists(st.sampled_from([2, 4, 6, 9]), min_size=1, max_size=3)),
            "convention": None, "truth_scope": None, "relevance_threshold": None,
            "gain": "binary" if graded else case["gain"],
            "precision_denominator": draw(st.sampled_from(["list_length", "list_length", "k"])),
            "metrics": draw(st.one_of(st.none(), st.lists(st.sampled_from(METRICS), min_size=1, max_size=8,
                                                         unique=True).map(lambda chosen: chosen + ["precision"]
                                                                           if "precision" not in chosen else chosen)))}


@st.composite
def tie_cases(draw):
    """Cases whose ties are scored by expectation (SPEC §6b): tie_break='average' given, or the
    sklearn preset's, over lists that hold each item once (duplicates 'collapse' drops repeats;
    under 'error' a list with one is refused), for the four metrics it scores."""
    case = draw(cases())
    preset = draw(st.booleans())
    return {**case, "convention": "sklearn" if preset else case["convention"],
            "tie_break": None if preset else "average",
            "duplicates": draw(st.sampled_from([None, "collapse"] if preset else ["collapse", "error"])),
            "metrics": draw(st.lists(st.sampled_from(TIES_BY_EXPECTATION), min_size=1, max_size=4, unique=True))}


@st.composite
def batches(draw, base=cases, size=BATCH):
    """`size` cases for one query: the options (k, order, grouping, grades, the options and the
    metrics) of one draw of `base`, the rows each case's own. Each case has a prediction, so each
    is a group of the query (a case alone, without `by`, has its one group even with no row).
    Under duplicates='error' a batch repeats no item, and a threshold comes with grades
    (without, a batch is refused whole, as one case is in the tests of one case), so that numbers
    are compared."""
    first = draw(base())
    if not first["graded"]:
        first["relevance_threshold"] = None
    offsets = (None,) if first["rank_offset"] is None else (0.0, 0.4, 0.6)
    batch = [{**first, **data} for data in draw(st.lists(case_data(offsets, nonempty=True), min_size=size,
                                                         max_size=size))]
    if resolved(first).duplicates == "error":
        batch = [{**case, "predictions": list(unique_rows(case))} for case in batch]
    assume(any(case["truth"] for case in batch))   # a batch with no truth at all is refused whole
    return batch


def resolved(case):
    return reference.resolve_options(case["convention"], **{name: case[name] for name in OPTION_NAMES})


def unique_rows(case):
    """The case's prediction rows, each (model if grouped, user, item) once."""
    seen = set()
    for row in case["predictions"]:
        key = (row[0] if case["grouping"] != "none" else None, row[1], row[2])
        if key not in seen:
            seen.add(key)
            yield row


def dense(rows):
    """The same rows with each (model, user) list's ranks replaced by 1..n in row order."""
    counters = {}
    rewritten = []
    for model, user, item, _, score in rows:
        counters[model, user] = counters.get((model, user), 0) + 1
        rewritten.append((model, user, item, counters[model, user], score))
    return rewritten


def tables(case):
    if case["dense_ranks"]:
        case = {**case, "predictions": dense(case["predictions"])}
    case = {**case, "truth": case["truth"] + case["truth"][:case["repeated_truth"]]}
    predictions = pa.table({
        "model": pa.array([row[0] for row in case["predictions"]], pa.string()),
        "user_id": pa.array([row[1] for row in case["predictions"]], pa.int64()),
        "item_id": pa.array([row[2] for row in case["predictions"]], pa.string()),
        "rank": (pa.array([row[3] for row in case["predictions"]], pa.int64()) if case["rank_offset"] is None
                 else pa.array([row[3] + case["rank_offset"] for row in case["predictions"]], pa.float64())),
        "score": pa.array([row[4] for row in case["predictions"]], pa.float64()),
    })
    if case["order"] == "rank":
        predictions = predictions.drop_columns(["score"])
    else:
        predictions = predictions.drop_columns(["rank"])
    truth = {
        "user_id": pa.array([row[1] for row in case["truth"]], pa.int64()),
        "item_id": pa.array([row[2] for row in case["truth"]], pa.string()),
    }
    if case["grouping"] == "matched":
        truth["model"] = pa.array([row[0] for row in case["truth"]], pa.string())
    if case["graded"]:
        truth["relevance"] = pa.array([row[3] for row in case["truth"]], pa.int64())
    return predictions, pa.table(truth)


def stacked(batch):
    """The batch's tables: each case's rows under its case_id, one table for each input."""
    parts = [tables(case) for case in batch]

    def with_case_id(table, case_id):
        return table.add_column(0, "case_id", pa.array([case_id] * table.num_rows, pa.int64()))
    return (pa.concat_tables([with_case_id(predictions, case_id) for case_id, (predictions, _) in enumerate(parts)]),
            pa.concat_tables([with_case_id(truth, case_id) for case_id, (_, truth) in enumerate(parts)]))


def group_columns(case, batched=False):
    """(by, truth_by): the model column when grouped, after case_id in a batch."""
    first = ["case_id"] if batched else []
    return (first + ([] if case["grouping"] == "none" else ["model"]),
            first + (["model"] if case["grouping"] == "matched" else []))


def expected(case, predictions, truth, per_user, batch=None, metrics=("map",)):
    """The reference's rows, or the error the SQL must raise instead. For a batch (predictions
    and truth stacked), the errors are the whole tables', and the rows each case's own reference
    rows under its case_id: a case the reference refuses alone for having no (relevant) truth
    has no evaluated user in the batch, so no row."""
    options = resolved(case)
    by, truth_by = group_columns(case, batched=batch is not None)
    # the problems in the order they are reported: a threshold with no grades to apply it to
    # (before any query), empty input, then duplicates
    threshold = case["relevance_threshold"]
    if threshold is not None and not case["graded"]:
        return "relevance_threshold"
    relevant = [row for row in truth.to_pylist()
                if (row.get("relevance", 1) > 0 if threshold is None else row.get("relevance", 1) >= threshold)]
    if options.users == "truth" and not relevant:
        return "truth"
    if options.users == "judged" and truth.num_rows == 0:
        return "truth"
    if options.users == "predictions" and predictions.num_rows == 0:
        return "predictions"
    prediction_keys = [(*(row[column] for column in by), row["user_id"], row["item_id"])
                       for row in predictions.to_pylist()]
    if options.duplicates == "error" and len(set(prediction_keys)) != len(prediction_keys):
        return "duplicates"
    if batch is not None:
        rows = []
        for case_id, one in enumerate(batch):
            alone = expected(one, *tables(one), per_user, metrics=metrics)
            if isinstance(alone, str):
                assert alone == "truth", alone
                continue
            rows += [{"case_id": case_id, **row} for row in alone]
        return rows
    ks = case["k"] if isinstance(case["k"], list) else [case["k"]]
    user_rows, group_rows = reference.evaluate(
        predictions.to_pylist(), truth.to_pylist(), sorted(set(ks)), user="user_id", item="item_id",
        rank="rank" if case["order"] == "rank" else None,
        score="score" if case["order"] == "score" else None,
        relevance="relevance" if case["graded"] else None, by=by, truth_by=truth_by, options=options,
        metrics=metrics)
    return user_rows if per_user else group_rows


OPTION_NAMES = ("normalization", "users", "duplicates", "tie_break", "gain", "gain_from",
                "precision_denominator", "recall_denominator", "truth_scope", "relevance_threshold", "persistence",
                "max_grade", "mean", "auc_weight")


def arguments(case, with_metrics=False, batched=False, per_user=False):
    by = group_columns(case, batched)[0]
    chosen = dict(k=case["k"], by=by or None, convention=case["convention"],
                  **{name: case[name] for name in OPTION_NAMES if not (per_user and name in ("mean", "auc_weight"))})
    return dict(chosen, metrics=case["metrics"]) if with_metrics else chosen


def keyed(rows, keys, value):
    # a cutoff-free metric's k: None in the reference, NA (or NaN) from a result
    def plain(one):
        return None if one is None or type(one).__name__ == "NAType" or (isinstance(one, float) and math.isnan(one)) else one
    return {tuple(plain(row[key]) for key in keys): plain(row[value]) for row in rows}


def assert_same(got_rows, want_rows, keys, value):
    got, want = keyed(got_rows, keys, value), keyed(want_rows, keys, value)
    assert got.keys() == want.keys()
    for key in want:
        if want[key] is None:   # AUC's user without a positive or a negative; a group without such users
            assert got[key] is None or math.isnan(got[key]), (key, got[key])
            continue
        assert math.isclose(got[key], want[key], rel_tol=1e-9, abs_tol=1e-12), (key, got[key], want[key])


def check_map_at_k(case, predictions, truth, inputs, con=None, batch=None):
    """map_at_k on `inputs` (what the engine is given) equals the reference on the arrow tables;
    `batch`: the cases stacked in them (each case_id a case), or None for one case."""
    want = expected(case, predictions, truth, per_user=False, batch=batch)
    batched = batch is not None
    event(f"refused ({want})" if isinstance(want, str) else "compared")
    if isinstance(want, str):
        with pytest.raises(rank_metrics.RankMetricsError, match=want):
            rank_metrics.map_at_k(*inputs, con=con, **arguments(case, batched=batched))
        return
    got = rank_metrics.map_at_k(*inputs, con=con, **arguments(case, batched=batched))
    by = group_columns(case, batched)[0]
    if isinstance(got, float):
        assert not by
        assert len(want) <= 1
        if want:
            assert math.isclose(got, want[0]["map_at_k"], rel_tol=1e-9, abs_tol=1e-12)
        else:
            assert math.isnan(got)
        return
    assert_same(got.to_dict("records"), want, by + ["k"], "map_at_k")
    assert_same(got.to_dict("records"), want, by + ["k"], "n_users")


def check_average_precision(case, predictions, truth, inputs, con=None, batch=None):
    want = expected(case, predictions, truth, per_user=True, batch=batch)
    batched = batch is not None
    event(f"refused ({want})" if isinstance(want, str) else "compared")
    if isinstance(want, str):
        with pytest.raises(rank_metrics.RankMetricsError, match=want):
            rank_metrics.average_precision_at_k(*inputs, con=con, **arguments(case, batched=batched, per_user=True))
        return
    got = rank_metrics.average_precision_at_k(*inputs, con=con, **arguments(case, batched=batched, per_user=True)).to_dict("records")
    keys = group_columns(case, batched)[0] + ["user_id", "k"]
    for value in ("average_precision", "n_relevant", "n_hits"):
        assert_same(got, want, keys, value)


def chosen_metrics(case):
    return reference.DEFAULT_METRICS if case["metrics"] is None else [metric for metric in METRICS if metric in case["metrics"]]


def user_column(metric):
    return reference.METRICS[metric][0]


def group_column(metric):
    return reference.METRICS[metric][1]


def check_evaluate_users(case, predictions, truth, inputs, con=None, batch=None):
    """Every chosen metric of every evaluated user, and m and the hits, equal the reference's."""
    want = expected(case, predictions, truth, per_user=True, batch=batch, metrics=chosen_metrics(case))
    batched = batch is not None
    event(f"refused ({want})" if isinstance(want, str) else "compared")
    if isinstance(want, str):
        with pytest.raises(rank_metrics.RankMetricsError, match=want):
            rank_metrics.evaluate_users(*inputs, con=con, **arguments(case, with_metrics=True, batched=batched, per_user=True))
        return
    got = rank_metrics.evaluate_users(*inputs, con=con, **arguments(case, with_metrics=True, batched=batched, per_user=True))
    columns = [user_column(metric) for metric in chosen_metrics(case)]
    assert list(got.columns)[-len(columns) - 2:] == columns + ["n_relevant", "n_hits"]
    keys = group_columns(case, batched)[0] + ["user_id", "k"]
    for value in columns + ["n_relevant", "n_hits"]:
        assert_same(got.to_dict("records"), want, keys, value)


def check_evaluate(case, predictions, truth, inputs, con=None, batch=None):
    """Every chosen metric's mean per group and k, and the users counted, equal the reference's."""
    want = expected(case, predictions, truth, per_user=False, batch=batch, metrics=chosen_metrics(case))
    batched = batch is not None
    event(f"refused ({want})" if isinstance(want, str) else "compared")
    if isinstance(want, str):
        with pytest.raises(rank_metrics.RankMetricsError, match=want):
            rank_metrics.evaluate(*inputs, con=con, **arguments(case, with_metrics=True, batched=batched))
        return
    got = rank_metrics.evaluate(*inputs, con=con, **arguments(case, with_metrics=True, batched=batched)).to_dict("records")
    by = group_columns(case, batched)[0]
    metrics = chosen_metrics(case)
    assert {row["metric"] for row in got} <= set(metrics)
    # a row of k has the metrics of a k; the row of k None the cutoff-free ones (R-precision)
    spread = [{**{key: row[key] for key in by + ["k"]}, "metric": metric, "n_users": row[group_column(metric) + "_n_users"],
               "value": row[group_column(metric)]} for row in want for metric in metrics
              if (row["k"] is None) == (metric in reference.CUTOFF_FREE)]
    assert_same(got, spread, by + ["k", "metric"], "value")
    assert_same(got, spread, by + ["k", "metric"], "n_users")
    # SPEC §7: the standard error of each mean (none under two users) and the 95% interval
    errors = {(*(row[key] for key in by + ["k"]), metric): row[group_column(metric) + "_std_error"]
              for row in want for metric in metrics}
    for row in got:
        k = None if type(row["k"]).__name__ == "NAType" or row["k"] != row["k"] else row["k"]
        want_error = errors[(*(row[key] for key in by), k, row["metric"])]
        if want_error is None:
            assert math.isnan(row["std_error"]) and math.isnan(row["ci_low"]) and math.isnan(row["ci_high"])
            continue
        low, high = reference.confidence_interval(row["value"], want_error, geometric=case["mean"] == "geometric")
        for column, value in (("std_error", want_error), ("ci_low", low), ("ci_high", high)):
            assert math.isclose(row[column], value, rel_tol=1e-9, abs_tol=1e-12), (row, column, value)


def on_duckdb(check, case):
    predictions, truth = tables(case)
    check(case, predictions, truth, (predictions, truth))


def on_duckdb_batched(check, batch):
    predictions, truth = stacked(batch)
    check(batch[0], predictions, truth, (predictions, truth), batch=batch)


# --- DuckDB (arrow tables): one case per query, then batches ----------------------------------

@settings(max_examples=SINGLE_EXAMPLES)
@given(case=cases())
def test_duckdb_map_at_k_equals_reference(case):
    on_duckdb(check_map_at_k, case)


@settings(max_examples=SINGLE_EXAMPLES)
@given(case=cases())
def test_duckdb_average_precision_equals_reference(case):
    on_duckdb(check_average_precision, case)


@settings(max_examples=SINGLE_EXAMPLES)
@given(case=cases())
def test_duckdb_evaluate_users_equals_reference(case):
    on_duckdb(check_evaluate_users, case)


@settings(max_examples=SINGLE_EXAMPLES)
@given(case=cases())
def test_duckdb_evaluate_equals_reference(case):
    on_duckdb(check_evaluate, case)


@settings(max_examples=SINGLE_EXAMPLES)
@given(case=hit_pattern_cases())
def test_duckdb_evaluate_by_hit_pattern_equals_reference(case):
    on_duckdb(check_evaluate, case)


@settings(max_examples=BATCHED_EXAMPLES)
@given(batch=batches())
def test_duckdb_batched_map_at_k_equals_reference(batch):
    on_duckdb_batched(check_map_at_k, batch)


@settings(max_examples=BATCHED_EXAMPLES)
@given(batch=batches())
def test_duckdb_batched_average_precision_equals_reference(batch):
    on_duckdb_batched(check_average_precision, batch)


@settings(max_examples=BATCHED_EXAMPLES)
@given(batch=batches())
def test_duckdb_batched_evaluate_users_equals_reference(batch):
    on_duckdb_batched(check_evaluate_users, batch)


@settings(max_examples=BATCHED_EXAMPLES)
@given(batch=batches())
def test_duckdb_batched_evaluate_equals_reference(batch):
    on_duckdb_batched(check_evaluate, batch)


@settings(max_examples=BATCHED_EXAMPLES)
@given(batch=batches(hit_pattern_cases))
def test_duckdb_batched_evaluate_by_hit_pattern_equals_reference(batch):
    on_duckdb_batched(check_evaluate, batch)


@settings(max_examples=SINGLE_EXAMPLES)
@given(case=tie_cases())
def test_duckdb_ties_by_expectation_equal_reference(case):
    on_duckdb(check_evaluate_users, case)
    on_duckdb(check_evaluate, case)


@settings(max_examples=BATCHED_EXAMPLES)
@given(batch=batches(tie_cases))
def test_duckdb_batched_ties_by_expectation_equal_reference(batch):
    on_duckdb_batched(check_evaluate_users, batch)
    on_duckdb_batched(check_evaluate, batch)


# --- PostgreSQL (tables on the connection) -------------------------------------------------------

def on_postgres(con, case, batch=None):
    predictions, truth = tables(case) if batch is None else stacked(batch)
    names = (to_postgres(con, "predictions", predictions), to_postgres(con, "truth", truth))
    for check in (check_map_at_k, check_evaluate_users, check_evaluate):
        check(case, predictions, truth, names, con=con, batch=batch)


@settings(max_examples=POSTGRES_SINGLE_EXAMPLES)
@given(case=cases())
def test_postgres_equals_reference(case, postgres):
    on_postgres(postgres, case)


@settings(max_examples=BATCHED_EXAMPLES)
@given(batch=batches())
def test_postgres_batched_equals_reference(batch, postgres):
    on_postgres(postgres, batch[0], batch)


@settings(max_examples=TIES_BATCHED_EXAMPLES)
@given(batch=batches(tie_cases))
def test_postgres_batched_ties_by_expectation_equal_reference(batch, postgres):
    predictions, truth = stacked(batch)
    names = (to_postgres(postgres, "predictions", predictions), to_postgres(postgres, "truth", truth))
    for check in (check_evaluate_users, check_evaluate):
        check(batch[0], predictions, truth, names, con=postgres, batch=batch)


# --- Spark (DataFrames) ---------------------------------------------------------------------------

def on_spark(spark, case, batch=None):
    predictions, truth = tables(case) if batch is None else stacked(batch)
    frames = (to_spark(spark, predictions), to_spark(spark, truth))
    for check in (check_evaluate_users, check_evaluate):
        check(case, predictions, truth, frames, batch=batch)


@settings(max_examples=SPARK_SINGLE_EXAMPLES)
@given(case=cases())
def test_spark_equals_reference(case, spark):
    on_spark(spark, case)


@settings(max_examples=SPARK_BATCHED_EXAMPLES)
@given(batch=batches(size=SPARK_BATCH))
def test_spark_batched_equals_reference(batch, spark):
    on_spark(spark, batch[0], batch)


@settings(max_examples=SPARK_TIES_BATCHED_EXAMPLES)
@given(batch=batches(tie_cases, size=SPARK_BATCH))
def test_spark_batched_ties_by_expectation_equal_reference(batch, spark):
    on_spark(spark, batch[0], batch)
