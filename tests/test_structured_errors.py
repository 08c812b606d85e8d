"""Errors name their arguments as mentions (issue 42, structured errors): RankMetricsError
carries the argument and its value beside the message, the command line names each as its flag
from them (no reading of the text), the message reads as before, under dbt the macros write the
plain text, and text from the data cannot pass for a mention."""

import pickle
import warnings

import pandas as pd
import pytest

import rank_metrics
from rank_metrics import cli, errors
from rank_metrics._render import _loaded_namespace, namespace, render
from rank_metrics.errors import Mention, RankMetricsError, RankMetricsWarning, mention

from test_cli import run

PREDICTIONS = pd.DataFrame({"user_id": [1, 1, 2], "item_id": [10, 11, 10], "rank": [1, 2, 1]})
TRUTH = pd.DataFrame({"user_id": [1, 2], "item_id": [10, 11]})


def raised(call, *arguments, **options) -> RankMetricsError:
    with pytest.raises(RankMetricsError) as caught:
        call(*arguments, **options)
    return caught.value


def test_k_from_a_macro_names_k_and_its_value():
    error = raised(rank_metrics.map_at_k, PREDICTIONS, TRUTH, 0)
    assert str(error) == error.message == "rank_metrics: k must be a positive integer or a non-empty list of them; got 0"
    assert (error.argument, error.value) == ("k", 0)
    assert error.mentions == [Mention("k", "name", 0, None, "k")]
    # -k is no --k: the command line leaves it as the API spells it
    assert cli._command_line_text(error) == str(error)


def test_an_unknown_metric_names_metrics_and_the_name_given():
    error = raised(rank_metrics.evaluate, PREDICTIONS, TRUTH, 5, metrics=["ndgc"])
    assert str(error) == ("rank_metrics: metrics: unknown metric 'ndgc' (did you mean 'ndcg'?); the metrics are "
                          + ", ".join(map(repr, rank_metrics.api.METRICS)))
    assert (error.argument, error.value) == ("metrics", "ndgc")
    assert error.for_command_line().startswith("rank_metrics: --metrics: unknown metric 'ndgc' (did you mean 'ndcg'?);")


def test_a_missing_column_names_its_argument():
    error = raised(rank_metrics.map_at_k, PREDICTIONS, TRUTH.rename(columns={"user_id": "customer"}), 5,
                   truth_user="buyer")
    assert str(error) == "rank_metrics: column buyer (argument truth_user) is not in truth; its columns are: customer, item_id"
    assert (error.argument, error.value) == ("truth_user", "buyer")
    assert [found.form for found in error.mentions] == ["argument"]
    assert cli._command_line_text(error) == ("rank_metrics: column buyer (--truth-user) is not in truth; its columns are: "
                                             "customer, item_id")


def test_a_list_value_is_a_list_and_its_flag_takes_each_item():
    error = raised(rank_metrics.sql, "predictions", "truth", 5, macro="map_at_k", metrics=["ndcg", "it's"])
    assert str(error) == ("rank_metrics: map_at_k takes no metrics (metrics is an argument of evaluate, evaluate_users, "
                          "compare); got metrics=['ndcg', \"it's\"]")
    assert [(found.name, found.form, found.value) for found in error.mentions] == [
        ("metrics", "name", ["ndcg", "it's"]), ("metrics", "value", ["ndcg", "it's"])]
    assert error.for_command_line().endswith("got --metrics ndcg 'it'\"'\"'s'")
    assert error.for_command_line().startswith("rank_metrics: map_at_k takes no --metrics (metrics is an argument")
    # metrics= alone is evaluate's SQL, as on the command line (it was this error: a user's walkthrough)
    assert rank_metrics.sql("predictions", "truth", 5, metrics=["ndcg"]).startswith(f"-- rank_metrics {rank_metrics.__version__}: evaluate")


def test_python_sites_name_their_arguments():
    error = raised(rank_metrics.sql, "predictions", "truth", 5, dialect="oracle")
    assert (error.argument, error.value) == ("dialect", "oracle")
    assert error.for_command_line(cli._FLAGS).startswith("rank_metrics: --dialect must be one of duckdb, ")
    error = raised(rank_metrics.compare, PREDICTIONS.assign(model="a"), TRUTH, 5, by="model", baseline="a", resamples=-5)
    assert (error.argument, error.value) == ("resamples", -5)
    assert str(error) == "rank_metrics: resamples must be a positive integer; got -5"
    # an input is named, but it is no flag: PREDICTIONS on the command line
    error = raised(rank_metrics.map_at_k, "no_such_file.parquet", TRUTH, 5)
    assert error.argument == "predictions"
    assert cli._command_line_text(error) == str(error) == "rank_metrics: predictions: no file matches 'no_such_file.parquet'"


def test_a_data_check_names_its_argument_and_the_options_its_problem_names():
    """The problem comes back from SQL as text (no marker goes into SQL); the macro's own list of
    the texts that name arguments puts their mentions back."""
    repeated = pd.DataFrame({"user_id": [1, 1], "item_id": ["b", "b"], "rank": [1, 2]})
    error = raised(rank_metrics.map_at_k, repeated, TRUTH.astype({"item_id": str}), 5, convention="trec_eval")
    assert str(error) == ("rank_metrics: duplicates: user 1 has item b more than once in predictions, which "
                          "duplicates='error' (set by convention='trec_eval') refuses")
    assert [(found.name, found.form, found.value) for found in error.mentions] == [
        ("duplicates", "name", None), ("duplicates", "value", "error"), ("convention", "value", "trec_eval")]
    assert error.for_command_line() == ("rank_metrics: --duplicates: user 1 has item b more than once in predictions, "
                                        "which --duplicates error (set by --convention trec_eval) refuses")


def test_the_command_line_spells_the_mentions_as_flags(tmp_path):
    PREDICTIONS.to_csv(tmp_path / "p.csv", index=False)
    TRUTH.rename(columns={"user_id": "customer"}).to_csv(tmp_path / "t.csv", index=False)
    code, _, err = run("map-at-k", str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "5", "--truth-user", "buyer")
    assert code == 2
    assert err == "rank-metrics: error: column buyer (--truth-user) is not in truth; its columns are: customer, item_id\n"
    code, _, err = run("sql", "p", "t", "-k", "5", "--baseline", "it's")
    assert code == 2
    assert err == ("rank-metrics: error: map_at_k takes no --baseline (baseline is an argument of compare); got "
                   "--baseline 'it'\"'\"'s'\n")
    code, _, err = run("sql", "p", "t", "-k", "5", "--dialect", "oracle")
    assert err.startswith("rank-metrics: error: --dialect must be one of duckdb, postgres, ")


def test_a_fake_marker_in_a_column_name_is_text():
    """A name holding the marker's characters, even a whole marker of another token, is shown as
    it is and names no argument: only this process's token is read."""
    fake = '\x1emention:0123456789abcdef["rank", "name", null, null, "rank"]\x1f'
    for name in (f"u{fake}", "a\x1eb\x1fc"):
        error = raised(rank_metrics.map_at_k, PREDICTIONS, TRUTH, 5, user=name)
        assert str(error) == (f"rank_metrics: column {name} (argument user) is not in predictions; its columns are: "
                              "user_id, item_id, rank")
        assert [(found.name, found.value) for found in error.mentions] == [("user", name)]
        assert error.for_command_line() == (f"rank_metrics: column {name} (--user) is not in predictions; its columns "
                                            "are: user_id, item_id, rank")


def test_a_fake_marker_in_a_baseline_value_is_text():
    baseline = 'x\x1emention:0123456789abcdef["k", "name", 1, null, "k"]\x1fy'
    error = raised(rank_metrics.sql, "predictions", "truth", 5, baseline=baseline)
    assert str(error).endswith(f"got baseline='{baseline}'")
    assert [(found.name, found.form, found.value) for found in error.mentions] == [
        ("baseline", "name", baseline), ("baseline", "value", baseline)]
    assert error.for_command_line().endswith(f"got --baseline '{baseline}'")


def test_markers_of_another_process_or_that_do_not_parse_stay_text():
    ours = mention("rank", form="equals")
    theirs = ours.replace(errors._TOKEN, "f" * len(errors._TOKEN))
    broken = ours.replace('"equals"', '"no such form"')
    unparsed = f"\x1emention:{errors._TOKEN}[1, 2\x1f"
    error = RankMetricsError(f"a {theirs} b {broken} c {unparsed} d {ours}")
    assert str(error) == f"a {theirs} b {broken} c {unparsed} d rank="
    assert [found.name for found in error.mentions] == ["rank"]


def test_under_dbt_the_macros_write_the_plain_text():
    """dbt has no rank_metrics_structured_errors: _mention writes the text, and each message is
    the text the Python API gives."""
    bad_calls = [dict(k=0), dict(k=5, metrics=["ndgc"]), dict(k=5, truth_user="buyer"), dict(k=5, rank="r", score="s"),
                 dict(k=5, predictions_shape="list", rank="rank"), dict(k=5, relevance="none"),
                 dict(k=5, baseline="it's"), dict(k=5, item_separator=",")]
    columns = dict(predictions_columns=[{"name": name, "data_type": "INTEGER"} for name in ("user_id", "item_id", "rank")],
                   truth_columns=[{"name": name, "data_type": "INTEGER"} for name in ("user_id", "item_id")])

    def messages(names):
        found = []
        for options in bad_calls:
            with pytest.raises(RankMetricsError) as caught:
                names.map_at_k(predictions="p", truth="t", **columns, **options)
            found.append(caught.value)
        return found

    structured, as_dbt = namespace("duckdb"), _loaded_namespace("duckdb", structured_errors=False)
    assert str(structured._mention("truth_user", "buyer", "argument")).startswith("\x1emention:")
    assert str(as_dbt._mention("truth_user", "buyer", "argument")) == "(argument truth_user)"
    assert str(as_dbt._mention("predictions_shape", "list", "value")) == "predictions_shape='list'"
    assert str(as_dbt._mention("metrics", ["a", "b"], "value")) == "metrics=['a', 'b']"
    assert str(as_dbt._mention("rank", None, "equals")) == "rank="
    assert str(as_dbt._mention("k")) == "k"
    assert str(as_dbt._mention("relevance", "none", "yaml_null")) == \
        "; in a YAML file none is this text: write null (relevance: null)"
    with_mentions, plain = messages(structured), messages(as_dbt)
    assert all(error.mentions for error in with_mentions)
    assert all(not error.mentions and error.argument is None for error in plain)
    assert [str(error) for error in plain] == [str(error) for error in with_mentions]
    assert str(plain[2]) == "rank_metrics: column buyer (argument truth_user) is not in truth; its columns are: user_id, item_id"


def test_no_marker_goes_into_sql():
    sql = rank_metrics.sql("predictions", "truth", [5, 10], by="model", convention="trec_eval", macro="evaluate",
                           metrics=["map", "ndcg"])
    assert "\x1e" not in sql and "\x1f" not in sql
    checks = render("input_problems", predictions="p", truth="t", k=5, convention="trec_eval",
                    by=["model"], users="judged", gain="exponential", relevance="grade", baseline="b",
                    predictions_columns=[{"name": name, "data_type": "VARCHAR"} for name in ("user_id", "item_id", "model")]
                    + [{"name": "rank", "data_type": "INTEGER"}],
                    truth_columns=[{"name": name, "data_type": "VARCHAR"} for name in ("user_id", "item_id")]
                    + [{"name": "grade", "data_type": "INTEGER"}])
    assert "\x1e" not in checks and "\x1f" not in checks
    for text in ("which duplicates=''error'' (set by convention=''trec_eval'') refuses", "so users=''judged'' has",
                 "under gain=''exponential'' a grade", "''b''; baseline must be one of"):
        assert text in checks


def test_a_warning_shows_the_text_of_a_mention():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        errors.warn(f"pass {mention('rank', form='equals')} or {mention('by', ['model'], 'value')}")
    assert [str(warning.message) for warning in caught if warning.category is RankMetricsWarning] == [
        "rank_metrics: pass rank= or by=['model']"]


def test_an_error_keeps_its_mentions_when_pickled_and_when_said_again():
    error = raised(rank_metrics.map_at_k, PREDICTIONS, TRUTH, 5, truth_user="buyer")
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is RankMetricsError
    assert str(again) == str(error) and again.mentions == error.mentions
    assert again.for_command_line() == error.for_command_line()
    longer = RankMetricsError(f"{error.marked} (and more)")
    assert str(longer) == f"{error} (and more)" and longer.mentions == error.mentions
