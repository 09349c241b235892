"""The panels in a real browser, in JupyterLab and in Voila (fixtures in conftest.py)."""

from __future__ import annotations

import json
import random
import re
import statistics

from browserkit import ARTIFACTS, HOUSE_ID, HOUSE_RULE, XSS_MARK, shot, tab, use_script

FIGHTING_ON_2 = "mastery/combat/death/fighting-on#2"
FIGHTING_ON_2_TEXT_START = "Any health damage you take results in a Trauma."  # checked against the db below
LATENCIES: dict[str, list[float]] = {}

# JS: click an element and resolve with the ms until `selector` matches (MutationObserver, no polling);
# reject after `timeout` ms (10 s if not given).
CLICK_TIMED = """([click, selector, timeout]) => new Promise((resolve, reject) => {
  const el = document.querySelector(click);
  if (!el) { reject(new Error('nothing to click: ' + click)); return; }
  const t0 = performance.now();
  const done = () => { if (document.querySelector(selector)) { obs.disconnect(); resolve(performance.now() - t0); return true; } return false; };
  const obs = new MutationObserver(done);
  obs.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
  el.click();
  setTimeout(() => { obs.disconnect(); reject(new Error('timeout waiting for ' + selector)); }, timeout || 10000);
})"""
#: Tries of :func:`timed_click`, each given this many ms to show its result.
CLICK_TRIES, CLICK_TRY_MS = 3, 4000


def timed_click(page, click: str, selector: str) -> float:
    """The ms from a click on ``click`` (one that runs in the kernel) until ``selector`` matches.

    ipywidgets sends a click to the kernel at once but holds back a value typed just before it while
    the kernel is still busy with the model's last update, so on a loaded machine the click can run
    with the value before: when ``selector`` has not matched :data:`CLICK_TRY_MS` ms after a click,
    the click is made once more (at most :data:`CLICK_TRIES` clicks in all, else the error stands).
    """
    from playwright.sync_api import Error

    for _ in range(CLICK_TRIES - 1):
        try:
            return page.evaluate(CLICK_TIMED, [click, selector, CLICK_TRY_MS])
        except Error as exc:
            if "timeout waiting for" not in str(exc):
                raise
    return page.evaluate(CLICK_TIMED, [click, selector, CLICK_TRY_MS])


def search_panel(page):
    tab(page, "Search")
    return page.locator(".rl-search-panel").first


def type_query(page, text: str) -> None:
    box = search_panel(page).locator(".rl-query input")
    box.fill(text)


def test_query_shows_a_hit_with_its_citation_and_the_citation_opens_the_rule(app_page):
    from ruleslawyer.rulesdb import get_rule

    page = app_page
    rule = get_rule(FIGHTING_ON_2)
    assert rule.text.startswith(FIGHTING_ON_2_TEXT_START)
    type_query(page, "fighting on")
    panel = search_panel(page)
    hit_id = panel.locator(f'.rl-hit-id[data-rule-id="{FIGHTING_ON_2}"]')
    hit_id.wait_for(state="visible")
    assert hit_id.inner_text() == FIGHTING_ON_2
    button = panel.locator(f'button[title="{FIGHTING_ON_2}"]')
    assert "Fighting On ¶2" in button.inner_text()
    button.click()
    ctx = panel.locator(f'.rl-context[data-rule-id="{FIGHTING_ON_2}"]')
    ctx.wait_for(state="visible")
    assert rule.text in ctx.locator(".rl-focus").inner_text()
    quote = ctx.locator(".rl-cite-line blockquote.rl-quote")
    assert not quote.is_visible()  # closed until the citation is clicked
    ctx.locator(".rl-cite-line a.rl-cite").click()
    quote.wait_for(state="visible")
    assert quote.inner_text().strip() == rule.text
    shot(page, "search-citation")
    # latency: click a hit button -> its rule shown in context (kernel round trip), several hits
    ids = [t for t in panel.locator(".rl-hit-id").all_inner_texts() if t and t != FIGHTING_ON_2][:8]
    times = []
    for rid in ids + [FIGHTING_ON_2]:  # each click shows a rule other than the one on show
        times.append(page.evaluate(CLICK_TIMED, [f'.rl-search-panel button[title="{rid}"]',
                                                 f'.rl-search-panel .rl-context[data-rule-id="{rid}"]']))
    LATENCIES[f"{page.kind}: search hit -> rule in context"] = times


def test_type_ahead_completes_the_last_word(app_page):
    from ruleslawyer.rulesdb import complete

    page = app_page
    words = complete("fighting tra")
    assert words  # the vocabulary has words starting "tra" (trauma, trial, ...)
    type_query(page, "fighting tra")
    panel = search_panel(page)
    button = panel.locator("button.rl-suggestion", has_text=re.compile(f"^{words[0]}$"))
    button.wait_for(state="visible")
    button.click()
    page.wait_for_function("w => document.querySelector('.rl-search-panel .rl-query input').value === w",
                           arg=f"fighting {words[0]}")
    panel.locator(".rl-status-line", has_text=f"fighting {words[0]}").wait_for()


def test_citation_in_a_trace_opens_the_quoted_rule(app_page):
    from ruleslawyer.rulesdb import get_rule

    page = app_page
    tab(page, "Tables")
    panel = page.locator(".rl-table-panel").first
    panel.locator(".rl-seed input").fill("7")
    panel.locator(".rl-seed input").press("Tab")
    panel.locator("button.rl-replay").click()  # the seed shown (Roll would draw a fresh one)
    panel.locator('.rl-outcome[data-roll="42"]').wait_for(state="visible")
    explain = panel.locator("details.rl-explain")
    assert not panel.locator(".rl-trace-wrap").is_visible()  # the explanation is folded
    explain.locator("> summary").click()
    cite = panel.locator(".rl-trace-wrap details.rl-citation").first
    rid = cite.locator("a.rl-cite").get_attribute("data-rule-id")
    assert not cite.locator("blockquote").is_visible()
    times = []
    for _ in range(5):  # open/close: measured in the page
        times.append(page.evaluate(CLICK_TIMED, [".rl-table-panel .rl-trace-wrap details.rl-citation summary",
                                                 ".rl-table-panel .rl-trace-wrap details.rl-citation[open]"]))
        page.locator(".rl-table-panel .rl-trace-wrap details.rl-citation summary").first.click()
    LATENCIES[f"{page.kind}: trace citation -> quoted rule"] = times
    cite.locator("summary").click()
    cite.locator("blockquote").wait_for(state="visible")
    assert cite.locator("blockquote").inner_text().strip() == get_rule(rid).text
    shot(page, "table-trace-citation")


def test_seeded_trauma_roll_shows_the_expected_row(app_page):
    # Seed 7: random.Random(7).randint(1, 100) == 42, the Trauma Table row 42–43, Skull Fracture.
    assert random.Random(7).randint(1, 100) == 42
    page = app_page
    tab(page, "Trauma")
    panel = page.locator(".rl-trauma-panel").first
    panel.locator("button", has_text="Clear sheet").click()
    panel.locator(".rl-seed input").fill("7")
    panel.locator(".rl-seed input").press("Tab")
    page.wait_for_timeout(50)  # let the seed reach the kernel before the click
    t = timed_click(page, ".rl-trauma-panel button.rl-replay", '.rl-trauma-panel .rl-outcome[data-roll="42"]')
    LATENCIES.setdefault(f"{page.kind}: trauma roll -> row", []).append(t)
    result = panel.locator('.rl-outcome[data-roll="42"]')
    assert "Skull Fracture." in result.inner_text()
    assert "42–43" in result.inner_text()
    assert "42: Skull Fracture" in panel.locator(".rl-sheet").inner_text()
    shot(page, "trauma-seed-7")
    # more latency samples: Replay with seed 1 (d100 18, Lose a finger) and seed 7 (42) in turn, so
    # each click waits for a row that is not on show yet. Replay redoes the last roll in its place:
    # the sheet keeps one entry, never the same Skull Fracture twice.
    for seed, face in ((1, 18), (7, 42), (1, 18), (7, 42)):
        panel.locator(".rl-seed input").fill(str(seed))
        panel.locator(".rl-seed input").press("Tab")
        page.wait_for_timeout(50)  # let the new seed reach the kernel before the click
        t = timed_click(page, ".rl-trauma-panel button.rl-replay", f'.rl-trauma-panel .rl-outcome[data-roll="{face}"]')
        LATENCIES[f"{page.kind}: trauma roll -> row"].append(t)
    # the status line is its own widget and may draw after the outcome: wait for it to name seed 7 too,
    # so the Roll clicks below never read a status left from an earlier replay
    page.wait_for_function("() => { const e = document.querySelector('.rl-trauma-panel .rl-seed-used');"
                           " return e && e.innerText === '7'; }")
    assert panel.locator(".rl-sheet-list li").all_inner_texts() == ["42: Skull Fracture"]
    # Roll Trauma twice: two fresh seeds, each shown in the seed box and the status line, and each the
    # seed of the d100 shown (random.Random(seed).randint(1, 100))
    seeds = ["7"]
    for _ in range(2):
        panel.locator("button.rl-roll").click()
        # a fresh seed in the status line and the same seed in the seed box (two widgets, drawn in turn)
        page.wait_for_function("s => { const e = document.querySelector('.rl-trauma-panel .rl-seed-used');"
                               " const i = document.querySelector('.rl-trauma-panel .rl-seed input');"
                               " return e && i && e.innerText !== s && i.value === e.innerText; }", arg=seeds[-1])
        seeds.append(panel.locator(".rl-seed-used").inner_text())
        assert panel.locator(".rl-seed input").input_value() == seeds[-1]
        face = random.Random(int(seeds[-1])).randint(1, 100)
        panel.locator(f'.rl-outcome[data-roll="{face}"]').wait_for(state="attached")
        assert panel.locator(".rl-result-line").inner_text().startswith(f"d100 {face} → ")
    assert len(set(seeds)) == 3


def test_scripted_mastery_exchange_shows_the_expected_outcome(app_page):
    # Aldric: tier 3 d4 scripted 4, 4, 1 (explodes twice) = 9, + WEA 2 = 11; Brute does not defend:
    # resistance 2 absorbs 2, durability 3, health 6 -> 0; Endurance trial d2 scripted 2 vs DC 6 fails.
    page = app_page
    tab(page, "Mastery exchange")
    panel = page.locator(".rl-mastery-exchange-panel").first
    use_script(panel, "attack: 4 4 1; endurance: 2")
    t = timed_click(page, ".rl-mastery-exchange-panel button.rl-run",
                    '.rl-mastery-exchange-panel .rl-outcome[data-outcome="hit"]')
    LATENCIES.setdefault(f"{page.kind}: exchange -> outcome", []).append(t)
    outcome = panel.locator('.rl-outcome[data-outcome="hit"]')
    assert "attack 11" in panel.locator(".rl-result-line").inner_text()  # said once, in the result line
    assert outcome.inner_text().strip() == "Brute: health 0, unconscious."
    shot(page, "mastery-exchange-scripted")
    # warm latency samples: alternate two scripts whose attack totals differ (d4 1 + WEA 2 = 3; 11)
    for script, total in (("attack: 1", 3), ("attack: 4 4 1; endurance: 2", 11)) * 2:
        use_script(panel, script)
        page.wait_for_timeout(50)
        t = timed_click(page, ".rl-mastery-exchange-panel button.rl-run",
                        f'.rl-mastery-exchange-panel .rl-outcome[data-attack="{total}"]')
        LATENCIES[f"{page.kind}: exchange -> outcome"].append(t)


def test_a_ruling_is_marked_switchable_and_errors_show_as_a_message(app_page):
    # attack d4 4, 4, 2 = 10 + WEA 2 = 12: 2 absorbed, 3 to durability, 7 to health (6 -> 0); the
    # Endurance trial (DC 7) rolls a d2 that does not explode by default (mastery.trial-dice-explode).
    page = app_page
    tab(page, "Mastery exchange")
    panel = page.locator(".rl-mastery-exchange-panel").first
    use_script(panel, "attack: 4 4 2; endurance: 2")
    panel.locator("button.rl-run").click()
    panel.locator('.rl-outcome[data-attack="12"]').wait_for(state="visible")
    panel.locator("details.rl-explain > summary").click()
    ruling = panel.locator('.rl-output .rl-ruling[data-ruling-id="mastery.trial-dice-explode"]').first
    assert ruling.get_attribute("data-answer") == "no"
    look = ruling.evaluate("e => getComputedStyle(e).backgroundColor")
    amber = ruling.evaluate("e => { const d = document.createElement('div'); d.style.color = "
                            "getComputedStyle(e).getPropertyValue('--jp-warn-color3') || '#ffe0b2'; "
                            "e.appendChild(d); const c = getComputedStyle(d).color; d.remove(); return c; }")
    cite = panel.locator(".rl-output a.rl-cite").first.evaluate("e => getComputedStyle(e).backgroundColor")
    assert look == amber and look != cite  # amber (the theme's warn colour): never passes for the book
    toggle = panel.locator("button.rl-rulings-toggle")
    assert re.fullmatch(r"rulings \(\d+\)", toggle.inner_text().strip())
    if not panel.locator(".rl-rulings").is_visible():
        toggle.click()
    choice = panel.locator('.rl-rulings .widget-hbox:has(span[data-ruling-id="mastery.trial-dice-explode"]) select')
    choice.select_option("yes")  # reruns: the exploding d2 now needs a second Endurance face
    error = panel.locator(".rl-output .rl-error")
    error.wait_for(state="visible")
    assert "dice.endurance" in error.inner_text() and "ran out" in error.inner_text()
    assert "Traceback" not in panel.locator(".rl-output").inner_text()
    shot(page, "ruling-error-message")
    use_script(panel, "attack: 4 4 2; endurance: 2 1")
    panel.locator("button.rl-run").click()
    panel.locator('.rl-output .rl-ruling[data-ruling-id="mastery.trial-dice-explode"][data-answer="yes"]').first.wait_for(
        state="attached")  # in the folded explanation
    choice.select_option("no")


def test_scripted_mythras_exchange_effects_chosen_before_damage(app_page):
    # Ana 70% rolls 05 (Critical), Bors parries 50% with 80 (Failure): 2 Special Effects. Choose
    # Location (Head) + Maximise Damage: 1d8 -> 8, + Damage Modifier 1d2 scripted 2 = 10, 4 AP -> 6.
    page = app_page
    tab(page, "Mythras exchange")
    panel = page.locator(".rl-mythras-exchange-panel").first
    panel.locator(".rl-armour input").fill("4")
    panel.locator(".rl-armour input").press("Tab")
    use_script(panel, "attack: 5; parry: 80; damage: 6; damage_modifier: 2; location: 11")
    panel.locator("button.rl-run").click()
    panel.locator('.rl-outcome[data-stage="differential"][data-effects-won="2"]').wait_for(state="visible")
    panel.locator("details.rl-explain > summary").click()  # the whole explanation so far: no damage, no location
    shown = panel.locator(".rl-output").inner_text()
    assert "5–7. Damage" not in shown and "damage to the" not in shown and "Chest" not in shown
    assert panel.locator(".rl-result-line").inner_text().startswith("Ana (attacker) wins 2 Special Effects")
    panel.locator(".rl-effects select").select_option(["Choose Location", "Maximise Damage"])
    panel.locator(".rl-location select").select_option("Head")
    panel.locator("button.rl-apply").click()
    done = panel.locator('.rl-outcome[data-stage="done"]')
    done.wait_for(state="visible")
    assert done.get_attribute("data-damage") == "6" and done.get_attribute("data-location") == "Head"
    assert panel.locator(".rl-result-line").inner_text().startswith("Hit: 6 damage to the Head (10 rolled − 4 armour)")
    shot(page, "mythras-exchange-effects")
    # a seed typed between the steps cancels the pending choice, with a message
    panel.locator("button.rl-run").click()
    panel.locator('.rl-outcome[data-stage="differential"]').wait_for(state="visible")
    panel.locator(".rl-seed input").fill("8")
    panel.locator(".rl-seed input").press("Tab")
    panel.locator(".rl-output", has_text="The seed changed after the roll").wait_for(state="visible")
    assert panel.locator("button.rl-apply").is_hidden() and panel.locator(".rl-effects").is_hidden()


def test_html_in_a_query_or_a_house_rule_renders_as_text(app_page):
    page = app_page
    payload = f'<img src=x onerror="window.{XSS_MARK}=1;alert(1)">'
    type_query(page, payload)
    panel = search_panel(page)
    status = panel.locator(".rl-status-line")
    status.filter(has_text="<img src=x").wait_for(state="visible")
    # the house rule carries an <img onerror> payload too: find it, open it in context, open its citation
    type_query(page, "never trust house rule")
    panel.locator(f'button[title="{HOUSE_ID}"]').click()
    ctx = panel.locator(f'.rl-context[data-rule-id="{HOUSE_ID}"]')
    ctx.wait_for(state="visible")
    assert HOUSE_RULE in ctx.locator(".rl-focus").inner_text()
    ctx.locator(".rl-cite-line a.rl-cite").click()
    ctx.locator(".rl-cite-line blockquote").wait_for(state="visible")
    assert ctx.locator(".rl-cite-line blockquote").inner_text().strip() == HOUSE_RULE
    assert page.locator(".rl-app img:not(.rl-plot)").count() == 0
    assert page.evaluate(f"() => window.{XSS_MARK}") is None
    assert page.dialogs == []
    shot(page, "injection-as-text")


def test_only_local_requests_and_latency_report(app_page):
    page = app_page
    assert all("127.0.0.1" not in u for u in page.blocked)
    ARTIFACTS.mkdir(exist_ok=True)
    report = {k: {"median_ms": round(statistics.median(v), 1), "samples_ms": [round(x, 1) for x in v]}
              for k, v in LATENCIES.items()}
    for kind in ("lab", "voila"):
        trips = [x for k, v in LATENCIES.items() if k.startswith(kind) and "citation" not in k for x in v]
        if trips:
            report[f"{kind}: every click that goes to the kernel"] = {
                "median_ms": round(statistics.median(trips), 1), "samples": len(trips)}
    (ARTIFACTS / "latency.json").write_text(json.dumps(report, indent=2))
    print("\nclick-to-rendered latency:", json.dumps(report, indent=2))
    for key, v in LATENCIES.items():
        if key.startswith(page.kind):
            assert statistics.median(v) < 1000, f"{key}: median {statistics.median(v):.0f} ms"


def test_the_kit_tabs_glossary_compare_rulings_and_odds(app_page):
    page = app_page
    tab(page, "Glossary")
    panel = page.locator(".rl-glossary-panel").first
    box = panel.locator(".rl-term input")
    box.fill("CMB")
    box.press("Enter")
    panel.locator('.rl-definition[data-rule-id="darkmaster/supplement/rolls#1"]').wait_for(state="visible")
    assert panel.locator(".rl-result-line").inner_text().startswith("CMB (darkmaster): 1 definition")
    tab(page, "Compare")
    panel = page.locator(".rl-compare-panel").first
    panel.locator(".rl-concept select").select_option(label="Flanking and positional advantage")
    panel.locator('.rl-cells[data-concept="flanking"] .rl-cell').nth(2).wait_for(state="visible")
    tab(page, "Rulings")
    panel = page.locator(".rl-rulings-panel").first
    panel.locator(".rl-query input").fill("finger")
    panel.locator(".rl-result-line", has_text="matching 'finger'").wait_for(state="visible")
    assert panel.locator('.rl-ruling-entry[data-ruling-id="mastery.finger-order"]').is_visible()
    assert re.fullmatch(r"\d+ of \d+ rulings matching 'finger'", panel.locator(".rl-result-line").inner_text())
    tab(page, "Odds")
    panel = page.locator(".rl-odds-panel").first
    panel.locator("button.rl-plot-button").click()
    plot = panel.locator("img.rl-plot")
    plot.wait_for(state="visible", timeout=60_000)
    assert plot.evaluate("img => img.naturalWidth") > 100
    assert panel.locator(".rl-result-line").inner_text().startswith("P(hit) ")
    shot(page, "odds-plot")
