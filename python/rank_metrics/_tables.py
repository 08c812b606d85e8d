"""A comparison as people read it: one line per model, k and metric, the model's value marked
when it is significantly better (▲) or worse (▼) than the baseline's, as a text table,
Markdown or LaTeX (csv and json print every column as it is)."""

from __future__ import annotations

import math
import re

from . import stats

BETTER, WORSE = "▲", "▼"
LATEX_MARKS = {BETTER: r"$^\blacktriangle$", WORSE: r"$^\triangledown$"}
SHOWN = ["k", "metric", "baseline_value", "value", "difference", "relative_difference", "p_value",
         "p_value_adjusted", "n_users"]


def comparison_text(result, model, form: str, legend: str, resamples: int | None = None,
                    correction: str = "holm", family: str = "metric_and_k") -> str:
    """`model`: the models' column, or a list of it and the segments' columns; `resamples`: of the
    permutation or bootstrap test, None for the t test."""
    groups = [model] if isinstance(model, str) else list(model)
    escape = {"latex": _latex, "markdown": _markdown}.get(form, str)
    rows = []
    for row, floor in zip(result.to_dict("records"), zero_floors(result, resamples, correction, family)):
        mark = ""
        if row["significant"]:
            mark = BETTER if row["difference"] > 0 else WORSE
        cells = [str(row[column]) for column in groups] + [cell(name, row[name], floor.get(name)) for name in SHOWN]
        if row["n_only_model"] or row["n_only_baseline"]:
            cells[-1] += f" (+{row['n_only_model']} model only, +{row['n_only_baseline']} baseline only)"
        cells = [escape(text) for text in cells]
        cells[SHOWN.index("value") + len(groups)] += LATEX_MARKS[mark] if form == "latex" and mark else mark
        rows.append(cells)
    header = [escape(column) for column in groups] + [escape(name if form == "latex" else name.replace("_", " ")) for name in SHOWN]
    if form == "markdown":
        lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
        lines += ["| " + " | ".join(cells) + " |" for cells in rows]
        # the legend names the baseline, a value of the data: text too
        return "\n".join(lines) + f"\n\n{escape(legend)}\n"
    if form == "latex":
        # the model and the metric are text, left; k and the numbers right
        lines = [r"\begin{tabular}{" + "l" * len(groups) + "rl" + "r" * (len(header) - len(groups) - 2) + "}", r"\hline",
                 " & ".join(header) + r" \\", r"\hline"]
        lines += [" & ".join(cells) + r" \\" for cells in rows]
        lines += [r"\hline", r"\end{tabular}", "% " + legend]
        return "\n".join(lines) + "\n"
    widths = [max(len(line[column]) for line in [header] + rows) for column in range(len(header))]
    lines = ["  ".join(cell.rjust(width) for cell, width in zip(line, widths)) for line in [header] + rows]
    return "\n".join(lines) + f"\n{legend}\n"


# LaTeX's special characters in text; one pass, so that a replacement is never escaped again.
# < and > are not special, but in text LaTeX's default font encoding (OT1) prints them as ¡ and ¿
_LATEX_SPECIAL = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
                  "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}",
                  "<": r"\textless{}", ">": r"\textgreater{}"}


def _latex(text: str) -> str:
    return re.sub(r"[&%$#_{}~^\\<>]", lambda match: _LATEX_SPECIAL[match.group()], text)


# A cell of a Markdown table holds text only: a | or a line break would end the cell or the row,
# < and & would be raw HTML or an entity (written as entities, which every Markdown reads), and
# backslash escapes (CommonMark's, for ASCII punctuation) keep ` * _ ~ [ ] from making code,
# emphasis or a link; the backslash too, so that a name's \ cannot pair with the \ of a \|.
_MARKDOWN_SPECIAL = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\r\n": " ", "\r": " ", "\n": " ",
                     **{character: "\\" + character for character in "\\|`*_~[]"}}


def _markdown(text: str) -> str:
    # one pass, so that a replacement is never escaped again
    return re.sub(r"\r\n|[&<>\r\n\\|`*_~\[\]]", lambda match: _MARKDOWN_SPECIAL[match.group()], text)


def zero_floors(result, resamples: int | None, correction: str, family: str = "metric_and_k") -> list[dict]:
    """Per row, what a p-value of 0 from a resampling test means: {column: the bound it is
    below}. A 0 is p < 1/resamples (SPEC §7 counts the resamples at least as extreme, and none
    was); adjusted, it is below the correction of 1/resamples within its family, m/resamples
    under Bonferroni (every correction only grows with each p). Empty for the t test."""
    if not resamples:
        return [{} for _ in range(len(result))]
    raw = [None if p is None or math.isnan(p) else (1 / resamples if p == 0 else p) for p in result["p_value"]]
    return [{"p_value": 1 / resamples, "p_value_adjusted": bound}
            for bound in stats.adjust_in_families(raw, stats.family_keys(result, family), correction)]


def cell(name: str, value, floor: float | None = None) -> str:
    """A value of column `name` as the comparison table shows it (the report's p-values too);
    `floor`: the bound a 0 from a resampling test is below (zero_floors)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if name.startswith("p_value"):
        # others: four significant digits, trailing zeros kept so that a column lines up
        return f"<{floor:.4g}" if floor and value == 0 else f"{value:#.4g}"
    if name == "relative_difference":
        return f"{value:+.1%}"
    if name == "difference":
        return f"{value:+.6f}"
    if isinstance(value, float):
        return f"{value:.6f}"
    return str(value)
