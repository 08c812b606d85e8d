"""A bad argument fails its own model when it runs, not every build at parse time (issue 43 item
8): in a user's project with one model of k=0 and a gate of k=0, `dbt build --select` of the
other model passes, and the bad model and gate each fail with our message when they run."""

import pytest

from conftest import ROOT
from test_dbt_inputs import messages

pytestmark = pytest.mark.dbt


def test_a_bad_argument_fails_its_model_when_it_runs(dbt_project, tmp_path):
    (tmp_path / "dbt_project.yml").write_text(
        "name: a_users_project\nversion: '1.0.0'\nconfig-version: 2\nprofile: rank_metrics_integration_tests\n")
    (tmp_path / "packages.yml").write_text(f"packages:\n  - local: {ROOT}\n")
    (tmp_path / "seeds").mkdir()
    (tmp_path / "seeds" / "recs.csv").write_text("model,user_id,item_id,rank\na,1,x,1\na,2,y,1\nb,1,x,1\nb,2,z,1\n")
    (tmp_path / "seeds" / "purchases.csv").write_text("user_id,item_id\n1,x\n2,y\n")
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "good.sql").write_text(
        "{{ rank_metrics.map_at_k(predictions=ref('recs'), truth=ref('purchases'), k=1, by='model') }}\n")
    (tmp_path / "models" / "bad.sql").write_text(
        "{{ rank_metrics.map_at_k(predictions=ref('recs'), truth=ref('purchases'), k=0) }}\n")
    (tmp_path / "models" / "gates.yml").write_text(
        "version: 2\nmodels:\n  - name: good\n  - name: bad\nseeds:\n  - name: recs\n    data_tests:\n"
        "      - rank_metrics.metric_at_least:\n"
        "          arguments: {truth: ref('purchases'), k: 0, metric: map, min_value: 0.1, by: model}\n")
    assert dbt_project.invoke("deps", project=tmp_path).success
    assert dbt_project.invoke("parse", project=tmp_path).success
    good = dbt_project.invoke("build", "--select", "recs", "purchases", "good", "--exclude-resource-type", "test",
                              project=tmp_path)
    assert good.success, messages(good)
    bad = dbt_project.invoke("run", "--select", "bad", project=tmp_path)
    assert not bad.success and "rank_metrics: k must be a positive integer" in messages(bad)
    gate = dbt_project.invoke("test", "--select", "recs", project=tmp_path)
    assert not gate.success and "rank_metrics: metric_at_least: k must be a positive integer" in messages(gate)
