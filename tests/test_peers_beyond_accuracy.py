"""The beyond-accuracy reference, and the SQL of rank_metrics.beyond_accuracy, against
recommenders 1.2's and Evidently 0.7's own numbers on random inputs: tests/peers/beyond_values.py
runs the peers in the bench's venv, beside the suite from its start (this file sorts after
test_peers.py, so that its lane finds them done)."""

import math
import random

import pandas as pd
import pytest

import rank_metrics
from rank_metrics import reference_beyond
from rank_metrics.reference_beyond import beyond_accuracy

from conftest import early_fixture, peer_numbers
from test_beyond_accuracy import values

CASES = 30


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
    cases = [random_case(seed) for seed in range(CASES)]
    return list(zip(cases, peer_numbers("beyond_values.py", cases)))


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


def sql(case, convention, metrics, similarity=None):
    """ours(), from the SQL: (per_user, per_group) as the reference gives them."""
    predictions = pd.DataFrame([(user, item, rank) for user, items in case["lists"].items()
                                for rank, item in enumerate(items, start=1)], columns=["user_id", "item_id", "rank"])
    train = pd.DataFrame(case["train"], columns=["user_id", "item_id"])
    truth = pd.DataFrame([(user, item) for user, items in case["relevant"].items() for item in items],
                         columns=["user_id", "item_id"], dtype=str)
    features = pd.DataFrame([(item, *vector) for item, vector in case["features"].items()], columns=["item_id", "x", "y", "z"])
    options = dict(metrics=metrics, convention=convention, similarity=similarity, truth=truth, item_features=features)
    rows = rank_metrics.beyond_accuracy(predictions, train, case["k"], **options)
    # (per-user rows only where a metric asked has them: beyond_accuracy_users refuses the others)
    users = rank_metrics.beyond_accuracy_users(predictions, train, case["k"], **options) \
        if any(reference_beyond.is_per_user(metric, convention) for metric in metrics) else None
    per_group = {row.metric: {"value": None if math.isnan(row.value) else row.value,
                              "std_error": None if math.isnan(row.std_error) else row.std_error, "n_users": row.n_users}
                 for row in rows.itertuples()}
    per_user = {} if users is None else \
        {metric: users.set_index("user_id")[metric].dropna().to_dict() for metric in users.columns[2:]}
    return per_user, per_group


def test_recommenders(peer_cases):
    """catalog_coverage, distributional_coverage, novelty, and diversity and serendipity per user
    and averaged, with co-occurrence and with feature similarity, equal to recommenders 1.2's."""
    compared = 0
    for case, peers in peer_cases:
        peer = peers["recommenders"]
        for compute in (ours, sql):
            _, got = compute(case, "recommenders", ["catalog_coverage", "distributional_coverage", "novelty"])
            for metric in ("catalog_coverage", "distributional_coverage", "novelty"):
                assert_equal(got[metric]["value"], peer["values"][metric], (compute.__name__, metric, case))
            for similarity in reference_beyond.SIMILARITIES:
                per_user, got = compute(case, "recommenders", ["diversity", "serendipity"], similarity)
                for metric in ("diversity", "serendipity"):
                    name = f"{metric}/{similarity}"
                    assert_equal(per_user[metric], peer["users"][name], (compute.__name__, name, case))
                    assert_equal(got[metric]["value"], peer["values"][name], (compute.__name__, name, case))
                    compared += len(per_user[metric])
    assert compared >= CASES * 4 * 2


def test_evidently(peer_cases):
    """Every metric Evidently 0.7 has, under its convention (feature similarity), equal to its own
    report's numbers; where Evidently gives NaN (one distinct item for gini, one user for
    personalization, no user with a value) the reference has no value."""
    checked = 0
    for case, peers in peer_cases:
        for compute in (ours, sql):
            _, got = compute(case, "evidently", reference_beyond.DEFINED_BY["evidently"])
            assert_equal(values(got), peers["evidently"], (compute.__name__, case))
            checked += sum(value is not None for value in peers["evidently"].values())
    assert checked >= CASES * 6 * 2
