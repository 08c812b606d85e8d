"""Runs in the bench venv (bench/.venv), where the peers are installed: reads beyond-accuracy cases
as JSON on stdin, prints recommenders' and Evidently's own numbers for them as JSON.
tests/test_peers_beyond_accuracy.py compares them with rank_metrics' reference.

A case: {"lists": {user: [item, ...]} (ranked, no repeats, none of the user's train items),
"train": [[user, item], ...] (distinct pairs), "features": {item: [f0, f1, f2]} (never all 0),
"relevant": {user: [item, ...]}, "k": k}. A peer's NaN (a mean over no user, a division by 0)
is printed as null."""

import json
import math
import sys
import warnings

warnings.filterwarnings("ignore")

FEATURES = ["f0", "f1", "f2"]


def _number(value):
    if value is None:
        return None
    value = float(value)
    return None if math.isnan(value) or math.isinf(value) else value


def _frames(case):
    import pandas as pd

    relevant = {user: set(items) for user, items in case["relevant"].items()}
    recs = pd.DataFrame([[user, item, position, int(item in relevant.get(user, set()))]
                         for user, items in case["lists"].items() for position, item in enumerate(items, start=1)],
                        columns=["user_id", "item_id", "rank", "target"])
    train = pd.DataFrame(case["train"], columns=["user_id", "item_id"])
    return recs, train


def recommenders_values(case):
    import numpy as np
    import pandas as pd
    from recommenders.evaluation import python_evaluation as evaluation

    recs, train = _frames(case)
    cut = recs[recs["rank"] <= case["k"]].rename(columns={"target": "relevance"})
    features = pd.DataFrame({"item_id": list(case["features"]),
                             "features": [np.array(vector, dtype=float) for vector in case["features"].values()]})
    columns = dict(col_user="user_id", col_item="item_id")
    values = {"catalog_coverage": evaluation.catalog_coverage(train, cut, **columns),
              "distributional_coverage": evaluation.distributional_coverage(train, cut, **columns),
              "novelty": evaluation.novelty(train, cut, **columns)}
    users = {}
    for similarity, measure in (("cooccurrence", "item_cooccurrence_count"), ("features", "item_feature_vector")):
        options = dict(columns, item_feature_df=features if similarity == "features" else None, item_sim_measure=measure)
        diversity = evaluation.user_diversity(train, cut[["user_id", "item_id"]], **options)
        serendipity = evaluation.user_serendipity(train, cut, col_relevance="relevance", **options)
        users[f"diversity/{similarity}"] = dict(zip(diversity.user_id, map(_number, diversity.user_diversity)))
        users[f"serendipity/{similarity}"] = dict(zip(serendipity.user_id, map(_number, serendipity.user_serendipity)))
        values[f"diversity/{similarity}"] = _number(evaluation.diversity(train, cut[["user_id", "item_id"]], **options))
        values[f"serendipity/{similarity}"] = _number(evaluation.serendipity(train, cut, col_relevance="relevance",
                                                                             **options))
    return {"values": {name: _number(value) for name, value in values.items()}, "users": users}


def evidently_values(case):
    from evidently.legacy.metrics import (DiversityMetric, NoveltyMetric, PersonalizationMetric, PopularityBias,
                                          SerendipityMetric)
    from evidently.legacy.pipeline.column_mapping import ColumnMapping
    from evidently.legacy.report import Report

    recs, train = _frames(case)
    for position, name in enumerate(FEATURES):
        recs[name] = recs.item_id.map(lambda item: case["features"][item][position])
        train[name] = train.item_id.map(lambda item: case["features"][item][position])
    mapping = ColumnMapping(recommendations_type="rank", user_id="user_id", item_id="item_id", prediction="rank",
                            target="target")
    k = case["k"]

    def result(metric):
        report = Report(metrics=[metric])
        report.run(reference_data=None, current_data=recs, column_mapping=mapping,
                   additional_data={"current_train_data": train})
        return report.as_dict()["metrics"][0]["result"]

    bias = result(PopularityBias(k=k))
    return {"catalog_coverage": _number(bias["current_coverage"]), "gini": _number(bias["current_gini"]),
            "arp": _number(bias["current_apr"]),
            "arp_normalized": _number(result(PopularityBias(k=k, normalize_arp=True))["current_apr"]),
            "personalization": _number(result(PersonalizationMetric(k=k))["current_value"]),
            "novelty": _number(result(NoveltyMetric(k=k))["current_value"]),
            "diversity": _number(result(DiversityMetric(k=k, item_features=FEATURES))["current_value"]),
            "serendipity": _number(result(SerendipityMetric(k=k, item_features=FEATURES))["current_value"])}


if __name__ == "__main__":
    cases = json.load(sys.stdin)
    print(json.dumps([{"recommenders": recommenders_values(case), "evidently": evidently_values(case)}
                      for case in cases]))
