"""The app as a new user meets it, in a real browser (Voila, as `ruleslawyer app` serves it): a
suggestion chip replaces the word it completes and says what it is, the no-results hint speaks of the
panel, the contents are readable and take the hits' place, a new ruleset clears another ruleset's rule,
one title, the tab bar on one row at 1280 px, and a list item naming the sentence that introduces its
list (fixtures in conftest.py)."""

from __future__ import annotations

import re

from browserkit import resized, shot, tab

REACHING_0 = "mastery/combat/death/reaching-0-health#1"
TRAUMA_TABLE = "mastery/combat/wounds-injuries-and-trauma/trauma-table"


def _panel(page):
    tab(page, "Search")
    return page.locator(".rl-search-panel").first


def _chips(panel) -> list[str]:
    return [t.strip() for t in panel.locator("button.rl-suggestion:not(.rl-example):not(.rl-xref)").all_inner_texts()
            if t.strip()]


def test_an_example_then_a_chip_never_corrupts_the_query(voila_page):
    page = voila_page
    panel = _panel(page)
    box = panel.locator(".rl-query input")
    box.fill("")
    panel.locator("button.rl-example", has_text="What happens at 0 health?").click()
    panel.locator(f'.rl-hit-id[data-rule-id="{REACHING_0}"]').wait_for(state="visible")
    page.wait_for_timeout(300)
    assert "health" not in _chips(panel)  # the query holds "health" in full: no chip for it
    # typing a part word: a labelled chip completes it, punctuation kept
    box.fill("can I parr?")
    chip = panel.locator("button.rl-suggestion", has_text=re.compile(r"^parry$"))
    chip.wait_for(state="visible")
    label = panel.locator(".rl-suggestion-label")
    # the label and the chips are separate widget updates: wait for the label's own text
    label.filter(has_text=re.compile(r"^\s*Complete:\s*$")).wait_for(state="visible")
    assert chip.get_attribute("title") == "Complete: parry (search: can I parry?)"
    shot(page, "search-chip-complete")
    chip.click()
    page.wait_for_function("() => document.querySelector('.rl-search-panel .rl-query input').value === 'can I parry?'")
    assert box.input_value() == "can I parry?"
    # a misspelt word with nothing found: "Did you mean:", and the chip corrects that word
    box.fill("what is hlth?")
    fix = panel.locator("button.rl-suggestion", has_text=re.compile(r"^health$"))
    fix.wait_for(state="visible")
    label.filter(has_text=re.compile(r"^\s*Did you mean:\s*$")).wait_for(state="visible")
    fix.click()
    page.wait_for_function("() => document.querySelector('.rl-search-panel .rl-query input').value === 'what is health?'")


def test_the_no_results_hint_speaks_of_the_panel(voila_page):
    page = voila_page
    panel = _panel(page)
    panel.locator(".rl-query input").fill("xylophone")
    status = panel.locator(".rl-status-line")
    page.wait_for_function("() => document.querySelector('.rl-search-panel .rl-status-line').innerText"
                           ".includes('xylophone')")
    text = status.inner_text()
    assert "ruleslawyer" not in text and "Contents" in text and "Tables tab" in text and "Glossary tab" in text


def test_a_list_item_shows_the_sentence_introducing_its_list(voila_page):
    # "Movement: Move up to your movement speed" holds neither word of "basic actions": the hit says
    # it is in the list under "All basic actions cost 1 AP:", the words marked, and it is on screen
    page = voila_page
    panel = _panel(page)
    panel.locator(".rl-query input").fill("basic actions")
    item = panel.locator('.rl-hit-id[data-rule-id="mastery/combat/action-points/action-costs#2"]')
    item.wait_for(state="visible")
    listed = panel.locator(".rl-hit-heading", has_text="in the list under:").first
    listed.wait_for(state="visible")
    assert listed.inner_text().strip() == "in the list under: All basic actions cost 1 AP:"
    assert listed.locator("mark").all_inner_texts() == ["basic", "actions"]
    box = listed.bounding_box()
    assert box and box["width"] > 0 and box["height"] > 0
    shot(page, "search-listed-under")


def test_contents_are_readable_and_take_the_hits_place(voila_page):
    page = voila_page
    panel = _panel(page)
    panel.locator(".rl-query input").fill("parry")
    panel.locator(".rl-hit").first.wait_for(state="visible")
    toggle = panel.locator("button.rl-contents-toggle")
    toggle.click()
    entry = panel.locator(f'button.rl-toc-entry[title="{TRAUMA_TABLE}"]')
    entry.wait_for(state="visible")
    try:
        assert not panel.locator(".rl-hits").is_visible()  # the old hits step aside
        box = panel.locator(".rl-contents")
        assert box.evaluate("e => getComputedStyle(e).overflowY") == "auto"
        height = box.evaluate("e => e.getBoundingClientRect().height")
        entries = panel.locator("button.rl-toc-entry")
        first = entries.first
        assert first.evaluate("e => getComputedStyle(e).textAlign") == "left"
        row = first.evaluate("e => e.getBoundingClientRect().height")
        assert height / row >= 20, (height, row)  # at 1000 px high, 20 entries or more in view
        # indented by level: a section sits right of its chapter
        lefts = entries.evaluate_all("es => es.slice(0, 12).map(e => e.getBoundingClientRect().left)")
        assert len(set(round(x) for x in lefts)) >= 2
        # label text starts at the button's left edge (plus padding), not centred
        gap = first.evaluate("e => { const r = document.createRange(); r.selectNodeContents(e); "
                             "return r.getBoundingClientRect().left - e.getBoundingClientRect().left; }")
        assert gap < 16, gap
        shot(page, "search-contents-readable")
    finally:
        toggle.click()
    panel.locator(".rl-hits").wait_for(state="visible")


def test_a_new_ruleset_clears_another_rulesets_rule(voila_page):
    page = voila_page
    panel = _panel(page)
    panel.locator(".rl-query input").fill("fighting on")
    panel.locator('button[title="mastery/combat/death/fighting-on#2"]').click()
    ctx = panel.locator('.rl-context[data-rule-id="mastery/combat/death/fighting-on#2"]')
    ctx.wait_for(state="visible")
    panel.locator(".widget-dropdown select").first.select_option(label="Mythras")
    ctx.wait_for(state="detached")
    panel.locator(".widget-dropdown select").first.select_option(label="All rulesets")


def test_one_title_and_the_tab_bar_on_one_row_at_1280(voila_page):
    page = voila_page
    titles = page.locator(".rl-title").all_inner_texts()
    assert not any(t.startswith("ruleslawyer:") for t in titles), titles
    assert page.locator("h1").count() == 1
    try:
        resized(page, 1280, 900)
        tops = page.locator(".rl-app .lm-TabBar-tab").evaluate_all(
            "ts => ts.map(t => Math.round(t.getBoundingClientRect().top))")
        assert len(set(tops)) == 1, tops
        bar = page.locator(".rl-app .lm-TabBar-content").first
        overflow = bar.evaluate("e => e.scrollWidth - e.clientWidth")
        assert overflow <= 1, overflow  # every title in view at 1280 px, none scrolled away
        shot(page, "app-1280-tabs")
    finally:
        page.set_viewport_size({"width": 1400, "height": 1000})
