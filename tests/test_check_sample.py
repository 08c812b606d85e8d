"""check=True past _CHECK_ALL_ROWS rows: the reference reads a repeatable sample of users (the
first in the md5 order of their id's text, from both tables), compares the SQL's per-user values
of those users, and an aggregate with the means of every user's SQL values; check='all' checks
every user."""

import hashlib
import random

import pandas as pd
import pytest

import rank_metrics
import rank_metrics._checks as checks
import rank_metrics._run as run
from rank_metrics import reference

SAMPLE = 40


def example(users=300, seed=7):
    """Two models' lists of 4 items; every 10th user has no list, every 7th no truth."""
    rng = random.Random(seed)
    predictions, truth = [], []
    for user in range(1, users + 1):
        if user % 10:
            for model in ("a", "b"):
                predictions += [(model, user, item, rank) for rank, item in enumerate(rng.sample(range(12), 4), 1)]
        if user % 7:
            truth += [(user, item) for item in rng.sample(range(12), 3)]
    return (pd.DataFrame(predictions, columns=["model", "user_id", "item_id", "rank"]),
            pd.DataFrame(truth, columns=["user_id", "item_id"]))


def md5_sample(predictions, truth, size=SAMPLE):
    """The sample as the check takes it, worked out here: md5 of the id's text, smallest first."""
    users = set(predictions.user_id) | set(truth.user_id)
    return set(sorted(users, key=lambda user: hashlib.md5(str(user).encode()).hexdigest())[:size])


@pytest.fixture
def sampled(monkeypatch):
    """The sampled check on small tables: every size above 0 rows is sampled, SAMPLE users."""
    monkeypatch.setattr(checks, "_CHECK_ALL_ROWS", 0)
    monkeypatch.setattr(checks, "_CHECK_SAMPLE_USERS", SAMPLE)


@pytest.fixture
def seen(monkeypatch):
    """The users of the rows each run of the reference reads, one set per run."""
    runs = []
    original = reference.evaluate

    def spy(predictions, truth, *args, **kwargs):
        predictions, truth = list(predictions), list(truth)
        runs.append({row["user_id"] for row in predictions} | {row["user_id"] for row in truth})
        return original(predictions, truth, *args, **kwargs)

    monkeypatch.setattr(reference, "evaluate", spy)
    return runs


def wrong_sql(monkeypatch, macro, rewrite):
    """The SQL of `macro` made wrong by `rewrite` (a function of its text)."""
    original = run.render

    def render(name, *args, **kwargs):
        sql = original(name, *args, **kwargs)
        return rewrite(sql) if name == macro else sql

    # the query is rendered where it runs (_run), the check's own per-user query where it checks
    monkeypatch.setattr(run, "render", render)
    monkeypatch.setattr(checks, "render", render)


def off_for(user):
    """evaluate_users' SQL with one user's AP 1e-6 too high."""
    return lambda sql: (f"select * replace (case when user_id = {user} then average_precision + 1e-6 "
                        f"else average_precision end as average_precision) from ({sql}) as wrong")


def test_the_sample_is_the_same_users_every_run_from_both_tables(sampled, seen):
    predictions, truth = example()
    first = rank_metrics.map_at_k(predictions, truth, k=3, by="model", check=True)
    second = rank_metrics.map_at_k(predictions, truth, k=3, by="model", check=True)
    assert len(seen) == 2 and seen[0] == seen[1] == md5_sample(predictions, truth)
    assert len(seen[0]) == SAMPLE
    # users of one table only are sampled too (the sample is of the union)
    assert {user for user in seen[0] if user % 10 == 0} and {user for user in seen[0] if user % 7 == 0}
    assert first.equals(second)


def test_small_tables_are_checked_whole_and_all_checks_everyone(monkeypatch, seen):
    predictions, truth = example()
    everyone = set(predictions.user_id) | set(truth.user_id)
    rank_metrics.map_at_k(predictions, truth, k=3, by="model", check=True)   # 2,928 rows: checked whole
    monkeypatch.setattr(checks, "_CHECK_ALL_ROWS", 0)
    monkeypatch.setattr(checks, "_CHECK_SAMPLE_USERS", SAMPLE)
    rank_metrics.map_at_k(predictions, truth, k=3, by="model", check=True)
    rank_metrics.map_at_k(predictions, truth, k=3, by="model", check="all")
    assert [len(users) for users in seen] == [len(everyone), SAMPLE, len(everyone)]
    assert seen[0] == seen[2] == everyone


@pytest.mark.parametrize("function", ["map_at_k", "evaluate", "evaluate_users", "average_precision_at_k"])
def test_a_wrong_value_of_a_sampled_user_is_caught(sampled, monkeypatch, function):
    predictions, truth = example()
    user = min(md5_sample(predictions, truth) & set(truth.user_id) & set(predictions.user_id))
    # the aggregates' per-user values come from evaluate_users' SQL; the per-user functions' own
    macro = function if function in ("evaluate_users", "average_precision_at_k") else "evaluate_users"
    wrong_sql(monkeypatch, macro, off_for(user))
    label = function if macro == function else rf"{function}'s per-user values \(evaluate_users\)"
    with pytest.raises(rank_metrics.CheckFailed, match=rf"check: {label} for {{'model': '(a|b)', 'user_id': {user}, "
                                                       r"'k': 3, 'column': 'average_precision'}: SQL .*, reference"):
        getattr(rank_metrics, function)(predictions, truth, k=3, by="model", check=True)


def test_a_wrong_value_of_a_user_out_of_the_sample(sampled, monkeypatch):
    """Caught in an aggregate, whose mean is of every user's value; in a per-user table only by
    check='all'."""
    predictions, truth = example()
    user = min(set(predictions.user_id) - md5_sample(predictions, truth))
    wrong_sql(monkeypatch, "evaluate_users", off_for(user))
    with pytest.raises(rank_metrics.CheckFailed, match=r"check: map_at_k for \{'model': '(a|b)', 'k': 3\}: SQL .*, reference"):
        rank_metrics.map_at_k(predictions, truth, k=3, by="model", check=True)
    result = rank_metrics.evaluate_users(predictions, truth, k=3, by="model", metrics="map", check=True)
    assert len(result) == 2 * 258   # users='truth': the 258 users with truth, per model
    with pytest.raises(rank_metrics.CheckFailed, match=rf"check: evaluate_users for {{'model': '(a|b)', 'user_id': {user}, "):
        rank_metrics.evaluate_users(predictions, truth, k=3, by="model", metrics="map", check="all")


@pytest.mark.parametrize("function, rewrite, message", [
    ("map_at_k", "select model, k, map_at_k * (1 + 1e-6) as map_at_k, n_users from ({}) as wrong",
     r"map_at_k for \{'model': '(a|b)', 'k': 3\}: SQL"),
    ("map_at_k", "select model, k, map_at_k, n_users + 1 as n_users from ({}) as wrong",
     r"map_at_k for \{'model': '(a|b)', 'k': 3, 'column': 'n_users'\}: SQL 259, reference 258"),
    ("evaluate", "select * replace (std_error * (1 + 1e-6) as std_error) from ({}) as wrong",
     r"evaluate for \{'model': '(a|b)', 'k': 3, 'metric': 'map', 'column': 'std_error'\}: SQL"),
    ("evaluate", "select * replace (n_users - 1 as n_users) from ({}) as wrong",
     r"evaluate for \{'model': '(a|b)', 'k': 3, 'metric': 'map', 'column': 'n_users'\}: SQL 257, reference 258"),
])
def test_a_wrong_aggregate_is_caught(sampled, monkeypatch, function, rewrite, message):
    predictions, truth = example()
    wrong_sql(monkeypatch, function, rewrite.format)
    options = {"metrics": "map"} if function == "evaluate" else {}
    with pytest.raises(rank_metrics.CheckFailed, match=message):
        getattr(rank_metrics, function)(predictions, truth, k=3, by="model", check=True, **options)


@pytest.mark.parametrize("users", ["truth", "predictions", "judged", "both", "union"])
@pytest.mark.parametrize("function", ["map_at_k", "evaluate", "evaluate_users"])
def test_the_sampled_check_passes_the_right_sql(sampled, seen, users, function):
    """Users of one table only, and groups a sampled user has no list in: the reference on the
    sample's rows agrees with the SQL under every users rule."""
    predictions, truth = example()
    result = getattr(rank_metrics, function)(predictions, truth, k=[1, 3], by="model", users=users, check=True)
    assert len(result) and seen == [md5_sample(predictions, truth)]


def test_a_group_no_sampled_user_has_a_list_in(sampled, seen):
    """Under users='truth' each truth user counts in every group (model c too, where only an
    unsampled user has a list): the reference is told every group of predictions."""
    predictions, truth = example()
    outside = min(set(predictions.user_id) - md5_sample(predictions, truth))
    predictions = pd.concat([predictions, pd.DataFrame({"model": "c", "user_id": outside, "item_id": [1, 2],
                                                        "rank": [1, 2]})])
    result = rank_metrics.evaluate_users(predictions, truth, k=3, by="model", metrics="map", check=True)
    assert len(result[result.model == "c"]) == 258 and seen == [md5_sample(predictions, truth)]


def test_compare_checks_on_the_sample(sampled, seen):
    predictions, truth = example()
    result = rank_metrics.compare(predictions, truth, k=3, by="model", baseline="a", metrics="map", check=True)
    assert list(result.model) == ["b"] and seen == [md5_sample(predictions, truth)]


@pytest.mark.parametrize("check", ["some", 1000, "ALL"])
def test_check_is_true_false_or_all(check):
    predictions, truth = example(users=20)
    with pytest.raises(rank_metrics.RankMetricsError, match=rf"check must be True, False or 'all'; got {check!r}"):
        rank_metrics.map_at_k(predictions, truth, k=3, by="model", check=check)


def test_the_default_sample(seen):
    """Past 100,000 rows, 1,000 users, the same as md5's order gives."""
    predictions, truth = example(users=14_000)
    assert len(predictions) + len(truth) > checks._CHECK_ALL_ROWS
    result = rank_metrics.map_at_k(predictions, truth, k=3, by="model", check=True)
    assert result.equals(rank_metrics.map_at_k(predictions, truth, k=3, by="model"))
    assert seen == [md5_sample(predictions, truth, size=1000)]


@pytest.mark.parametrize("engine", ["postgres", "spark"])
def test_the_sample_on_postgres_and_spark(sampled, seen, request, engine):
    """The same users as DuckDB's (md5 of the same text), read through each engine's rows."""
    from engine_tables import to_postgres, to_spark

    predictions, truth = example()
    con = request.getfixturevalue(engine)
    inputs = [to_postgres(con, f"check_sample_{name}", table) if engine == "postgres" else to_spark(con, table)
              for name, table in (("predictions", predictions), ("truth", truth))]
    # Spark pays seconds a query: its one function is the aggregate, which reads both
    functions = ("map_at_k", "evaluate_users") if engine == "postgres" else ("map_at_k",)
    for function in functions:
        result = getattr(rank_metrics, function)(*inputs, k=[1, 3], by="model", con=con, check=True)
        expected = getattr(rank_metrics, function)(predictions, truth, k=[1, 3], by="model")
        assert result.shape == expected.shape
    assert seen == [md5_sample(predictions, truth)] * len(functions)


@pytest.mark.parametrize("flag, check", [("--check", True), ("--check-all", "all")])
@pytest.mark.parametrize("command", ["map-at-k", "evaluate", "compare"])
def test_the_command_line_checks_a_sample_or_everyone(sampled, seen, tmp_path, flag, check, command):
    """--check is the sampled check; --check-all checks every user (compare's pairs too)."""
    from test_cli import run

    predictions, truth = example()
    predictions.to_csv(tmp_path / "p.csv", index=False)
    truth.to_csv(tmp_path / "t.csv", index=False)
    extra = ["--baseline", "a"] if command == "compare" else []
    code, _, err = run(command, str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "3", "--by", "model", *extra, flag)
    assert code == 0, err
    everyone = set(predictions.user_id) | set(truth.user_id)
    assert seen and all(users == (everyone if check == "all" else md5_sample(predictions, truth)) for users in seen)
