"""The metric registry (macros/metrics/_registry.sql) is the one list of the metrics: the plan,
the public macros, the Python API and command line, the reference's columns and the dbt docs
all follow it, and no metric's name is written in more than five source files."""

import ast
import re

import pandas as pd
import pytest
import yaml

import rank_metrics
from rank_metrics import api, cli, reference
from rank_metrics._render import metric_registry, namespace

from conftest import ROOT

REGISTRY = metric_registry()
KEYS = {"macro", "group_column", "user_column", "label", "options", "default", "sums", "description", "example"}
SUMS = {"hits", "precision_sum", "dcg", "first_hit", "rbp", "err", "hit_positions", "list_length", "hits_within_r", "bpref",
        "judged_rbp"}


def test_every_entry_says_everything_and_nothing_else():
    assert list(REGISTRY) == ["map", "ndcg", "precision", "recall", "mrr", "hit_rate", "rbp", "rbp_residual", "err", "auc",
                             "r_precision", "bpref"]
    # SPEC §6's family is computed when metrics= is not given; §6b's additions when named
    assert [metric for metric, entry in REGISTRY.items() if entry["default"]] == ["map", "ndcg", "precision", "recall", "mrr",
                                                                                  "hit_rate"]
    for metric, entry in REGISTRY.items():
        # partial: only where some users have no value (AUC's without a positive or a negative);
        # cutoff_free: only for a metric that takes no k (R-precision, bpref), named without _at_k,
        # with the reason it takes none (cutoff)
        # judged: only where the metric reads judged non-relevant items (bpref, RBP's residual)
        assert set(entry) - {"partial", "cutoff_free", "cutoff", "judged"} == KEYS and entry.get("partial", True), metric
        assert entry.get("judged", True), metric
        assert ("cutoff" in entry) == entry.get("cutoff_free", False), metric
        if entry.get("cutoff_free"):
            assert entry["macro"] == entry["group_column"] == entry["user_column"] == metric
            assert set(entry["sums"]) <= SUMS and "hits" not in entry["sums"], metric
        else:
            assert entry["macro"] == entry["group_column"] == f"{metric}_at_k"
            assert set(entry["sums"]) <= SUMS and "hits" in entry["sums"], metric
        assert set(entry["options"]) <= set(api.OPTIONS), metric
        assert entry["example"].startswith(f"rank_metrics.{entry['macro']}(")
    # an option changes one metric at most, but persistence (RBP's and its residual's), gain (NDCG's
    # and graded RBP's) and max_grade (ERR's and graded RBP's)
    options = [option for entry in REGISTRY.values() for option in entry["options"]]
    shared = {option: [metric for metric, entry in REGISTRY.items() if option in entry["options"]]
              for option in set(options) if options.count(option) > 1}
    assert shared == {"persistence": ["rbp", "rbp_residual"], "gain": ["ndcg", "rbp"], "max_grade": ["rbp", "err"]}


def test_the_python_api_and_the_command_line_follow_it():
    for metric, entry in REGISTRY.items():
        function = getattr(rank_metrics, entry["macro"])
        assert function.__name__ == entry["macro"] and entry["macro"] in rank_metrics.__all__
        assert entry["description"] in function.__doc__
        assert api.METRICS[metric] == (entry["macro"], entry["group_column"], entry["user_column"])
        assert entry["macro"].replace("_", "-") in cli._COMMANDS
        for option in entry["options"]:
            assert metric in cli._ONE_METRIC_OPTIONS[option]
    assert list(api.METRICS) == list(REGISTRY)


def test_the_dbt_package_and_its_docs_follow_it():
    documented = {entry["name"]: entry for entry in yaml.safe_load((ROOT / "macros" / "dbt" / "macros.yml").read_text())["macros"]}
    names = namespace("duckdb")
    for metric, entry in REGISTRY.items():
        own_file = (ROOT / "macros" / "metrics" / f"{metric}.sql").read_text()
        parameters = "predictions, truth" if entry.get("cutoff_free") else "predictions, truth, k"
        assert f"{{% macro {entry['macro']}({parameters}) %}}" in own_file
        assert f"{{% macro default__{entry['macro']}({parameters}) -%}}" in own_file
        card = documented[entry["macro"]]
        assert card["description"].startswith(entry["description"])
        assert [column["name"] for column in card["meta"]["output_columns"]] == ["<by columns>", "k", entry["group_column"], "n_users"]
        assert ("k" in [argument["name"] for argument in card["arguments"]]) != bool(entry.get("cutoff_free"))
        # the per-user expression the registry's _per_user names
        plan = {"normalization": "m", "precision_denominator": "k", "recall_denominator": "m", "tie_break": "item",
                "persistence": 0.8}
        assert str(names._per_user(plan, metric)).strip()
    assert str(names._metric_names()).split() == list(REGISTRY)


def test_each_metric_the_registry_names_gives_the_references_numbers():
    """Every registered metric, through its own public function, on a small input with grades,
    ties and a user without hits: the SQL equal to the reference (check=True) and to the
    reference's group means computed here."""
    predictions = pd.DataFrame({"user_id": [1, 1, 1, 2, 2, 3], "item_id": ["a", "b", "c", "a", "d", "x"],
                                "rank": [1, 2, 2, 1, 2, 1]})
    truth = pd.DataFrame({"user_id": [1, 1, 2, 3], "item_id": ["b", "c", "d", "y"], "relevance": [2, 1, 3, 1]})
    # ERR's g_max, which evaluate takes from truth when not given
    options = reference.resolve_options(max_grade=truth.relevance.max())
    grades = {user: dict(zip(rows.item_id, rows.relevance)) for user, rows in truth.groupby("user_id")}
    ranked = {1: ["a", "b", "c"], 2: ["a", "d"], 3: ["x"]}
    for metric, entry in REGISTRY.items():
        function = getattr(rank_metrics, entry["macro"])
        if entry.get("cutoff_free"):   # no k: R-precision's cutoff is each user's R
            got = function(predictions, truth, relevance="relevance", check=True)
        else:
            got = function(predictions, truth, k=2, relevance="relevance", check=True)
        values = [reference.user_metrics(ranked[user], grades[user], 2, options)[entry["user_column"]] for user in (1, 2, 3)]
        values = [value for value in values if value is not None]
        assert values and got == pytest.approx(sum(values) / len(values), rel=1e-12), metric


def _named_in_python(path, names):
    """Whether the module's code (not its comments or docstrings) holds one of the names: a
    string equal to it, or an identifier of the metric's function."""
    tree = ast.parse(path.read_text())
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body
                  and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            if node.value in names:
                return True
        elif isinstance(node, ast.Name) and node.id == names[1] or isinstance(node, ast.FunctionDef) and node.name == names[1]:
            return True
    return False


def _named_in_sql(path, names):
    code = re.sub(r"--[^\n]*", "", re.sub(r"{#.*?#}", "", path.read_text(), flags=re.S))
    return bool({quoted for quoted in re.findall(r"[\"']([a-z_]+)[\"']", code)} & set(names)
                or re.search(rf"\b{names[1]}\b", code))


@pytest.mark.parametrize("metric", list(REGISTRY))
def test_no_metric_is_written_in_more_than_five_source_files(metric):
    names = (metric, REGISTRY[metric]["macro"])
    files = [path.relative_to(ROOT).as_posix() for path in sorted((ROOT / "python" / "rank_metrics").rglob("*.py"))
             if _named_in_python(path, names)]
    files += [path.relative_to(ROOT).as_posix() for path in sorted((ROOT / "macros").rglob("*.sql")) if _named_in_sql(path, names)]
    assert "macros/metrics/_registry.sql" in files and f"macros/metrics/{metric}.sql" in files
    assert len(files) <= 5, files
