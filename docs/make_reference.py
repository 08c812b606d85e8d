"""Writes docs/reference.md from macros/dbt/macros.yml, and macros.yml's entries for the metrics and the internal macros.

    .venv/bin/python docs/make_reference.py            # writes both
    .venv/bin/python docs/make_reference.py --check    # writes nothing; exits 1 when either is out of date

macros.yml documents the public macros (macros/dbt/entry_points.sql) and the release gates
(macros/dbt/gates.sql) by hand: a description, every argument, and in `meta` the output columns
and an example (`example_call`: a macro call without its {{ }}, which this script adds back, since
dbt renders meta as Jinja; or a gate's `example_yaml`). Each becomes a card of docs/reference.md. Every other macro defined under macros/
is internal: its entry, hidden from `dbt docs`, is written at the end of macros.yml, below the
line INTERNAL_MARK, so that a new or renamed macro needs no entry written by hand. The entries
of the metric macros (map_at_k, ndcg_at_k, ...) are written between the METRIC marks from the
metric registry (macros/metrics/_registry.sql), their arguments those of average_precision_at_k
(a YAML alias of its list): adding a metric to the registry needs no entry written by hand.
tests/test_docs.py runs the same functions and compares their output with the committed files.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
MACROS_YML = ROOT / "macros" / "dbt" / "macros.yml"
REFERENCE = ROOT / "docs" / "reference.md"
INTERNAL_MARK = ("  # Internal macros, hidden from dbt docs: written by docs/make_reference.py from the macros\n"
                 "  # defined under macros/ (run it after adding, renaming or removing one; do not edit below).\n")
METRIC_START = "  # Metric macros: written by docs/make_reference.py from macros/metrics/_registry.sql (do not edit).\n"
METRIC_END = "  # End of the metric macros.\n"
# a macro or a generic test (dbt names the test's macro test_<name>)
DEFINITION = re.compile(r"{%-?\s*(macro|test)\s+(\w+)\s*\(")
# arguments each card lists itself, first, whether or not they are common to every card
POSITIONAL = ("model", "predictions", "truth", "k")


def defined_macros(root: Path = ROOT) -> dict[str, str]:
    """Every macro defined under macros/, as dbt names it, with the file that defines it."""
    found = {}
    for path in sorted((root / "macros").rglob("*.sql")):
        for kind, name in DEFINITION.findall(path.read_text()):
            found[("test_" if kind == "test" else "") + name] = path.relative_to(root).as_posix()
    return found


def entries(text: str) -> list[dict]:
    return yaml.safe_load(text)["macros"]


def public_entries(text: str) -> list[dict]:
    """The entries dbt docs shows, in the order of macros.yml."""
    return [entry for entry in entries(text) if entry.get("docs", {}).get("show", True)]


def with_internal_entries(text: str, root: Path = ROOT) -> str:
    """macros.yml's text with its internal entries written again from the macros defined now."""
    head = text.split(INTERNAL_MARK, 1)[0].rstrip("\n") + "\n"
    shown = {entry["name"] for entry in public_entries(head)}
    lines = [f"  - {{name: {name}, description: {json.dumps(f'Internal ({path}); not for use in models.')}, docs: {{show: false}}}}"
             for name, path in sorted(defined_macros(root).items(), key=lambda item: (item[1], item[0]))
             if name not in shown]
    return head + INTERNAL_MARK + "\n".join(lines) + "\n"


ONE_ROW_PER_GROUP = " One row per group of by and k; renders one SELECT, every argument after k a keyword argument."


def with_metric_entries(text: str) -> str:
    """macros.yml's text with the metric macros' entries written again from the registry."""
    from rank_metrics._render import metric_registry

    head, rest = text.split(METRIC_START, 1) if METRIC_START in text else text.split("  # METRIC ENTRIES\n", 1)
    tail = rest.split(METRIC_END, 1)[1] if METRIC_END in rest else rest
    lines = []
    # the arguments of a metric that takes no k (R-precision): the others' without k
    arguments = next(card["arguments"] for card in yaml.safe_load(text)["macros"] if card["name"] == "map_at_k")
    for entry in metric_registry().values():
        cutoff_free = entry.get("cutoff_free", False)
        columns = [("<by columns>", "The by columns, each under its own name, in the order given (none without by)."),
                   ("k", "NULL: the metric takes no k (one row per group)." if cutoff_free else
                    "The cutoff: a row per k given, ascending in Python and on the command line (the SQL sets no order)."),
                   (entry["group_column"], f"The mean of {entry['label']} over the evaluated users ({entry['user_column']} per user)."),
                   ("n_users", "How many users the mean is over: the evaluated users (users=).")]
        one_row = ONE_ROW_PER_GROUP.replace(" and k", "").replace("after k", "after truth") if cutoff_free else ONE_ROW_PER_GROUP
        lines += [f"  - name: {entry['macro']}",
                  f"    description: {json.dumps(entry['description'] + one_row)}",
                  "    meta:", "      output_columns:"]
        for name, description in columns:
            lines += [f"        - name: {json.dumps(name)}", f"          description: {json.dumps(description)}"]
        lines += ["      example_call: |"] + [f"        {line}" for line in entry["example"].splitlines()]
        if cutoff_free:
            lines += ["    arguments:"]
            for argument in arguments:
                if argument["name"] != "k":
                    lines += [f"      - name: {argument['name']}", f"        description: {json.dumps(argument['description'])}"]
        else:
            lines += ["    arguments: *metric_arguments"]
    return head + METRIC_START + "\n".join(lines) + "\n" + METRIC_END + tail


def _cell(text) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _title(name: str) -> str:
    return name.removeprefix("test_")


def _anchor(name: str) -> str:
    return _title(name).lower()


def _sentence(description: str) -> str:
    """The description's first sentence: up to the first '. ' (or all of it)."""
    first = description.split(". ", 1)[0]
    return first if first.endswith(".") else first + "."


def _common_arguments(cards: list[dict]) -> dict[str, str]:
    """The arguments every metric's card takes with the same description (not the positional ones):
    the other cards name those they share (the beyond-accuracy cards, whose inputs differ, few)."""
    from rank_metrics._render import metric_registry

    macros = {entry["macro"] for entry in metric_registry().values()}
    cards = [card for card in cards if card["name"] in macros]
    common = None
    for card in cards:
        arguments = {argument["name"]: argument["description"] for argument in card["arguments"]}
        pairs = {(name, text) for name, text in arguments.items() if name not in POSITIONAL}
        common = pairs if common is None else common & pairs
    order = [argument["name"] for argument in cards[0]["arguments"]]
    return {name: text for name, text in sorted(common or (), key=lambda pair: order.index(pair[0]))}


def _card(entry: dict, common: dict[str, str]) -> list[str]:
    name, meta = entry["name"], entry.get("meta", {})
    gate = name.startswith("test_")
    lines = [f"## {_title(name)}", ""]
    if gate:
        lines += [f"A dbt generic test: `rank_metrics.{_title(name)}` under a predictions model's `data_tests:` "
                  f"(its macro is `{name}`).", ""]
    else:
        # the arguments by position, as the entry lists them (beyond_accuracy's second is train;
        # a metric that takes no k has two: r_precision(predictions, truth, user, ...) read as if
        # user came third)
        leading = []
        for argument in entry.get("arguments", [])[:3]:
            if argument["name"] not in (*POSITIONAL, "train"):
                break
            leading.append(argument["name"])
        first = ", ".join(leading) or "predictions, truth, k"
        lines += [f"`{{{{ rank_metrics.{name}({first}, ...) }}}}`", ""]
    lines += [entry["description"].strip(), ""]
    if gate:
        lines += ["**Failing rows** (none when the gate passes)", ""]
    else:
        lines += ["**Output columns**", ""]
    lines += ["| column | description |", "| --- | --- |"]
    lines += [f"| `{_cell(column['name'])}` | {_cell(column['description'])} |" for column in meta.get("output_columns", [])]
    own = [argument for argument in entry["arguments"] if common.get(argument["name"]) != argument["description"]]
    taken = [argument["name"] for argument in entry["arguments"] if common.get(argument["name"]) == argument["description"]]
    lines += ["", "**Arguments**", "", "| argument | description |", "| --- | --- |"]
    lines += [f"| `{argument['name']}` | {_cell(argument['description'])} |" for argument in own]
    if taken:
        lines += ["", "and the [common arguments](#common-arguments): " + ", ".join(f"`{argument}`" for argument in taken) + "."]
    if meta.get("example_call"):
        lines += ["", "**Example** (a model's SQL)", "", "```sql", "{{ " + meta["example_call"].rstrip() + " }}", "```"]
    if meta.get("example_yaml"):
        lines += ["", "**Example** (a properties file)", "", "```yaml", meta["example_yaml"].rstrip(), "```"]
    return lines + [""]


def reference(text: str) -> str:
    """docs/reference.md, from macros.yml's text."""
    cards = public_entries(text)
    common = _common_arguments(cards)
    lines = [
        "# Reference: the dbt macros and release gates",
        "",
        "<!-- Written by docs/make_reference.py from macros/dbt/macros.yml: edit that file, then run "
        "`.venv/bin/python docs/make_reference.py` (tests/test_docs.py checks that this page is up to date). -->",
        "",
        "A card for each public macro and release gate of the dbt package: what it returns, its output columns, its",
        "arguments and an example. Every argument after `predictions`, `truth` and `k` is a keyword argument. The Python",
        "functions (`rank_metrics.map_at_k`, …) and the commands (`rank-metrics map-at-k`, …) of the same names take the",
        "same arguments. What each option means: [definitions.md](definitions.md); what is refused and why:",
        "[errors.md](errors.md).",
        "",
        "| macro | what it returns |",
        "| --- | --- |",
    ]
    lines += [f"| [`{_title(card['name'])}`](#{_anchor(card['name'])}) | {_cell(_sentence(card['description']))} |" for card in cards]
    lines += ["", "## Common arguments", "",
              "Every metric's macro takes these, and most other macros and gates, with the same meaning "
              "(each card names the ones it takes):", "",
              "| argument | description |", "| --- | --- |"]
    lines += [f"| `{name}` | {_cell(text)} |" for name, text in common.items()]
    lines.append("")
    for card in cards:
        lines += _card(card, common)
    return "\n".join(lines).rstrip("\n") + "\n"


# the metric lists of the hand-written descriptions (evaluate's and compare's metrics, the gates'
# metric), each a phrase around the names: written again from the registry, so that a new
# metric is listed everywhere (bpref and rbp_residual were missing from them); (phrase, joiner)
METRIC_LIST = r"[a-z_]+(?:, [a-z_]+)*(?:,? or [a-z_]+)?"
METRIC_LISTS = ((r"(The metrics, among )(LIST)( \(default: the first six\))", ", "),
                (r"(The metric's name, in the order )(LIST)( \()", ", "),
                (r"(The metric's name: )(LIST)( \(those of)", ", "),
                (r"(The metric's name: )(LIST)(\.)", " or "),
                (r"(The metric to gate on: )(LIST)(\.)", " or "))


def with_metric_names(text: str) -> str:
    """macros.yml's text with each hand-written list of the metrics written again from the registry."""
    from rank_metrics._render import metric_registry

    names = list(metric_registry())
    for phrase, joiner in METRIC_LISTS:
        listed = ", ".join(names[:-1]) + joiner + names[-1]
        text = re.sub(phrase.replace("LIST", METRIC_LIST), lambda match, listed=listed: match[1] + listed + match[3], text)
    return text


def main(argv: list[str]) -> int:
    check = "--check" in argv
    text = MACROS_YML.read_text()
    new_text = with_internal_entries(with_metric_entries(with_metric_names(text)))
    new_reference = reference(new_text)
    stale = [path for path, content in ((MACROS_YML, new_text), (REFERENCE, new_reference))
             if not path.exists() or path.read_text() != content]
    if check:
        for path in stale:
            print(f"{path.relative_to(ROOT)} is out of date: run .venv/bin/python docs/make_reference.py", file=sys.stderr)
        return 1 if stale else 0
    MACROS_YML.write_text(new_text)
    REFERENCE.write_text(new_reference)
    for path in stale:
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
