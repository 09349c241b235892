"""Themes and sizes: the app readable in JupyterLab's light and dark themes (Voila and JupyterLab) and
at phone (390 px) and tablet (768 px) widths: text contrast at least 4.5:1 (WCAG AA) on the result line,
the trace and the banners, and nothing clipped sideways. Screenshots of each theme and width go to
test-artifacts/ (voila-<theme>-<width>-<tab>.png), the lowest contrast found to
test-artifacts/contrast.json."""

from __future__ import annotations

import json
import re

import pytest

from browserkit import ARTIFACTS, CLIPPED_JS, CONTRAST_JS, resized, shot, tab, use_script

WCAG_AA = 4.5
WIDTHS = (1400, 768, 390)
#: What the contrast is measured on: the result line, the trace, the banners (outcome, error, ruling).
MEASURED = (".rl-app .rl-result-line, .rl-app .rl-trace-wrap, .rl-app .rl-outcome, .rl-app .rl-error, "
            ".rl-app .rl-ruling")
#: What must never be clipped sideways: the app, every panel root, every tab title.
ROOTS = ".rl-app, .rl-panel, .rl-app .lm-TabBar-tabLabel"
CONTRAST: dict[str, dict] = {}
#: JS: resolves once the page has rendered a frame after the one in progress (two animation frames).
NEXT_FRAME_JS = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"


def populate(page) -> None:
    """Put a result with every kind of measured text on show: a table roll (trace and citations),
    a Mastery exchange that uses rulings (amber badges), an error banner, a search hit in context;
    every explanation opened."""
    tab(page, "Tables")
    panel = page.locator(".rl-table-panel").first
    panel.locator(".rl-seed input").fill("7")
    panel.locator(".rl-seed input").press("Tab")
    page.wait_for_timeout(150)
    panel.locator("button.rl-replay").click()
    panel.locator('.rl-outcome[data-roll="42"]').wait_for(state="visible")
    tab(page, "Mastery exchange")
    panel = page.locator(".rl-mastery-exchange-panel").first
    use_script(panel, "attack: 4 4 1; endurance: 2")
    panel.locator("button.rl-run").click()
    panel.locator('.rl-outcome[data-attack="11"]').wait_for(state="visible")
    tab(page, "Rule by id")
    box = page.locator(".rl-cite-panel input").first
    box.fill("mastery/combat/no-such-rule#1")
    box.press("Enter")
    page.locator(".rl-cite-panel .rl-error").wait_for(state="visible")
    tab(page, "Search")
    page.locator(".rl-search-panel .rl-query input").fill("fighting on")
    page.locator('.rl-search-panel button[title="mastery/combat/death/fighting-on#2"]').click()
    page.locator(".rl-search-panel .rl-context").wait_for(state="visible")
    page.evaluate("() => document.querySelectorAll('.rl-app details.rl-explain').forEach(d => d.open = true)")


def check_tab(page, name: str, key: str, *, screenshot: bool) -> None:
    """Contrast (>= 4.5:1) and no sideways clipping on the tab ``name``; record the lowest contrast."""
    tab(page, name)
    page.evaluate(NEXT_FRAME_JS)  # the switch laid out and painted (Lumino lays out on animation frames)
    page.evaluate("() => document.querySelectorAll('.rl-app details.rl-explain').forEach(d => d.open = true)")
    if screenshot:
        shot(page, f"{key.removeprefix(page.kind + '-')}-{re.sub(r'[^a-z]+', '-', name.lower())}",
             full_page=page.viewport_size["width"] < 800)
    found = page.evaluate(CONTRAST_JS, MEASURED)
    if found["n"]:
        worst = CONTRAST.setdefault(key, {"min": 99, "worst": None})
        if found["min"] < worst["min"]:
            worst.update(min=found["min"], worst=found["worst"][0], tab=name)
        assert found["min"] >= WCAG_AA, (key, name, found["worst"])
    clipped = page.evaluate(CLIPPED_JS, ROOTS)
    assert clipped == [], (key, name, clipped)
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1"), (key, name)


def tab_titles(page) -> list[str]:
    return [t.strip() for t in page.locator(".rl-app .lm-TabBar-tab .lm-TabBar-tabLabel").all_inner_texts()]


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_voila_app_is_readable_and_unclipped_in_each_theme_and_width(theme, voila_page, dark_voila_page):
    page = voila_page if theme == "light" else dark_voila_page
    dark = page.evaluate("() => document.body.dataset.jpThemeLight")
    assert dark == ("true" if theme == "light" else "false")
    populate(page)
    titles = tab_titles(page)
    assert "Search" in titles and "Rule by id" in titles and "Odds" in titles
    try:
        for width in WIDTHS:
            resized(page, width, 900)
            assert tab_titles(page) == titles  # every title in full ("Search", never "Sea")
            for name in titles:
                check_tab(page, name, f"{theme}-{width}", screenshot=name in ("Search", "Tables", "Mastery exchange",
                                                                              "Rule by id", "Rulings") or width == 390)
    finally:
        page.set_viewport_size({"width": 1400, "height": 1000})


def test_the_result_line_leads_at_phone_width(voila_page):
    # 390 px: the result line is the first thing under the controls, above the banner and the folded
    # explanation; a run never pushes it down (the rulings sit behind one switch under the output).
    page = voila_page
    page.set_viewport_size({"width": 390, "height": 800})
    try:
        tab(page, "Mastery exchange")
        panel = page.locator(".rl-mastery-exchange-panel").first
        use_script(panel, "attack: 4 4 2; endurance: 2")
        tops = []
        for _ in range(3):
            panel.locator("button.rl-run").click()
            panel.locator('.rl-outcome[data-attack="12"]').wait_for(state="visible")
            line = panel.locator(".rl-result-line")
            tops.append(line.evaluate("e => e.getBoundingClientRect().top - e.closest('.rl-panel')"
                                      ".getBoundingClientRect().top"))
            assert line.inner_text().startswith("Hit: ")
            order = panel.evaluate("p => [...p.querySelectorAll('.rl-result-line, .rl-outcome, details.rl-explain')]"
                                   ".map(e => e.className)")
            assert order[0] == "rl-result-line" and order[1] == "rl-outcome"
        assert len(set(tops)) == 1  # the same place on every run
        toggle = panel.locator("button.rl-rulings-toggle")
        assert re.fullmatch(r"rulings \(\d+\)", toggle.inner_text().strip())
        if panel.locator(".rl-rulings").is_visible():  # opened by an earlier test: the switch closes it
            toggle.click()
        panel.locator(".rl-rulings").wait_for(state="hidden")  # closed, the rulings take one line
        shot(page, "390-result-first")
    finally:
        page.set_viewport_size({"width": 1400, "height": 1000})


def test_lab_dark_theme_is_readable(lab_page):
    page = lab_page
    try:
        page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Dark'})")
        page.wait_for_function("() => document.body.dataset.jpThemeLight === 'false'", timeout=30_000)
        page.wait_for_timeout(500)
        populate(page)
        for name in ("Tables", "Mastery exchange", "Rule by id", "Search", "Rulings"):
            check_tab(page, name, "lab-dark", screenshot=True)
    finally:
        page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Light'})")
        page.wait_for_function("() => document.body.dataset.jpThemeLight === 'true'", timeout=30_000)
    for name in ("Tables", "Mastery exchange", "Rule by id"):
        check_tab(page, name, "lab-light", screenshot=True)


def test_contrast_report():
    """Write the lowest contrast found per theme and width (run last in this file)."""
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "contrast.json").write_text(json.dumps(CONTRAST, indent=2))
    assert CONTRAST and min(v["min"] for v in CONTRAST.values()) >= WCAG_AA
