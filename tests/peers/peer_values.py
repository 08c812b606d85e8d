"""Runs in the bench venv (bench/.venv), where the peers are installed: reads cases as JSON on
stdin, prints each peer's own numbers for them as JSON. tests/test_peers.py compares them with
rank_metrics under each peer's convention.

A case: {"predictions": [[user, item, score], ...], "truth": [[user, item, grade], ...], "ks": [...]}.
Scores are distinct within a list, so no peer's tie order matters; sklearn_tied is ndcg_score on
the scores cut to one decimal (tied), whose ties it averages, and so is torchmetrics_tied (its
RetrievalNormalizedDCG averages them too)."""

import json
import sys
import warnings

warnings.filterwarnings("ignore")


def ranx_values(case):
    from ranx import Qrels, Run, evaluate

    qrels, run = {}, {}
    for user, item, grade in case["truth"]:
        qrels.setdefault(str(user), {})[item] = grade
    for user, item, score in case["predictions"]:
        run.setdefault(str(user), {})[item] = score
    names = [f"{metric}@{k}" for k in case["ks"]
             for metric in ("ndcg", "ndcg_burges", "precision", "recall", "mrr", "hit_rate")]
    values = evaluate(Qrels.from_dict(qrels), Run.from_dict(run), names, make_comparable=True)
    return {name: float(value) for name, value in values.items()}


def ranx_r_precision(case):
    """ranx's r-precision (its mean over the queries of qrels), which takes no k."""
    from ranx import Qrels, Run, evaluate

    qrels, run = {}, {}
    for user, item, grade in case["truth"]:
        qrels.setdefault(str(user), {})[item] = grade
    for user, item, score in case["predictions"]:
        run.setdefault(str(user), {})[item] = score
    return float(evaluate(Qrels.from_dict(qrels), Run.from_dict(run), "r-precision", make_comparable=True))


def ranx_bpref(case):
    """ranx's bpref for each query with a list, evaluated alone: a query of qrels without a
    relevant item makes ranx give 0 for every query evaluated with it. None where ranx gives NaN
    (a query without a judged non-relevant or without a relevant item: ranx issue #66)."""
    import math

    from ranx import Qrels, Run, evaluate

    qrels, run = {}, {}
    for user, item, grade in case["truth"]:
        qrels.setdefault(str(user), {})[item] = grade
    for user, item, score in case["predictions"]:
        run.setdefault(str(user), {})[item] = score
    scores = {query: float(evaluate(Qrels.from_dict({query: judged}), Run.from_dict({query: run[query]}), "bpref"))
              for query, judged in qrels.items() if query in run}
    return {query: None if math.isnan(score) else score for query, score in scores.items()}


def pytrec_eval_values(case):
    """pytrec_eval (trec_eval's own code) per query: Rprec and bpref, which take no cutoff."""
    import pytrec_eval

    qrels, run = {}, {}
    for user, item, grade in case["truth"]:
        qrels.setdefault(str(user), {})[item] = int(grade)
    for user, item, score in case["predictions"]:
        run.setdefault(str(user), {})[item] = float(score)
    return pytrec_eval.RelevanceEvaluator(qrels, {"Rprec", "bpref"}).evaluate(run)


def recommenders_values(case):
    import pandas as pd
    from recommenders.evaluation import python_evaluation as evaluation

    rating_pred = pd.DataFrame(case["predictions"], columns=["userID", "itemID", "prediction"])
    rating_true = pd.DataFrame(case["truth"], columns=["userID", "itemID", "rating"]).astype({"rating": float})
    values = {}
    for k in case["ks"]:
        for name, function, extra in (("ndcg", evaluation.ndcg_at_k, {}),
                                      ("ndcg_raw", evaluation.ndcg_at_k, {"score_type": "raw"}),
                                      ("ndcg_exp", evaluation.ndcg_at_k, {"score_type": "exp"}),
                                      ("precision", evaluation.precision_at_k, {}),
                                      ("recall", evaluation.recall_at_k, {})):
            values[f"{name}@{k}"] = float(function(rating_true, rating_pred, relevancy_method="top_k", k=k, **extra))
    return values


def tied(case):
    """The case with its scores cut to one decimal, so that lists hold ties."""
    return {**case, "predictions": [[user, item, round(score, 1)] for user, item, score in case["predictions"]]}


def sklearn_values(case):
    """ndcg_score, which averages over tied scores (its default), per k: the mean over the lists of
    two items or more."""
    from sklearn.metrics import ndcg_score

    grades = {(user, item): grade for user, item, grade in case["truth"]}
    lists = {}
    for user, item, score in case["predictions"]:
        lists.setdefault(user, []).append((item, score))
    values = {}
    for k in case["ks"]:
        per_user = [ndcg_score([[max(grades.get((user, item), 0), 0) for item, _ in entries]],
                               [[score for _, score in entries]], k=k)
                    for user, entries in lists.items() if len(entries) >= 2]
        values[f"ndcg@{k}"] = sum(per_user) / len(per_user) if per_user else None
    return values


def sklearn_auc_values(case):
    """Per user and k: scikit-learn's roc_auc_score over the list's first k items by score, the
    relevant ones (grade >= 1) the positives; users whose first k items are all of one class,
    which roc_auc_score refuses, are left out."""
    from sklearn.metrics import roc_auc_score

    grades = {(user, item): grade for user, item, grade in case["truth"]}
    lists = {}
    for user, item, score in case["predictions"]:
        lists.setdefault(user, []).append((score, item))
    values = {}
    for k in case["ks"]:
        for user, entries in lists.items():
            first = sorted(entries, reverse=True)[:k]
            labels = [int(grades.get((user, item), 0) >= 1) for _, item in first]
            if 0 < sum(labels) < len(labels):
                values.setdefault(f"auc@{k}", {})[str(user)] = float(roc_auc_score(labels, [score for score, _ in first]))
    return values


def torchmetrics_values(case, metrics=("ndcg", "precision", "recall", "mrr", "hit_rate", "map")):
    """torchmetrics' retrieval metrics per k over flat tensors (a row per listed item, its user the
    query index), relevant: grade >= 1; NDCG takes the grades. It computes in float32 (its
    tie-averaged DCG makes float32 tensors whatever the input's dtype)."""
    import torch
    from torchmetrics import retrieval

    classes = {"ndcg": retrieval.RetrievalNormalizedDCG, "precision": retrieval.RetrievalPrecision,
               "recall": retrieval.RetrievalRecall, "mrr": retrieval.RetrievalMRR,
               "hit_rate": retrieval.RetrievalHitRate, "map": retrieval.RetrievalMAP}
    grades = {(user, item): grade for user, item, grade in case["truth"]}
    queries = {user: number for number, user in enumerate(sorted({user for user, _, _ in case["predictions"]}))}
    preds = torch.tensor([score for _, _, score in case["predictions"]], dtype=torch.float64)
    target = torch.tensor([max(grades.get((user, item), 0), 0) for user, item, _ in case["predictions"]])
    indexes = torch.tensor([queries[user] for user, _, _ in case["predictions"]])
    return {f"{name}@{k}": float(classes[name](top_k=k)(preds, target if name == "ndcg" else target > 0, indexes=indexes))
            for k in case["ks"] for name in metrics}


def ir_measures_values(case):
    """Per user: ERR@k from gdeval (the TREC Web track's script, its largest grade fixed at 4) and
    RBP (p 0.8, relevant = grade >= 1, the whole list) from cwl_eval, through ir_measures."""
    import ir_measures
    from ir_measures import ERR, RBP, Qrel, ScoredDoc

    qrels = [Qrel(str(user), item, grade) for user, item, grade in case["truth"]]
    run = [ScoredDoc(str(user), item, score) for user, item, score in case["predictions"]]
    measures = [ERR @ k for k in case["ks"]] + [RBP(rel=1, p=0.8)]
    values = {}
    for value in ir_measures.iter_calc(measures, qrels, run):
        name = "rbp" if str(value.measure).startswith("RBP") else f"err@{str(value.measure).split('@')[1]}"
        values.setdefault(name, {})[value.query_id] = float(value.value)
    return values


def cwl_rbp_residual(case):
    """Per user with a list: cwl_eval's RBP (p 0.8) residual, the upper bound's expected utility
    less the lower's, unjudged items (no qrel) counted relevant in the upper, the ranking padded
    to cwl's depth of 1000 with relevant items; judged items' gains 1 (grade >= 1) or 0."""
    import math

    from cwl.ruler.measures.cwl_rbp import RBPCWLMetric
    from cwl.ruler.ranking import Ranking

    grades = {(user, item): grade for user, item, grade in case["truth"]}
    lists = {}
    for user, item, score in case["predictions"]:
        lists.setdefault(user, []).append((score, item))
    values = {}
    for user, entries in lists.items():
        gains = [math.nan if (user, item) not in grades else float(grades[user, item] >= 1)
                 for _, item in sorted(entries, reverse=True)]
        metric = RBPCWLMetric(theta=0.8)
        metric.residuals = True
        metric.measure(Ranking(str(user), gains, [1.0] * len(gains)))
        values[str(user)] = float(metric.residual_expected_utility)
    return values


def spark_values(cases):
    from pyspark.mllib.evaluation import RankingMetrics
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
               .config("spark.sql.shuffle.partitions", "2").getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    results = []
    for case in cases:
        labels, lists = {}, {}
        for user, item, _ in case["truth"]:
            labels.setdefault(user, []).append(item)
        for user, item, score in case["predictions"]:
            lists.setdefault(user, []).append((score, item))
        pairs = [([item for _, item in sorted(entries, reverse=True)], labels.get(user, []))
                 for user, entries in lists.items()]
        metrics = RankingMetrics(session.sparkContext.parallelize(pairs, 2))
        results.append({f"{name}@{k}": float(getattr(metrics, method)(k)) for k in case["ks"]
                        for name, method in (("ndcg", "ndcgAt"), ("precision", "precisionAt"), ("recall", "recallAt"))})
    session.stop()
    return results


if __name__ == "__main__":
    cases = json.load(sys.stdin)
    spark = spark_values(cases)
    print(json.dumps([{"ranx": ranx_values(case), "ranx_r_precision": ranx_r_precision(case),
                       "ranx_bpref": ranx_bpref(case), "pytrec_eval": pytrec_eval_values(case),
                       "recommenders": recommenders_values(case),
                       "sklearn": sklearn_values(case), "sklearn_tied": sklearn_values(tied(case)),
                       "sklearn_auc": sklearn_auc_values(case), "spark": spark[index],
                       "torchmetrics": torchmetrics_values(case),
                       "torchmetrics_tied": torchmetrics_values(tied(case), metrics=["ndcg"]),
                       "ir_measures": ir_measures_values(case), "cwl_rbp_residual": cwl_rbp_residual(case)}
                      for index, case in enumerate(cases)]))
