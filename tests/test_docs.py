"""The documentation: a README a newcomer reads, links that resolve, no citation of a document the
repository lacks, a reference that says what macros.yml says, and no macro dbt docs lists
without a word (issue 42, item 4)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from rank_metrics._render import metric_registry

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
MACROS_YML = ROOT / "macros" / "dbt" / "macros.yml"
README_MAX_LINES = 450


def _make_reference():
    spec = importlib.util.spec_from_file_location("make_reference", ROOT / "docs" / "make_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_reference = _make_reference()


def _pages() -> list[Path]:
    """The Markdown a reader of the repository reads."""
    pages = [README, ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md", ROOT / "bench" / "README.md"]
    return pages + sorted((ROOT / "docs").glob("*.md"))


FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.M | re.S)
INLINE_CODE = re.compile(r"`+[^`\n]*`+")
LINK = re.compile(r"!?\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$", re.M)
HTML_ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"", re.I)


def _prose(text: str) -> str:
    """Text without fenced code blocks, and with each inline code span as a plain word."""
    return INLINE_CODE.sub("code", FENCE.sub("", text))


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its text (a link's text, code without backticks), lower
    case, without what is neither a word character, a space nor a hyphen, spaces as hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "")
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor of a page: its headings' (a repeated one numbered as GitHub numbers it) and
    its HTML anchors."""
    found, seen = set(), {}
    for _, heading in HEADING.findall(FENCE.sub("", text)):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found | set(HTML_ANCHOR.findall(text))


def broken_links(page: Path) -> list[str]:
    """The relative links of a page whose file, or whose anchor in a Markdown file, does not exist."""
    text = page.read_text()
    broken = []
    for target in LINK.findall(_prose(text)):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):      # http:, https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no file {path}")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file.read_text()):
            broken.append(f"{target}: no heading #{anchor} in {path or 'this page'}")
    return broken


def test_the_readme_is_short_enough_to_read():
    lines = README.read_text().count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines; at most {README_MAX_LINES}: move the rest to docs/"


def test_the_readme_keeps_what_a_newcomer_needs():
    """The two commands (`make test` is CI's and stays the README's), install, the three quick
    starts and the options summary; and a link to every page under docs/."""
    text = README.read_text()
    for needed in ("make demo", "make test", "make test-fast", "## Install", "## Quick start: dbt",
                   "## Quick start: Python", "## Quick start: command line", "## Options", "## Conventions"):
        assert needed in text, needed
    linked = {Path(target.partition("#")[0]).name for target in LINK.findall(_prose(text)) if target.startswith("docs/")}
    pages = {page.name for page in (ROOT / "docs").glob("*.md")}
    assert pages - linked == set(), "pages under docs/ the README does not link to"


@pytest.mark.parametrize("page", _pages(), ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(page):
    assert page.exists(), page
    assert broken_links(page) == []


def test_the_link_check_finds_a_broken_file_and_a_broken_anchor(tmp_path):
    (tmp_path / "other.md").write_text("# A title\n\n## Quick start: `dbt`\n\n## Quick start: `dbt`\n")
    page = tmp_path / "page.md"
    page.write_text("[a](other.md) [b](other.md#quick-start-dbt) [c](other.md#quick-start-dbt-1) [d](#here)\n"
                    "# Here\n`[e](missing.md)`\n```\n[f](missing.md)\n```\n"
                    "[g](missing.md) [h](other.md#nowhere) [i](https://example.com/x)\n")
    assert [line.split(":")[0] for line in broken_links(page)] == ["missing.md", "other.md#nowhere"]


def test_github_anchors():
    assert slug("Quick start: dbt") == "quick-start-dbt"
    assert slug("map — `map_at_k`, per user `average_precision`") == "map--map_at_k-per-user-average_precision"
    assert slug("Is model B really better? Uncertainty, comparisons and release gates") == \
        "is-model-b-really-better-uncertainty-comparisons-and-release-gates"


def test_no_page_cites_a_document_the_repository_lacks():
    """The definitions are the project's own (docs/definitions.md): no page cites "SPEC §n"."""
    pages = _pages() + sorted((ROOT / "docs").glob("*.py"))
    citing = {page.relative_to(ROOT).as_posix(): re.findall(r".{0,30}\bSPEC\b.{0,30}", page.read_text())
              for page in pages}
    assert {page: lines for page, lines in citing.items() if lines} == {}
    assert "SPEC" not in MACROS_YML.read_text(), "macros.yml's text becomes docs/reference.md"


def test_the_reference_is_what_macros_yml_says():
    text = MACROS_YML.read_text()
    assert make_reference.with_metric_names(text) == text, "macros.yml's lists of the metrics are out of date: make docs"
    assert make_reference.with_metric_entries(text) == text, \
        "macros.yml's metric entries are not the registry's: run .venv/bin/python docs/make_reference.py"
    assert make_reference.with_internal_entries(text) == text, \
        "macros.yml's internal entries are out of date: run .venv/bin/python docs/make_reference.py"
    assert make_reference.reference(text) == (ROOT / "docs" / "reference.md").read_text(), \
        "docs/reference.md is out of date: run .venv/bin/python docs/make_reference.py"


def test_every_public_macro_has_a_card_with_columns_and_an_example():
    cards = make_reference.public_entries(MACROS_YML.read_text())
    reference = (ROOT / "docs" / "reference.md").read_text()
    # a card per registered metric, and AP per user, evaluate, evaluate_users, compare,
    # evaluate_over_time, beyond_accuracy, beyond_accuracy_users, compare_beyond_accuracy and
    # three gates
    assert len(cards) == len(metric_registry()) + 11
    for card in cards:
        meta = card.get("meta", {})
        assert card["description"].strip(), card["name"]
        assert meta.get("output_columns") and all(column["description"] for column in meta["output_columns"]), card["name"]
        assert meta.get("example_call") or meta.get("example_yaml"), card["name"]
        assert "{{" not in meta.get("example_call", ""), "dbt renders meta as Jinja: write the call without {{ }}"
        assert f"\n## {card['name'].removeprefix('test_')}\n" in reference


def test_every_macro_is_documented_or_hidden_from_dbt_docs():
    """dbt docs lists every macro of the package: each is documented (a description and its
    arguments), or hidden; and no entry names a macro that does not exist (dbt warns of it)."""
    defined = make_reference.defined_macros()
    entries = make_reference.entries(MACROS_YML.read_text())
    names = [entry["name"] for entry in entries]
    assert len(names) == len(set(names)), "a macro with two entries"
    assert set(defined) - set(names) == set(), "macros with no entry in macros.yml: run docs/make_reference.py"
    assert set(names) - set(defined) == set(), "entries for macros that do not exist"
    for entry in entries:
        shown = entry.get("docs", {}).get("show", True)
        assert entry.get("description", "").strip(), entry["name"]
        if shown:
            assert entry.get("arguments") and all(argument.get("description") for argument in entry["arguments"]), entry["name"]
    public = set(re.findall(r"{% macro ([a-z]\w*)\(", (ROOT / "macros" / "dbt" / "entry_points.sql").read_text()))
    public |= {name for path in (ROOT / "macros" / "metrics").glob("*.sql")
               for name in re.findall(r"{% macro ([a-z]\w*)\(", path.read_text()) if "__" not in name}
    gates = {"test_" + name for file in ("gates.sql", "table_gates.sql")
             for name in re.findall(r"{% test (\w+)\(", (ROOT / "macros" / "dbt" / file).read_text())}
    shown = {entry["name"] for entry in entries if entry.get("docs", {}).get("show", True)}
    assert shown == public | gates


def test_the_command_line_page_lists_every_command():
    """docs/cli.md's list of commands is written by hand: each command the parser has is in it
    (the IR family's six were missing: a new user's trial)."""
    from rank_metrics import cli

    listed = re.search(r"The commands are (.*?)\.\s", (ROOT / "docs" / "cli.md").read_text(), re.S).group(1)
    named = set(re.findall(r"`([a-z][a-z-]+)`", listed))
    commands = set(cli._parser().commands)
    assert commands == named, commands ^ named


def test_the_statistics_pages_example_is_what_the_command_prints():
    """docs/statistics.md shows compare's table for a command: that command's output, to the digit
    (it had shown the adjusted p-values of --family all under the default family's legend)."""
    from test_cli import run

    page = (ROOT / "docs" / "statistics.md").read_text()
    command = re.search(r"\n    rank-metrics (compare [^\n]*\\\n\s+[^\n]*)\n", page).group(1)
    shown = re.search(r"```\n(model  k  metric[^`]*)```", page).group(1)
    code, printed, _ = run(*command.replace("\\\n", " ").split())
    assert code == 0 and printed == shown
