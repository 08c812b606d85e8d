"""The report and the chart (SPEC §7, issue 10): the HTML page opened in a real browser
(headless Chromium, which `make test` installs): the numbers of its rendered tables equal
compare's and evaluate's, nothing is fetched from the network, and its screenshot is not blank;
the matplotlib chart holds evaluate's values and bands; the CLI writes both."""

import re
import shutil
import subprocess
from html.parser import HTMLParser

import matplotlib.image
import pytest

import rank_metrics

from conftest import ROOT
from test_cli import run

RECOMMENDATIONS = str(ROOT / "seeds" / "example_recommendations.csv")
PURCHASES = str(ROOT / "seeds" / "example_purchases.csv")
COLUMNS = dict(user="customer_id", item="article_id", by="model")
KS = [1, 5, 10]
METRICS = ["map", "ndcg", "recall"]


def chromium():
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    assert found, "Chromium is missing: make test installs it (make system, Debian's chromium package)"
    return [found, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]


class Tables(HTMLParser):
    """The text of every table cell, per table class, row by row."""

    def __init__(self):
        super().__init__()
        self.tables, self.current, self.row, self.cell = {}, None, None, None

    def handle_starttag(self, tag, attributes):
        if tag == "table":
            self.current = self.tables.setdefault(dict(attributes).get("class"), [])
        elif tag == "tr" and self.current is not None:
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.row.append(self.cell.strip())
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.current.append(self.row)
            self.row = None
        elif tag == "table":
            self.current = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report")
    code, _, err = run("report", RECOMMENDATIONS, PURCHASES, "-k", *map(str, KS), "--metrics", *METRICS,
                       "--user", "customer_id", "--item", "article_id", "--by", "model", "--baseline", "popularity",
                       "-o", str(folder / "report.html"))
    assert code == 0, err
    return folder / "report.html"


def test_the_rendered_tables_hold_compare_and_evaluate_numbers(page):
    dom = subprocess.run(chromium() + ["--dump-dom", page.as_uri()], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    tables = Tables()
    tables.feed(dom)
    comparison = rank_metrics.compare(RECOMMENDATIONS, PURCHASES, KS, baseline="popularity", metrics=METRICS,
                                      **COLUMNS)
    rows = tables.tables["comparison"][1:]
    assert len(rows) == len(comparison) == 2 * len(KS) * len(METRICS)
    for shown, row in zip(rows, comparison.to_dict("records")):
        assert shown[:3] == [row["model"], str(row["k"]), row["metric"]]
        assert float(shown[3]) == pytest.approx(row["baseline_value"], abs=1e-6)
        assert float(shown[4].split()[0]) == pytest.approx(row["value"], abs=1e-6)
        assert float(shown[5]) == pytest.approx(row["difference"], abs=1e-6)
        assert float(shown[8]) == pytest.approx(row["p_value_adjusted"], rel=1e-3)
        assert ("▲" in shown[4] or "▼" in shown[4]) == bool(row["significant"])
    values = rank_metrics.evaluate(RECOMMENDATIONS, PURCHASES, KS, metrics=METRICS, **COLUMNS)
    # a grid per model, in the order of evaluate's rows: a metric a row, a k a column, each cell the
    # value over its interval, then the users at each k
    grids = tables.tables["values"]
    assert len(grids) == 3 * (1 + len(METRICS) + 1)
    for index, model in enumerate(values.model.unique()):
        header, *metric_rows, users_row = grids[index * (len(METRICS) + 2):(index + 1) * (len(METRICS) + 2)]
        assert header == ["metric", *(f"@{k}" for k in KS)]
        assert [row[0] for row in metric_rows] == METRICS
        mine = values[values.model == model]
        for row in metric_rows:
            want = mine[mine.metric == row[0]].sort_values("k")
            shown = [cell.split() for cell in row[1:]]   # value, ci_low, "to", ci_high
            assert [float(cell[0]) for cell in shown] == pytest.approx(list(want.value), abs=1e-6)
            assert [float(cell[1]) for cell in shown] == pytest.approx(list(want.ci_low), abs=1e-4)
            assert [float(cell[3]) for cell in shown] == pytest.approx(list(want.ci_high), abs=1e-4)
        assert users_row == ["users", *(str(mine[mine.k == k].n_users.max()) for k in KS)]
    inputs = {row[0]: row[1:] for row in tables.tables["inputs"]}
    assert inputs == {"predictions": [RECOMMENDATIONS, "72,000 rows, 2,000 users"],
                      "truth": [PURCHASES, "2,145 rows (2,145 relevant), 1,042 users"],
                      "order": ["rank (ascending: rank 1 first)", ""], "relevance": ["none: every truth row is relevant", ""]}
    users = {row[0]: row for row in tables.tables["users"][1:]}
    assert int(users["item_knn"][1]) == int(values[values.model == "item_knn"].n_users.iloc[0])


def test_the_page_is_self_contained_and_its_screenshot_is_not_blank(page, tmp_path):
    text = page.read_text()
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text), "the page links outside itself"
    assert "<svg" in text and "<script" not in text
    shot = tmp_path / "shot.png"
    subprocess.run(chromium() + [f"--screenshot={shot}", "--window-size=1200,1600", page.as_uri()],
                   capture_output=True, timeout=120, check=True)
    pixels = matplotlib.image.imread(shot)[..., :3]
    assert pixels.std() > 0.05                      # not one colour
    assert (pixels.mean(axis=2) < 0.5).mean() > 0.005   # some dark ink: text and lines


def test_the_options_in_force_are_all_listed(page):
    tables = Tables()
    tables.feed(page.read_text())
    options = dict(tables.tables["options"])
    assert {name: options.get(name) for name in ("k", "by", "metrics", "baseline", "test", "correction", "alpha",
                                                  "seed", "confidence", "relevance_threshold", "user", "item")} == {
        "k": "1, 5, 10", "by": "model", "metrics": "map, ndcg, recall", "baseline": "popularity", "test": "t",
        "correction": "holm", "alpha": "0.05", "seed": "0", "confidence": "0.95", "relevance_threshold": "none",
        "user": "customer_id", "item": "article_id"}
    assert "None" not in options.values()


def test_the_page_says_what_the_comparison_and_the_bands_are(page):
    text = " ".join(page.read_text().split())
    assert ("The baseline's value and the model's are means over the paired users only, so they can differ from the "
            "values below when the models evaluate different users.") in text
    assert "normal confidence interval (mean &plusmn; z&middot;std_error), which can reach below 0 or above 1" in text


def test_plot_draws_each_metric_with_its_band():
    figure = rank_metrics.plot(RECOMMENDATIONS, PURCHASES, KS, metrics=METRICS, **COLUMNS)
    values = rank_metrics.evaluate(RECOMMENDATIONS, PURCHASES, KS, metrics=METRICS, **COLUMNS)
    assert [axes.get_title() for axes in figure.axes] == METRICS
    for axes, metric in zip(figure.axes, METRICS):
        assert list(axes.get_xticks()) == KS             # the cutoffs, not 1.5, 2.5, …
        lines = {line.get_label(): line for line in axes.get_lines()}
        assert sorted(lines) == ["item_knn", "popularity", "two_tower"]
        for model, line in lines.items():
            want = values[(values.model == model) & (values.metric == metric)].sort_values("k")
            assert list(line.get_xdata()) == KS
            assert list(line.get_ydata()) == pytest.approx(list(want.value))
        assert len(axes.collections) == 3            # a band per model


def test_cli_plot_writes_an_image_and_names_a_bad_output(tmp_path):
    code, _, err = run("plot", RECOMMENDATIONS, PURCHASES, "-k", "1", "5", "--user", "customer_id",
                       "--item", "article_id", "--by", "model", "-o", str(tmp_path / "curve.png"))
    assert code == 0, err
    assert matplotlib.image.imread(tmp_path / "curve.png").std() > 0.05
    code, _, err = run("plot", RECOMMENDATIONS, PURCHASES, "-k", "1", "--user", "customer_id",
                       "--item", "article_id", "--by", "model", "-o", str(tmp_path / "no" / "such" / "curve.png"))
    assert code == 2 and "--output: cannot write" in err and len(err.strip().splitlines()) == 1
    # said before the query, which a missing input would otherwise fail first
    code, _, err = run("plot", "no-such.csv", PURCHASES, "-k", "1", "-o", str(tmp_path / "no" / "curve.png"))
    assert (code, err) == (2, f"rank-metrics: error: --output: cannot write {str(tmp_path / 'no' / 'curve.png')!r}: "
                              f"no folder {str(tmp_path / 'no')!r}\n")
    code, _, err = run("plot", RECOMMENDATIONS, PURCHASES, "-k", "1", "--user", "customer_id",
                       "--item", "article_id", "-o", str(tmp_path / "curve.jpg"))
    assert code == 2 and "--output: expected a name ending in .png, .svg or .pdf; got" in err


@pytest.mark.parametrize("name", ["report.pdf", "report"])
def test_cli_report_names_an_output_that_is_not_html(tmp_path, name):
    # it wrote HTML into report.pdf (a new user's report); the name is checked before any query
    code, out, err = run("report", RECOMMENDATIONS, PURCHASES, "-k", "4", "--user", "customer_id", "--item", "article_id",
                         "-o", str(tmp_path / name))
    assert (code, out) == (2, "")
    assert err == (f"rank-metrics: error: --output: expected a name ending in .html or .htm; got "
                   f"{str(tmp_path / name)!r} (report writes one HTML page)\n")
    assert not (tmp_path / name).exists()


def test_cli_plot_writes_the_same_file_for_the_same_input(tmp_path):
    """An SVG had its date and random element ids, a PDF its creation date (a new user's report)."""
    for form in ("svg", "pdf", "png"):
        files = [tmp_path / f"curve{run_number}.{form}" for run_number in (1, 2)]
        for path in files:
            code, _, err = run("plot", RECOMMENDATIONS, PURCHASES, "-k", "1", "5", "--user", "customer_id",
                               "--item", "article_id", "--by", "model", "-o", str(path))
            assert code == 0, err
        assert files[0].read_bytes() == files[1].read_bytes(), form


def test_missing_matplotlib_names_the_extra(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "matplotlib", None)
    with pytest.raises(rank_metrics.RankMetricsError) as error:
        rank_metrics.plot(RECOMMENDATIONS, PURCHASES, 5, **COLUMNS)
    assert str(error.value) == ("rank_metrics: drawing the charts of plot and report needs the matplotlib package, "
                                "which is not installed: pip install 'rank-metrics[plot]'")


@pytest.mark.parametrize("by, said", [([], "--by is missing"), (["model", "customer_id"], "got --by model customer_id")])
def test_cli_report_with_a_baseline_names_by(tmp_path, by, said):
    code, out, err = run("report", RECOMMENDATIONS, PURCHASES, "-k", "4", "--user", "customer_id", "--item", "article_id",
                         *(["--by", *by] if by else []), "--baseline", "popularity", "-o", str(tmp_path / "x.html"))
    assert (code, out) == (2, "")
    assert err == ("rank-metrics: error: report: --by must name one column, the one whose values are "
                   f"the models (--baseline is one of them); {said}\n")
    assert not (tmp_path / "x.html").exists()


def test_the_same_input_gives_the_same_page(page, tmp_path):
    """No date and no random ids in the inline SVG, and exact means (tests/test_repeatable.py):
    a report written again is the same file, so it can be kept in version control and diffed."""
    code, _, err = run("report", RECOMMENDATIONS, PURCHASES, "-k", *map(str, KS), "--metrics", *METRICS,
                       "--user", "customer_id", "--item", "article_id", "--by", "model", "--baseline", "popularity",
                       "-o", str(tmp_path / "again.html"))
    assert code == 0, err
    assert (tmp_path / "again.html").read_bytes() == page.read_bytes()


def test_python_and_the_command_line_write_the_same_page(tmp_path):
    """With the id columns left at their defaults, the command line's page listed user and item
    among the options in force and Python's did not (a new user's walkthrough)."""
    import pandas as pd

    predictions = pd.read_csv(RECOMMENDATIONS).rename(columns={"customer_id": "user_id", "article_id": "item_id"})
    truth = pd.read_csv(PURCHASES).rename(columns={"customer_id": "user_id", "article_id": "item_id"})
    predictions.to_csv(tmp_path / "recs.csv", index=False)
    truth.to_csv(tmp_path / "purchases.csv", index=False)
    code, _, err = run("report", str(tmp_path / "recs.csv"), str(tmp_path / "purchases.csv"), "-k", "5", "--by", "model",
                       "-o", str(tmp_path / "cli.html"))
    assert code == 0, err
    page = rank_metrics.report(str(tmp_path / "recs.csv"), str(tmp_path / "purchases.csv"), k=[5], by="model")
    assert page == (tmp_path / "cli.html").read_text()
    tables = Tables()
    tables.feed(page)
    assert dict(tables.tables["options"])["user"] == "user_id"


def test_cli_report_prints_a_warning_once_not_once_per_k(tmp_path):
    """Ids that never meet gave the all-zero warning twice, at k 12 and again at k 5 from the
    page's counts of users (a README trial). It comes once, from the metrics' query."""
    lines = open(PURCHASES).read().splitlines()
    (tmp_path / "purchases.csv").write_text("\n".join([lines[0]] + [line.replace(",A", ",xA") for line in lines[1:]]) + "\n")
    code, _, err = run("report", RECOMMENDATIONS, str(tmp_path / "purchases.csv"), "-k", "5", "12", "--by", "model",
                       "--user", "customer_id", "--item", "article_id", "-o", str(tmp_path / "page.html"))
    assert code == 0
    warnings_shown = [line for line in err.splitlines() if line.startswith("rank-metrics: warning:")]
    assert len(warnings_shown) == 1
    assert warnings_shown[0].startswith("rank-metrics: warning: no evaluated user has a relevant item within the first 12 items")


def test_a_report_of_arrow_readers_is_the_report_of_their_tables():
    """A pyarrow RecordBatchReader reads once, and the page reads its inputs several times: the
    page's counts of users found it empty and failed on a users rule the caller never chose
    (found in review). The page reads each reader once."""
    import pandas as pd
    import pyarrow as pa

    predictions, truth = (pa.Table.from_pandas(pd.read_csv(path)) for path in (RECOMMENDATIONS, PURCHASES))
    options = dict(k=[5, 12], by="model", user="customer_id", item="article_id")
    assert rank_metrics.report(predictions.to_reader(), truth.to_reader(), **options) == rank_metrics.report(
        predictions, truth, **options)


def test_a_python_report_gives_each_warning_once(tmp_path):
    """The page's compare and its counts of users repeated the metrics' column warning (five
    times in all) and the all-zero one at another k (found in review); a reader read earlier
    still gets its own warning."""
    import warnings

    import pandas as pd
    import pyarrow as pa

    predictions, truth = pd.read_csv(RECOMMENDATIONS), pd.read_csv(PURCHASES).assign(rating=1)
    options = dict(k=[5, 12], by="model", user="customer_id", item="article_id")
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        rank_metrics.report(predictions, truth, baseline="popularity", **options)
    texts = [str(warning.message) for warning in shown if warning.category is rank_metrics.RankMetricsWarning]
    assert len(texts) == 1 and texts[0].startswith("rank_metrics: truth has a column 'rating' that is not read")
    reader = pa.Table.from_pandas(predictions).to_reader()
    rank_metrics.map_at_k(reader, truth[["customer_id", "article_id"]], k=5, by="model",
                          user="customer_id", item="article_id")
    with warnings.catch_warnings(record=True) as shown, pytest.raises(rank_metrics.RankMetricsError):
        warnings.simplefilter("always")
        rank_metrics.report(reader, truth[["customer_id", "article_id"]], **options)
    assert any("predictions: the RecordBatchReader gave no rows; a reader reads once" in str(warning.message)
               for warning in shown)


def test_a_numpy_k_and_the_confidence_as_written():
    """report took min() of a numpy integer k (a raw TypeError) and printed 0.999 as 100% (a new
    user's trial)."""
    import numpy as np

    options = dict(by="model", user="customer_id", item="article_id")
    page = rank_metrics.report(RECOMMENDATIONS, PURCHASES, k=np.int64(5), confidence=0.999, **options)
    assert page == rank_metrics.report(RECOMMENDATIONS, PURCHASES, k=5, confidence=0.999, **options)
    assert "bands the 99.9% normal confidence interval" in page


def test_a_report_of_a_table_with_no_rows(tmp_path):
    """evaluate gives zeros and a warning for predictions with no rows; report failed on
    "--users predictions", a rule the user never chose (the page's own count of users with a
    list; a new user's trial)."""
    import pandas as pd

    empty = pd.read_csv(RECOMMENDATIONS).iloc[:0]
    options = dict(k=5, user="customer_id", item="article_id")
    with pytest.warns(rank_metrics.RankMetricsWarning, match="predictions has no rows"):
        page = rank_metrics.report(empty, PURCHASES, **options)
    assert "<h2>Users</h2>" in page
    truth = pd.read_csv(PURCHASES)
    with pytest.warns(rank_metrics.RankMetricsWarning):
        rank_metrics.report(RECOMMENDATIONS, truth.iloc[:0], users="predictions", **options)
    # by groups of no rows leave nothing to draw: said, not a ZeroDivisionError from the chart
    with pytest.warns(rank_metrics.RankMetricsWarning), \
            pytest.raises(rank_metrics.RankMetricsError, match="^rank_metrics: there is nothing to draw: no group of by"):
        rank_metrics.report(empty, PURCHASES, by="model", **options)


def test_a_report_of_a_geometric_mean_and_of_gauc_by_impressions():
    """The page's count of users per rule read every user with the call's options, and those
    that only change a group's mean (mean='geometric', auc_weight='impressions') made it fail as
    evaluate_users refuses them; its values are evaluate's under them."""
    options = dict(k=[5, 12], by="model", user="customer_id", item="article_id", metrics=["map", "auc"])
    for mean_options in (dict(mean="geometric"), dict(auc_weight="impressions")):
        page = rank_metrics.report(RECOMMENDATIONS, PURCHASES, **options, **mean_options)
        values = rank_metrics.evaluate(RECOMMENDATIONS, PURCHASES, **options, **mean_options)
        assert "<h2>Users</h2>" in page and f"{values.value.dropna().iloc[-1]:.4f}" in page
        assert f"<th>{next(iter(mean_options))}</th>" in page


def test_the_page_cautions_of_few_paired_users():
    """compare warns below 30 paired users, and the page says so too (the spec asks both; a
    user's trial found the page silent on 5): not under the permutation test, exact at any n."""
    seeds = ROOT / "integration_tests" / "seeds"
    options = dict(k=4, metrics=["map"], by="model", baseline="b")
    with pytest.warns(rank_metrics.RankMetricsWarning, match="pair only 5 users"):
        page = rank_metrics.report(str(seeds / "compare_predictions.csv"), str(seeds / "compare_truth.csv"), **options)
    assert ("<p class='caution'>Only 5 paired users (fewer than 30): a p-value over so few users can call a chance "
            "difference significant; the permutation test (test='permutation', --test permutation) is exact up "
            "to 13 users") in page
    page = rank_metrics.report(str(seeds / "compare_predictions.csv"), str(seeds / "compare_truth.csv"), test="permutation",
                               **options)
    assert "class='caution'" not in page
