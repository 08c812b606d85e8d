"""The same macros on PostgreSQL and Spark: the dbt integration project, the Python API with
`con=` and Spark DataFrames, and `rank_metrics.sql` for every dialect."""

import math
import re
import warnings

import duckdb
import pandas as pd
import pytest
import sqlglot

import rank_metrics
from rank_metrics.api import DIALECTS

from conftest import ENGINE_BUILD, ENVIRONMENT, INTEGRATION, ROOT, early_fixture, run_beside
from engine_tables import to_postgres, to_spark

SEEDS = INTEGRATION / "seeds"
ASSERTIONS = ("assert_spec_average_precision", "assert_spec_map", "assert_options_average_precision",
              "assert_family_examples", "assert_map_from_other_inputs", "map_of_two_users",
              "assert_compare_example", "assert_over_time_example", "assert_ir_family_examples",
              "assert_beyond_accuracy_example", "assert_compare_beyond_accuracy_example", "assert_beyond_accuracy_of_seeds")


def seed(name):
    return pd.read_csv(SEEDS / f"{name}.csv", dtype={"item_id": str, "case_id": str, "user_id": object}
                       if name.startswith("options") else {"item_id": str, "case_id": str})


@pytest.mark.parametrize("target", ["postgres", "spark"])
def test_integration_project_builds_and_passes(target, request):
    project = request.getfixturevalue(f"dbt_{target}")   # the session's project on the target
    build = project.invoke_once(*ENGINE_BUILD)
    failures = [(result.node.name, result.message) for result in (build.result.results if build.result else [])
                if str(result.status) not in ("pass", "success")]
    assert build.success and not failures, (build.exception, failures)
    statuses = {result.node.name: str(result.status) for result in build.result.results}
    assert {name: statuses.get(name) for name in ASSERTIONS} == dict.fromkeys(ASSERTIONS, "pass")
    # `--empty` renders each ref as a subquery with dbt's own alias, which the macros read through
    # one more subquery: a second alias straight after it is a syntax error on PostgreSQL (a new
    # user's report). Every model and the unit test, and the release gates, whose own count of the
    # baseline's rows read the subquery with a second alias (a user's report); not the other tests
    # (assertions on values fail on no rows), nor the seeds again (--empty reads none of their rows)
    empty = project.invoke("build", "--empty", "--vars", "{rank_metrics_examples: false}", "--indirect-selection", "empty",
                           "--select", "resource_type:model", "resource_type:unit_test", "test_name:metric_at_least",
                           "test_name:no_significant_regression")
    results = empty.result.results if empty.result else []
    assert empty.success, [(result.node.name, result.message) for result in results if str(result.status) not in ("pass", "success")]
    def models(run):
        return {result.node.name for result in run.result.results if result.node.resource_type in ("model", "unit_test")}
    assert models(empty) == models(build)
    gates = [result for result in results if result.node.resource_type == "test"]
    assert {result.node.name.split("_compare")[0] for result in gates} == {
        "rank_metrics_metric_at_least", "rank_metrics_no_significant_regression"}, [(result.node.name, result.message) for result in gates]
    if target == "postgres":
        # information_schema calls every array ARRAY, so text[] items met bigint truth unchecked,
        # and the database said `operator does not exist: text = bigint` (a dbt-postgres user's trial)
        from test_dbt import compile_inline

        con = request.getfixturevalue("postgres")
        with con.cursor() as cursor:
            cursor.execute("drop table if exists rank_metrics_it.bigint_truth;"
                           "create table rank_metrics_it.bigint_truth (case_id text, user_id integer, item_id bigint)")
        con.commit()
        ok, text = compile_inline(project, "{{ rank_metrics.map_at_k(predictions=ref('spec_predictions_lists'), "
                                           "truth=api.Relation.create(database='postgres', schema='rank_metrics_it', "
                                           "identifier='bigint_truth'), k=3, by='case_id') }}")
        assert not ok and "column item_id (argument item) is character varying in predictions but bigint in truth; cast one" in text, text
    if target == "spark":
        # a view's text past the Hive metastore's 32,700 characters: our message, at compile time,
        # not the metastore's truncation error after a minute of retries (a user's trial)
        from test_dbt import compile_inline

        ok, text = compile_inline(project, "{{ rank_metrics.evaluate(predictions=ref('compare_predictions'), "
                                           "truth=ref('compare_truth'), k=[1, 2, 3, 4, 5, 10, 20, 50], by='model') }}")
        assert not ok and ("characters long, and Spark's Hive metastore keeps at most 32700 of a view's text: "
                           "materialize the model as a table") in text, text


@pytest.fixture
def engine_inputs_postgres(postgres):
    """A function turning (name, frame) into what the Python API takes on that engine, and con."""
    return (lambda name, frame: to_postgres(postgres, name, frame)), postgres


@pytest.fixture
def engine_inputs_spark(spark):
    return (lambda name, frame: to_spark(spark, frame)), None


@pytest.fixture(params=["postgres", "spark"])
def engine_inputs(request):
    return request.getfixturevalue("engine_inputs_" + request.param)


def test_spec_examples_on_the_engine(engine_inputs):
    load, con = engine_inputs
    got = rank_metrics.average_precision_at_k(
        load("spec_predictions", seed("spec_predictions")), load("spec_truth", seed("spec_truth")),
        k=list(range(1, 8)), by="case_id", users="union", con=con, check=True)
    got = got.set_index(["case_id", "user_id", "k"]).average_precision
    for row in seed("spec_expected_average_precision").itertuples():
        assert got[(row.case_id, row.user_id, row.k)] == pytest.approx(row.average_precision, abs=1e-6)


def test_options_grid_on_the_engine(engine_inputs):
    from test_options_grid import EXPECTED, VARIANTS

    load, con = engine_inputs
    predictions = load("options_predictions", seed("options_predictions"))
    truth = load("options_truth", seed("options_truth"))
    for variant, options in VARIANTS.items():
        # the hand-computed values are the reference's (test_options_grid): on Spark, where the
        # check's own query and reads cost seconds, one variant is also checked with check=True
        check = con is not None or variant == "defaults"
        got = rank_metrics.average_precision_at_k(predictions, truth, k=[3, 5], con=con, check=check, **options)
        want = EXPECTED[EXPECTED.variant == variant].sort_values(["user_id", "k"])
        assert list(zip(got.user_id, got.k)) == list(zip(want.user_id, want.k)), variant
        assert list(got.average_precision) == pytest.approx(list(want.average_precision), abs=1e-6), variant


@pytest.fixture(params=["duckdb", "postgres", "spark"])
def every_engine(request):
    """Like engine_inputs, with DuckDB (the frame itself, no con) as well."""
    if request.param == "duckdb":
        return (lambda name, frame: frame), None
    return request.getfixturevalue("engine_inputs_" + request.param)


def test_a_model_column_left_out_of_by_warns_where_it_splits_a_users_rows(every_engine):
    """Two models' lists of one user, read as one list with by= forgotten: a number that is no
    model's, and now a warning naming the column and a user. Not for a column with one value per
    user (an A/B test's arm), nor once by= names it. The query is the engine's own (limit 1)."""
    load, con = every_engine
    truth = load("model_truth", pd.DataFrame({"user_id": [1, 2], "item_id": ["a", "b"]}))
    two_models = pd.DataFrame({"user_id": [1, 1, 1, 1, 2, 2], "item_id": ["a", "b", "b", "a", "b", "c"],
                               "rank": [1, 2, 1, 2, 1, 2], "Model": ["x", "x", "y", "y", "x", "x"]})
    blended = load("model_predictions", two_models)
    with pytest.warns(rank_metrics.RankMetricsWarning,
                      match=r"predictions have a column 'Model' that by= does not name, and it holds more than one value "
                            r"for a user \(user_id 1\): .* pass by='Model' for a row per Model \(--by Model on the command line\)"):
        assert rank_metrics.map_at_k(blended, truth, k=2, con=con) == pytest.approx(1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        per_model = rank_metrics.map_at_k(blended, truth, k=2, by="Model", con=con)
        assert list(per_model.map_at_k) == pytest.approx([1.0, 0.25])   # y: user 1 at position 2, user 2 no list
        one_per_user = load("arm_predictions", two_models[two_models.user_id == 2].assign(arm=["b", "b"])
                            .pipe(lambda frame: pd.concat([frame, pd.DataFrame(
                                {"user_id": [1], "item_id": ["a"], "rank": [1], "Model": ["x"], "arm": ["a"]})])))
        assert rank_metrics.map_at_k(one_per_user, truth, k=2, con=con) == pytest.approx(1.0)


def lists_as_frames(lists, integer):
    """Predictions and truth from {name: (ranks, relevant ranks)}: user i is the i-th list, its
    rows items i000, i001, … in the order given, truth the items at the relevant ranks."""
    predictions, truth = [], []
    for user, (ranks, relevant_ranks) in enumerate(lists.values(), start=1):
        for position, rank in enumerate(ranks):
            item = f"i{position:03d}"
            predictions.append((user, item, int(rank) if integer else float(rank)))
            if rank in relevant_ranks:
                truth.append((user, item))
    return (pd.DataFrame(predictions, columns=["user_id", "item_id", "rank"]),
            pd.DataFrame(truth, columns=["user_id", "item_id"]))


def rank_lists(integer=False):
    """Lists whose rank columns do or do not hold the whole numbers 1..n, around the SQL's
    bitmask words (ranks 1..61 and 62..122; DuckDB's one 128-bit word, ranks 1..125); each list's
    relevant items sit at the edges. The rank column is a double, or with integer=True an integer
    column (without the fractions)."""
    fractions = {} if integer else {
        "fraction": ([1.0, 2.6], [1.0, 2.6]),                    # truncating 2.6 would drop it from k=2
        "fractions": ([0.6, 1.6, 2.6, 3.4], [2.6, 3.4]),
    }
    lists = {
        **fractions,
        "n61": (list(range(1, 62)), [1, 61]),
        "n62": (list(range(1, 63)), [61, 62]),
        "n100": (list(range(1, 101)), [1, 30, 61, 62, 63, 99, 100]),
        "n122": (list(range(1, 123)), [61, 62, 122]),
        "n123": (list(range(1, 124)), [5, 62, 123]),
        "n125": (list(range(1, 126)), [1, 62, 124, 125]),
        "n126": (list(range(1, 127)), [63, 125, 126]),
        "tie123": (list(range(1, 124)) + [123], [122, 123]),      # 124 rows, rank 123 twice
        "gap": ([r for r in range(1, 102) if r != 70], [69, 71, 101]),
        "tie": (list(range(1, 80)) + [80, 80] + list(range(81, 100)), [79, 80, 81]),
        "from_zero": (list(range(0, 100)), [0, 61, 62]),
        "beyond": ([1, 2, 3, 500], [3, 500]),                   # a short list with a rank past both words
        "negative": ([-1, 1, 2], [-1, 2]),
    }
    return lists_as_frames(lists, integer)


@pytest.mark.parametrize("integer", [False, True], ids=["double ranks", "integer ranks"])
def test_positions_whatever_the_rank_column_holds(every_engine, integer):
    load, con = every_engine
    predictions, truth = rank_lists(integer)
    ks = [1, 2, 3, 4, 12, 61, 62, 100, 122, 123, 124, 125, 126]
    got = rank_metrics.average_precision_at_k(load("long_predictions", predictions), load("long_truth", truth),
                                              k=ks, con=con, check=True)
    users = {name: user for user, name in enumerate(["fraction", "fractions"] * (not integer) + [
        "n61", "n62", "n100", "n122", "n123", "n125", "n126", "tie123", "gap", "tie", "from_zero", "beyond", "negative"], start=1)}
    got = got.set_index(["user_id", "k"]).average_precision
    assert got[(users["n100"], 62)] == pytest.approx((1 / 1 + 2 / 30 + 3 / 61 + 4 / 62) / 7)
    assert got[(users["n125"], 125)] == pytest.approx((1 / 1 + 2 / 62 + 3 / 124 + 4 / 125) / 4)
    assert got[(users["n126"], 125)] == pytest.approx((1 / 63 + 2 / 125) / 3)
    # the two rank-123 rows are positions 123 and 124, the lower item first (i122, then i123)
    assert got[(users["tie123"], 123)] == pytest.approx((1 / 122 + 2 / 123) / 3)
    assert got[(users["gap"], 100)] == pytest.approx((1 / 69 + 2 / 70 + 3 / 100) / 3)  # ranks 71, 101: positions 70, 100
    assert got[(users["beyond"], 3)] == pytest.approx(1 / 3 / 2)   # rank 500 is position 4
    assert got[(users["beyond"], 4)] == pytest.approx((1 / 3 + 2 / 4) / 2)
    assert got[(users["negative"], 2)] == pytest.approx(1 / 1 / 2)  # rank -1 is position 1
    if integer:
        return
    assert got[(1, 2)] == pytest.approx(1.0)                     # both hits, at positions 1 and 2
    # the largest k is where a hit's position must not be read off a rounded or truncated rank
    alone = rank_metrics.average_precision_at_k(load("long_predictions", predictions), load("long_truth", truth),
                                                k=2, con=con, check=True)
    assert alone.set_index("user_id").average_precision[1] == pytest.approx(1.0)


def head_lists(integer=False):
    """Lists around the cut at k = 12: only the rows ranked within the largest k are checked, so
    what lies past it (ties, gaps, fractions, a list 300 long) must not matter, and a head that
    is not exactly 1..12 must be numbered."""
    fractions = {} if integer else {
        "head_fraction": (list(range(1, 12)) + [12.2, 13], [12.2]),   # 12.2 is within the cut
        "just_past": (list(range(1, 13)) + [12.7], [12, 12.7]),       # 12.7 is position 13
    }
    lists = {
        **fractions,
        "exact_head": (list(range(1, 13)) + [14, 14, 1000], [12, 1000]),
        "head_missing_12": (list(range(1, 12)) + [13, 15], [13]),     # rank 13 is position 12
        "head_tie": ([1, 2, 3, 4, 5, 5] + list(range(6, 14)), [11, 12]),  # positions 12 and 13
        "short_beyond": ([1, 2, 500], [500]),                         # rank 500 is position 3
        "exactly_12": (list(range(1, 13)), [12]),
        "long_list": (list(range(1, 301)), [1, 12, 300]),
    }
    return lists_as_frames(lists, integer), {name: user for user, name in enumerate(lists, start=1)}


@pytest.mark.parametrize("integer", [False, True], ids=["double ranks", "integer ranks"])
@pytest.mark.parametrize("ks", [[3, 12], [12, 70]], ids=["cut 12", "cut 70"])
def test_positions_only_the_rows_within_the_largest_k_are_checked(every_engine, integer, ks):
    load, con = every_engine
    (predictions, truth), users = head_lists(integer)
    got = rank_metrics.average_precision_at_k(load("head_predictions", predictions), load("head_truth", truth),
                                              k=ks, con=con, check=True)
    got = got.set_index(["user_id", "k"]).average_precision
    assert got[(users["exact_head"], 12)] == pytest.approx(1 / 12 / 2)
    assert got[(users["head_missing_12"], 12)] == pytest.approx(1 / 12)
    assert got[(users["head_tie"], 12)] == pytest.approx(1 / 12 / 2)
    assert got[(users["short_beyond"], 12)] == pytest.approx(1 / 3)
    assert got[(users["exactly_12"], 12)] == pytest.approx(1 / 12)
    assert got[(users["long_list"], 12)] == pytest.approx((1 / 1 + 2 / 12) / 3)
    if not integer:
        assert got[(users["head_fraction"], 12)] == pytest.approx(1 / 12)
        assert got[(users["just_past"], 12)] == pytest.approx(1 / 12 / 2)


@pytest.mark.parametrize("render_as", ["duckdb", "postgres"], ids=["sum of powers (DuckDB)", "bits and counts (default)"])
@pytest.mark.parametrize("integer", [True, False], ids=["integer ranks", "double ranks"])
def test_the_list_check_finds_exactly_the_lists_whose_ranks_are_positions(render_as, integer):
    """The per-list check that lets a rank be read as a position (ranks_are_positions_in_one_word),
    on every multiset of up to 7 ranks drawn from below 1 to past the cut of 3, with repeats and
    fractions: it says 1 exactly when the ranks within the cut are 1..min(n, 3), each once. Any
    list it wrongly passed would be read at the wrong positions; one it wrongly failed would only
    be numbered. Each variant's SQL runs on DuckDB (the default one is plain SQL)."""
    import itertools

    from rank_metrics._render import namespace

    cut = 3
    values = [-1, 0, 1, 2, 3, 4, 5] if integer else [0.0, 1.0, 2.0, 2.5, 3.0, 3.4, 3.6, 4.0]
    lists = [ranks for n in range(1, 8) for ranks in itertools.combinations_with_replacement(values, n)]
    rows = pd.DataFrame([(number, rank) for number, ranks in enumerate(lists) for rank in ranks],
                        columns=["list_id", "rnk"]).astype({"rnk": "int64" if integer else "float64"})
    whole_rank = "rnk" if integer else "case when rnk = floor(rnk) then rnk else 0 end"
    check = str(namespace(render_as)._ranks_are_positions("rnk", whole_rank, cut)).strip()
    con = duckdb.connect()
    con.register("list_rows", rows)
    found = dict(con.execute(f"select list_id, {check} from list_rows group by list_id").fetchall())

    def positions(ranks):
        head = sorted(rank for rank in ranks if rank < cut + 0.5)
        return head == list(range(1, min(len(ranks), cut) + 1))

    wrong = [(ranks, found[number]) for number, ranks in enumerate(lists) if found[number] != positions(ranks)]
    assert sum(found.values()) > 10 and not wrong, wrong[:5]


@pytest.mark.parametrize("numbered", [False, True], ids=["no list numbered", "a list numbered"])
def test_lists_whose_ranks_are_positions_with_and_without_one_to_number(every_engine, numbered):
    """Spark numbers lists only when some list needs it (spark__renumbered_rows counts them
    first, over every group), and then keeps the lists with a rank other than its number among
    their first k + 1 rows, whose numbered rows replace their matches (spark__candidate_hits):
    both sides of that count, with a `by` column, the lists around that k + 1, and a list whose
    only match its rank puts within k and its position past it."""
    load, con = every_engine
    lists = {"a": ([1, 2, 3, 4], [2, 4]), "b": ([1, 2, 3], [1])}
    if numbered:
        lists["gappy"] = ([2, 4, 6], [4, 6])                        # positions 1, 2, 3
        lists["tie_at_cut"] = ([1, 2, 3, 3], [3])                   # the rank-3 rows: positions 3 and 4
        lists["gap_after_cut"] = ([1, 2, 3, 5], [5])                # positions are ranks up to k
        lists["tie_pushes_hit_out"] = ([1, 1, 1, 2], [2])           # rank 2 is position 4: no hit
    predictions, truth = lists_as_frames(lists, integer=True)
    predictions["model"] = "m"
    got = rank_metrics.average_precision_at_k(load("gate_predictions", predictions), load("gate_truth", truth),
                                              k=3, by=["model"], con=con, check=True)
    expected = {1: 1 / 2 / 2, 2: 1.0} | ({3: (1 / 2 + 2 / 3) / 2, 4: 1 / 3 / 2, 5: 0.0, 6: 0.0} if numbered else {})
    assert got.set_index("user_id").average_precision.to_dict() == pytest.approx(expected)


@pytest.mark.parametrize("tie_break, expected", [("item", 0.0), ("item_desc", 1.0)])
def test_postgres_enum_items_tie_break_by_their_text(postgres, tie_break, expected):
    """A PostgreSQL enum sorts in its labels' declared order ('b' before 'a' here); SPEC §1's
    "item ascending" and the reference compare the items' text, as for a DuckDB ENUM."""
    with postgres.cursor() as cursor:
        cursor.execute("drop table if exists enum_predictions, enum_truth; drop type if exists letter;"
                       "create type letter as enum ('b', 'a');"
                       "create table enum_predictions (user_id int, item_id letter, rank int);"
                       "insert into enum_predictions values (1, 'a', 1), (1, 'b', 1), (2, 'b', 2), (2, 'a', 2);"
                       "create table enum_truth (user_id int, item_id letter);"
                       "insert into enum_truth values (1, 'b'), (2, 'b')")
    postgres.commit()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rank_metrics.RankMetricsWarning)   # 0.0: nothing met
        got = rank_metrics.map_at_k("enum_predictions", "enum_truth", k=1, tie_break=tie_break, con=postgres, check=True)
    assert got == expected


@pytest.mark.parametrize("collation", ['"en-x-icu"', '"und-x-icu"', '"C"'])
def test_postgres_text_items_tie_break_by_their_bytes_whatever_the_collation(postgres, collation):
    """Under a linguistic collation (an ICU locale, en_US.UTF-8: many servers' default) PostgreSQL
    sorts 'a' before 'B', where bytes, DuckDB and the reference put 'B' first: the numbers
    differed and check=True failed (a new user's trial). Ties by item now sort by the bytes."""
    with postgres.cursor() as cursor:
        cursor.execute(f"drop table if exists coll_predictions, coll_truth;"
                       f"create table coll_predictions (user_id int, item_id text collate {collation}, score int);"
                       f"insert into coll_predictions values (1, 'a', 5), (1, 'B', 5), (2, 'b', 5), (2, 'A', 5);"
                       f"create table coll_truth (user_id int, item_id text collate {collation});"
                       f"insert into coll_truth values (1, 'B'), (2, 'b')")
    postgres.commit()
    got = rank_metrics.evaluate_users("coll_predictions", "coll_truth", k=1, metrics=["precision"], con=postgres,
                                      check=True)
    # the first item of user 1 is 'B' (a hit), of user 2 'A' (a miss), as bytes order them
    assert got.set_index("user_id").precision.to_dict() == {1: 1.0, 2: 0.0}


def test_postgres_real_grades_are_checked_as_stored(postgres):
    """psycopg2 gives a real (float4) as its shortest decimal, 0.1 for the stored 0.100000001490116
    the SQL computes with: check=True failed on right numbers (4e-9 apart; a new user's trial)."""
    with postgres.cursor() as cursor:
        cursor.execute("drop table if exists real_predictions, real_truth;"
                       "create table real_predictions (user_id int, item_id int, rank int);"
                       "insert into real_predictions values (1, 1, 1), (1, 2, 2), (2, 3, 1), (2, 4, 2);"
                       "create table real_truth (user_id int, item_id int, relevance real);"
                       "insert into real_truth values (1, 1, 0.1), (1, 2, 0.7), (2, 4, 0.3), (2, 3, 1.1)")
    postgres.commit()
    got = rank_metrics.ndcg_at_k("real_predictions", "real_truth", k=1, con=postgres, check=True)
    assert got == pytest.approx((0.1 / 0.7 + 1.0) / 2, rel=1e-7) and got != (0.1 / 0.7 + 1.0) / 2


@pytest.mark.parametrize("predicted, judged, named", [
    # a 32-bit float and a double of the same decimal are two numbers: 0.1 never met 0.1
    ("real", "double precision", "real in predictions but double precision in truth"),
    # PostgreSQL compares char(5) 'b' with text 'b' without its padding, which psycopg2 keeps: the
    # SQL found a hit the reference did not, and check=True blamed the SQL
    ("text", "char(5)", "text in predictions but character\\(5\\) in truth"),
    # and char(3) 'b  ' with char(5) 'b    ', which the reference read as two ids
    ("char(3)", "char(5)", "character\\(3\\) in predictions but character\\(5\\) in truth"),
])
def test_postgres_ids_of_types_that_meet_otherwise_are_refused(postgres, predicted, judged, named):
    """Ids of two types that compare in a way of their own (a new user's trial). Text of one
    fixed length on both sides, a domain over it too, is read as it is and checked."""
    with postgres.cursor() as cursor:
        cursor.execute(f"drop table if exists kind_predictions, kind_truth;"
                       f"create table kind_predictions (user_id int, item_id {predicted}, rank int);"
                       f"insert into kind_predictions values (1, '0.1', 1);"
                       f"create table kind_truth (user_id int, item_id {judged});"
                       f"insert into kind_truth values (1, '0.1')")
    postgres.commit()
    with pytest.raises(rank_metrics.RankMetricsError, match=rf"column item_id \(argument item\) is {named}; cast one "
                                                            r"so they match"):
        rank_metrics.map_at_k("kind_predictions", "kind_truth", k=1, con=postgres)
    # cast as the message says (to a domain over predictions' type, read as its base type), they meet
    with postgres.cursor() as cursor:
        cursor.execute(f"drop table if exists kind_cast; drop domain if exists kind_domain;"
                       f"create domain kind_domain as {predicted};"
                       f"create table kind_cast as select user_id, cast(item_id as kind_domain) as item_id from kind_truth")
    postgres.commit()
    assert rank_metrics.map_at_k("kind_predictions", "kind_cast", k=1, con=postgres, check=True) == 1.0


def test_a_failed_postgres_query_keeps_the_callers_open_transaction(postgres):
    """A query of ours that fails on the server (here two collations PostgreSQL cannot compare)
    rolled back the caller's whole open transaction: their uncommitted rows and temporary
    tables, the inputs among them, were gone (a user's trial)."""
    with postgres.cursor() as cursor:
        cursor.execute("drop table if exists kept_rows; create table kept_rows (x int)")
        postgres.commit()
        cursor.execute("insert into kept_rows values (1);"
                       "create temp table open_predictions (user_id text collate \"C\", item_id int, rank int);"
                       "insert into open_predictions values ('a', 10, 1);"
                       "create temp table open_truth (user_id text collate \"en-x-icu\", item_id int);"
                       "insert into open_truth values ('a', 10)")
        with pytest.raises(rank_metrics.RankMetricsError, match="PostgreSQL cannot compare the text ids"):
            rank_metrics.map_at_k("open_predictions", "open_truth", k=1, con=postgres)
        cursor.execute("select count(*) from kept_rows")
        assert cursor.fetchone() == (1,)
        cursor.execute("alter table open_truth alter column user_id type text collate \"C\"")
        assert rank_metrics.map_at_k("open_predictions", "open_truth", k=1, con=postgres, check=True) == 1.0
    postgres.rollback()


@pytest.mark.parametrize("name, spelt", [("order", '"order"'), ("my.tab", '"my.tab"'), ("plain", "plain")])
def test_sql_of_a_postgres_connection_runs_on_it(postgres, name, spelt):
    """sql(con=<PostgreSQL>) printed DuckDB's SQL (hugeint), and split '"my.tab"' at its dot:
    neither ran where the tables are (a user's trial). Its dialect is now the connection's, and
    a name is read as map_at_k reads it, SQL's double quotes included."""
    to_postgres(postgres, name, pd.DataFrame({"user_id": [1, 1], "item_id": ["a", "b"], "rank": [1, 2]}))
    to_postgres(postgres, "quoted_truth", pd.DataFrame({"user_id": [1], "item_id": ["b"]}))
    text = rank_metrics.sql(spelt, "quoted_truth", k=2, con=postgres)
    with postgres.cursor() as cursor:
        cursor.execute(text)
        assert cursor.fetchall() == [(2, 0.5, 1)]
    assert rank_metrics.map_at_k(spelt, "quoted_truth", k=2, con=postgres, check=True) == 0.5
    with pytest.raises(rank_metrics.RankMetricsError, match="^rank_metrics: truth: expected a table name; got ''$"):
        rank_metrics.map_at_k(spelt, "", k=2, con=postgres)


@pytest.mark.parametrize("column", ["user_id", "item_id", "model"])
def test_postgres_numeric_nan_ids_are_refused(postgres, column):
    """PostgreSQL's numeric holds NaN, which equals NaN in its joins: NaN ids met each other,
    the reference's never did, and check=True failed (a user's trial). Refused, as NaN in a
    double column is; and a numeric rank past the largest double (1e1000), which the data
    checks compared as a double (a raw NumericValueOutOfRange), is a rank like any other."""
    with postgres.cursor() as cursor:
        cursor.execute("drop table if exists nan_predictions, nan_truth;"
                       "create table nan_predictions (model numeric, user_id numeric, item_id numeric, rank numeric);"
                       "insert into nan_predictions values (1, 1, 10, 1e1000), (1, 1, 11, 2e1000), (1, 2, 10, 1);"
                       "create table nan_truth (user_id numeric, item_id numeric);"
                       "insert into nan_truth values (1, 11), (2, 10)")
    postgres.commit()
    assert rank_metrics.map_at_k("nan_predictions", "nan_truth", k=2, by="model", con=postgres, check=True)["map_at_k"].tolist() == [0.75]
    with postgres.cursor() as cursor:
        cursor.execute(f"update nan_predictions set {column} = 'NaN' where user_id = 2")
    postgres.commit()
    argument = {"user_id": "user", "item_id": "item", "model": "by"}[column]
    with pytest.raises(rank_metrics.RankMetricsError, match=rf"^rank_metrics: {argument}: predictions has 1 row with NaN or an "
                                                            rf'infinite value in column "{column}"; {argument} values must be finite'):
        rank_metrics.map_at_k("nan_predictions", "nan_truth", k=2, by="model", con=postgres)


def test_postgres_bytea_ids_are_checked(postgres):
    """psycopg2 gives bytea as a memoryview, which orders and equals no other: check=True failed
    with a raw TypeError in the reference's sort (a user's trial)."""
    with postgres.cursor() as cursor:
        cursor.execute("drop table if exists bytes_predictions, bytes_truth;"
                       "create table bytes_predictions (user_id bytea, item_id bytea, rank int);"
                       "insert into bytes_predictions values ('\\x01', '\\x0a', 1), ('\\x01', '\\x0b', 2), ('\\x02', '\\x0a', 1);"
                       "create table bytes_truth (user_id bytea, item_id bytea);"
                       "insert into bytes_truth values ('\\x01', '\\x0b'), ('\\x02', '\\x0a')")
    postgres.commit()
    assert rank_metrics.map_at_k("bytes_predictions", "bytes_truth", k=2, con=postgres, check=True) == 0.75
    users = rank_metrics.evaluate_users("bytes_predictions", "bytes_truth", k=2, con=postgres, check=True)
    assert [bytes(user) for user in users.user_id] == [b"\x01", b"\x02"]
    # the shape checks read such ids too (PostgreSQL has no min() of a bytea or a uuid): a row twice
    with postgres.cursor() as cursor:
        cursor.execute("drop table if exists uuid_predictions, uuid_truth;"
                       "create table uuid_predictions (user_id uuid, item_id uuid, rank int);"
                       "insert into uuid_predictions values ('00000000-0000-0000-0000-000000000001', "
                       "'00000000-0000-0000-0000-00000000000a', 1), ('00000000-0000-0000-0000-000000000001', "
                       "'00000000-0000-0000-0000-00000000000a', 1);"
                       "create table uuid_truth (user_id uuid, item_id uuid);"
                       "insert into uuid_truth values ('00000000-0000-0000-0000-000000000001', "
                       "'00000000-0000-0000-0000-00000000000a')")
    postgres.commit()
    with pytest.warns(rank_metrics.RankMetricsWarning, match="duplicate rows: user .* has two rows at rank 1, item "
                                                             "'00000000-0000-0000-0000-00000000000a' both times"):
        assert rank_metrics.map_at_k("uuid_predictions", "uuid_truth", k=2, con=postgres) == 1.0
    with postgres.cursor() as cursor:
        cursor.execute("insert into bytes_predictions values ('\\x02', '\\x0a', 1)")
    postgres.commit()
    with pytest.warns(rank_metrics.RankMetricsWarning, match="duplicate rows: user .* has two rows at rank 1"):
        rank_metrics.map_at_k("bytes_predictions", "bytes_truth", k=2, con=postgres)


def test_postgres_errors_name_the_table_and_column(postgres):
    to_postgres(postgres, "few_predictions", pd.DataFrame({"user_id": [1], "item_id": ["a"], "rank": [1]}))
    to_postgres(postgres, "few_truth", pd.DataFrame({"user_id": ["1"], "item_id": ["a"]}))
    with pytest.raises(rank_metrics.RankMetricsError, match="truth: no table 'missing_truth' on the connection"):
        rank_metrics.map_at_k("few_predictions", "missing_truth", k=1, con=postgres)
    with pytest.raises(rank_metrics.RankMetricsError, match=r"column user_id \(argument user\) is bigint in "
                                                            "predictions but text in truth"):
        rank_metrics.map_at_k("few_predictions", "few_truth", k=1, con=postgres)
    with pytest.raises(rank_metrics.RankMetricsError, match=r"predictions: the inputs run on PostgreSQL \(con, or the other "
                       r"input\), which reads a table name there; got a pandas DataFrame: write it to a table"):
        rank_metrics.map_at_k(pd.DataFrame({"user_id": [1]}), "few_truth", k=1, con=postgres)
    # the caller's connection is still usable after our failed queries
    with postgres.cursor() as cursor:
        cursor.execute("select 1")
        assert cursor.fetchone() == (1,)


def test_postgres_list_items_are_typed_and_case_blind_ids_refused(postgres):
    """information_schema calls every array ARRAY, so a float8[] list met bigint truth as
    doubles (2^53 = 2^53 + 1: 1.0 for 0.0, silently) and text[] against integers was an engine
    error; citext ids met 'B' = 'b' (0.5 where the definition gives 0). A user's trial."""
    with postgres.cursor() as cursor:
        cursor.execute("create extension if not exists citext;"
                       "drop table if exists float_lists, text_lists, big_truth, ci_predictions, ci_truth;"
                       "create table float_lists (user_id int, item_id float8[]);"
                       "insert into float_lists values (1, '{9007199254740992}');"
                       "create table text_lists (user_id int, item_id text[]);"
                       "insert into text_lists values (1, '{9007199254740993}');"
                       "create table big_truth (user_id int, item_id bigint);"
                       "insert into big_truth values (1, 9007199254740993);"
                       "create table ci_predictions (user_id int, item_id citext, rank int);"
                       "insert into ci_predictions values (1, 'a', 1), (1, 'B', 2);"
                       "create table ci_truth (user_id int, item_id citext);"
                       "insert into ci_truth values (1, 'b');"
                       "drop table if exists ci_truth_own; create table ci_truth_own (user_id int, bought citext);"
                       "insert into ci_truth_own values (1, 'b');"
                       "drop table if exists text_predictions; create table text_predictions (user_id int, item_id text, rank int);"
                       "insert into text_predictions values (1, 'a', 1);"
                       "drop table if exists domain_lists; drop domain if exists big_list;"
                       "create domain big_list as bigint[];"
                       "create table domain_lists (user_id int, item_id big_list);"
                       "insert into domain_lists values (1, '{1, 9007199254740993}')")
    postgres.commit()
    # a domain over an array is its base type's list (the review found it read as no type)
    assert rank_metrics.map_at_k("domain_lists", "big_truth", k=3, con=postgres, check=True) == 0.5
    with pytest.raises(rank_metrics.RankMetricsError, match=r"column item_id \(argument item\) is double precision in "
                                                            r"predictions but bigint in truth; cast one"):
        rank_metrics.map_at_k("float_lists", "big_truth", k=3, con=postgres)
    with pytest.raises(rank_metrics.RankMetricsError, match=r"column item_id \(argument item\) is text in predictions but "
                                                            r"bigint in truth; cast one"):
        rank_metrics.map_at_k("text_lists", "big_truth", k=3, con=postgres)
    with pytest.raises(rank_metrics.RankMetricsError, match=r"column item_id \(argument item\) of predictions is citext, whose "
                                                            r"values the engine finds equal when they differ in case or accents "
                                                            r".* cast it to plain text \(text\)"):
        rank_metrics.map_at_k("ci_predictions", "ci_truth", k=3, con=postgres)
    # truth's column under a name of its own is named by its own argument (found in review)
    with pytest.raises(rank_metrics.RankMetricsError, match=r"column bought \(argument truth_item\) of truth is citext"):
        rank_metrics.map_at_k("text_predictions", "ci_truth_own", k=3, con=postgres, truth_item="bought")


def test_postgres_connection_closed_or_aborted_is_named(postgres_port):
    """An aborted transaction or a closed connection failed at our first query with the driver's
    InFailedSqlTransaction or InterfaceError (a user's trial)."""
    import psycopg2

    con = psycopg2.connect(host="127.0.0.1", port=postgres_port, user="postgres", dbname="postgres")
    with con.cursor() as cursor:
        with pytest.raises(psycopg2.Error):
            cursor.execute("select 1 / 0")
    with pytest.raises(rank_metrics.RankMetricsError, match=r"con: the PostgreSQL connection's transaction failed earlier "
                                                            r"and is aborted; call con.rollback\(\) first"):
        rank_metrics.map_at_k("some_predictions", "some_truth", k=1, con=con)
    con.close()
    with pytest.raises(rank_metrics.RankMetricsError, match="con: the PostgreSQL connection is closed; open a new one"):
        rank_metrics.map_at_k("some_predictions", "some_truth", k=1, con=con)


def test_postgres_a_table_the_role_may_not_read_is_named(postgres, postgres_port):
    """A role without SELECT on truth, or without USAGE on its schema, got psycopg2's
    InsufficientPrivilege raised as it was (a user's trial): one line naming truth and what to grant."""
    import psycopg2

    to_postgres(postgres, "granted_predictions", pd.DataFrame({"user_id": [1], "item_id": ["a"], "rank": [1]}))
    to_postgres(postgres, "withheld_truth", pd.DataFrame({"user_id": [1], "item_id": ["a"]}))
    with postgres.cursor() as cursor:
        cursor.execute("drop schema if exists locked cascade; create schema locked;"
                       "create table locked.truth as select * from withheld_truth;"
                       "drop role if exists rank_metrics_reader; create role rank_metrics_reader login;"
                       "grant select on granted_predictions, locked.truth to rank_metrics_reader")
    postgres.commit()
    con = psycopg2.connect(host="127.0.0.1", port=postgres_port, user="rank_metrics_reader", dbname="postgres")
    try:
        with pytest.raises(rank_metrics.RankMetricsError, match=r"^rank_metrics: truth: the connection's role may not read "
                                                                r"table 'withheld_truth': it needs SELECT on it$"):
            rank_metrics.map_at_k("granted_predictions", "withheld_truth", k=1, con=con)
        with pytest.raises(rank_metrics.RankMetricsError, match=r"^rank_metrics: truth: PostgreSQL refused to read it: "
                                                                r"permission denied for schema locked \(the connection's role "
                                                                r"needs USAGE on the schema and SELECT on the table\)$"):
            rank_metrics.map_at_k("granted_predictions", "locked.truth", k=1, con=con)
        con.rollback()
    finally:
        con.close()
        with postgres.cursor() as cursor:
            cursor.execute("drop schema locked cascade; drop owned by rank_metrics_reader; drop role rank_metrics_reader")
        postgres.commit()


def test_postgres_enum_models_take_any_baseline(postgres):
    """An enum model column: a baseline holding a quote (written with chr(), text) met it as
    `operator does not exist: enum = text`, and one that is no label as `invalid input value for
    enum`, both raw (a user's trial). The baseline is now a literal of no type, and the check
    meets the labels as text."""
    from test_compare import PREDICTIONS, TRUTH

    predictions = PREDICTIONS.replace({"model": {"b": "it's"}})
    want = rank_metrics.compare(predictions, TRUTH, k=4, by="model", baseline="it's", metrics="map")
    to_postgres(postgres, "enum_truth", TRUTH)
    to_postgres(postgres, "enum_text_predictions", predictions)
    with postgres.cursor() as cursor:
        cursor.execute("drop table if exists enum_predictions; drop type if exists model_kind;"
                       "create type model_kind as enum ('a', 'it''s');"
                       "create table enum_predictions as select user_id, item_id, rank, model::model_kind as model "
                       "from enum_text_predictions")
    postgres.commit()
    got = rank_metrics.compare("enum_predictions", "enum_truth", k=4, by="model", baseline="it's", metrics="map", con=postgres)
    assert got.drop(columns="model").equals(want.drop(columns="model")) and got.model.tolist() == ["a"]
    with pytest.raises(rank_metrics.RankMetricsError, match=r"^rank_metrics: baseline: predictions has no rows with model = "
                                                            r"'nope'; baseline must be one of the values of by \(model\): 'a', "):
        rank_metrics.compare("enum_predictions", "enum_truth", k=4, by="model", baseline="nope", metrics="map", con=postgres)


def test_postgres_reads_a_materialized_view_a_temporary_table_and_a_domain(postgres):
    """The table a name resolves to on the search path, of any kind: information_schema, read
    before, has no materialized view, and looked in the current schema only, not at the session's
    temporary tables (a new user's report). A domain column is read as its base type."""
    to_postgres(postgres, "plain_predictions", pd.DataFrame({"user_id": [1, 1, 2, 2], "item_id": ["a", "b", "c", "d"],
                                                             "rank": [1, 2, 1, 2]}))
    with postgres.cursor() as cursor:
        cursor.execute("drop materialized view if exists mv_predictions; drop domain if exists grade_domain cascade;"
                       "create materialized view mv_predictions as select * from plain_predictions;"
                       "create domain grade_domain as integer;"
                       "create temporary table tmp_truth (user_id bigint, item_id text, grade grade_domain);"
                       "insert into tmp_truth values (1, 'b', 1), (2, 'c', 2), (2, 'd', 0)")
    postgres.commit()
    want = rank_metrics.map_at_k(pd.DataFrame({"user_id": [1, 1, 2, 2], "item_id": ["a", "b", "c", "d"],
                                               "rank": [1, 2, 1, 2]}),
                                 pd.DataFrame({"user_id": [1, 2, 2], "item_id": ["b", "c", "d"], "grade": [1, 2, 0]}),
                                 k=2, relevance="grade")
    for predictions in ("mv_predictions", "public.mv_predictions"):
        got = rank_metrics.map_at_k(predictions, "tmp_truth", k=2, relevance="grade", con=postgres, check=True)
        assert got == pytest.approx(want) == pytest.approx(0.75)
    with pytest.raises(rank_metrics.RankMetricsError, match=r"predictions: no table 'MV_predictions' on the connection "
                       r"\(names are matched as written, case included\); it has 'mv_predictions', in another case$"):
        rank_metrics.map_at_k("MV_predictions", "tmp_truth", k=2, con=postgres)



def test_postgres_table_names_in_sql_quotes_and_in_another_case(postgres):
    """A PostgreSQL user writes '"Shop"."Recs"' (it was 'no table', with no hint), and a table's
    name may hold a dot ('"a.b"' could not be named). A schema in another case is named too."""
    with postgres.cursor() as cursor:
        cursor.execute('drop schema if exists "Shop" cascade; create schema "Shop";'
                       'create table "Shop"."Recs" (user_id bigint, item_id text, rank bigint);'
                       "insert into \"Shop\".\"Recs\" values (1, 'a', 1), (1, 'b', 2), (2, 'c', 1);"
                       'drop table if exists "dotted.truth"; create table "dotted.truth" (user_id bigint, item_id text);'
                       "insert into \"dotted.truth\" values (1, 'b'), (2, 'c')")
    postgres.commit()
    for predictions in ('"Shop"."Recs"', 'Shop."Recs"', '"Shop".Recs'):
        assert rank_metrics.map_at_k(predictions, '"dotted.truth"', k=2, con=postgres, check=True) == pytest.approx(0.75)
    with pytest.raises(rank_metrics.RankMetricsError, match=r"predictions: no table 'shop.Recs' on the connection "
                       r"\(names are matched as written, case included\); it has 'Shop.Recs', in another case$"):
        rank_metrics.map_at_k("shop.Recs", '"dotted.truth"', k=2, con=postgres)
    with pytest.raises(rank_metrics.RankMetricsError, match=r"truth: no table 'dotted.truth' on the connection"):
        rank_metrics.map_at_k('"Shop"."Recs"', "dotted.truth", k=2, con=postgres)
    with pytest.raises(rank_metrics.RankMetricsError, match=r"expected 'table' or 'schema.table' \(a part in SQL's double "
                       r"quotes may hold a dot\); got 'a.b.c'"):
        rank_metrics.map_at_k("a.b.c", '"dotted.truth"', k=2, con=postgres)

SPARK_CONNECT_SCRIPT = """
from pyspark.sql import SparkSession
import rank_metrics

spark = SparkSession.builder.remote("local[2]").getOrCreate()
spark.conf.set("spark.sql.shuffle.partitions", "2")
predictions = spark.createDataFrame([(1, "a", 1), (1, "b", 2), (2, "c", 1)], ["user_id", "item_id", "rank"]).cache()
truth = spark.createDataFrame([(1, "b"), (2, "d")], ["user_id", "item_id"]).cache()
predictions.count(), truth.count()
other_truth = spark.createDataFrame([(1, "a")], ["user_id", "item_id"])
views = []
for _ in range(3):
    assert rank_metrics.map_at_k(predictions, truth, k=2) == 0.25
    assert rank_metrics.map_at_k(predictions, other_truth, k=2, check=True) == 1.0
    assert predictions.storageLevel.useMemory and truth.storageLevel.useMemory
    views.append(sorted(table.name for table in spark.catalog.listTables()))
# one view per cached input, made at its first use: none for the input that is not cached
assert views[0] == views[1] == views[2] and len(views[0]) == 2, views
print("ok")
"""


@early_fixture
def spark_connect_run():
    """SPARK_CONNECT_SCRIPT's run, beside the tests from the session's start (its server takes a
    minute to start), at the tests' own priority: niced, it got so little of the two cores both
    lanes kept busy that it ran past 600 s (twice on 2026-12-06; 40 s alone)."""
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        return run_beside([sys.executable, "-c", SPARK_CONNECT_SCRIPT], niceness=0, cwd=folder, capture_output=True,
                          text=True, timeout=900, env=dict(ENVIRONMENT, PYTHONPATH=str(ROOT / "python")))


@pytest.mark.spark
def test_spark_connect_keeps_a_cached_input_cached(spark_connect_run):
    """On Spark Connect, dropping a temporary view uncaches the DataFrame it reads, and there is
    no other drop: a user's cached inputs came back uncached (a user's trial). A cached input
    keeps its view there, one per DataFrame. In a process of its own: a Connect session has its
    own local server."""
    done = spark_connect_run
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr[-3000:]


def test_spark_table_names_and_errors(spark):
    to_spark(spark, pd.DataFrame({"user_id": [1, 1], "item_id": ["a", "b"], "rank": [1, 2]})) \
        .createOrReplaceTempView("spark_predictions")
    to_spark(spark, pd.DataFrame({"user_id": [1], "item_id": ["b"]})).createOrReplaceTempView("spark_truth")
    assert rank_metrics.map_at_k("spark_predictions", "spark_truth", k=2, con=spark) == pytest.approx(0.5)
    with pytest.raises(rank_metrics.RankMetricsError, match="truth: no table 'nope' in the Spark session"):
        rank_metrics.map_at_k("spark_predictions", "nope", k=2, con=spark)


def test_spark_struct_ids_with_null_fields_tie_as_spark_orders_them(spark):
    """Spark orders a NULL field of a struct before every value, where DuckDB orders it after:
    check=True's reference follows the engine (it raised a TypeError on None before)."""
    predictions = spark.sql("select * from values (1, named_struct('a', 1, 'b', cast(null as int)), 1),"
                            " (1, named_struct('a', 1, 'b', 2), 1), (1, named_struct('a', cast(null as int), 'b', 2), 1)"
                            " as t(user_id, item_id, rank)")
    truth = spark.sql("select * from values (1, named_struct('a', 1, 'b', cast(null as int))),"
                      " (1, named_struct('a', cast(null as int), 'b', 2)) as t(user_id, item_id)")
    # the tie on rank 1 is {a: NULL, b: 2}, {a: 1, b: NULL}, {a: 1, b: 2}: both relevant items first
    assert rank_metrics.map_at_k(predictions, truth, k=1, check=True) == 1.0
    assert rank_metrics.map_at_k(predictions, truth, k=3, check=True) == 1.0
    assert rank_metrics.map_at_k(predictions, truth, k=3, tie_break="item_desc", check=True) == pytest.approx(
        (1 / 2 + 2 / 3) / 2)


@pytest.mark.parametrize("predictions_sql, truth_sql, by, named", [
    ("(1, map('a', 1), 1), (1, map('b', 2), 2) as t(user_id, item_id, rank)", "(1, map('b', 2)) as t(user_id, item_id)",
     None, "column item_id (argument item) of predictions is map<string,int>"),
    ("(map('a', 1), 5, 1) as t(user_id, item_id, rank)", "(map('a', 1), 5) as t(user_id, item_id)",
     None, "column user_id (argument user) of predictions is map<string,int>"),
    ("(1, 5, 1, map('m', 1)) as t(user_id, item_id, rank, model)", "(1, 5) as t(user_id, item_id)",
     "model", "column model (argument by) of predictions is map<string,int>"),
    ("(1, array(named_struct('m', map('a', 1)))) as t(user_id, item_id)", "(1, named_struct('m', map('a', 1))) as t(user_id, item_id)",
     None, "column item_id (argument item) of predictions is struct<m:map<string,int>>"),
    # truth's own column name: its own argument
    ("(1, 5, 1) as t(user_id, item_id, rank)", "(map('a', 1), 5) as t(buyer, item_id)",
     None, "column buyer (argument truth_user) of truth is map<string,int>"),
])
def test_spark_map_ids_are_named(spark, predictions_sql, truth_sql, by, named):
    """An id holding a map (Spark compares no maps) met Spark's DATATYPE_MISMATCH about the SQL."""
    predictions, truth = (spark.sql(f"select * from values {rows}") for rows in (predictions_sql, truth_sql))
    with pytest.raises(rank_metrics.RankMetricsError, match=re.escape(named) + r", and an id cannot hold a map \(Spark "
                                                                                  "compares no maps"):
        rank_metrics.map_at_k(predictions, truth, k=2, by=by, truth_user="buyer" if "buyer" in truth.columns else None)


@pytest.mark.parametrize("predicted, judged, named", [
    ("map(int, int)", "map(int, int)", "of predictions is MAP(INTEGER, INTEGER)"),
    ("int", "map(varchar, int)", "of truth is MAP(VARCHAR, INTEGER)"),
])
def test_duckdb_map_ids_are_named(predicted, judged, named):
    """DuckDB compares MAP ids by rules of its own, which the reference could not follow: MAP@1
    0.5 from the SQL, 1.0 from check=True (a user's trial). A map is no id, on every engine."""
    con = duckdb.connect()
    con.execute(f"create table p (user_id int, item_id {predicted}, rank int)")
    con.execute(f"create table t (user_id int, item_id {judged})")
    with pytest.raises(rank_metrics.RankMetricsError, match=r"column item_id \(argument item\) " + re.escape(named)
                                                            + ", and an id cannot hold a map"):
        rank_metrics.map_at_k("p", "t", k=1, con=con)


def test_spark_char_ids_against_string_ids_are_refused(spark):
    """Spark reads a table's char(5) as a string padded with spaces, and its DataFrame says
    string: 'b' met no 'b' of a string column, MAP@3 0 with only the nothing-met warning (a
    user's trial). The declared type is read, and refused beside a string as on PostgreSQL."""
    rows = "select * from values (1, 'a', 1), (1, 'b', 2), (2, 'd', 1) as t(user_id, item_id, rank)"
    judged = "select * from values (1, 'b'), (2, 'd') as t(user_id, item_id)"
    spark.sql("drop table if exists char_predictions")
    spark.sql("drop table if exists char_truth")
    spark.sql("create table char_predictions (user_id int, item_id char(5), rank int) using parquet")
    spark.sql("insert into char_predictions " + rows)
    spark.sql("create table char_truth (user_id int, item_id string) using parquet")
    spark.sql("insert into char_truth " + judged)
    with pytest.raises(rank_metrics.RankMetricsError, match=r"column item_id \(argument item\) is char\(5\) in predictions "
                                                            r"but string in truth; cast one so they match"):
        rank_metrics.map_at_k("char_predictions", "char_truth", k=3, con=spark)
    truth = spark.table("char_truth").selectExpr("user_id", "cast(item_id as string) as item_id")
    predictions = spark.table("char_predictions").selectExpr("user_id", "rtrim(item_id) as item_id", "rank")
    assert rank_metrics.map_at_k(predictions, truth, k=3, check=True) == 0.75


def test_spark_decimal_ranks_close_to_whole_numbers(spark):
    """Spark compares DECIMAL(38, 32) with an integer in DECIMAL(38, 28), where 0.99…9 (31 nines)
    equals 1, and casts it to bigint as 0: the hit at that rank was at position 0 (DIVIDE_BY_ZERO
    under ANSI, 0.0 without; found in review). Such ranks are checked and cut as doubles: user 1's
    item 2 is first, user 2's item 5 second, after item 6's 1."""
    near_1, near_2 = "0." + "9" * 31, "1." + "9" * 31
    rows = [(1, 2, near_1), (1, 1, "2"), (1, 3, "3"), (2, 5, near_2), (2, 6, "1")]
    predictions = spark.sql("select * from values " + ", ".join(f"({user}, {item}, cast('{rank}' as decimal(38, 32)))"
                                                               for user, item, rank in rows) + " as t(user_id, item_id, rank)")
    truth = spark.sql("select * from values (1, 2), (2, 5) as t(user_id, item_id)")
    for k in (1, 2, 3):
        assert rank_metrics.map_at_k(predictions, truth, k=k, check=True) == pytest.approx(0.5 if k == 1 else 0.75)


def test_spark_dataframes_of_two_sessions_are_named(spark):
    """A DataFrame of another session (spark.newSession(), as some notebooks have) gave Spark's
    TABLE_OR_VIEW_NOT_FOUND about an internal view and left its view behind (a new user's report)."""
    other = spark.newSession()
    predictions = to_spark(spark, pd.DataFrame({"user_id": [1, 1], "item_id": ["a", "b"], "rank": [1, 2]}))
    truth = to_spark(spark, pd.DataFrame({"user_id": [1], "item_id": ["b"]}))
    elsewhere = other.createDataFrame(truth.toPandas())
    before = {table.name for table in other.catalog.listTables()}
    for arguments, con in (((predictions, elsewhere), None), ((elsewhere, truth), None), ((predictions, truth), other)):
        with pytest.raises(rank_metrics.RankMetricsError, match="belongs to another SparkSession than the other input"):
            rank_metrics.map_at_k(*arguments, k=2, con=con)
    assert {table.name for table in other.catalog.listTables()} == before
    assert not [table.name for table in spark.catalog.listTables() if table.name.startswith("rank_metrics_")]
    assert rank_metrics.map_at_k(predictions, truth, k=2) == pytest.approx(0.5)   # one session: as before


def test_a_frame_of_another_library_beside_a_spark_dataframe_is_named(spark):
    """A Spark DataFrame with a pandas truth said only 'with this connection, expected a table
    name; got DataFrame', though no connection was given (a new user's report)."""
    predictions = to_spark(spark, pd.DataFrame({"user_id": [1, 1], "item_id": ["a", "b"], "rank": [1, 2]}))
    with pytest.raises(rank_metrics.RankMetricsError, match=r"truth: the inputs run on Spark \(con, or the other input\), "
                       r"which reads a table name there; got a pandas DataFrame: make it a Spark DataFrame"):
        rank_metrics.map_at_k(predictions, pd.DataFrame({"user_id": [1], "item_id": ["b"]}), k=2)


def test_spark_case_blind_collations_are_refused(spark):
    """A UTF8_LCASE string finds 'B' equal to truth's 'b' (1.0 where the definition gives 0, a
    user's trial): refused, with the cast that makes it plain."""
    predictions = to_spark(spark, pd.DataFrame({"user_id": [1], "item_id": ["B"], "rank": [1]})) \
        .selectExpr("user_id", "collate(item_id, 'UTF8_LCASE') as item_id", "rank")
    truth = to_spark(spark, pd.DataFrame({"user_id": [1], "item_id": ["b"]}))
    with pytest.raises(rank_metrics.RankMetricsError, match=r"column item_id \(argument item\) of predictions is string "
                       r"collate UTF8_LCASE, whose values .* cast it to plain text \(string collate UTF8_BINARY\)"):
        rank_metrics.map_at_k(predictions, truth, k=1)


def test_spark_columns_of_one_name_are_named(spark):
    """Two columns Spark cannot tell apart (a join's two user_id, or rank beside RANK: Spark
    matches names whatever their case) gave Spark's AMBIGUOUS_REFERENCE (a user's trial)."""
    predictions = to_spark(spark, pd.DataFrame({"user_id": [1], "item_id": ["b"], "rank": [1]}))
    truth = to_spark(spark, pd.DataFrame({"user_id": [1], "item_id": ["b"]}))
    with pytest.raises(rank_metrics.RankMetricsError, match=r"predictions: column 'rank' appears 2 times in this DataFrame "
                       r"\(rank, RANK: Spark matches names whatever their case\); drop or rename"):
        rank_metrics.map_at_k(predictions.selectExpr("*", "rank + 1 as RANK"), truth, k=1)
    with pytest.raises(rank_metrics.RankMetricsError, match=r"truth: column 'item_id' appears 2 times in this DataFrame; drop"):
        rank_metrics.map_at_k(predictions, truth.select("user_id", "item_id", "item_id"), k=1)


def test_spark_inputs_stay_cached(spark):
    """A caller's cached DataFrames are still cached after rank_metrics has read them (dropping a
    temporary view through spark.catalog would uncache them), and its views are gone."""
    predictions = to_spark(spark, pd.DataFrame({"user_id": [1, 1], "item_id": ["a", "b"], "rank": [1, 2]})).cache()
    truth = to_spark(spark, pd.DataFrame({"user_id": [1], "item_id": ["b"]})).cache()
    predictions.count(), truth.count()
    cached_rdds = spark.sparkContext._jsc.sc().getRDDStorageInfo
    before = len(cached_rdds())
    views = {table.name for table in spark.catalog.listTables()}
    assert rank_metrics.evaluate(predictions, truth, k=2, metrics=["map"]).value.tolist() == pytest.approx([0.5])
    assert len(cached_rdds()) == before >= 2
    assert {table.name for table in spark.catalog.listTables()} == views


# --- rank_metrics.sql for every dialect ------------------------------------------------------

SQL_ARGUMENTS = dict(k=[3, 5], by="model", rank="rank", relevance="grade")


@pytest.mark.parametrize("dialect", sorted(DIALECTS))
@pytest.mark.parametrize("macro", ["map_at_k", "average_precision_at_k"])
def test_every_dialect_parses_in_that_dialect(dialect, macro):
    text = rank_metrics.sql("analytics.predictions", "analytics.truth", dialect=dialect, macro=macro,
                            **SQL_ARGUMENTS)
    expression = sqlglot.parse_one(text, read=dialect, error_level=sqlglot.ErrorLevel.RAISE)
    assert expression.find(sqlglot.exp.Window) is not None
    tables = {table.name for table in expression.find_all(sqlglot.exp.Table)}
    assert {"predictions", "truth"} <= tables


@pytest.fixture(scope="module")
def grid_frames():
    """Two models' lists with ties, repeats, and users on one side only."""
    predictions = pd.DataFrame({
        "model": ["m1"] * 7 + ["m2"] * 5,
        "user_id": ["u1", "u1", "u1", "u1", "u1", "u2", "u2", "u1", "u1", "u1", "u3", "u3"],
        "item_id": ["a", "x", "b", "a", "c", "y", "z", "c", "b", "a", "a", "q"],
        "rank": [1, 2, 2, 3, 4, 1, 2, 1, 2, 3, 1, 2],
    })
    truth = pd.DataFrame({"user_id": ["u1", "u1", "u1", "u1", "u3"], "item_id": ["a", "b", "c", "d", "a"],
                          "grade": [2, 1, 1, 0, 1]})
    return predictions, truth


def rows_of(frame):
    return sorted(tuple(round(value, 12) if isinstance(value, float) else value for value in row)
                  for row in frame.itertuples(index=False))


def test_duckdb_postgres_and_spark_sql_give_identical_rows(grid_frames, postgres, spark):
    predictions, truth = grid_frames
    results = {}
    con = duckdb.connect()
    con.register("predictions", predictions)
    con.register("truth", truth)
    results["duckdb"] = con.execute(rank_metrics.sql("predictions", "truth", dialect="duckdb", **SQL_ARGUMENTS)).df()
    to_postgres(postgres, "predictions", predictions)
    to_postgres(postgres, "truth", truth)
    with postgres.cursor() as cursor:
        cursor.execute(rank_metrics.sql("predictions", "truth", dialect="postgres", **SQL_ARGUMENTS))
        results["postgres"] = pd.DataFrame(cursor.fetchall(), columns=[c[0] for c in cursor.description])
    to_spark(spark, predictions).createOrReplaceTempView("predictions")
    to_spark(spark, truth).createOrReplaceTempView("truth")
    results["spark"] = spark.sql(rank_metrics.sql("predictions", "truth", dialect="spark", **SQL_ARGUMENTS)).toPandas()
    expected = rank_metrics.map_at_k(predictions, truth, check=True, **SQL_ARGUMENTS)
    for engine, frame in results.items():
        assert list(frame.columns) == ["model", "k", "map_at_k", "n_users"], engine
        assert rows_of(frame) == rows_of(expected), engine


# --- Spark's own implementation --------------------------------------------------------------

def spark_ranking_metrics(spark, predictions, truth, k=None):
    """pyspark's RankingMetrics over per-user (ranked items, relevant items) pairs, one pair per
    user with predictions, lists ordered by rank then item as SPEC §1 orders them."""
    from pyspark.mllib.evaluation import RankingMetrics

    relevant = truth.groupby("user_id").item_id.apply(list).to_dict()
    pairs = [(list(group.sort_values(["rank", "item_id"], kind="stable").item_id), relevant.get(user, []))
             for user, group in predictions.groupby("user_id")]
    metrics = RankingMetrics(spark.sparkContext.parallelize(pairs, 2))
    return metrics.meanAveragePrecision if k is None else metrics.meanAveragePrecisionAt(k)


def random_lists(seed):
    import random

    rng = random.Random(seed)
    items = [f"i{number}" for number in range(12)]
    predictions = [(user, rng.choice(items), rng.randint(1, 8))
                   for user in range(1, 40) for _ in range(rng.randint(1, 10))]
    truth = {(user, item) for user in range(1, 50) if rng.random() < 0.7
             for item in rng.sample(items, rng.randint(1, 5))}
    return (pd.DataFrame(predictions, columns=["user_id", "item_id", "rank"]),
            pd.DataFrame(sorted(truth), columns=["user_id", "item_id"]))


@pytest.mark.parametrize("seed", range(8))
def test_convention_spark_equals_spark_ranking_metrics(spark, seed):
    predictions, truth = random_lists(seed)
    for k in (1, 3, 10):
        ours = rank_metrics.map_at_k(predictions, truth, k=k, convention="spark", check=True)
        assert math.isclose(ours, spark_ranking_metrics(spark, predictions, truth, k), rel_tol=1e-9)
    # meanAveragePrecision (no k) divides by m over whole lists: normalization='m', k = longest list
    longest = int(predictions.groupby("user_id").size().max())
    ours = rank_metrics.map_at_k(predictions, truth, k=longest, convention="spark", normalization="m", check=True)
    assert math.isclose(ours, spark_ranking_metrics(spark, predictions, truth), rel_tol=1e-9)


def test_spark_with_ansi_mode_on(spark):
    # Spark 4's own default; dbt-spark turns it off, a user's session may not
    spark.conf.set("spark.sql.ansi.enabled", "true")
    try:
        test_spec_examples_on_the_engine(((lambda name, frame: to_spark(spark, frame)), None))
        # a double rank past a bigint: Spark's floor of it overflowed (a user's trial); b is at 2
        predictions = to_spark(spark, pd.DataFrame({"user_id": [1, 1], "item_id": ["a", "b"], "rank": [1.0, -1e19]}))
        truth = to_spark(spark, pd.DataFrame({"user_id": [1, 2], "item_id": ["b", "c"]}))
        assert rank_metrics.map_at_k(predictions, truth, k=[1, 2], check=True).map_at_k.tolist() == [0.5, 0.5]
        # every listed position counts: a rank past a bigint is read (and cast) with no cut at k
        predictions = to_spark(spark, pd.DataFrame({"user_id": [1, 1], "item_id": ["a", "b"], "rank": [1.0, 1e19]}))
        assert rank_metrics.map_at_k(predictions, truth, k=2, truth_scope="listed", check=True) == 0.5
    finally:
        spark.conf.set("spark.sql.ansi.enabled", "false")


def test_uncertainty_and_comparison_on_the_engine(engine_inputs):
    """SPEC §7's worked example on the engine: evaluate's standard error and interval, and the
    compare SQL (t, df, the normal p-value), then Python's exact p-value from them."""
    load, con = engine_inputs
    predictions = load("compare_predictions", seed("compare_predictions"))
    truth = load("compare_truth", seed("compare_truth"))
    values = rank_metrics.evaluate(predictions, truth, k=4, metrics="map", by="model", con=con, check=True)
    a = values[values.model == "a"].iloc[0]
    assert (a.std_error, round(a.ci_low, 6), round(a.ci_high, 6)) == (pytest.approx(0.2), 0.158007, 0.941993)
    compared = rank_metrics.compare(predictions, truth, k=4, metrics=["map", "ndcg"], by="model", baseline="b",
                                    con=con, check=True)
    row = compared[compared.metric == "map"].iloc[0]
    assert (row.difference, row.std_error, row.t, row.df, row.n_users) == (
        pytest.approx(0.15), pytest.approx(0.1), pytest.approx(1.5), 4, 5)
    assert row.p_value == pytest.approx(0.208, abs=5e-4)
    assert list(compared.metric) == ["map", "ndcg"]
    # the engine's own SQL p-value: the normal approximation, 0.133614 (SPEC §7)
    sql_rows = rank_metrics.api._run("compare", predictions, truth, dict(
        rank_metrics.api._metric_arguments(4, dict(by=["model"])), metrics=["map"], baseline="b"), con, check=False)
    assert float(sql_rows.p_value.iloc[0]) == pytest.approx(0.133614, abs=5e-7)
    assert float(sql_rows.p_value.iloc[0]) == pytest.approx(rank_metrics.stats.normal_p_value(1.5), abs=1e-6)
    # one user: no standard error, NaN in a float column on every engine (PostgreSQL and Spark
    # return a column of only NULLs as objects)
    one = rank_metrics.evaluate(load("one_prediction", pd.DataFrame(dict(user_id=[1], item_id=["a"], rank=[1]))),
                                load("one_truth", pd.DataFrame(dict(user_id=[1], item_id=["a"]))),
                                k=1, metrics="map", con=con)
    assert one.value.tolist() == [1.0] and str(one.std_error.dtype) == "float64"
    assert one[["std_error", "ci_low", "ci_high"]].isna().all(axis=None)


@pytest.mark.parametrize("engine", ["postgres", "spark"])
def test_nothing_met_says_why_on_each_engine(engine, request):
    """The all-zero warning's counts query runs on the engine of the inputs: an empty table, no
    relevant truth row, no user in both tables, users that meet with no item."""
    predictions = pd.DataFrame({"user_id": [1, 1], "item_id": ["a", "b"], "rank": [1, 2]})
    truth = pd.DataFrame({"user_id": [1], "item_id": ["c"], "relevance": [1]})
    cases = [(predictions, truth, "users meet, but none has a predicted item in truth"),
             (predictions.assign(user_id=2), truth, "no user of predictions is in truth"),
             (predictions, truth.assign(relevance=0), "no row of truth is relevant: every grade is 0 or less"),
             (predictions.iloc[:0], truth, "predictions has no rows")]
    con = request.getfixturevalue(engine)
    for index, (given, judged, cause) in enumerate(cases):
        if engine == "postgres":
            inputs = (to_postgres(con, f"nothing_p{index}", given), to_postgres(con, f"nothing_t{index}", judged))
        else:
            inputs = (to_spark(con, given), to_spark(con, judged))
        with pytest.warns(rank_metrics.RankMetricsWarning, match=f"; {cause}"):
            rank_metrics.map_at_k(*inputs, k=2, users="predictions" if index != 3 else "judged",
                                  con=con if engine == "postgres" else None)


def test_text_ids_of_a_case_blind_collation_are_refused_on_duckdb():
    """A DuckDB column declared COLLATE NOCASE says only VARCHAR: users 'U' and 'u' were one,
    and MAP@3 2.0 (a new user's trial); NOACCENT, and the connection's default_collation, alike."""
    con = duckdb.connect()
    con.execute("create table p (user_id varchar collate nocase, item_id varchar, rank int);"
                "insert into p values ('U', 'a', 2), ('u', 'b', 1);"
                "create table t (user_id varchar, item_id varchar); insert into t values ('u', 'a'), ('U', 'b');"
                "create table accents (user_id varchar, item_id varchar collate noaccent); insert into accents values ('u', 'é')")
    with pytest.raises(rank_metrics.RankMetricsError, match=r"^rank_metrics: user: column user_id of predictions compares text "
                       r"without case or accents \('A' = 'a' or 'é' = 'e', by its collation or the connection's default\), where "
                       r"ids are compared exactly: give it a collation that compares exactly \(user_id COLLATE c\)$"):
        rank_metrics.map_at_k("p", "t", k=3, con=con)
    with pytest.raises(rank_metrics.RankMetricsError, match=r"^rank_metrics: item: column item_id of truth compares text without"):
        rank_metrics.map_at_k(con.sql("select user_id, item_id, 1 as rank from t"), "accents", k=3, con=con)
    # the fix the message gives: compared exactly, neither user's list holds its own truth
    exact = con.sql("select user_id collate c as user_id, item_id, rank from p")
    with pytest.warns(rank_metrics.RankMetricsWarning, match="no evaluated user has a relevant item"):
        assert rank_metrics.map_at_k(exact, "t", k=3, con=con, check=True) == 0.0
    blind = duckdb.connect()
    blind.execute("set default_collation = 'nocase';"
                  "create table p as select 'U' as user_id, 'a' as item_id, 1 as rank;"
                  "create table t as select 'u' as user_id, 'A' as item_id")
    with pytest.raises(rank_metrics.RankMetricsError, match=r"^rank_metrics: user: column user_id of predictions compares"):
        rank_metrics.map_at_k("p", "t", k=3, con=blind)


def test_text_ids_of_a_nondeterministic_collation_are_refused_on_postgres(postgres):
    """PostgreSQL's information schema says text for a column of a case-blind ICU collation."""
    with postgres.cursor() as cursor:
        cursor.execute("drop table if exists blind_predictions, blind_truth;"
                       "drop collation if exists case_blind;"
                       "create collation case_blind (provider = icu, locale = 'und-u-ks-level2', deterministic = false);"
                       "create table blind_predictions (user_id int, item_id text collate case_blind, rank int);"
                       "insert into blind_predictions values (1, 'a', 1), (1, 'B', 2);"
                       "create table blind_truth (user_id int, item_id text);"
                       "insert into blind_truth values (1, 'b')")
    postgres.commit()
    with pytest.raises(rank_metrics.RankMetricsError, match=r"^rank_metrics: item: column item_id of predictions compares text "
                       r"without case or accents .*: give it a collation that compares exactly \(item_id COLLATE \"C\"\)$"):
        rank_metrics.map_at_k("blind_predictions", "blind_truth", k=3, con=postgres)


def test_check_reads_postgres_enum_arrays_as_lists(postgres):
    """psycopg2 gives an array of an enum type as its text, '{red,green}': check=True's reference
    read it as one item and failed a right 0.5 with 0.0."""
    with postgres.cursor() as cursor:
        cursor.execute("drop table if exists enum_lists, enum_truth; drop type if exists colour;"
                       "create type colour as enum ('red', 'green');"
                       "create table enum_lists (user_id int, item_id colour[]); insert into enum_lists values (1, '{red,green}');"
                       "create table enum_truth (user_id int, item_id colour); insert into enum_truth values (1, 'green')")
    postgres.commit()
    assert rank_metrics.map_at_k("enum_lists", "enum_truth", k=2, con=postgres, check=True) == 0.5


def test_postgres_text_ids_of_two_collations_are_named(postgres):
    """PostgreSQL refuses to compare columns of two non-default collations; the driver's
    IndeterminateCollation came through raw."""
    with postgres.cursor() as cursor:
        cursor.execute("drop table if exists c_predictions, posix_truth;"
                       "create table c_predictions (user_id int, item_id text collate \"C\", rank int); "
                       "insert into c_predictions values (1, 'a', 1);"
                       "create table posix_truth (user_id int, item_id text collate \"POSIX\"); insert into posix_truth values (1, 'a')")
    postgres.commit()
    with pytest.raises(rank_metrics.RankMetricsError, match=r"^rank_metrics: PostgreSQL cannot compare the text ids of predictions "
                       r"and truth: a user, item or by column has one collation in one table and another in the other "
                       r"\(could not determine which collation .*\): give them one, e.g. a view over one table that selects "
                       r"the column COLLATE \"C\"$"):
        rank_metrics.map_at_k("c_predictions", "posix_truth", k=1, con=postgres)
    with postgres.cursor() as cursor:   # the connection is still usable
        cursor.execute("create or replace view c_truth as select user_id, item_id collate \"C\" as item_id from posix_truth")
    postgres.commit()
    assert rank_metrics.map_at_k("c_predictions", "c_truth", k=1, con=postgres, check=True) == 1.0
