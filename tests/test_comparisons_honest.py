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
    for bad in ("-3", "2.5", "many"):   # -3 was taken, and judged every row
        code, _, err = run(*arguments, "--min-users", bad)
        assert code == 2 and f"--min-users: expected a whole number of 0 or more; got '{bad}'" in err


def test_asking_for_more_metrics_or_k_changes_no_rows_adjusted_p():
    """Holm spanned every row: a comparison significant alone was not once the report asked for
    4 k x 6 metrics. By default one correction spans one metric at one k across the models, in
    Python and in SQL; family='all' corrects across every row, as before."""
    from test_compare import PREDICTIONS, TRUTH

    predictions = pd.concat([PREDICTIONS, PREDICTIONS[PREDICTIONS.model == "a"].assign(model="c")])
    import duckdb

    def row(frame):
        return frame[(frame.model == "a") & (frame.k == 4) & (frame.metric == "map")].p_value_adjusted.tolist()

    alone = rank_metrics.compare(predictions, TRUTH, k=4, metrics="map", by="model", baseline="b")
    many = rank_metrics.compare(predictions, TRUTH, k=[1, 2, 4], by="model", baseline="b")
    everything = rank_metrics.compare(predictions, TRUTH, k=[1, 2, 4], by="model", baseline="b", family="all")
    # a and c are one model twice: Holm over the two, p 0.208 each, gives 2 x 0.208 then the running max
    assert row(alone) == row(many) == [pytest.approx(0.416)]
    tested = everything.p_value.notna().sum()
    assert tested == 36 and row(everything) == [1.0]
    con = duckdb.connect()
    con.register("recs", predictions)
    con.register("purchases", TRUTH)
    sql_alone = con.sql(rank_metrics.sql("recs", "purchases", k=4, macro="compare", metrics="map", by="model",
                                         baseline="b")).df()
    sql_many = con.sql(rank_metrics.sql("recs", "purchases", k=[1, 2, 4], macro="compare", by="model", baseline="b")).df()
    assert row(sql_alone) == row(sql_many) == [pytest.approx(2 * 0.133614, abs=1e-6)]
    sql_all = con.sql(rank_metrics.sql("recs", "purchases", k=[1, 2, 4], macro="compare", by="model", baseline="b",
                                       family="all")).df()
    assert row(sql_all) == [1.0]
    with pytest.raises(rank_metrics.RankMetricsError, match=r"compare: family must be one of 'metric_and_k', 'all'; got 'each'"):
        rank_metrics.compare(predictions, TRUTH, k=4, by="model", baseline="b", family="each")


def test_the_command_line_and_the_report_say_the_family(tmp_path):
    from test_compare import PREDICTIONS, TRUTH

    PREDICTIONS.to_csv(tmp_path / "p.csv", index=False)
    TRUTH.to_csv(tmp_path / "t.csv", index=False)
    arguments = ("compare", str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "1", "4", "--by", "model",
                 "--baseline", "b")
    code, out, _ = run(*arguments)
    assert code == 0 and "correction holm over each metric at each k)" in out
    code, out, _ = run(*arguments, "--family", "all")
    assert code == 0 and "correction holm over every row)" in out
    code, _, err = run(*arguments, "--family", "each")
    assert code == 2 and "--family must be one of 'metric_and_k', 'all'; got 'each'" in err
    page = rank_metrics.report(PREDICTIONS, TRUTH, k=4, by="model", baseline="b", metrics="map")
    assert "correction holm over each metric at each k, across the models)" in page
    assert "<tr><th>family</th><td>metric_and_k</td></tr>" in page


@pytest.mark.dbt
def test_the_dbt_gate_warns_of_few_paired_users_instead_of_failing(dbt_project):
    """c is worse than b on 5 paired users: under the gate's default min_users (30) it passes with
    a warning in dbt's log; with min_users 0 (gate_regressed_predictions) it fails, as before."""
    said = []

    def listen(event):
        if event.info.level == "warn":
            said.append(event.info.msg)

    build = dbt_project.invoke("build", "-s", "+gate_few_users_predictions", "--indirect-selection", "cautious",
                               "--vars", "{rank_metrics_few_users_gate: true, rank_metrics_examples: false}",
                               callbacks=[listen])
    assert build.success
    (gate,) = [result for result in build.result.results if result.node.resource_type == "test"
               and "gate_few_users" in result.node.name]
    assert str(gate.status) == "pass"
    assert any("rank_metrics: no_significant_regression: model 'c' is worse than the baseline 'b' at k 4 on only 5 "
               "paired users, fewer than min_users (30): warned, not failed" in text for text in said), said
    # the warning reads the data, so compiling the gate says nothing (it did: a new user's trial)
    said.clear()
    compiled = dbt_project.invoke("compile", "-s", "+gate_few_users_predictions", "--indirect-selection", "cautious",
                                  "--vars", "{rank_metrics_few_users_gate: true, rank_metrics_examples: false}",
                                  callbacks=[listen])
    assert compiled.success and not [text for text in said if "paired users" in text], said


def test_the_report_opens_with_a_headline_and_shows_itself_in_a_notebook():
    from test_compare import PREDICTIONS, TRUTH

    page = rank_metrics.report(PREDICTIONS, TRUTH, k=[1, 4], by="model", baseline="b", metrics=["map", "ndcg"])
    assert page._repr_html_() == str(page) and isinstance(page, str)
    # the first metric asked at the largest k: a's MAP@4 is 0.15 above b's, p 0.208 (the worked example)
    assert ("<p class='headline'>a does not differ significantly from &#x27;b&#x27; on map@4 by +0.150000 (+37.5%), "
            "adjusted p = 0.2080 over 5 paired users.</p>") in page
    assert "Each comparison is a paired t test" in page
    assert page.index("class='headline'") < page.index("<h2>Against")
    permutation = rank_metrics.report(PREDICTIONS, TRUTH, k=4, by="model", baseline="b", metrics="map", test="permutation")
    assert "adjusted p = 0.5000 over 5 paired users" in permutation and "Each comparison is a permutation test" in permutation
