"""trec_eval's own test data: convention='trec_eval' reproduces its map_cut numbers, and its
gm_map with mean='geometric'.

Expected values: trec_eval's test/out.test.a for these inputs (map_cut_*, gm_map, 4 decimals;
usnistgov/trec_eval at f4253652c8efd0d86ddffd0d163cc0a0f813111a)."""

import pandas as pd
import pytest

import rank_metrics

MAP_CUT = {5: 0.0154, 10: 0.0259, 15: 0.0425, 20: 0.0591, 30: 0.0795, 100: 0.1622,
           200: 0.1711, 500: 0.1785, 1000: 0.1785}


def read(folder):
    qrels = pd.read_csv(folder / "qrels.test", sep=r"\s+", header=None,
                        names=["topic", "iteration", "doc", "relevance"], dtype={"topic": str})
    results = pd.read_csv(folder / "results.test", sep=r"\s+", header=None,
                          names=["topic", "q0", "doc", "rank", "score", "run"], dtype={"topic": str})
    return results, qrels


def test_map_cut_matches_trec_eval(trec_eval_data):
    results, qrels = read(trec_eval_data)
    got = rank_metrics.map_at_k(results, qrels, k=list(MAP_CUT), user="topic", item="doc",
                                score="score", convention="trec_eval", check=True)
    assert list(got.k) == list(MAP_CUT)
    assert list(got.map_at_k) == pytest.approx(list(MAP_CUT.values()), abs=5e-5)
    assert set(got.n_users) == {3}


def test_relevance_column_is_found_by_name(trec_eval_data):
    # qrels grade 0 rows are judged non-relevant: without the grade, every judged doc would count
    results, qrels = read(trec_eval_data)
    graded = rank_metrics.map_at_k(results, qrels, k=1000, user="topic", item="doc", score="score",
                                   convention="trec_eval")
    ungraded = rank_metrics.map_at_k(results, qrels.rename(columns={"relevance": "grade"}), k=1000,
                                     user="topic", item="doc", score="score", convention="trec_eval")
    assert graded == pytest.approx(0.1785, abs=5e-5)
    assert ungraded != pytest.approx(graded, abs=1e-3)


def test_gm_map_is_the_geometric_mean_of_ap(trec_eval_data):
    """trec_eval's gm_map: exp of the mean of ln(max(AP, 1e-5)) over the topics, 0.1051 (its
    APs 0.0324, 0.4175, 0.0858); evaluate's interval is that of the mean of the logs."""
    results, qrels = read(trec_eval_data)
    options = dict(user="topic", item="doc", score="score", convention="trec_eval", check=True)
    assert rank_metrics.map_at_k(results, qrels, k=1000, mean="geometric", **options) == pytest.approx(0.1051, abs=5e-5)
    (row,) = rank_metrics.evaluate(results, qrels, k=1000, metrics="map", mean="geometric", **options).itertuples()
    assert row.value == pytest.approx(0.1051, abs=5e-5) and row.n_users == 3
    assert row.ci_low < row.value < row.ci_high and row.ci_low > 0
    assert row.ci_low * row.ci_high == pytest.approx(row.value ** 2, rel=1e-12)   # symmetric in the logs
