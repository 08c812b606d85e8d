"""Issue 8 §1 in dbt: the argument and column checks of the macros fail the model with our
message, as they do in Python."""

import pytest

from conftest import DbtProject
from test_dbt import compile_inline


@pytest.mark.parametrize("arguments, message", [
    ("k=3, user='item_id'", "user and item both name column item_id; they must be two different columns"),
    ("k=3, user='k'", "user column k clashes with an output column (k, map_at_k"),
    ("k=3, by='n_users'", "by column n_users clashes"),
    ("k=[3, 9223372036854775808]", "k must be at most 9223372036854775807"),
    ("k=3, rank='item_id'", "column item_id (argument rank) of predictions is"),
    ("k=3, metrics=['ndcg']",
     "rank_metrics: average_precision_at_k takes no metrics (metrics is an argument of evaluate, evaluate_users, compare); "
     "got metrics=['ndcg']"),
    ("k=3, normalisation='m'", "rank_metrics: unknown argument 'normalisation' (did you mean 'normalization'?); "
                               "the arguments after (predictions, truth, k) "
                               # on one line: dbt printed the list's line breaks (a user's trial)
                               "are user, item, rank, score, relevance, by, truth_by, truth_user, truth_item, normalization, "
                               "users, duplicates, tie_break, convention, gain, "),
    ("k=3, relevance_threshold=2", "rank_metrics: relevance_threshold 2 applies to grades, but no grade column of truth is read"),
    # a gate's YAML `relevance: none` is the text 'none'
    ("k=3, relevance='none'", "column none (argument relevance) is not in truth; its columns are: case_id, user_id, item_id; "
                              "in a YAML file none is this text: write null (relevance: null)"),
])
def test_argument_and_column_checks_fail_the_model(dbt_project, arguments, message):
    ok, text = compile_inline(dbt_project, "{{ rank_metrics.average_precision_at_k(predictions=ref('spec_predictions'), "
                                           f"truth=ref('spec_truth'), {arguments}) }}}}")
    assert not ok
    assert message in text


def test_arguments_after_k_by_position_are_refused_in_our_words(dbt_project):
    # dbt's own words were "macro 'dbt_macro__map_at_k' takes not more than 3 argument(s)"
    ok, text = compile_inline(dbt_project,
                              "{{ rank_metrics.map_at_k(ref('spec_predictions'), ref('spec_truth'), 3, 'user_id', 'item_id') }}")
    assert not ok
    assert ("rank_metrics: only predictions, truth and k are given by position; every other argument by name "
            "(user='user_id', rank='rank', by='model', …): 2 more by position: 'user_id', 'item_id'") in text


BAD_DATA = "{rank_metrics_examples: false, rank_metrics_bad_data: true}"


def messages(result):
    texts = [str(result.exception), str(getattr(result.exception, "__context__", ""))]
    nodes = result.result.results if result.result and hasattr(result.result, "results") else []
    texts += [str(getattr(node, "message", "")) for node in nodes]
    return " ".join(texts)


@pytest.mark.parametrize("command", [("parse",), ("compile", "-s", "bad_data_duplicates"),
                                     ("docs", "generate", "-s", "bad_data_duplicates")])
def test_parse_compile_and_docs_never_run_the_data_checks(dbt_project, command):
    """The model's data breaks the checks (a repeated item under duplicates='error'), yet these
    commands succeed: the checks read the tables, so they run only when the model runs."""
    result = dbt_project.invoke(*command, "--vars", BAD_DATA)
    assert result.success, messages(result)


def test_the_data_checks_fail_the_run(dbt_project):
    result = dbt_project.invoke("run", "-s", "bad_data_duplicates", "--vars", BAD_DATA)
    assert not result.success
    assert ("rank_metrics: duplicates: user u1 has item a more than once in predictions, which duplicates='error' refuses"
            in messages(result))


def test_a_baseline_no_model_has_fails_the_run_of_compare_beyond_accuracy(dbt_project):
    """compare_beyond_accuracy's rows' check, when the model runs (compile passes: it reads no
    rows), names the models' values."""
    assert dbt_project.invoke("compile", "-s", "bad_data_compare_beyond_baseline", "--vars", BAD_DATA).success
    result = dbt_project.invoke("run", "-s", "bad_data_compare_beyond_baseline", "--vars", BAD_DATA)
    assert not result.success
    assert ("rank_metrics: predictions has no rows with model = 'zz'; baseline must be one of the values of by (model): "
            "'a', 'b'") in messages(result)


def test_a_relation_beside_an_ephemeral_input_is_checked(dbt_project):
    """The data checks were skipped for both inputs when one was ephemeral: a NULL item in the
    other, a table, built a number without a word (a user's trial)."""
    result = dbt_project.invoke("run", "-s", "+bad_data_beside_ephemeral", "--vars", BAD_DATA)
    assert not result.success
    assert 'rank_metrics: item: truth has 4 rows with NULL in column "item_id"; item values must not be NULL' in messages(result)


def test_build_empty_builds_every_model_without_data(dbt_project, tmp_path):
    # a database and target folder of its own: --empty rebuilds every model with no rows and
    # recompiles it with limit 0, and the other tests read the session project's models
    empty = DbtProject(tmp_path)
    result = empty.invoke("build", "--empty", "--vars", "{rank_metrics_examples: false}")
    assert result.success, messages(result)
    statuses = {node.node.name: str(node.status) for node in result.result.results}
    assert statuses["spec_map_from_cte"] == "success" and statuses["parity_map_at_k"] == "success"


def test_ephemeral_cte_subquery_inputs_and_a_unit_test_pass(dbt_project):
    statuses = {result.node.name: str(result.status) for result in dbt_project.build.result.results}
    assert {name: statuses.get(name) for name in (
        "spec_map_from_ephemeral", "spec_map_from_cte", "spec_map_from_subquery",
        "assert_map_from_other_inputs", "map_of_two_users", "map_matches_truths_by_column_as_production_does")} == {
        "spec_map_from_ephemeral": "success", "spec_map_from_cte": "success", "spec_map_from_subquery": "success",
        "assert_map_from_other_inputs": "pass", "map_of_two_users": "pass",
        # a unit test's fixtures stand for relations: their columns are looked up, and truth's
        # case_id is matched as in production (issue 43 item 7)
        "map_matches_truths_by_column_as_production_does": "pass"}


def test_inputs_whose_columns_cannot_be_looked_up_are_text(dbt_project):
    # CTE names for both: no columns to check against, so a wrong name reaches the SQL unchecked
    ok, text = compile_inline(dbt_project, "with recs as (select * from {{ ref('spec_predictions') }}), "
                                           "purchases as (select * from {{ ref('spec_truth') }}) select * from ("
                                           "{{ rank_metrics.map_at_k(predictions='recs', truth='purchases', k=3, "
                                           "rank='rank', item='article') }}) as r")
    assert ok, text
    ok, text = compile_inline(dbt_project, "{{ rank_metrics.map_at_k(predictions=ref('spec_predictions_ephemeral'), "
                                           "truth=ref('spec_truth'), k=3, rank='rank', item='article') }}")
    assert not ok
    assert "column article (argument item) is not in truth; its columns are: case_id, user_id, item_id" in text
    assert "not in predictions" not in text


def compile_warnings(dbt_project, sql):
    """The warnings (exceptions.warn) dbt logs while compiling SQL in the integration project."""
    logged = []
    result = dbt_project.invoke("compile", "--inline", sql,
                                callbacks=[lambda event: logged.append(event.data.msg) if event.info.name == "JinjaLogWarning" else None])
    assert result.success, result.exception
    return logged


def test_inputs_whose_columns_cannot_be_looked_up_warn_of_what_is_not_found(dbt_project):
    """A graded truth moved to an ephemeral model (or a CTE, or a unit test's fixture) lost its
    grades without a word: its grade-0 rows counted as relevant (a new user's report, 0.667
    against 0.542). dbt now warns of each thing not found by name, until it is named."""
    ctes = ("with recs as (select * from {{ ref('spec_predictions') }}), "
            "purchases as (select * from {{ ref('spec_truth') }}) select * from (")
    logged = compile_warnings(dbt_project, ctes + "{{ rank_metrics.map_at_k(predictions='recs', truth='purchases', k=3, "
                                                  "by='case_id') }}) as r")
    assert logged == [
        "rank_metrics (inline_query): the columns of predictions and truth cannot be looked up (an ephemeral model, a CTE name, a subquery "
        "or a unit test's fixture), so they are not found by name and the data checks do not read them: predictions are ordered "
        "by a column rank unless rank= or score= names the order column; every truth row counts as relevant unless "
        "relevance= names its grade column (relevance=none: truth has none); no by column is matched with truth's unless "
        "truth_by= names it (truth_by=[]: none is)"]
    named = ("{{ rank_metrics.map_at_k(predictions='recs', truth='purchases', k=3, by='case_id', rank='rank', "
             "relevance=none, truth_by=[]) }}) as r")
    assert compile_warnings(dbt_project, ctes + named) == []
    assert compile_warnings(dbt_project, ctes + named.replace("truth_by=[]", "validate=false").replace(", relevance=none", "")) == []
    # relations: their columns are looked up, and a grade column by another name is warned of
    assert compile_warnings(dbt_project, "{{ rank_metrics.map_at_k(predictions=ref('spec_predictions'), "
                                         "truth=ref('spec_truth'), k=3, by='case_id') }}") == []
    graded = "{{ rank_metrics.map_at_k(predictions=ref('options_predictions'), truth=ref('options_truth'), k=3, rank='rank') }}"
    assert compile_warnings(dbt_project, graded) == [
        "rank_metrics (inline_query): truth has a column grade that is not read: every truth row counts as relevant, whatever grade holds; "
        "if it holds relevance grades (0 or less: not relevant), pass relevance='grade'"]
    assert compile_warnings(dbt_project, graded.replace("rank='rank'", "rank='rank', relevance='grade'")) == []
    assert compile_warnings(dbt_project, graded.replace("rank='rank'", "rank='rank', relevance=none")) == []
    # serendipity's truth alike (it counted every row of a graded truth as relevant without a word)
    beyond = ("{{ rank_metrics.beyond_accuracy(predictions=ref('options_predictions'), train=ref('options_truth'), k=3, "
              "rank='rank', truth=ref('options_truth'), metrics=['serendipity']) }}")
    assert compile_warnings(dbt_project, beyond) == [
        "rank_metrics (inline_query): truth has a column grade that is not read: every truth row counts as relevant, whatever grade holds; "
        "if it holds relevance grades (0 or less: not relevant), pass relevance='grade'"]
    assert compile_warnings(dbt_project, beyond.replace("rank='rank'", "rank='rank', relevance='grade'")) == []


def test_numeric_ids_under_the_trec_eval_convention_warn(dbt_project):
    """As in Python: trec_eval breaks ties between documents by their ids as text."""
    model = ("{{ rank_metrics.map_at_k(predictions=ref('compare_predictions'), truth=ref('compare_truth'), k=3, by='model', "
             "convention='trec_eval'CHOICE) }}")
    logged = compile_warnings(dbt_project, model.replace("CHOICE", ""))
    assert len(logged) == 1 and logged[0].startswith(
        "rank_metrics (inline_query): convention='trec_eval': trec_eval orders documents of equal score by their ids as text, "
        "descending ('9' before '10'), but column item_id holds numbers")
    assert compile_warnings(dbt_project, model.replace("CHOICE", ", tie_break='item_desc'")) == []


def test_an_order_column_named_as_the_other_kind_warns(dbt_project):
    """As in Python: score= on a column named rank reads each list backwards."""
    model = "{{ rank_metrics.map_at_k(predictions=ref('spec_predictions'), truth=ref('spec_truth'), k=3, by='case_id', ORDER) }}"
    assert compile_warnings(dbt_project, model.replace("ORDER", "score='rank'")) == [
        "rank_metrics (inline_query): score='rank' reads column rank descending (its highest value first), but it is named "
        "as ranks are; if its lowest value is the first item, pass rank='rank'"]
    assert compile_warnings(dbt_project, model.replace("ORDER", "rank='rank'")) == []


def test_docs_show_the_public_macros(dbt_project):
    import json

    assert dbt_project.invoke("docs", "generate", "--vars", "{rank_metrics_examples: false}").success
    manifest = json.loads((dbt_project.target_path / "manifest.json").read_text())
    macros = manifest["macros"]
    for name in ("map_at_k", "ndcg_at_k", "precision_at_k", "recall_at_k", "mrr_at_k", "hit_rate_at_k",
                 "average_precision_at_k", "evaluate", "evaluate_users"):
        macro = macros[f"macro.rank_metrics.{name}"]
        # the one sentence of the macro's card (docs/reference.md) names what it computes
        label = {"map_at_k": "MAP@k", "ndcg_at_k": "NDCG@k", "precision_at_k": "Precision@k", "recall_at_k": "Recall@k",
                 "mrr_at_k": "MRR@k", "hit_rate_at_k": "Hit rate@k", "average_precision_at_k": "AP@k",
                 "evaluate": "metrics", "evaluate_users": "metrics"}[name]
        assert label.lower() in macro["description"].lower(), (name, macro["description"])
        arguments = {argument["name"]: argument["description"] for argument in macro["arguments"]}
        assert {"predictions", "truth", "k", "user", "item", "gain", "truth_scope", "validate"} <= set(arguments)
        assert ("metrics" in arguments) == name.startswith("evaluate")


def test_a_relation_that_does_not_exist_is_named_as_such(dbt_project):
    """The adapters list no columns for a relation that does not exist (not built or seeded yet):
    that read `column user_id (argument user) is not in predictions; its columns are: ` (a new
    user's report)."""
    ok, text = compile_inline(dbt_project, "{{ rank_metrics.map_at_k(predictions=api.Relation.create(database=target.database, "
                                           "schema=target.schema, identifier='not_built_yet'), truth=ref('spec_truth'), k=3) }}")
    assert not ok
    assert "rank_metrics: predictions: " in text and "not_built_yet" in text
    assert "has no columns: it does not exist yet (build or seed it first" in text


def _shown_rows(dbt_project, sql):
    shown = dbt_project.invoke("show", "--inline", sql, "--limit", "100")
    assert shown.success, messages(shown)
    table = shown.result.results[0].agate_table
    return sorted(tuple(str(value) for value in row) for row in table.rows)


def test_relevance_none_says_truth_has_no_grades_for_a_ref_as_for_a_cte(dbt_project):
    """relevance=none read truth's column named relevance from a ref() and not from a CTE of the
    same rows, so moving an input changed the numbers (a new user's trial). Given, it says
    truth has no grades for either (item d, graded 0, is then relevant: recall divides by 4, not
    3); left out, the ref() reads the grades."""
    call = ("rank_metrics.evaluate(predictions={}, truth={}, k=4, metrics=['recall'], by='case_id', "
            "truth_by=['case_id'], rank='rank'{})")
    ctes = ("with p as (select * from {{ ref('family_predictions') }}), "
            "t as (select * from {{ ref('family_truth') }}) ")
    by_ref = _shown_rows(dbt_project, "{{ " + call.format("ref('family_predictions')", "ref('family_truth')",
                                                          ", relevance=none") + " }}")
    by_cte = _shown_rows(dbt_project, ctes + "select * from ({{ " + call.format("'p'", "'t'", ", relevance=none")
                         + " }}) as r")
    graded = _shown_rows(dbt_project, "{{ " + call.format("ref('family_predictions')", "ref('family_truth')", "")
                         + " }}")
    assert by_ref == by_cte and by_ref != graded
    ok, text = compile_inline(dbt_project, "{{ " + call.format("ref('family_predictions')", "ref('family_truth')",
                                                               ", relevance=none, relevance_threshold=2") + " }}")
    assert not ok and "relevance_threshold 2 applies to grades, but no grade column of truth is read" in text


def test_merged_lists_repeated_rows_and_spaced_ids_are_logged(dbt_project):
    """Lists of several days read as one, the same row twice, ids with a space in one table and
    scores passed as rank= gave a plausible number with no word in dbt (issue 43): each is a
    warning in dbt's log when the model runs, in the words Python warns with; beyond_accuracy's
    too, of predictions and train."""
    logged = []
    result = dbt_project.invoke("run", "-s", "+shape_map_merged", "+shape_map_by_day", "+shape_map_score_as_rank",
                                "+shape_beyond_merged",
                                "--vars", "{rank_metrics_shape_data: true}",
                                callbacks=[lambda event: logged.append(event.data.msg) if event.info.name == "JinjaLogWarning" else None])
    assert result.success, messages(result)
    merged = [line for line in logged if "(shape_map_merged)" in line]
    by_day = [line for line in logged if "(shape_map_by_day)" in line]
    assert sorted(merged) == sorted([
        "rank_metrics (shape_map_merged): lists merged: user 1 has two rows at rank 1, and their column 'day', which by= does "
        "not name, differs between them: lists of several day values are read as one list, and the number is no day's; "
        "pass by='day' for a row per day",
        "rank_metrics (shape_map_merged): truth's column 'item_id' holds ids with a space at the start or end, such as 'c ', "
        "and predictions' have none: ids are compared exactly, so such an id never meets the same id without the space; "
        "strip the spaces"])
    assert by_day[0] == (
        "rank_metrics (shape_map_by_day): duplicate rows: user 1 has two rows at rank 1, item 'a' both times, the same row "
        "twice (a table appended to itself, or a join that repeats rows): every repeat takes a place in the list and moves "
        "the items after it down; drop the repeated rows") and len(by_day) == 2
    # beyond_accuracy's, with train in truth's place
    assert sorted(line for line in logged if "(shape_beyond_merged)" in line) == [
        "rank_metrics (shape_beyond_merged): lists merged: user 1 has two rows at rank 1, and their column 'day', which "
        "by= does not name, differs between them: lists of several day values are read as one list, and the number is "
        "no day's; pass by='day' for a row per day",
        "rank_metrics (shape_beyond_merged): train's column 'item_id' holds ids with a space at the start or end, such "
        "as 'c ', and predictions' have none: ids are compared exactly, so such an id never meets the same id without "
        "the space; strip the spaces"]
    assert [line for line in logged if "(shape_map_score_as_rank): rank column" in line] == [
        "rank_metrics (shape_map_score_as_rank): rank column 'pred' holds only values between 0 and 1 (0.2 to 0.9): it "
        "looks like a score, and read as ranks every list is taken lowest first; if higher is better, pass score='pred'"]
