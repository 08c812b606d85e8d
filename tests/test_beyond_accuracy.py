"""The beyond-accuracy metrics' reference (rank_metrics.reference_beyond): the worked example of
docs/definitions.md under each convention, its refusals, and recommenders 1.2's and Evidently
0.7's own numbers on random inputs (tests/peers/beyond_values.py runs them in the bench's venv).
The SQL of these metrics is not built yet: this is the definition it will be checked against."""

import json
import math
import random

import pytest

from rank_metrics import reference_beyond
from rank_metrics.reference_beyond import beyond_accuracy

from conftest import ROOT, early_fixture, run_beside

BENCH_PYTHON = ROOT / "bench" / ".venv" / "bin" / "python"
CASES = 30

# docs/definitions.md's worked example, k = 2
TRAIN = [("u1", "a"), ("u1", "b"), ("u2", "a"), ("u2", "c"), ("u3", "a")]
LISTS = {"u1": ["c", "d"], "u2": ["b", "d"], "u3": ["b", "c"]}


def values(per_group):
    return {metric: entry["value"] for metric, entry in per_group.items()}


def test_the_worked_example_under_recommenders():
    # slot counts b 2, c 2, d 2; t_a 3, t_b 1, t_c 1; |train| 5; sim(a, b) = sim(a, c) = 1/sqrt(3)
    _, got = beyond_accuracy(LISTS, TRAIN, 2, metrics=reference_beyond.DEFINED_BY["recommenders"],
                             convention="recommenders")
    assert values(got) == pytest.approx({"catalog_coverage": 1.0, "distributional_coverage": math.log2(3),
                                         "novelty": 4 * math.log2(5) / 6, "diversity": 1.0,
                                         # u1 and u2: (1 - 1/(2 sqrt 3) + 1) / 2 each; u3: 1 - 1/sqrt 3
                                         "serendipity": ((2 - 1 / (2 * math.sqrt(3))) + (1 - 1 / math.sqrt(3))) / 3},
                                        rel=1e-12)
    assert round(got["serendipity"]["value"], 6) == 0.711325 and round(got["novelty"]["value"], 6) == 1.547952
    # catalog-level: every listed user counted, no standard error; per user: a standard error
    assert got["novelty"]["std_error"] is None and got["novelty"]["n_users"] == 3
    assert got["diversity"]["std_error"] == 0 and got["serendipity"]["std_error"] > 0


def test_the_worked_example_under_evidently():
    metrics = [metric for metric in reference_beyond.DEFINED_BY["evidently"] if metric not in ("diversity", "serendipity")]
    per_user, got = beyond_accuracy(LISTS, TRAIN, 2, metrics=metrics, convention="evidently")
    assert values(got) == pytest.approx({"catalog_coverage": 2 / 3, "gini": 0.0, "personalization": 0.5,
                                         "novelty": math.log2(3), "arp": 1.0, "arp_normalized": 1 / 3}, rel=1e-12)
    # u1's c, u2's b, u3's b and c: each a train item of one user of three
    assert per_user["novelty"] == pytest.approx({"u1": math.log2(3), "u2": math.log2(3), "u3": math.log2(3)})


def test_without_a_convention_each_metric_is_recommenders_where_it_has_it_else_evidentlys():
    _, default = beyond_accuracy(LISTS, TRAIN, 2, metrics=["catalog_coverage", "novelty", "gini", "arp"])
    assert values(default) == pytest.approx({"catalog_coverage": 1.0, "novelty": 4 * math.log2(5) / 6, "gini": 0.0,
                                             "arp": 1.0})
    assert [reference_beyond.definition(metric, None) for metric in reference_beyond.METRICS] == [
        "recommenders", "recommenders", "evidently", "evidently", "recommenders", "evidently", "evidently",
        "recommenders", "recommenders"]


def test_evidentlys_diversity_divides_by_the_list_length_and_its_serendipity_can_be_negative():
    features = {"a": [1, 0], "b": [0, 1], "c": [1, 1], "d": [1, 0]}
    per_user, got = beyond_accuracy({"u1": ["b", "c", "d"]}, [("u1", "a")], 3, metrics=["diversity", "serendipity"],
                                    convention="evidently", item_features=features)
    distances = (1 - 1 / math.sqrt(2)) + 1 + (1 - 1 / math.sqrt(2))   # (b, c), (b, d), (c, d)
    assert got["diversity"]["value"] == pytest.approx(distances / 3)
    # every listed item relevant (no truth): 1 - (cos(a, b) + cos(a, c) + cos(a, d)) / 1
    assert got["serendipity"]["value"] == pytest.approx(1 - (0 + 1 / math.sqrt(2) + 1)) and got["serendipity"]["value"] < 0
    _, recommenders = beyond_accuracy({"u1": ["b", "c", "d"]}, [("u1", "a")], 3, metrics=["diversity"],
                                      convention="recommenders", similarity="features", item_features=features)
    assert recommenders["diversity"]["value"] == pytest.approx(1 - (1 / math.sqrt(2) + 0 + 1 / math.sqrt(2)) / 3)


@pytest.mark.parametrize("arguments, message", [
    (dict(train=[]), "train is empty"),
    (dict(metrics=["gini"], convention="recommenders"), "recommenders has no gini"),
    (dict(metrics=["diversity"], similarity="features", item_features={"b": [1], "c": [1]}),
     "item 'd' is missing from item_features"),
    (dict(metrics=["diversity"], similarity="features", item_features={"b": [1], "c": [0], "d": [1]}),
     "item 'c' has a zero feature vector"),
    (dict(metrics=["coverage"]), "unknown beyond-accuracy metric 'coverage'"),
])
def test_bad_inputs_are_refused(arguments, message):
    with pytest.raises(ValueError, match=message):
        beyond_accuracy(LISTS, arguments.pop("train", TRAIN), 2, **arguments)


def random_case(seed):
    draw = random.Random(seed)
    items = [f"i{number:02d}" for number in range(20)]
    features = {}
    for item in items:
        vector = [draw.randint(0, 3) for _ in range(3)]
        features[item] = vector if any(vector) else [1, *vector[1:]]
    train, lists, relevant = [], {}, {}
    for user in [f"u{number}" for number in range(draw.randint(2, 10))]:
        seen = draw.sample(items, draw.randint(0, 6))
        train += [[user, item] for item in seen]
        if draw.random() < 0.85:   # some users have no list; recommenders refuses a listed train item
            listed = draw.sample([item for item in items if item not in seen], draw.randint(1, 6))
            lists[user] = listed
            relevant[user] = [item for item in listed if draw.random() < 0.4]
    if not train:
        train.append(["u0", items[0]])
    if not lists:
        lists["u0"] = [item for item in items if item != items[0]][:3]
        relevant["u0"] = []
    return {"lists": lists, "train": train, "features": features, "relevant": relevant,
            "k": draw.choice([1, 2, 3, 5])}


@early_fixture
def peer_cases():
    """The cases and recommenders' and Evidently's numbers for them, computed beside the tests."""
    assert BENCH_PYTHON.exists(), "the bench venv is missing: make test builds it (make bench/.venv/.installed)"
    cases = [random_case(seed) for seed in range(CASES)]
    run = run_beside([BENCH_PYTHON, ROOT / "tests" / "peers" / "beyond_values.py"], cwd=ROOT, input=json.dumps(cases),
                     capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-3000:]
    return list(zip(cases, json.loads(run.stdout)))


def assert_equal(got, want, context):
    """Equal to 1e-9, where a value missing on one side (None) is missing on the other too."""
    if isinstance(want, dict):
        assert set(got) == set(want), context
        for name in want:
            assert_equal(got[name], want[name], (name, context))
    else:
        assert (got is None) == (want is None), context
        assert want is None or got == pytest.approx(want, rel=1e-9, abs=1e-12), context


def ours(case, convention, metrics, similarity=None):
    train = [tuple(pair) for pair in case["train"]]
    relevant = {user: set(items) for user, items in case["relevant"].items()}
    return beyond_accuracy(case["lists"], train, case["k"], metrics=metrics, convention=convention, similarity=similarity,
                           item_features=case["features"], relevant=relevant)


def test_recommenders(peer_cases):
    """catalog_coverage, distributional_coverage, novelty, and diversity and serendipity per user
    and averaged, with co-occurrence and with feature similarity, equal to recommenders 1.2's."""
    compared = 0
    for case, peers in peer_cases:
        peer = peers["recommenders"]
        _, got = ours(case, "recommenders", ["catalog_coverage", "distributional_coverage", "novelty"])
        for metric in ("catalog_coverage", "distributional_coverage", "novelty"):
            assert_equal(got[metric]["value"], peer["values"][metric], (metric, case))
        for similarity in reference_beyond.SIMILARITIES:
            per_user, got = ours(case, "recommenders", ["diversity", "serendipity"], similarity)
            for metric in ("diversity", "serendipity"):
                name = f"{metric}/{similarity}"
                assert_equal(per_user[metric], peer["users"][name], (name, case))
                assert_equal(got[metric]["value"], peer["values"][name], (name, case))
                compared += len(per_user[metric])
    assert compared >= CASES * 4


def test_evidently(peer_cases):
    """Every metric Evidently 0.7 has, under its convention (feature similarity), equal to its own
    report's numbers; where Evidently gives NaN (one distinct item for gini, one user for
    personalization, no user with a value) the reference has no value."""
    checked = 0
    for case, peers in peer_cases:
        _, got = ours(case, "evidently", reference_beyond.DEFINED_BY["evidently"])
        assert_equal(values(got), peers["evidently"], case)
        checked += sum(value is not None for value in peers["evidently"].values())
    assert checked >= CASES * 6
