"""The panel pattern: trace rendering with click-to-open citations, rulings bar, escaped errors."""

from ruleslawyer.errors import RulesInputError
from ruleslawyer import trace
from ruleslawyer.trace import Ruling, RulingUse, Step, StepKind
from ruleslawyer.widgets.base import PanelFrame, cite_html, error_html, esc, resolve_rule, trace_html, wrap_citations

FIGHTING_ON_2 = "mastery/combat/death/fighting-on#2"
XSS = "<img src=x onerror=alert(1)>"

TEST_RULING = Ruling(id="kit.test-widgets-ruling", ruleset="kit", question="Which answer does the test use?",
                     default="first", alternatives=("second",), provenance="kit default")


def test_trace_html_wraps_each_resolved_citation_in_details_with_the_verbatim_rule():
    from ruleslawyer.rulesdb import get_rule

    step = Step.of(StepKind.RESULT, "Fighting on", value=3, cites=[FIGHTING_ON_2])
    out = trace_html(step)
    rule = get_rule(FIGHTING_ON_2)
    assert out.count('<details class="rl-citation">') == 1
    assert f'data-rule-id="{FIGHTING_ON_2}"' in out
    assert f'<blockquote class="rl-quote">{esc(rule.text)}</blockquote>' in out
    assert "href=" not in out  # no navigation: the click opens the quote in place
    assert esc(rule.breadcrumb) in out


def test_unknown_citation_stays_a_bare_id_without_a_quote():
    out = trace_html(Step.of(StepKind.RULE, "x", cites=["mastery/combat/no-such-rule#9"]))
    assert "rl-quote" not in out and "<details" not in out
    assert "mastery/combat/no-such-rule#9" in out
    assert resolve_rule("mastery/combat/no-such-rule#9") is None


def test_trace_text_is_escaped():
    out = trace_html(Step.of(StepKind.RULE, XSS, value=[XSS, 1], detail=XSS))
    assert "<img" not in out
    assert out.count("&lt;img src=x onerror=alert(1)&gt;") == 3  # label, value and detail


def test_wrap_citations_leaves_text_without_quotes_alone():
    frag = '<a class="rl-cite" data-rule-id="a" title="a">a</a>'
    assert wrap_citations(frag) == frag


def test_cite_html_open_and_closed():
    assert cite_html(FIGHTING_ON_2, open_=True).startswith('<details class="rl-citation" open>')
    assert cite_html(FIGHTING_ON_2).startswith('<details class="rl-citation">')


def test_error_html_names_the_field_and_escapes():
    out = error_html(RulesInputError("attacker.tier", f"bad {XSS}"))
    assert '<b class="rl-field">attacker.tier</b>' in out and "<img" not in out
    assert "Traceback" not in error_html(ZeroDivisionError("division by zero"))
    assert "ZeroDivisionError: division by zero" in error_html(ZeroDivisionError("division by zero"))


def test_frame_guard_shows_the_error_instead_of_raising():
    frame = PanelFrame("t", [])

    def boom():
        raise RulesInputError("defender.skill", "skill must be 0 to 200, got -5")

    assert frame.guard(boom) is None
    assert "defender.skill" in frame.output.value and "rl-error" in frame.output.value


def test_rulings_bar_dropdown_reruns_with_the_override(monkeypatch):
    # registered for this test only, so no other test sees a ruling no engine uses
    monkeypatch.setitem(trace._REGISTRY, TEST_RULING.id, TEST_RULING)
    calls = []
    frame = PanelFrame("t", [], on_rulings_change=lambda: calls.append(dict(frame.rulings.overrides)))
    step = Step.of(StepKind.RULE, "uses a ruling", rulings=[RulingUse("kit.test-widgets-ruling", "first")])
    frame.show_trace(step)
    assert 'class="rl-ruling"' in frame.output.value  # the trace marks the ruling
    dd = frame.rulings.dropdowns["kit.test-widgets-ruling"]
    assert dd.options == ("first", "second") and dd.value == "first"
    assert calls == []  # showing a trace does not rerun
    dd.value = "second"
    assert calls == [{"kit.test-widgets-ruling": "second"}]
    dd.value = "first"  # back to the default: no override left
    assert calls[-1] == {}
    # a rerun showing the answer used does not trigger another run
    frame.show_trace(Step.of(StepKind.RULE, "again", rulings=[RulingUse("kit.test-widgets-ruling", "second")]))
    assert dd.value == "second" and len(calls) == 2


def test_css_is_shipped_and_styles_citations_and_rulings():
    from ruleslawyer.widgets.base import css

    text = css()
    assert "details.rl-citation" in text and ".rl-ruling" in text and ".rl-error" in text


def test_a_section_citation_quotes_the_sections_first_rules():
    from ruleslawyer.rulesdb import context

    from ruleslawyer.widgets.base import SECTION_QUOTE_UNITS

    section = "mastery/combat/death/fighting-on"
    units = context(section, after=50).after
    got = resolve_rule(section)
    assert got.text.split("\n")[:SECTION_QUOTE_UNITS] == [u.text for u in units[:SECTION_QUOTE_UNITS]]
    assert got.text.endswith("…") == (len(units) > SECTION_QUOTE_UNITS)
    out = trace_html(Step.of(StepKind.RULE, "Fighting on", cites=[section]))
    assert esc(units[0].text) in out


# ---------------------------------------------------------------- result first, folded explanation

def test_show_trace_leads_with_the_result_line_then_the_folded_explanation():
    step = Step.of(StepKind.RESULT, "Fighting on", value=3, cites=[FIGHTING_ON_2],
                   children=[Step.of(StepKind.ROLL, "d4", value=3)])
    frame = PanelFrame("t", [])
    frame.show_trace(step, header='<div class="rl-outcome">banner</div>', summary=f"Hit: 7 damage {XSS}")
    out = frame.output.value
    assert out.startswith('<div class="rl-body"><div class="rl-result-line" role="status">Hit: 7 damage &lt;img')
    assert out.index("rl-result-line") < out.index("rl-outcome") < out.index("rl-explain")
    # 2 steps (the result and its roll), 1 citation; folded: <details> without "open"
    assert '<details class="rl-explain"><summary>Explanation: 2 steps, 1 citation</summary>' in out
    assert frame.summary == f"Hit: 7 damage {XSS}"


def test_without_a_summary_the_result_line_is_the_traces_root():
    frame = PanelFrame("t", [])
    frame.show_trace(Step.of(StepKind.RESULT, "Attack roll", value=11))
    assert '<div class="rl-result-line" role="status">Attack roll: 11</div>' in frame.output.value


def test_the_rulings_switch_counts_this_runs_rulings_and_does_not_grow(monkeypatch):
    other = Ruling(id="kit.test-widgets-other", ruleset="kit", question="Another?", default="a",
                   alternatives=("b",), provenance="kit default")
    monkeypatch.setitem(trace._REGISTRY, TEST_RULING.id, TEST_RULING)
    monkeypatch.setitem(trace._REGISTRY, other.id, other)
    frame = PanelFrame("t", [])
    bar = frame.rulings
    assert bar.toggle.layout.display == "none"  # no ruling yet: no switch
    both = Step.of(StepKind.RULE, "x", rulings=[RulingUse(TEST_RULING.id, "first"), RulingUse(other.id, "a")])
    one = Step.of(StepKind.RULE, "y", rulings=[RulingUse(other.id, "a")])
    frame.show_trace(both)
    assert bar.toggle.description == "rulings (2)" and bar.toggle.layout.display is None
    assert bar.box.layout.display == "none"  # closed until the switch is pressed
    for _ in range(5):  # five more runs using one ruling: the switch says 1, the box holds 1 row
        frame.show_trace(one)
    assert bar.toggle.description == "rulings (1)" and len(bar.box.children) == 1
    bar.toggle.value = True
    assert bar.box.layout.display is None
    # a ruling the user changed stays listed (so it can be changed back) though this run did not use it
    bar.dropdowns[TEST_RULING.id].value = "second"
    frame.show_trace(one)
    assert bar.shown == (other.id, TEST_RULING.id) and bar.toggle.description == "rulings (2)"
    frame.show_trace(Step.of(StepKind.RULE, "none"))
    assert bar.shown == (TEST_RULING.id,)


# ---------------------------------------------------------------- errors, static HTML, tooltips

def test_a_good_run_clears_an_old_error_even_when_it_writes_nothing():
    frame = PanelFrame("t", [])
    frame.show("good", summary="first")

    def boom():
        raise RulesInputError("attack.tier", "tier must be 1 to 10")

    frame.guard(boom)
    assert "rl-error" in frame.output.value and frame.error is not None
    frame.guard(lambda: None)  # a run that shows nothing new (e.g. a search that only lists hits)
    assert "rl-error" not in frame.output.value and "good" in frame.output.value and frame.error is None


def test_mimebundle_carries_the_widget_a_static_html_rendering_and_a_text_line():
    frame = PanelFrame("Roll <on> a table", [], css_class="rl-table-panel")
    frame.show_trace(Step.of(StepKind.RESULT, "Fighting on", value=3, cites=[FIGHTING_ON_2]), summary="d100 42",
                     status="seed 7")
    data = frame.mimebundle()
    assert "application/vnd.jupyter.widget-view+json" in data
    page = data["text/html"]
    assert page.startswith("<style>") and 'class="rl-panel rl-static rl-table-panel"' in page
    assert "Roll &lt;on&gt; a table" in page and "seed 7" in page and frame.output.value in page
    assert data["text/plain"] == "Roll <on> a table: d100 42"
    frame.show_error(RulesInputError("roll", "must be 1 to 100"))
    assert frame.mimebundle()["text/plain"] == "Roll <on> a table: error: roll: must be 1 to 100"


def test_every_field_gets_a_tooltip_from_the_glossary_with_its_citation():
    import ipywidgets as widgets

    from ruleslawyer.rulesdb.glossary import define

    ap = widgets.IntText(description="AP")
    cmb = widgets.IntText(description="CMB")
    style = widgets.IntText(description="Combat Style %")
    wea = widgets.Text(description="WEA")
    plain = widgets.Text(description="Nickname", placeholder="Aldric")
    own = widgets.Text(description="AP", tooltip="kept")
    PanelFrame("t", [[ap, cmb], widgets.VBox([style, wea, plain, own])])
    tier = widgets.IntText(description="Defense tier")  # the head noun names it: a tier, not the Defense action
    armour = widgets.IntText(description="Armour resistance")  # the books print "Armor Resistance"
    PanelFrame("t", [[tier, armour]])
    for w, term in ((ap, "AP"), (cmb, "CMB"), (style, "Combat Style"), (tier, "tier"), (armour, "Armor Resistance")):
        d = define(term)[0]
        assert d.text[:40] in w.tooltip and w.tooltip.endswith(f"[{d.rule_id}]"), (term, w.tooltip)
    # WEA is not defined in the glossary: the first rule that uses it, with its id
    assert wea.tooltip.startswith("WEA, as the rules use it: ") and "WEA" in wea.tooltip[26:]
    assert wea.tooltip.endswith("]") and "mastery/" in wea.tooltip
    assert plain.tooltip == "Nickname (e.g. Aldric)" and own.tooltip == "kept"


def test_the_panel_ruleset_picks_the_glossary():
    import ipywidgets as widgets

    from ruleslawyer.rulesdb.glossary import define

    ap = widgets.IntText(description="AP")
    PanelFrame("t", [[ap]], css_class="rl-darkmaster-round-panel")
    assert not define("AP", "darkmaster")  # Darkmaster defines no AP, so its tooltip is not Mastery's
    assert "mastery/" not in ap.tooltip


# ---------------------------------------------------------------- dice: rolls that roll

def test_roll_draws_a_fresh_seed_replay_keeps_it_and_a_script_keeps_its_seed(monkeypatch):
    from ruleslawyer.widgets import base
    from ruleslawyer.widgets.base import SCRIPTED, DiceControls

    drawn = iter([101, 202])
    monkeypatch.setattr(base, "new_seed", lambda: next(drawn))
    runs = []
    dice = DiceControls(seed=7, on_run=lambda: runs.append(dice.kwargs()["seed"]))
    dice.roll()
    dice.roll()
    dice.replay_button.click()
    assert runs == [101, 202, 202] and dice.seed.value == 202
    assert 'seed <b class="rl-seed-used">202</b>' in dice.describe()
    dice.mode.value = SCRIPTED
    dice.script.value = "attack: 4 4 1"
    dice.roll()  # a worked example: the same dice on every press
    assert runs[-1] == 202 and dice.kwargs() == {"seed": 202, "script": {"attack": [4, 4, 1]}}
