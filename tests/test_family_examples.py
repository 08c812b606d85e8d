"""SPEC §6's worked examples, through the Python API and the command line, and the bad input of
§6: unknown or no metrics, a threshold that is not a number, a grade column that is not numeric."""

import json
import math
from decimal import Decimal
from fractions import Fraction

import pandas as pd
import pytest

import rank_metrics
from rank_metrics import RankMetricsError

from test_cli import run

COLUMNS = ["precision", "recall", "ndcg", "reciprocal_rank", "hit", "average_precision"]

# grades a=3, b=2, c=1, d=0; the list c x a b e
GRADED = pd.DataFrame({"user_id": [1] * 4, "item_id": list("abcd"), "relevance": [3, 2, 1, 0]})
BINARY = pd.DataFrame({"user_id": [1] * 3, "item_id": list("abc")})


def ranked(items):
    return pd.DataFrame({"user_id": [1] * len(items), "item_id": list(items), "rank": range(1, len(items) + 1)})


# (case, list, truth, options, k, expected values in COLUMNS order; None where SPEC gives none)
EXAMPLES = [
    ("graded, defaults", "cxabe", GRADED, {}, 1, [1, 0.333333, 0.333333, 1, 1, 1]),
    ("graded, defaults", "cxabe", GRADED, {}, 3, [0.666667, 0.666667, 0.525005, 1, 1, 0.555556]),
    ("graded, defaults", "cxabe", GRADED, {}, 5, [0.6, 1, 0.705891, 1, 1, 0.805556]),
    ("exponential gain", "cxabe", GRADED, {"gain": "exponential"}, 3, [None, None, 0.479091, None, None, None]),
    ("exponential gain", "cxabe", GRADED, {"gain": "exponential"}, 5, [None, None, 0.616646, None, None, None]),
    ("binary truth", "cxabe", BINARY, {}, 3, [0.666667, 0.666667, 0.703918, 1, 1, 0.555556]),
    ("binary truth", "cxabe", BINARY, {}, 5, [0.6, 1, 0.906025, 1, 1, 0.805556]),
    ("relevance_threshold=2", "cxabe", GRADED, {"relevance_threshold": 2}, 3, [0.333333, 0.5, 0.525005, 0.333333, 1, 0.166667]),
    ("relevance_threshold=2", "cxabe", GRADED, {"relevance_threshold": 2}, 5, [0.4, 1, 0.705891, 0.333333, 1, 0.416667]),
    ("listed truth", "cxb", GRADED, {"truth_scope": "listed"}, 3, [0.666667, 1, 0.760188, 1, 1, 0.833333]),
    ("precision over the list", "cxb", GRADED, {"precision_denominator": "list_length"}, 5,
     [0.666667, 0.666667, 0.420004, 1, 1, 0.555556]),
    ("recall over min(m, k)", "cxabe", GRADED, {"recall_denominator": "min_m_k"}, 1, [1, 1, 0.333333, 1, 1, 1]),
]

REPEATS_TRUTH = pd.DataFrame({"user_id": [1, 1], "item_id": ["a", "b"]})
# (duplicates, precision, recall, ndcg, reciprocal_rank, AP) for truth a b, list x a a b, k = 4
REPEATS = [("first", 0.5, 1, 0.650921, 0.5, 0.5), ("all", 0.75, 1.5, 0.957495, 0.5, 0.958333)]


@pytest.mark.parametrize("case, items, truth, options, k, values", EXAMPLES, ids=[f"{e[0]}@{e[4]}" for e in EXAMPLES])
def test_worked_examples_per_user(case, items, truth, options, k, values):
    row = rank_metrics.evaluate_users(ranked(items), truth, k=k, check=True, **options).iloc[0]
    for column, value in zip(COLUMNS, values):
        if value is not None:
            assert row[column] == pytest.approx(value, abs=5e-7), column


@pytest.mark.parametrize("case, items, truth, options, k, values", EXAMPLES, ids=[f"{e[0]}@{e[4]}" for e in EXAMPLES])
def test_worked_examples_through_each_metric_function(case, items, truth, options, k, values):
    functions = [rank_metrics.precision_at_k, rank_metrics.recall_at_k, rank_metrics.ndcg_at_k,
                 rank_metrics.mrr_at_k, rank_metrics.hit_rate_at_k, rank_metrics.map_at_k]
    for function, value in zip(functions, values):
        if value is not None:
            assert function(ranked(items), truth, k=k, check=True, **options) == pytest.approx(value, abs=5e-7)


@pytest.mark.parametrize("duplicates, precision, recall, ndcg, reciprocal_rank, average_precision", REPEATS)
def test_repeats(duplicates, precision, recall, ndcg, reciprocal_rank, average_precision):
    row = rank_metrics.evaluate_users(ranked("xaab"), REPEATS_TRUTH, k=4, duplicates=duplicates, check=True).iloc[0]
    assert [row[column] for column in COLUMNS] == pytest.approx(
        [precision, recall, ndcg, reciprocal_rank, 1, average_precision], abs=5e-7)


def test_evaluate_has_a_row_per_metric_in_the_family_order():
    got = rank_metrics.evaluate(ranked("cxabe"), GRADED, k=[3, 1], metrics=["ndcg", "map", "hit_rate"], check=True)
    assert got[["k", "metric"]].values.tolist() == [[1, "map"], [1, "ndcg"], [1, "hit_rate"],
                                                   [3, "map"], [3, "ndcg"], [3, "hit_rate"]]
    assert list(got.value) == pytest.approx([1, 0.333333, 1, 0.555556, 0.525005, 1], abs=5e-7)
    assert set(got.n_users) == {1}


def test_worked_example_through_the_command_line(tmp_path):
    predictions, truth = tmp_path / "predictions.csv", tmp_path / "truth.csv"
    ranked("cxabe").to_csv(predictions, index=False)
    GRADED.to_csv(truth, index=False)
    code, out, err = run("evaluate", str(predictions), str(truth), "-k", "1", "3", "5", "--format", "json", "--check")
    assert (code, err) == (0, "")
    values = {(row["k"], row["metric"]): row["value"] for row in json.loads(out)}
    assert [values[5, metric] for metric in ("precision", "recall", "ndcg", "mrr", "hit_rate", "map")] == \
        pytest.approx([0.6, 1, 0.705891, 1, 1, 0.805556], abs=5e-7)
    code, out, err = run("ndcg-at-k", str(predictions), str(truth), "-k", "3", "5", "--gain", "exponential",
                             "--format", "csv")
    assert code == 0 and out.splitlines()[0] == "k,ndcg_at_k,n_users"
    assert [float(line.split(",")[1]) for line in out.splitlines()[1:]] == pytest.approx([0.479091, 0.616646], abs=5e-7)
    code, out, err = run("evaluate-users", str(predictions), str(truth), "-k", "3", "--relevance-threshold", "2",
                             "--metrics", "precision", "mrr", "--format", "csv")
    assert code == 0
    assert out.splitlines() == ["user_id,k,precision,reciprocal_rank,n_relevant,n_hits",
                                f"1,3,{1 / 3},{1 / 3},2,1"]


@pytest.mark.parametrize("metrics, message", [
    (["ndcg", "dcg"], "metrics: unknown metric 'dcg' (did you mean 'ndcg'?); the metrics are 'map', 'ndcg', 'precision', "
                      "'recall', 'mrr', 'hit_rate', 'rbp', 'rbp_residual', 'err', 'auc', 'r_precision', 'bpref'"),
    ([], "metrics must name at least one of 'map', 'ndcg'"),
    ("precision@k", "metrics: unknown metric 'precision@k'"),
    # text is quoted as Python's repr quotes it (a review: 'it's' and 'a\b' were shown bare)
    (["it's"], "metrics: unknown metric \"it's\"; the metrics"),
    (["a\\b\tc"], "metrics: unknown metric 'a\\\\b\\tc'; the metrics"),
    (["say 'hi' \"now\""], "metrics: unknown metric 'say \\'hi\\' \"now\"'; the metrics"),
])
def test_unknown_or_no_metrics(metrics, message):
    with pytest.raises(RankMetricsError) as error:
        rank_metrics.evaluate(ranked("cxabe"), GRADED, k=3, metrics=metrics)
    assert message in str(error.value)


@pytest.mark.parametrize("threshold, shown", [("2", "'2'"), (float("nan"), "nan"), (float("inf"), "inf"), (True, "True"),
                                               # 1/3 in SQL is 0 on PostgreSQL; (1+2j) a syntax error (issue 40)
                                               (Fraction(1, 3), "1/3"), (1 + 2j, r"\(1\+2j\)"), (Decimal("NaN"), "NaN")])
def test_relevance_threshold_must_be_a_finite_number(threshold, shown):
    with pytest.raises(RankMetricsError,
                       match=f"relevance_threshold must be a finite number \\(such as 2 or 0.5\\); got {shown}$"):
        rank_metrics.ndcg_at_k(ranked("cxabe"), GRADED, k=3, relevance_threshold=threshold)


@pytest.mark.parametrize("threshold", [0, 1, 2])
def test_a_threshold_without_grades_is_an_error(threshold):
    """Truth with no grade column read has grade 1 on every row, so a threshold changes nothing
    (at most 1) or leaves no relevant item (above 1), without a word: trec_eval's -l given for
    qrels whose grade column was not named (a new user's report: P@10 1.0 against trec_eval's 0.3)."""
    with pytest.raises(RankMetricsError) as error:
        rank_metrics.precision_at_k(ranked("cxabe"), BINARY, k=3, relevance_threshold=threshold)
    assert str(error.value) == (f"rank_metrics: relevance_threshold {threshold} applies to grades, but no grade column of "
                                "truth is read: name it with relevance= (truth's columns are: user_id, item_id); "
                                "without grades every truth row is relevant")
    lists = pd.DataFrame({"user_id": [1], "item_id": [["a", "b", "c"]]})
    with pytest.raises(RankMetricsError, match="relevance_threshold 2 applies to grades, but list-shaped truth has none"):
        rank_metrics.precision_at_k(ranked("cxabe"), lists, k=3, relevance_threshold=2)
    # with the grade column read, the threshold applies (SPEC §6's worked example)
    assert rank_metrics.precision_at_k(ranked("cxabe"), GRADED, k=3, relevance_threshold=2) == pytest.approx(1 / 3)


def test_the_cli_names_a_threshold_without_grades(tmp_path):
    ranked("cxabe").to_csv(tmp_path / "p.csv", index=False)
    BINARY.to_csv(tmp_path / "t.csv", index=False)
    code, out, err = run("evaluate", str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "3",
                         "--relevance-threshold", "2")
    assert code == 2 and out == ""
    assert "relevance_threshold 2 applies to grades, but no grade column of truth is read" in err


def test_grade_column_must_be_numeric():
    with pytest.raises(RankMetricsError, match=r"column relevance \(argument relevance\) of truth is VARCHAR"):
        rank_metrics.ndcg_at_k(ranked("cxabe"), GRADED.astype({"relevance": str}), k=3)


@pytest.mark.parametrize("option, value", [("gain", "log"), ("gain_from", "all"), ("precision_denominator", "n"),
                                           ("recall_denominator", "k"), ("truth_scope", "ranked")])
def test_unknown_family_option_values(option, value):
    with pytest.raises(RankMetricsError, match=rf"{option} must be one of .*; got '{value}'"):
        rank_metrics.evaluate(ranked("cxabe"), GRADED, k=3, **{option: value})


def test_unknown_argument_is_named():
    with pytest.raises(RankMetricsError, match="unknown argument 'gains'"):
        rank_metrics.ndcg_at_k(ranked("cxabe"), GRADED, k=3, gains="linear")


def test_the_cli_rejects_a_threshold_that_is_not_a_number(tmp_path):
    code, _, err = run("evaluate", "p.csv", "t.csv", "-k", "3", "--relevance-threshold", "high")
    assert code == 2 and "argument --relevance-threshold: expected a number; got 'high'" in err


@pytest.mark.parametrize("grades, gain", [
    ([100, 50], "exponential"),   # 2^100: past the decimal DuckDB summed DCG in (a review: a raw ConversionException)
    ([1000, 3], "exponential"),   # the largest grade exponential gain takes
    ([66, 66], "exponential"),    # each gain fits the decimal, their sum does not (found in review)
    ([9e19, 9e19], "linear"),
    ([3e20, 1e20], "linear"),
    ([2e-20, 1e-20], "linear"),   # rounded to 0 in that decimal: NDCG 0.0 and a false "no relevant item" warning
    ([3e-13, 1.3e-13], "linear"),  # rounded to 1e-18: 1e-7 off
])
def test_ndcg_of_grades_of_any_size(grades, gain, recwarn):
    truth = pd.DataFrame({"user_id": [1, 1], "item_id": ["a", "b"], "relevance": grades})
    def gained(grade):
        return 2.0 ** grade - 1 if gain == "exponential" else grade
    # the list puts the lesser grade first: DCG = g(b)/1 + g(a)/log2(3), IDCG the other way round
    expected = (gained(grades[1]) + gained(grades[0]) / math.log2(3)) / (gained(grades[0]) + gained(grades[1]) / math.log2(3))
    value = rank_metrics.ndcg_at_k(ranked("ba"), truth, k=2, gain=gain, check=True)
    assert value == pytest.approx(expected, rel=1e-12)
    assert not [warning for warning in recwarn if "rank_metrics" in str(warning.message)]


def test_exponential_gain_past_grade_1000_is_an_error():
    """2^1100 - 1 is no double: DCG was inf and NDCG NaN (DuckDB refused to cast the NaN)."""
    truth = pd.DataFrame({"user_id": [1, 1], "item_id": ["a", "b"], "relevance": [1100, 1]})
    with pytest.raises(RankMetricsError, match=r"^rank_metrics: relevance: truth has grade 1100 in column relevance; under "
                       r"gain='exponential' a grade adds 2\^grade - 1, which past grade 1000 is no longer a finite double: "
                       r"grades must be at most 1000 \(or use gain='linear'\)$"):
        rank_metrics.evaluate(ranked("ba"), truth, k=2, gain="exponential")
    # linear gain takes the same grades
    assert rank_metrics.ndcg_at_k(ranked("ba"), truth, k=2) == pytest.approx((1 + 1100 / math.log2(3)) / (1100 + 1 / math.log2(3)))
    assert rank_metrics.evaluate(ranked("ba"), truth, k=2, metrics=["map", "recall"]).value.tolist() == [1.0, 1.0]
