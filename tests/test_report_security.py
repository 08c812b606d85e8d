"""Values from the data are text, never markup (a security issue): the HTML report passed a cell
through unescaped when it held '<span' (a model named '<span><img src=x onerror=…>' ran its
handler in the reader's browser), and compare's Markdown escaped only |, so a name could carry
raw HTML, a link or a line break that ended the table. Here every name the data or the caller
gives (models, the baseline, the by, user and item columns, the title) is hostile; the page is
read as source and as the DOM headless Chromium builds from it, the Markdown cell by cell."""

import html
import re
import subprocess
from html.parser import HTMLParser

import pandas as pd
import pytest

import rank_metrics
from rank_metrics._tables import _markdown

from test_cli import run
from test_report import PURCHASES, RECOMMENDATIONS, Tables, chromium

PWNED = "document.title='pwned'"   # what a script or handler that ran would leave in the DOM


class Names:
    """Every name the data or the caller gives the page, each an attack. `rename`: for the page
    Chromium opens (in_browser)."""

    def __init__(self, rename=str):
        self.models = [rename(name) for name in (
            "<span><img src=x onerror=alert(2)>",
            "x<span></span><script>alert(3)</script>",
            f"<span><img src=x onerror=\"{PWNED}\">",
            f"x<span></span><script>{PWNED}</script>",
            # out of the SVG's comments (matplotlib writes each label in one) and out of an attribute
            f"--><!-- --!><img src=x onerror=\"{PWNED}\">' onmouseover='{PWNED}")]
        self.baseline = rename("\"'><svg onload=alert(1)>")
        self.by = rename(f"<img src=x onerror=\"{PWNED}\">&amp;")   # &amp; shows as written: escaped again
        self.user = rename(f"</td><script>{PWNED}</script>")
        self.item = rename("<svg><script>alert(4)</script></svg>")
        self.title = rename(f"</title><script>{PWNED}</script>")
        self.every = self.models + [self.baseline, self.by, self.user, self.item, self.title]


def in_browser(name):
    """alert() would block headless Chromium (no DOM is ever dumped): in the page it opens, the
    attacks set the title instead, which the test reads."""
    return name.replace("alert(", "document.title='pwned';(")


class Elements(HTMLParser):
    """Every element's tag, every attribute's name, and the <title>'s text."""

    def __init__(self, text):
        super().__init__()
        self.tags, self.attributes, self.title, self._in_title = [], [], "", False
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attributes):
        self.tags.append(tag)
        self.attributes += [name for name, _ in attributes]
        self._in_title = tag == "title"

    def handle_endtag(self, tag):
        if tag == "title":
            self._in_title = False

    def handle_data(self, data):
        if self._in_title:
            self.title += data


def no_markup_but_the_pages_own(elements):
    assert not {"img", "script", "iframe", "object", "embed"} & set(elements.tags)
    assert elements.tags.count("svg") == 1                        # the chart, no other
    assert not [name for name in elements.attributes if name.startswith("on")]


def write_page(folder, names):
    """The report of the example data under `names` (two more models: copies of the others'
    lists), written to folder/report.html."""
    models = names.models
    predictions = pd.read_csv(RECOMMENDATIONS)
    copies = [predictions[predictions.model == "item_knn"].assign(model=models[2]),
              predictions[predictions.model == "two_tower"].assign(model=models[3]),
              predictions[predictions.model == "item_knn"].assign(model=models[4])]
    predictions = pd.concat([predictions.replace({"model": {"item_knn": models[0], "two_tower": models[1],
                                                             "popularity": names.baseline}}), *copies])
    columns = {"model": names.by, "customer_id": names.user, "article_id": names.item}
    text = rank_metrics.report(predictions.rename(columns=columns), pd.read_csv(PURCHASES).rename(columns=columns),
                               k=[1, 5], by=names.by, baseline=names.baseline, user=names.user, item=names.item,
                               metrics=["map", "recall"], title=names.title)
    (folder / "report.html").write_text(text, encoding="utf-8")
    return folder / "report.html"


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    return write_page(tmp_path_factory.mktemp("hostile"), Names())


def test_every_name_is_in_the_page_source_only_escaped(page):
    text, names = page.read_text(encoding="utf-8"), Names()
    for name in names.every:
        assert name not in text, name
        assert html.escape(name, quote=True) in text, name
    # the only markup in a table cell is the page's own marker
    assert set(re.findall(r"<span[^>]*>", text)) <= {"<span class='mark'>"}
    elements = Elements(text)
    no_markup_but_the_pages_own(elements)
    assert elements.title == names.title


def test_the_chart_names_the_models_as_escaped_text(page):
    """matplotlib writes each label in an SVG comment: escaped as XML there, and its -- broken up,
    so that --> or --!> cannot end the comment inside the page."""
    text, names = page.read_text(encoding="utf-8"), Names()
    chart = text[text.index("<svg"):text.index("</svg>")]
    comments = re.findall(r"<!--(.*?)-->", chart, flags=re.S)
    for name in names.models[:4] + [names.baseline]:
        assert f" {name.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')} " in comments
    assert not [comment for comment in comments if "<" in comment or ">" in comment or "--" in comment]


def test_the_browser_shows_every_name_as_text_and_runs_nothing(tmp_path):
    names = Names(in_browser)
    page = write_page(tmp_path, names)
    dom = subprocess.run(chromium() + ["--dump-dom", page.as_uri()], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    elements = Elements(dom)
    assert elements.title == names.title != "pwned"               # no handler or script set it
    no_markup_but_the_pages_own(elements)
    # Chromium writes a text node's &, < and > as entities, and the quotes as they are
    for name in names.every:
        assert html.escape(name, quote=False) in dom, name
    tables = Tables()
    tables.feed(dom)
    comparison = tables.tables["comparison"]
    assert comparison[0][0] == names.by
    assert set(row[0] for row in comparison[1:]) == set(names.models)     # each name whole, in its cell
    assert all(len(row) == len(comparison[0]) for row in comparison)
    # the grid of values of each model is headed by its name, whole
    headings = [html.unescape(text) for text in re.findall(r"<h3>(.*?)</h3>", dom, flags=re.S)]
    assert set(headings) == {f"{names.by} {model}" for model in set(names.models) | {names.baseline}}
    options = dict(tables.tables["options"])
    assert (options["by"], options["baseline"], options["user"], options["item"]) == (
        names.by, names.baseline, names.user, names.item)
    assert re.search(r"<h1>(.*?)</h1>", dom).group(1) == html.escape(names.title, quote=False)
    assert f"<h2>Against {html.escape(repr(names.baseline), quote=False)}</h2>" in dom


def test_a_dollar_in_a_name_is_drawn_as_written():
    """matplotlib read a name between two $ as mathtext: '$\\foo$' failed the page (an unknown
    symbol) and 'a$b$c' was drawn in italics. Escaped, the legend says the name."""
    predictions = pd.read_csv(RECOMMENDATIONS).replace({"model": {"item_knn": "$\\foo$", "two_tower": "a$b$c"}})
    options = dict(k=5, by="model", user="customer_id", item="article_id")
    text = rank_metrics.report(predictions, PURCHASES, **options)
    assert "<!-- $\\foo$ -->" in text and "<!-- a$b$c -->" in text   # the legend's text, as drawn
    assert "<td>$\\foo$</td>" in text


# compare --format markdown


def cells(line):
    """A Markdown table row's cells: split at each | not escaped (after an even number of \\)."""
    assert line.startswith("| ") and line.endswith(" |"), line
    found, current, backslashes = [], "", 0
    for character in line[1:-1]:
        if character == "|" and backslashes % 2 == 0:
            found.append(current.strip())
            current = ""
        else:
            current += character
        backslashes = backslashes + 1 if character == "\\" else 0
    return found + [current.strip()]


def as_read(cell):
    """What a Markdown reader shows for a cell: CommonMark's backslash escapes and entities."""
    return html.unescape(re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", cell))


BASELINE = "\"'><svg onload=alert(1)>"
MARKDOWN_MODELS = ["a|b\nc", "x<span></span><script>alert(1)</script>", "<span><img src=x onerror=alert(2)>",
                   "`c` [l](javascript:alert(1)) ![i](x) *e* _u_ ~s~ \\| &amp; &lt;b&gt;\r\nz"]


def test_compare_markdown_keeps_hostile_names_inside_their_cells(tmp_path):
    predictions = pd.read_csv(RECOMMENDATIONS)
    predictions = pd.concat([predictions.replace({"model": {"item_knn": MARKDOWN_MODELS[0],
                                                            "two_tower": MARKDOWN_MODELS[1],
                                                            "popularity": BASELINE}}),
                             predictions[predictions.model == "item_knn"].assign(model=MARKDOWN_MODELS[2]),
                             predictions[predictions.model == "two_tower"].assign(model=MARKDOWN_MODELS[3])])
    by = "m|<b>`x`</b>"
    predictions.rename(columns={"model": by}).to_parquet(tmp_path / "p.parquet")
    code, out, err = run("compare", str(tmp_path / "p.parquet"), PURCHASES, "-k", "5", "--metrics", "map",
                         "--user", "customer_id", "--item", "article_id", "--by", by, "--baseline", BASELINE,
                         "--test", "permutation", "--seed", "1", "--resamples", "200", "--format", "markdown")
    assert code == 0, err
    table, legend = out.split("\n\n")
    lines = table.split("\n")
    assert len(lines) == 2 + len(MARKDOWN_MODELS)                 # no name's line break started a row
    rows = [cells(line) for line in lines]
    assert all(len(row) == 10 for row in rows)                      # no name's | started a cell
    assert as_read(rows[0][0]) == by
    # each name whole in its cell, line breaks read as spaces
    assert sorted(as_read(row[0]) for row in rows[2:]) == sorted(
        re.sub(r"\r\n|\r|\n", " ", name) for name in MARKDOWN_MODELS)
    assert [row[0] for row in rows[2:] if as_read(row[0]) == "a|b c"] == ["a\\|b c"]
    # no raw HTML, entity, code span, emphasis or link anywhere, legend included
    assert "<" not in out and ">" not in out
    assert "&" not in re.sub(r"&(amp|lt|gt);", "", out)
    for match in re.finditer(r"[`*_~\[\]]", out):   # each after an odd number of \\: escaped
        assert len(re.search(r"\\*$", out[:match.start()]).group()) % 2 == 1, out[match.start() - 20:match.end()]
    assert legend.startswith("▲ / ▼: significantly better / worse than ")
    assert as_read(legend.strip()).startswith(f"▲ / ▼: significantly better / worse than '{BASELINE}' (adjusted p < ")


@pytest.mark.parametrize("text, shown", [
    ("a|b\nc", r"a\|b c"),
    ("x<span></span><script>", "x&lt;span&gt;&lt;/span&gt;&lt;script&gt;"),
    ("a\\|b", r"a\\\|b"),               # the name's \ cannot make the | a cell's end
    ("&lt;", "&amp;lt;"),
    ("[l](javascript:x) `c` *e* _u_ ~s~", r"\[l\](javascript:x) \`c\` \*e\* \_u\_ \~s\~"),
    ("a\r\nb\rc", "a b c"),
    ("+37.5% 0.2080", "+37.5% 0.2080"),  # the numbers' cells as they were
])
def test_a_markdown_cell_is_escaped(text, shown):
    assert _markdown(text) == shown
    assert as_read(shown) == re.sub(r"\r\n|\r|\n", " ", text)


def test_the_markdown_legend_escapes_the_baseline_once(tmp_path):
    """The legend showed the baseline's repr, whose doubled backslash Markdown's escape doubled
    again: b\\ read as b\\\\ (a new user's trial)."""
    (tmp_path / "p.csv").write_text("user_id,item_id,rank,model\n1,a,1,x\n1,b,2,x\n1,b,1,b\\\n1,a,2,b\\\n")
    (tmp_path / "t.csv").write_text("user_id,item_id\n1,a\n")
    code, out, err = run("compare", str(tmp_path / "p.csv"), str(tmp_path / "t.csv"), "-k", "2", "--by", "model",
                         "--baseline", "b\\", "--metrics", "map", "--format", "markdown")
    assert code == 0, err
    assert out.split("\n\n")[1].startswith("▲ / ▼: significantly better / worse than 'b\\\\' (adjusted p &lt; 0.05")
