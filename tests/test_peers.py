"""The family against the real peers on random inputs: ranx (ndcg, ndcg_burges, precision,
recall, mrr, hit_rate, r-precision, bpref), pytrec_eval (Rprec, bpref), recommenders (ndcg_at_k
with each score_type, precision_at_k, recall_at_k), pyspark's RankingMetrics (ndcgAt, precisionAt,
recallAt), scikit-learn's ndcg_score (tied scores too) and roc_auc_score (AUC per user),
torchmetrics (its six retrieval metrics; RetrievalNormalizedDCG on tied scores too),
ir_measures (ERR@k from gdeval, RBP from cwl_eval) and cwl_eval (RBP's residual), each equal to
rank_metrics under its convention and the options SPEC §6 and §6b name.

The peers live in the bench's venv (bench/.venv: their dependencies pin other versions than
ours); tests/peers/peer_values.py runs there, once for every case. Scores are distinct within a
list (no peer breaks ties as we do) and no list repeats an item (a ranx run cannot)."""

import random

import pandas as pd
import pytest

import rank_metrics

from conftest import early_fixture, peer_numbers

CASES = 30


def random_case(seed):
    draw = random.Random(seed)
    items = [f"i{number:02d}" for number in range(25)]
    predictions, truth = [], []
    for user in range(1, draw.randint(2, 12)):
        if draw.random() < 0.85:   # some users have no list
            listed = draw.sample(items, draw.randint(1, 8))
            scores = draw.sample(range(1, 1000), len(listed))
            predictions += [[user, item, score / 1000] for item, score in zip(listed, scores)]
        if draw.random() < 0.8:    # some have no truth; grades 0..3, 0 judged non-relevant
            judged = draw.sample(items, draw.randint(1, 6))
            truth += [[user, item, draw.randint(0, 3)] for item in judged]
    if not any(grade > 0 for *_, grade in truth):
        truth.append([1, items[0], 1])
    if not predictions:
        predictions.append([1, items[0], 0.5])
    return {"predictions": predictions, "truth": truth, "ks": sorted(draw.sample([1, 2, 3, 5, 10], 3))}


@early_fixture
def cases():
    """The cases and the peers' numbers for them, computed beside the tests from the session's
    start (the peers' venv takes a minute: numba compiles ranx, pyspark starts a JVM)."""
    cases = [random_case(seed) for seed in range(CASES)]
    return list(zip(cases, peer_numbers("peer_values.py", cases)))


def frames(case, graded=True):
    predictions = pd.DataFrame(case["predictions"], columns=["user_id", "item_id", "score"])
    truth = pd.DataFrame(case["truth"], columns=["user_id", "item_id", "relevance"])
    return predictions, truth if graded else truth.drop(columns="relevance")


def ours(predictions, truth, case, metrics, **options):
    got = rank_metrics.evaluate(predictions, truth, k=case["ks"], metrics=metrics, check=True, **options)
    return {f"{row.metric}@{row.k}": row.value for row in got.itertuples()}


def test_ranx(cases):
    for case, peers in cases:
        predictions, truth = frames(case)
        got = ours(predictions, truth, case, ["ndcg", "precision", "recall", "mrr", "hit_rate"], convention="ranx")
        burges = ours(predictions, truth, case, ["ndcg"], convention="ranx", gain="exponential")
        got.update({name.replace("ndcg", "ndcg_burges"): value for name, value in burges.items()})
        assert got == pytest.approx(peers["ranx"], rel=1e-9, abs=1e-12), case


def test_ranx_r_precision(cases):
    """ranx's r-precision, which takes no k, under its convention: the mean over qrels' queries."""
    for case, peers in cases:
        predictions, truth = frames(case)
        got = rank_metrics.r_precision(predictions, truth, convention="ranx", check=True)
        assert got == pytest.approx(peers["ranx_r_precision"], rel=1e-9, abs=1e-12), case


def test_ranx_bpref(cases):
    """ranx's bpref per query with a list, under ranx's convention, where ranx gives a number.
    Where it gives NaN (ranx issue #66) the query has no judged non-relevant item or no relevant
    one, and bpref is trec_eval's: the relevant items retrieved over R (each term 1, as none is
    ranked below a non-relevant item), 0 when R = 0."""
    compared = 0
    for case, peers in cases:
        predictions, truth = frames(case)
        got = rank_metrics.evaluate_users(predictions, truth, k=1, metrics="bpref", convention="ranx", check=True)
        got = dict(zip(got.user_id.astype(str), got.bpref))
        for user, want in peers["ranx_bpref"].items():
            judged = truth[truth.user_id.astype(str) == user]
            relevant = set(judged[judged.relevance > 0].item_id)
            if want is None:
                assert len(relevant) == 0 or len(relevant) == len(judged), case
                listed = set(predictions[predictions.user_id.astype(str) == user].item_id)
                want = len(listed & relevant) / len(relevant) if relevant else 0.0
            else:
                compared += 1
            assert got[user] == pytest.approx(want, rel=1e-9, abs=1e-12), (case, user)
    assert compared > 20


def test_pytrec_eval_rprec_and_bpref_per_query(cases):
    """pytrec_eval (trec_eval's code) per query it evaluates, the queries of both the run and qrels:
    R-precision and bpref under the trec_eval convention."""
    compared = 0
    for case, peers in cases:
        predictions, truth = frames(case)
        got = rank_metrics.evaluate_users(predictions, truth, k=1, metrics=["r_precision", "bpref"], convention="trec_eval",
                                          check=True)
        got = {(str(row.user_id), name): value for row in got.itertuples()
               for name, value in (("Rprec", row.r_precision), ("bpref", row.bpref))}
        want = {(query, name): value for query, values in peers["pytrec_eval"].items() for name, value in values.items()}
        assert got == pytest.approx(want, rel=1e-9, abs=1e-12), case
        compared += len(got)
    assert compared >= CASES


def test_recommenders(cases):
    for case, peers in cases:
        predictions, truth = frames(case)
        want = peers["recommenders"]
        # precision and recall: users in both tables, every truth row relevant whatever its rating
        got = ours(predictions, truth, case, ["precision", "recall"], convention="recommenders", relevance_threshold=0)
        # ndcg_at_k averages over truth users; its binary score_type sees no grades
        got.update(ours(predictions, truth.drop(columns="relevance"), case, ["ndcg"],
                        convention="recommenders", users="truth"))
        for score_type, gain in (("raw", "linear"), ("exp", "exponential")):
            got.update({name.replace("ndcg", f"ndcg_{score_type}"): value for name, value in ours(
                predictions, truth, case, ["ndcg"], convention="recommenders", users="truth", gain=gain).items()})
        assert got == pytest.approx(want, rel=1e-9, abs=1e-12), case


def test_spark_ranking_metrics(cases):
    for case, peers in cases:
        predictions, truth = frames(case, graded=False)   # pyspark's wrapper drops the grades
        got = ours(predictions, truth, case, ["ndcg", "precision", "recall"], convention="spark")
        assert got == pytest.approx(peers["spark"], rel=1e-9, abs=1e-12), case


def test_ir_measures_err_from_gdeval_and_rbp_from_cwl_eval(cases):
    """ERR@k equals gdeval's (max_grade=4, its fixed largest grade) and RBP cwl_eval's (p 0.8,
    relevant = grade >= 1, the whole list: k 10 is past every list here), user by user, for each
    user the peer scores (a user with a list and truth). gdeval prints ERR with 5 decimals, so
    its numbers are equal to within half of the fifth decimal's unit."""
    compared = 0
    for case, peers in cases:
        predictions, truth = frames(case)
        want = peers["ir_measures"]
        users = rank_metrics.evaluate_users(predictions, truth, k=sorted({*case["ks"], 10}), metrics=["err", "rbp"],
                                            users="union", max_grade=4, check=True)
        got = {(str(row.user_id), row.k): (row.err, row.rbp) for row in users.itertuples()}
        for k in case["ks"]:
            for user, value in want.get(f"err@{k}", {}).items():
                assert got[user, k][0] == pytest.approx(value, rel=0, abs=5.0000001e-6), (case, user, k)
                compared += 1
        for user, value in want.get("rbp", {}).items():
            assert got[user, 10][1] == pytest.approx(value, rel=1e-9, abs=1e-12), (case, user)
            compared += 1
    assert compared >= CASES * 3


def test_cwl_eval_rbp_residual(cases):
    """RBP's residual equals cwl_eval's (p 0.8, relevant = grade >= 1) for every user with a list,
    at a k past every list (cwl reads the whole list, padded to its depth of 1000 with unjudged
    positions, as a position past a list's end counts here)."""
    compared = 0
    for case, peers in cases:
        predictions, truth = frames(case)
        users = rank_metrics.evaluate_users(predictions, truth, k=10, metrics=["rbp", "rbp_residual"], users="predictions",
                                            check=True)
        got = dict(zip(users.user_id.astype(str), users.rbp_residual))
        assert got == pytest.approx(peers["cwl_rbp_residual"], rel=1e-9, abs=1e-12), case
        compared += len(got)
    assert compared >= CASES * 3


def test_sklearn_ndcg_score_on_the_predicted_items(cases):
    compared = 0
    for case, peers in cases:
        predictions, truth = frames(case)
        # ndcg_score rejects one-item lists: its mean covers lists of two or more
        sizes = predictions.groupby("user_id").item_id.transform("size")
        predictions = predictions[sizes >= 2]
        if predictions.empty:
            assert all(value is None for value in peers["sklearn"].values())
            continue
        got = ours(predictions, truth, case, ["ndcg"], truth_scope="listed", users="predictions")
        assert got == pytest.approx(peers["sklearn"], rel=1e-9, abs=1e-12), case
        compared += 1
    assert compared >= CASES // 2


def test_sklearn_ndcg_score_averages_tied_scores_as_the_sklearn_preset(cases):
    """The scores cut to one decimal, so that lists hold ties: ndcg_score averages the discounts
    of a tie group's positions (SPEC §6b's ties by expectation), as the sklearn convention does."""
    compared = 0
    for case, peers in cases:
        # as tests/peers/peer_values.py's tied() cuts them (Python's round, not pandas')
        predictions, truth = frames({**case, "predictions": [[user, item, round(score, 1)]
                                                            for user, item, score in case["predictions"]]})
        predictions = predictions[predictions.groupby("user_id").item_id.transform("size") >= 2]
        if predictions.empty:
            continue
        tied = predictions.duplicated(["user_id", "score"], keep=False).any()
        got = ours(predictions, truth, case, ["ndcg"], convention="sklearn")
        assert got == pytest.approx(peers["sklearn_tied"], rel=1e-9, abs=1e-12), case
        compared += tied
    assert compared >= CASES // 3


def test_torchmetrics(cases):
    """torchmetrics' retrieval metrics under its convention. It computes in float32 (its NDCG
    whatever the input's dtype), so the numbers agree to float32's precision, not float64's."""
    for case, peers in cases:
        predictions, truth = frames(case)
        got = ours(predictions, truth, case, ["ndcg", "precision", "recall", "mrr", "hit_rate", "map"],
                   convention="torchmetrics")
        assert got == pytest.approx(peers["torchmetrics"], rel=1e-6, abs=1e-7), case


def test_torchmetrics_ndcg_averages_tied_scores(cases):
    """RetrievalNormalizedDCG averages a tie group's discounts, as tie_break='average' does; its
    convention's duplicates='all' gives way to 'error' (ties by expectation need each item once,
    and no list here repeats one). One-item lists count, as torchmetrics counts them."""
    compared = 0
    for case, peers in cases:
        predictions, truth = frames({**case, "predictions": [[user, item, round(score, 1)]
                                                            for user, item, score in case["predictions"]]})
        got = ours(predictions, truth, case, ["ndcg"], convention="torchmetrics", tie_break="average", duplicates="error")
        assert got == pytest.approx(peers["torchmetrics_tied"], rel=1e-6, abs=1e-7), case
        compared += predictions.duplicated(["user_id", "score"], keep=False).any()
    assert compared >= CASES // 3


def test_sklearn_roc_auc_score_per_user(cases):
    """AUC@k user by user equals roc_auc_score over the list's first k items (relevant: grade >= 1),
    for exactly the users roc_auc_score scores (both classes within k); the others have no value,
    and GAUC, the mean, is over the users with one."""
    compared = 0
    for case, peers in cases:
        predictions, truth = frames(case)
        users = rank_metrics.evaluate_users(predictions, truth, k=case["ks"], metrics="auc", users="predictions",
                                            check=True)
        got = {(str(row.user_id), row.k): row.auc for row in users.itertuples() if row.auc == row.auc}
        want = {(user, int(name.split("@")[1])): value for name, values in peers["sklearn_auc"].items()
                for user, value in values.items()}
        assert got == pytest.approx(want, rel=1e-12, abs=1e-15), case
        means = ours(predictions, truth, case, ["auc"], users="predictions")
        for k in case["ks"]:
            scored = [value for (_, at), value in want.items() if at == k]
            if scored:
                assert means[f"auc@{k}"] == pytest.approx(sum(scored) / len(scored), rel=1e-12), case
        compared += len(want)
    assert compared >= CASES
