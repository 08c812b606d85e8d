"""Comparisons that do not mislead (issue 43): the resampled tests give the same p-values every
run unless told otherwise, and the report says the seed it used."""

import random

import pandas as pd
import pytest

import rank_metrics

from test_cli import run


def forty_users():
    """40 users: 2^40 sign flips are far more than the 10,000 drawn, so both tests sample."""
    draw = random.Random(5)
    truth = pd.DataFrame([(user, f"i{item}") for user in range(40) for item in draw.sample(range(10), 2)],
                         columns=["user_id", "item_id"])
    predictions = pd.DataFrame([(model, user, f"i{item}", rank) for model in ("base", "new") for user in range(40)
                                for rank, item in enumerate(draw.sample(range(10), 4), start=1)],
                               columns=["model", "user_id", "item_id", "rank"])
    return predictions, truth


@pytest.mark.parametrize("test", ["permutation", "bootstrap"])
def test_resampled_p_values_are_the_same_every_run_by_default(test):
    """A report gave p 0.3141, then 0.3059 (no default seed): seed is 0 unless given, and None
    still draws fresh resamples."""
    predictions, truth = forty_users()

    def p_value(**seed):
        return rank_metrics.compare(predictions, truth, k=4, metrics="map", by="model", baseline="base", test=test,
                                    **seed).p_value.iloc[0]

    first = p_value()
    assert 0 < first < 1
    assert p_value() == first == p_value(seed=0)
    assert len({p_value(seed=None) for _ in range(4)}) > 1


def test_the_command_line_and_the_report_say_the_seed(tmp_path):
    predictions, truth = forty_users()
    predictions.to_csv(tmp_path / "p.csv", index=False)
    truth.to_csv(tmp_path / "t.csv", index=False)
    arguments = ("compare", str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "4", "--by", "model", "--baseline",
                 "base", "--metrics", "map", "--test", "permutation", "--format", "csv")
    code, first, _ = run(*arguments)
    assert code == 0 and run(*arguments)[1] == first
    page = rank_metrics.report(predictions, truth, k=4, by="model", baseline="base", test="permutation", metrics="map")
    assert "<tr><th>seed</th><td>0</td></tr>" in page


def two_users_worse():
    """Two users, the model one hit behind the baseline for both: the t test's differences are
    equal, their spread 0, and p = 0.000."""
    predictions = pd.DataFrame({"model": ["base", "base", "new", "new"], "user_id": [1, 2, 1, 2],
                                "item_id": ["a", "b", "x", "y"], "rank": [1, 1, 1, 1]})
    truth = pd.DataFrame({"user_id": [1, 2], "item_id": ["a", "b"]})
    return predictions, truth


def test_a_comparison_on_few_users_is_warned_of():
    predictions, truth = two_users_worse()
    with pytest.warns(rank_metrics.RankMetricsWarning, match=r"compare: model 'new' and the baseline 'base' pair only 2 users "
                      r"\(fewer than 30\): a p-value over so few users can call a chance difference significant; "
                      r"test='permutation' is exact up to 13 users"):
        result = rank_metrics.compare(predictions, truth, k=1, metrics="map", by="model", baseline="base")
    assert result.p_value.tolist() == [0.0] and result.n_users.tolist() == [2]
    # 30 users: no word
    many = pd.concat([predictions.assign(user_id=predictions.user_id + 2 * copy) for copy in range(15)])
    truth_many = pd.concat([truth.assign(user_id=truth.user_id + 2 * copy) for copy in range(15)])
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rank_metrics.compare(many, truth_many, k=1, metrics="map", by="model", baseline="base")


def test_fail_if_worse_does_not_fail_on_fewer_than_min_users(tmp_path):
    predictions, truth = two_users_worse()
    predictions.to_csv(tmp_path / "p.csv", index=False)
    truth.to_csv(tmp_path / "t.csv", index=False)
    arguments = ("compare", str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "1", "--by", "model", "--baseline",
                 "base", "--metrics", "map", "--fail-if-worse", "--format", "csv")
    code, _, err = run(*arguments)
    assert code == 0
    assert ("rank-metrics: warning: worse than the baseline 'base' but on fewer than --min-users 30 paired users, "
            "so not failed: new map@1 (2 users)") in err
    code, _, err = run(*arguments, "--min-users", "2")
    assert code == 4 and "rank-metrics: worse than the baseline 'base': new map@1" in err
