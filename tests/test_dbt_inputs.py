"""Issue 8 §1 in dbt: the argument and column checks of the macros fail the model with our
message, as they do in Python."""

import pytest

from test_dbt import compile_inline


@pytest.mark.parametrize("arguments, message", [
    ("k=3, user='item_id'", "user and item both name column item_id; they must be two different columns"),
    ("k=3, user='k'", "user column k clashes with an output column (k, map_at_k"),
    ("k=3, by='n_users'", "by column n_users clashes"),
    ("k=[3, 9223372036854775808]", "k must be at most 9223372036854775807"),
    ("k=3, rank='item_id'", "column item_id (argument rank) of predictions is"),
])
def test_argument_and_column_checks_fail_the_model(dbt_project, arguments, message):
    ok, text = compile_inline(dbt_project, "{{ rank_metrics.average_precision_at_k(predictions=ref('spec_predictions'), "
                                           f"truth=ref('spec_truth'), {arguments}) }}}}")
    assert not ok
    assert message in text
