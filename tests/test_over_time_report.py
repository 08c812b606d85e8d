"""The over-time dashboard: a self-contained page with each metric per period, the incomplete
periods marked, and the trend gate's drops highlighted and listed; opened in headless Chromium
(it renders, with no console error, and its screenshot is not blank); the same page from the
command line; hostile names escaped."""

import datetime
import re
import subprocess

import numpy as np
import pandas as pd
import pytest
from test_report import Tables, chromium

import rank_metrics

DAYS = [datetime.date(2026, 2, 1) + datetime.timedelta(days=offset) for offset in range(14)]


def example(new_model="new"):
    """80 users buy one item a day; 'steady' lists it among its five with probability 0.5 every
    day, the new model too until 2026-02-11 and then with 0.15: a drop the gate must find."""
    rng = np.random.default_rng(7)
    lists, labels = [], []
    for day_index, day in enumerate(DAYS):
        for user in range(80):
            bought = int(rng.integers(0, 40))
            at = datetime.datetime.combine(day, datetime.time()) + datetime.timedelta(minutes=int(rng.integers(0, 1440)))
            labels.append((user, bought, at))
            for model, chance in (("steady", 0.5), (new_model, 0.5 if day_index < 10 else 0.15)):
                items = [int(item) for item in rng.choice([item for item in range(40) if item != bought], 5, replace=False)]
                if rng.random() < chance:
                    items[int(rng.integers(0, 5))] = bought
                lists += [(model, day, user, item, rank) for rank, item in enumerate(items, 1)]
    return (pd.DataFrame(lists, columns=["model", "day", "user_id", "item_id", "rank"]),
            pd.DataFrame(labels, columns=["user_id", "item_id", "purchased_at"]))


OPTIONS = dict(k=[5], by="model", metrics=["map", "hit_rate"], period="day", time="purchased_at", window=1,
               periods=7, users="predictions")


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    predictions, labels = example()
    path = tmp_path_factory.mktemp("over_time") / "over-time.html"
    path.write_text(rank_metrics.report(predictions, labels, over_time=True, **OPTIONS))
    return path


def test_the_page_names_the_drop_and_marks_the_open_window(page):
    text = page.read_text()
    predictions, labels = example()
    values = rank_metrics.evaluate_over_time(predictions, labels, 5, by="model", metrics=["map", "hit_rate"],
                                             period="day", time="purchased_at", window=1, users="predictions")
    drops = rank_metrics.no_significant_drop(values, periods=7)
    assert set(drops.model) == {"new"} and set(drops.day.astype(str)) == {"2026-02-13"}
    headline = re.search(r"<p class='headline'[^>]*>(.*?)</p>", text).group(1)
    assert headline.startswith(f"{len(drops)} significant drop")
    assert "new map@5 on 2026-02-13 (0.05854 against 0.1767, p " in headline and "steady" not in headline
    # the last day's window (one day) has not closed at the latest label: drawn hollow, said
    assert "periods whose window has not closed (from 2026-02-14)" in text
    assert "a significant drop</text>" in text or "a significant drop" in text.split("<svg", 1)[1]
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text) and "<script" not in text


def test_chromium_renders_it_without_a_console_error(page, tmp_path):
    dom = subprocess.run(chromium() + ["--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120,
                         check=True).stdout
    tables = Tables()
    tables.feed(dom)
    drops, values = tables.tables["drops"], tables.tables["values"]
    assert [row[0] for row in drops[1:]] == ["new"] * (len(drops) - 1) and len(drops) > 1
    assert len(values) == 1 + 14 * 2 * 2   # days, models, metrics
    assert values[-1][-1] == "no" and values[1][-1] == "yes"
    shot = tmp_path / "shot.png"
    run = subprocess.run(chromium() + ["--enable-logging=stderr", "--v=0", f"--screenshot={shot}",
                                       "--window-size=1200,1400", page.as_uri()],
                         capture_output=True, text=True, timeout=120, check=True)
    assert not [line for line in run.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line], run.stderr
    import matplotlib.image

    pixels = matplotlib.image.imread(shot)[..., :3]
    assert pixels.std() > 0.05 and (pixels.mean(axis=2) < 0.5).mean() > 0.005
    # the drop's red circle and title are on the picture
    red = (pixels[..., 0] > 0.75) & (pixels[..., 1] < 0.3) & (pixels[..., 2] < 0.3)
    assert red.sum() > 50


def test_the_command_line_writes_the_same_page(page, tmp_path):
    from rank_metrics.cli import main

    predictions, labels = example()
    predictions.to_parquet(tmp_path / "lists.parquet")
    labels.to_parquet(tmp_path / "labels.parquet")
    out = tmp_path / "page.html"
    assert main(["report", str(tmp_path / "lists.parquet"), str(tmp_path / "labels.parquet"), "--over-time",
                 "-k", "5", "--by", "model", "--metrics", "map", "hit_rate", "--period", "day", "--time", "purchased_at",
                 "--window", "1", "--users", "predictions", "-o", str(out)]) == 0
    assert out.read_text() == page.read_text()
    assert main(["report", str(tmp_path / "lists.parquet"), str(tmp_path / "labels.parquet"), "--over-time",
                 "-k", "5", "--by", "model", "--baseline", "steady", "--period", "day", "--time", "purchased_at",
                 "-o", str(out)]) == 2


def test_hostile_names_are_text():
    predictions, labels = example(new_model="<img src=x onerror=alert(1)>")
    text = rank_metrics.report(predictions, labels, over_time=True, **OPTIONS)
    assert "<img src=x" not in text and "&lt;img src=x onerror=alert(1)&gt;" in text
