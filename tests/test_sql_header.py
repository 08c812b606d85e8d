"""The comment every rendered metric query starts with: the macro, the package version, every
option as resolved and the plan chosen, on lines that nothing from the caller can end."""

import re

import duckdb
import pandas as pd
import pytest

import rank_metrics
from rank_metrics._render import namespace

from conftest import ROOT


def header(text):
    lines = text.splitlines()
    assert [line[:3] for line in lines[:3]] == ["-- "] * 3 and lines[3] == "with"
    return lines[:3]


def test_the_version_is_the_packages():
    version = re.search(r"^version: '([^']+)'", (ROOT / "dbt_project.yml").read_text(), re.M).group(1)
    assert str(namespace("duckdb")._package_version()).strip() == version == rank_metrics.__version__


@pytest.mark.parametrize("macro", ["map_at_k", "ndcg_at_k", "precision_at_k", "recall_at_k", "mrr_at_k", "hit_rate_at_k",
                                   "average_precision_at_k", "evaluate", "evaluate_users", "compare"])
def test_every_public_macro_names_itself_its_version_and_options(macro):
    extra = dict(baseline="a") if macro == "compare" else {}
    first, options, plan = header(rank_metrics.sql("recs", "purchases", k=[5, 10], macro=macro, by="model",
                                                   convention="trec_eval", **extra))
    assert first == f"-- rank_metrics {rank_metrics.__version__}: {macro}"
    assert options.startswith("-- options: k=[5, 10], metrics=[")
    # the convention and what it resolved to
    for option in ("by=['model']", "convention='trec_eval'", "normalization='m'", "users='both'", "duplicates='error'",
                   "tie_break='item_desc'", "gain='linear'", "truth_scope='all'"):
        assert option in options, option
    assert ("baseline='a'" in options and "correction='holm'" in options) == (macro == "compare")
    assert plan.startswith("-- plan: ")


@pytest.mark.parametrize("dialect, k, metrics, plan", [
    ("duckdb", [12], ["map"], "hit positions in one 64-bit word (k <= 61); means over users with the same hit pattern counted once"),
    ("duckdb", [70], ["map"], "hits counted row by row (largest k 70 > 61); means over users"),
    ("snowflake", [12], ["map"], "hits counted row by row (the engine counts no bits); means over users"),
    ("duckdb", [12], ["ndcg"], "hit positions in one 64-bit word (k <= 61); means over users with the same hit pattern counted once; "
                               "ideal DCG from the count of relevant items"),
])
def test_the_plan_is_said(dialect, k, metrics, plan):
    text = rank_metrics.sql("recs", "purchases", k=k, macro="evaluate", metrics=metrics, dialect=dialect)
    assert header(text)[2] == "-- plan: " + plan


def test_graded_ndcg_says_its_ideal_comes_from_the_grades():
    text = rank_metrics.sql("recs", "purchases", k=5, macro="ndcg_at_k", relevance="grade", gain="exponential")
    assert header(text)[2].endswith("; ideal DCG from the ranked grades")


@pytest.mark.parametrize("name", ["a\nselect 1 as pwned", "b\rdrop", "c\u2028d", "e\x85f", "*/ g", "h\x0bi"])
def test_a_name_with_a_line_break_cannot_end_the_comment(name):
    """A column name or baseline is the caller's: shown with every unprintable character as '?',
    the query still runs and gives the numbers of plain names."""
    predictions = pd.DataFrame({"model": ["a", "a", name, name], "user_id": [1, 2, 1, 2], name: [10, 20, 10, 99],
                                "rank": [1, 1, 1, 1]})
    truth = pd.DataFrame({"user_id": [1, 2], name: [10, 20]})
    text = rank_metrics.sql("predictions", "truth", k=1, macro="compare", by="model", baseline=name, item=name,
                            metrics="map", rank="rank")
    lines = header(text)
    assert all(line.isprintable() for line in lines)
    con = duckdb.connect()
    con.register("predictions", predictions)
    con.register("truth", truth)
    got = con.execute(text).df()
    assert got.model.tolist() == ["a"] and got.difference.tolist() == pytest.approx([0.5])


def test_the_dbt_model_carries_the_header(dbt_project):
    compiled = dbt_project.compiled("spec_map")
    body = compiled.split("\n", 1)[1]
    first, options, plan = header(body)
    assert first == f"-- rank_metrics {rank_metrics.__version__}: map_at_k"
    assert "k=[4, 5, 6]" in options and "by=['case_id']" in options
    assert plan.startswith("-- plan: hit positions in one 64-bit word")
