"""trec_eval's own test inputs (tests/data/trec_eval) for the family: P, recall, ndcg_cut,
recip_rank and success as trec_eval prints them (its published test outputs, 4 decimals) and as
trec_eval itself computes them per topic (pytrec_eval: trec_eval's C code as a Python module),
under convention='trec_eval'."""

import pytest
import pytrec_eval

import rank_metrics

from test_trec_eval import read

# trec_eval's test/out.test.a and test/out.test.meas_params: (metric, k) -> mean over the 3 topics
PUBLISHED = {("precision", 3): 0.2222, ("precision", 5): 0.2667, ("precision", 7): 0.3333,
             ("precision", 10): 0.3000, ("recall", 5): 0.0173, ("recall", 10): 0.0317,
             ("recall", 20): 0.1061, ("recall", 2000): 0.5997, ("ndcg", 5): 0.2768,
             ("ndcg", 10): 0.3016, ("ndcg", 20): 0.3525, ("ndcg", 23): 0.3429,
             ("mrr", 1000): 0.4064, ("hit_rate", 1): 0.3333, ("hit_rate", 2): 0.3333,
             ("hit_rate", 5): 0.3333, ("hit_rate", 10): 0.6667, ("hit_rate", 20): 1.0}
# test/out.test.aq, per topic
PUBLISHED_PER_TOPIC = {("301", "reciprocal_rank"): 0.1667, ("301", "precision"): 0.0, ("301", "ndcg"): 0.0,
                       ("302", "reciprocal_rank"): 1.0, ("302", "precision"): 0.8, ("302", "recall"): 0.0519,
                       ("302", "ndcg"): 0.8304, ("303", "reciprocal_rank"): 0.0526}
COLUMNS = dict(user="topic", item="doc", score="score", convention="trec_eval")
KS = [1, 2, 3, 5, 7, 10, 20, 23, 100, 1000, 2000]


@pytest.fixture(scope="module")
def inputs(trec_eval_data):
    results, qrels = read(trec_eval_data)
    return results[["topic", "doc", "score"]], qrels[["topic", "doc", "relevance"]]


def test_published_means(inputs):
    got = rank_metrics.evaluate(*inputs, k=sorted({k for _, k in PUBLISHED}), check=True, **COLUMNS)
    values = {(row.metric, row.k): row.value for row in got.itertuples()}
    assert set(got.n_users) == {3}
    for key, want in PUBLISHED.items():
        assert values[key] == pytest.approx(want, abs=5e-5), key


def test_published_per_topic(inputs):
    got = rank_metrics.evaluate_users(*inputs, k=[5, 1000], check=True, **COLUMNS)
    at = {(row.topic, row.k): row for row in got.itertuples()}
    for (topic, column), want in PUBLISHED_PER_TOPIC.items():
        k = 1000 if column == "reciprocal_rank" else 5   # trec_eval's recip_rank has no cutoff
        assert getattr(at[topic, k], column) == pytest.approx(want, abs=5e-5), (topic, column)


def test_equal_to_trec_eval_itself_per_topic(inputs):
    results, qrels = inputs
    run = {topic: dict(zip(group.doc, group.score.astype(float))) for topic, group in results.groupby("topic")}
    judged = {topic: dict(zip(group.doc, group.relevance.astype(int))) for topic, group in qrels.groupby("topic")}
    cutoffs = ",".join(map(str, KS))
    measures = {f"P.{cutoffs}", f"recall.{cutoffs}", f"ndcg_cut.{cutoffs}", f"success.{cutoffs}", "recip_rank"}
    trec_eval = pytrec_eval.RelevanceEvaluator(judged, measures).evaluate(run)
    got = rank_metrics.evaluate_users(*inputs, k=KS, check=True, **COLUMNS)
    assert sorted(set(got.topic)) == sorted(trec_eval) == ["301", "302", "303"]
    for row in got.itertuples():
        measured = trec_eval[row.topic]
        assert row.precision == pytest.approx(measured[f"P_{row.k}"], abs=1e-9)
        assert row.recall == pytest.approx(measured[f"recall_{row.k}"], abs=1e-9)
        assert row.ndcg == pytest.approx(measured[f"ndcg_cut_{row.k}"], abs=1e-9)
        assert row.hit == pytest.approx(measured[f"success_{row.k}"], abs=1e-9)
        if row.k >= 500:   # the longest list: recip_rank has no cutoff
            assert row.reciprocal_rank == pytest.approx(measured["recip_rank"], abs=1e-9)
