"""The beyond-accuracy metrics' reference (rank_metrics.reference_beyond): the worked example of
docs/definitions.md under each convention and its refusals (recommenders' and Evidently's own
numbers: tests/test_peers_beyond_accuracy.py). The SQL is checked against it in
tests/test_beyond_accuracy_sql.py."""

import math

import pytest

from rank_metrics import reference_beyond
from rank_metrics.reference_beyond import beyond_accuracy


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
