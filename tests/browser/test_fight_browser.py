"""The Fight tab in a real browser, in JupyterLab and in Voila (fixtures in conftest.py): rounds resolved
from the example, a log citation that opens its rule in place, a refused declaration shown as a message
that loses nothing, Undo, and the Markdown handout."""

from __future__ import annotations

import json

from browserkit import CLIPPED_JS, CONTRAST_JS, eventually, resized, shot, tab

PUNCTURED_LUNG = "mastery/combat/wounds-injuries-and-trauma/trauma-table#21"
WCAG_AA = 4.5
#: The text measured on the Fight tab: the result line, banners, the trace, rulings, the cards and the log.
MEASURED = ", ".join(f".rl-fight-panel {s}" for s in (".rl-result-line", ".rl-outcome", ".rl-trace-wrap", ".rl-error",
                                                      ".rl-ruling", ".rl-cards", ".rl-fight-log"))


def fight_panel(page):
    """The Fight tab, its example loaded again from round 0 (Mastery, fight-duel)."""
    tab(page, "Fight")
    panel = page.locator(".rl-fight-panel").first
    panel.locator("button.rl-load").click()
    panel.locator(".rl-result-line", has_text="Round 0: Aldric: 10 health").wait_for(state="visible")
    return panel


def resolve(panel, rnd: int) -> None:
    panel.locator("button.rl-run").click()
    panel.locator(f'.rl-output .rl-outcome[data-round="{rnd}"]').wait_for(state="visible")


def _health_is(panel, name: str, health: str) -> None:
    assert panel.locator(f'.rl-fighter[data-combatant="{name}"] .rl-health').get_attribute("data-health") == health


def test_rounds_resolve_the_cards_follow_and_a_log_citation_opens_its_rule(app_page):
    # examples/mastery/fight-duel.json, scripted: after round 3 the Brute is at 0 health (7 -> 5 -> 1 -> 0)
    # and has a Trauma, d100 16 Punctured Lung; Aldric at 1 of 10 (tests/test_widgets_fight.py works it by hand).
    from ruleslawyer.widgets.base import resolve_rule

    page = app_page
    panel = fight_panel(page)
    for rnd in (1, 2, 3):
        resolve(panel, rnd)
    brute = panel.locator('.rl-fighter[data-combatant="Brute"]')

    def cards_after_round_3():  # the cards are a widget of their own, drawn after the outcome
        assert brute.locator(".rl-health").get_attribute("data-health") == "0"
        assert "Traumas: 16: Punctured Lung" in brute.locator(".rl-lasting").inner_text()
        assert panel.locator('.rl-fighter[data-combatant="Aldric"] .rl-health').get_attribute("data-health") == "1"
    eventually(cards_after_round_3)
    cite = panel.locator(f'.rl-output details.rl-citation:has(a[data-rule-id="{PUNCTURED_LUNG}"])').first
    quote = cite.locator("blockquote.rl-quote")
    assert not quote.is_visible()  # closed until the citation is clicked
    cite.locator("summary").click()
    quote.wait_for(state="visible")
    assert quote.inner_text().strip() == resolve_rule(PUNCTURED_LUNG).text
    log = panel.locator(".rl-fight-log")
    assert log.locator('.rl-log-round[data-round="3"]').count() == 1
    assert log.locator('.rl-ruling[data-ruling-id="mastery.one-ap-trauma-timing"]').count() >= 1
    shot(page, "fight-round-3")
    panel.locator("button.rl-undo").click()
    panel.locator('.rl-output .rl-outcome[data-round="2"]').wait_for(state="visible")
    brute_box = panel.locator(".rl-declare textarea").nth(1)  # round 3's declarations back in the boxes

    def undone():  # the cards, the boxes and the script box are widgets of their own, each drawn in turn
        assert panel.locator('.rl-fighter[data-combatant="Brute"] .rl-health').get_attribute("data-health") == "1"
        assert json.loads(brute_box.input_value()) == {"actions": [{"action": "attack", "target": "Aldric"}] * 2}
        assert "trauma: 16" in panel.locator(".rl-script input").input_value()  # round 3's dice back in the box
    eventually(undone)


def test_a_refused_declaration_is_a_message_and_loses_nothing(app_page):
    page = app_page
    panel = fight_panel(page)
    resolve(panel, 1)
    box = panel.locator(".rl-declare textarea").first  # Aldric's
    box.fill('{"actions": [{"action": "attack", "target": "Nobody"}]}')
    box.press("Tab")
    page.wait_for_timeout(150)  # let the text reach the kernel before the click
    panel.locator("button.rl-run").click()
    error = panel.locator(".rl-output .rl-error")
    error.wait_for(state="visible")
    assert "declarations.Aldric" in error.inner_text() and "Nobody" in error.inner_text()
    assert "Traceback" not in panel.locator(".rl-output").inner_text()
    assert panel.locator('.rl-fighter[data-combatant="Brute"] .rl-health').get_attribute("data-health") == "5"
    assert panel.locator('.rl-fight-log .rl-log-round[data-round="2"]').count() == 0
    assert "Nobody" in box.input_value()  # what was typed stays to be fixed
    shot(page, "fight-refusal")
    box.fill('{"actions": [{"action": "attack", "target": "Brute"}, {"action": "attack", "target": "Brute"}]}')
    box.press("Tab")
    page.wait_for_timeout(150)
    resolve(panel, 2)
    eventually(lambda: _health_is(panel, "Brute", "1"))


def test_the_handout_exports_the_log_with_the_rules_quoted(app_page):
    page = app_page
    panel = fight_panel(page)
    resolve(panel, 1)
    panel.locator("button.rl-export").click()
    handout = panel.locator(".rl-handout textarea")
    handout.wait_for(state="visible")
    text = handout.input_value()
    assert text.startswith("# Fight: Mastery: fight-duel") and "## Round 1" in text and "\n> " in text
    link = panel.locator("a.rl-download")
    assert link.get_attribute("download") == "fight-round-1.md"
    assert link.get_attribute("href").startswith("data:text/markdown;charset=utf-8;base64,")


def test_the_fight_tab_is_readable_and_unclipped_at_desktop_and_phone_widths(app_page):
    # Three rounds on show with everything opened (the round's trace, every citation, the cards' changed
    # fields): text contrast at least 4.5:1 (WCAG AA) and nothing wider than the screen, at 1400 px, and
    # in Voila (what a phone opens; JupyterLab's own sidebars leave a notebook no room at 390 px) at 390 px.
    page = app_page
    panel = fight_panel(page)
    for rnd in (1, 2, 3):
        resolve(panel, rnd)
    page.evaluate("() => document.querySelectorAll('.rl-fight-panel details').forEach(d => d.open = true)")
    try:
        for width in (1400, 390) if page.kind == "voila" else (1400,):
            resized(page, width, 900)
            found = page.evaluate(CONTRAST_JS, MEASURED)
            assert found["n"] > 100 and found["min"] >= WCAG_AA, (width, found["worst"])
            assert page.evaluate(CLIPPED_JS, ".rl-app, .rl-fight-panel") == [], width
            assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1"), width
            shot(page, f"fight-{width}", full_page=width < 800)
    finally:
        page.set_viewport_size({"width": 1400, "height": 1000})
