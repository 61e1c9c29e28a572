"""``evaluate --plot`` and ``evaluate --html``: the summary drawn, and one self-contained page that a real
headless browser (Chromium) loads without errors, showing every answer and filtering them."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest

from plancheck.cli import main

SVG = "{http://www.w3.org/2000/svg}"
RECORDS = [
    {"instance": "inner_cluster_block.jsonl-0-0-0-0", "response": "[DOWN, TAKE, UP, DROP]", "model": "alpha"},
    {"instance": "inner_cluster_block.jsonl-0-0-0-1", "response": "[DOWN, TAKE, JUMP, UP, DROP]", "model": "alpha"},
    {"instance": "inner_cluster_block.jsonl-0-0-0-0", "response": "I cannot do this.", "model": "beta"},
    {"instance": "inner_cluster_block.jsonl-0-0-0-1", "response": "[UP, UP]", "model": "beta"},
    {"instance": "inner_cluster_block.jsonl-0-1-0-0", "response": "[RIGHT, <b>TAKE</b>]", "model": "beta"},
    {"instance": "no_such_set.jsonl-0-0-0-0", "response": "[UP]", "model": "beta"},
]


class _Page(HTMLParser):
    """What the page is made of: tags, and every attribute that could load something from elsewhere."""

    def __init__(self):
        super().__init__()
        self.tags: list[str] = []
        self.links: list[str] = []
        self.answers: list[dict[str, str]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        attributes = dict(attrs)
        for key in ("src", "href"):
            if key in attributes and not attributes[key].startswith("data:"):
                self.links.append(attributes[key])
        if tag == "article":
            self.answers.append(attributes)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report")
    answers = folder / "answers.jsonl"
    answers.write_text("".join(json.dumps(r) + "\n" for r in RECORDS) + "not json\n")
    page, plot = folder / "report.html", folder / "plot.svg"
    assert main(["evaluate", "grasp", str(answers), "--html", str(page), "--plot", str(plot), "--summary"]) == 0
    return page, plot


def test_the_page_stands_alone_and_holds_every_answer(report):
    page, _ = report
    text = page.read_text(encoding="utf-8")
    parsed = _Page()
    parsed.feed(text)
    assert parsed.links == [] and "link" not in parsed.tags  # nothing loaded from elsewhere
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", text)
    assert [a["data-model"] for a in parsed.answers] == ["alpha", "alpha", "beta", "beta", "beta"]
    assert [a["data-passed"] for a in parsed.answers] == ["true", "false", "false", "true", "false"]
    assert "0-0-0 (4 directions, no carry limit, step cost 0)" in {a["data-setting"] for a in parsed.answers}
    assert "&lt;b" in text and not re.search(r"</?b\b", text)  # model text (its unread '<b', '</b') is escaped
    assert "no_such_set" in text and "Broken records" in text and "not json" not in text.split("Broken")[0]
    assert text.count('class="answer-path"') == 4  # the unparseable answer has no path


def test_the_plot_has_a_bar_per_model_and_setting_and_the_optimum(report):
    _, plot = report
    root = ET.fromstring(plot.read_text())
    bars = [b.find(SVG + "title").text for b in root.findall(f"{SVG}rect[@class='bar']")]
    assert sorted(bars) == sorted([
        "0-0-0 (4 directions, no carry limit, step cost 0), alpha: 1.00 (n = 1)",
        "0-0-1 (4 directions, no carry limit, step cost 0.3), alpha: -0.50 (n = 1)",
        "0-0-1 (4 directions, no carry limit, step cost 0.3), beta: 0.40 (n = 1)",
        "1-0-0 (8 directions, no carry limit, step cost 0), beta: 0.00 (n = 1)"])
    assert len(root.findall(f"{SVG}polygon[@class='optimum']")) == 3


def _browser():
    missing = [name for name in ("chromium", "chromedriver") if shutil.which(name) is None]
    if importlib.util.find_spec("selenium") is None:
        missing.append("selenium (pip)")
    if missing:
        reason = (f"needs a headless browser: {', '.join(missing)} (apt-get install chromium chromium-driver; "
                  "pip install selenium)")
        if os.environ.get("CI"):  # .ci/run installs them: in CI the browser test runs or fails, never skips
            pytest.fail(reason)
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


def test_a_headless_browser_shows_the_report_and_filters_it(report):
    page, _ = report
    browser = _browser()
    try:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import Select

        browser.get(page.as_uri())
        assert browser.title == "plancheck: grasp evaluation"
        errors = [entry for entry in browser.get_log("browser") if entry["level"] in ("SEVERE", "WARNING")]
        assert errors == []

        def visible():
            return [a.get_attribute("data-model") for a in browser.find_elements(By.CSS_SELECTOR, "article.answer")
                    if a.is_displayed()]

        shown = browser.find_element(By.ID, "shown")
        assert shown.text == "5 of 5 answers shown" and len(visible()) == 5
        rows = browser.find_elements(By.CSS_SELECTOR, "table.summary tbody tr")
        assert rows and rows[-1].find_element(By.TAG_NAME, "td").text == "Average"
        plot = browser.find_element(By.ID, "summary-plot")
        assert plot.is_displayed() and plot.size["width"] > 300
        Select(browser.find_element(By.ID, "model")).select_by_value("beta")
        assert visible() == ["beta", "beta", "beta"] and shown.text == "3 of 5 answers shown"
        Select(browser.find_element(By.ID, "setting")).select_by_value(
            "0-0-1 (4 directions, no carry limit, step cost 0.3)")
        assert visible() == ["beta"]
        Select(browser.find_element(By.ID, "model")).select_by_value("")
        Select(browser.find_element(By.ID, "setting")).select_by_value("")
        browser.find_element(By.ID, "failed").click()
        assert visible() == ["alpha", "beta", "beta"] and shown.text == "3 of 5 answers shown"
        first = browser.find_element(By.CSS_SELECTOR, "article.answer.fail .picture svg")
        assert first.is_displayed() and first.size["height"] > 100
        path = first.find_element(By.CSS_SELECTOR, "polyline.answer-path")
        assert path.get_attribute("stroke") == "#0072b2"
        text = browser.find_element(By.ID, "answers").text
        assert "first failure" in text and "step 3: 'JUMP' is not a GRASP action" in text
        assert browser.get_log("browser") == []
    finally:
        browser.quit()


def test_episode_logs_are_drawn_from_their_files_and_the_picture_limit_holds(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    assert main(["play", "bandits", "BanditTwoArmedHighLowFixed", "--policy", "bayes", "--episodes", "2",
                 "-o", str(logs / "bayes.jsonl")]) == 0
    assert main(["play", "bandits", "BanditTwoArmedHighLowFixed", "--policy", "random", "-o",
                 str(logs / "random.jsonl")]) == 0
    page = tmp_path / "bandits.html"
    assert main(["evaluate", "bandits", str(logs), "--html", str(page), "--pictures", "2"]) == 0
    parsed = _Page()
    text = page.read_text(encoding="utf-8")
    parsed.feed(text)
    assert [a["data-model"] for a in parsed.answers] == ["reference:bayes", "reference:bayes", "reference:random"]
    assert text.count('class="series-p-machine-1-is-best"') == 2
    assert "not drawn: the report draws the first 2 answers (--pictures N)" in text
    assert "random (expected)" in text  # the summary's reference rows


@pytest.mark.parametrize("argv, message", [
    (["--plot", "p.gif"], "--plot p.gif: the plot is a still picture"),
    (["--html", "r.txt"], "--html r.txt: the report is an HTML file"),
    (["--html", "r.html", "--pictures", "-1"], "--pictures must be 0 or more"),
])
def test_wrong_report_files_are_refused_before_scoring(tmp_path, monkeypatch, capsys, argv, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.jsonl").write_text(json.dumps(RECORDS[0]) + "\n")
    assert main(["evaluate", "grasp", "a.jsonl", *argv]) == 2
    assert message in capsys.readouterr().err
