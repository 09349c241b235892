"""The search panel's GM context in a real browser (Voila, as `ruleslawyer app` serves it): the example
questions of the empty box, the table of contents, a cross-reference followed (fixtures in conftest.py)."""

from __future__ import annotations

from browserkit import shot, tab

REACHING_0 = "mastery/combat/death/reaching-0-health#1"
TRAUMA_TABLE = "mastery/combat/wounds-injuries-and-trauma/trauma-table"
FIGHTING_ON = "mastery/combat/death/fighting-on"


def test_examples_contents_and_a_cross_reference(voila_page):
    from ruleslawyer.rulesdb.lookup import example_questions

    page = voila_page
    tab(page, "Search")
    panel = page.locator(".rl-search-panel").first
    box = panel.locator(".rl-query input")
    box.fill("")  # nothing typed: the example questions show
    first = example_questions(None)[0]
    assert first == "What happens at 0 health?"
    example = panel.locator("button.rl-example", has_text=first)
    example.wait_for(state="visible")
    assert box.get_attribute("placeholder") == f"Ask a rules question, e.g. {first}"
    shot(page, "search-examples")
    example.click()
    panel.locator(f'.rl-hit-id[data-rule-id="{REACHING_0}"]').wait_for(state="visible")
    assert box.input_value() == first
    assert not example.is_visible()  # a query in the box: the examples step aside
    # the contents: open, click a section, its rules show in context
    panel.locator("button.rl-contents-toggle").click()
    entry = panel.locator(f'button.rl-toc-entry[title="{TRAUMA_TABLE}"]')
    entry.wait_for(state="visible")
    assert entry.inner_text().strip() == "Trauma Table"
    shot(page, "search-contents")
    entry.click()
    panel.locator(f'.rl-context[data-rule-id="{TRAUMA_TABLE}"]').wait_for(state="visible")
    # "(see Fighting On)" in the section's second rule is a link to that section
    xref = panel.locator("button.rl-xref", has_text="Fighting On")
    xref.wait_for(state="visible")
    assert xref.get_attribute("title") == f"Mastery › Combat › Death › Fighting On [{FIGHTING_ON}]"
    xref.click()
    shown = panel.locator(f'.rl-context[data-rule-id="{FIGHTING_ON}"]')
    shown.wait_for(state="visible")
    assert "Fighting On" in shown.locator(".rl-crumb").inner_text()
    shown.scroll_into_view_if_needed()
    shot(page, "search-xref")
    panel.locator("button.rl-contents-toggle").click()  # closed again for the other tests


def test_a_face_typed_shows_its_table_row_and_why(voila_page):
    # "I rolled 96 on the trauma table" (every ruleset): the Trauma Table row 86–99 first, both ends
    # marked, and the line under it saying which range holds the face
    page = voila_page
    tab(page, "Search")
    panel = page.locator(".rl-search-panel").first
    panel.locator(".rl-query input").fill("I rolled 96 on the trauma table")
    first = panel.locator(f'.rl-hit-id[data-rule-id="{TRAUMA_TABLE}#58"]')
    first.wait_for(state="visible")
    snippet = panel.locator(".rl-hit-snippet").first
    assert [m.strip() for m in snippet.locator("mark").all_inner_texts()][:2] == ["86", "99"]
    assert "roll: 96 is in 86–99 (Trauma Table)" in panel.locator(".rl-via").first.inner_text()
    shot(page, "search-face-rolled")


def test_a_number_read_on_a_table_shows_its_row_under_the_tables_header(voila_page):
    # "STR+SIZ 74" (every ruleset): Damage Modifier's row 71–80 first, the line saying which row holds
    # the number, and the table's header it sits under, its column's words marked
    page = voila_page
    tab(page, "Search")
    panel = page.locator(".rl-search-panel").first
    panel.locator(".rl-query input").fill("STR+SIZ 74")
    panel.locator('.rl-hit-id[data-rule-id="mythras/supplement/damage-modifier#14"]').wait_for(state="visible")
    assert "STR+SIZ: 74 is in 71–80 (Damage Modifier)" in panel.locator(".rl-via").first.inner_text()
    under = panel.locator(".rl-hit-heading", has_text="in the table under:").first
    assert under.inner_text().strip() == "in the table under: STR+SIZ · Damage Modifier"
    assert under.locator("mark").all_inner_texts() == ["STR", "SIZ"]
    shot(page, "search-keyed-row")
