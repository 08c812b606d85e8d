"""Turns bench/results/results.json into bench/README.md's results table and a PNG chart.

    python bench/report.py      # writes bench/results/results.md, bench/results/seconds.png,
                                # and bench/README.md's section between the bench markers
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import generate  # noqa: E402
import implementations  # noqa: E402

RESULTS = BENCH / "results" / "results.json"
FLOOR, BOUND = list(implementations.IMPLEMENTATIONS)[:2]
TABLE = BENCH / "results" / "results.md"
CHART = BENCH / "results" / "seconds.png"
README = BENCH / "README.md"
START, END = "<!-- bench:start -->", "<!-- bench:end -->"


def table(results: dict) -> str:
    machine = results.get("_machine", {})
    lines = []
    if machine:
        lines.append("Machine: " + ", ".join(f"{key} {value}" for key, value in machine.items()) + ".")
        lines.append("")
    for variant in sorted(key for key in results if not key.startswith("_")):
        lines += [f"Variant `{variant}` (MAP@12 unless the line says otherwise; median of the runs, each in a fresh process; "
                  "× bound: against the line 'floor + a pass per list and per truth user'):", "",
                  "| rows | implementation | median s | peak MB | × floor | × bound | notes |",
                  "| ---: | --- | ---: | ---: | ---: | ---: | --- |"]
        for size in sorted(results[variant], key=generate.SIZES.get):
            by_bench_order = sorted(results[variant][size].items(),
                                    key=lambda pair: list(implementations.IMPLEMENTATIONS).index(pair[0]))
            for name, entry in by_bench_order:
                if "not_run" in entry:
                    lines.append(f"| {size} | {name} | – | – | – | – | not run: {entry['not_run']} |")
                    continue
                if "gave_up_after_s" in entry:
                    lines.append(f"| {size} | {name} | – | – | – | – | gave up: a run took over {entry['gave_up_after_s']:.0f} s |")
                    continue
                notes = [f"{phase} {seconds:.2f} s" for phase, seconds in entry["phases"].items() if phase != "total"]
                if entry["runs"] < 3:
                    notes.append(f"{entry['runs']} run")
                notes = "; ".join(notes)
                ratios = []
                for line in (FLOOR, BOUND):
                    seconds = results[variant][size].get(line, {}).get("seconds")
                    ratios.append(f"{entry['seconds'] / seconds:.2f}" if seconds else "–")
                lines.append(f"| {size} | {name} | {entry['seconds']:.2f} | {entry['peak_mb']:.0f} | {' | '.join(ratios)} | "
                             f"{notes} |")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def chart(results: dict) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(9, 5.5))
    variant = "r12"   # the comparison with the peers; the other variants are in the table
    sizes = sorted(results.get(variant, {}), key=generate.SIZES.get)
    names = [name for name in implementations.IMPLEMENTATIONS
             if any("seconds" in results[variant][size].get(name, {}) for size in sizes)]
    colours = plt.get_cmap("tab10")
    for number, name in enumerate(names):
        points = [(generate.SIZES[size], results[variant][size][name]["seconds"]) for size in sizes
                  if "seconds" in results[variant][size].get(name, {})]
        label = f"{name} (warm evaluate)" if name == "ranx" else name
        axes.plot(*zip(*points), marker="o", label=label, color=colours(number % 10))
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel("prediction rows")
    axes.set_ylabel("median seconds (log)")
    axes.set_title("MAP@12, 12 ranked predictions per user (r12), 2 cores")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(CHART, dpi=110)


def main() -> None:
    results = json.loads(RESULTS.read_text())
    text = table(results)
    TABLE.write_text(text)
    chart(results)
    readme = README.read_text()
    if START in readme and END in readme:
        before, rest = readme.split(START, 1)
        _, after = rest.split(END, 1)
        README.write_text(f"{before}{START}\n{text}\n![seconds against rows](results/seconds.png)\n{END}{after}")
    print(text)


if __name__ == "__main__":
    main()
