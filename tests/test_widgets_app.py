"""The app builds every panel; everything a panel renders cites ids that exist; notebook helpers."""

import html
import re

from ruleslawyer.rulesdb import all_ids
from ruleslawyer.widgets import (DarkmasterRoundPanel, MasteryExchangePanel, MasteryRoundPanel, MythrasExchangePanel,
                                 Quote, SearchPanel, TablePanel, TraceView, TraumaPanel)
from ruleslawyer.widgets.app import all_panels, app, panel_specs

IDS = re.compile(r'data-rule-id="([^"]*)"')


def test_app_has_a_working_tab_per_panel():
    box = app()
    tab = box.children[-1]
    assert [tab.get_title(i) for i in range(len(tab.children))] == [t for t, *_ in panel_specs()]
    for child in tab.children:
        assert "rl-error" not in getattr(child, "value", "")  # no "panel unavailable" placeholder


def test_every_rendered_citation_exists_in_the_database():
    known = all_ids()
    panels = []
    p = SearchPanel("fighting on")
    p.hit_buttons[0].click()
    panels.append(p)
    for seed in (1, 7, 22):
        t = TraumaPanel(seed=seed)
        t.run()
        panels.append(t)
    tp = TablePanel("mythras/supplement/tables/hit-location-humanoid", seed=3)
    tp.run()
    panels.append(tp)
    m = MasteryExchangePanel(script="attack: 4 4 1; endurance: 2")
    m.run()
    panels.append(m)
    y = MythrasExchangePanel(script="attack: 5; parry: 80; damage: 6; damage_modifier: 2; location: 11")
    y.run()
    y.effects.value = ("Choose Location", "Maximise Damage")
    y.apply()
    panels.append(y)
    r = MasteryRoundPanel(seed=7)
    r.name.value, r.weapon.value = "Aldric", "dagger"
    r.roster.add_button.click()
    r.run()
    panels.append(r)
    d = DarkmasterRoundPanel([{"name": "Orc", "cmb": 20, "side": "npc", "actions": [
        {"name": "Spear", "type": "Full", "kind": "melee", "weapon_length": "Longest"}]}])
    d.run()
    panels.append(d)
    cited = set()
    for panel in panels:
        assert "rl-error" not in panel.output.value, panel
        cited |= {html.unescape(i) for i in IDS.findall(panel.output.value)}
    assert len(cited) > 50
    assert cited <= known, sorted(cited - known)


def test_quote_and_trace_view():
    q = Quote("mastery/combat/death/fighting-on#2", before=1, after=1)
    assert "[mastery/combat/death/fighting-on#2]" in str(q)
    assert 'class="rl-unit rl-focus" data-rule-id="mastery/combat/death/fighting-on#2"' in q._repr_html_()
    m = MasteryExchangePanel(script="attack: 4 4 1; endurance: 2")
    m.run()
    view = TraceView(m.result)
    assert "Attack roll (Aldric, melee): 11" in str(view)
    assert "<details class=\"rl-citation\">" in view._repr_html_()
    assert "**Attack roll (Aldric, melee)**: 11" in view.markdown()


def test_the_kit_tabs_and_their_order():
    titles = [t for t, *_ in panel_specs()]
    assert titles[:3] == ["Search", "Glossary", "Tables"]
    assert titles[-4:] == ["Compare", "Odds", "Rulings", "Rule by id"]


def test_every_panel_and_the_app_display_as_static_html_without_a_kernel():
    box = app()
    for title, panel in box.panels.items():
        data = panel._repr_mimebundle_()
        assert "application/vnd.jupyter.widget-view+json" in data, title
        assert 'class="rl-panel rl-static' in data["text/html"], title
        assert not data["text/plain"].startswith("VBox("), title
    whole = box._repr_mimebundle_()
    assert whole["text/html"].count('class="rl-static-tab"') == len(box.panels)  # each tab and its result line
    assert "<b>Rule by id</b>: Mastery › Combat › Death › Fighting On ¶2" in whole["text/html"]
    assert not whole["text/plain"].startswith("VBox(")
    assert len(whole["text/html"]) < 50_000  # a notebook output stays small (tests/test_notebooks_clean.py)


def test_a_long_output_is_cut_to_its_result_line_in_the_static_copy():
    from ruleslawyer.widgets import RulingsPanel
    from ruleslawyer.widgets.base import STATIC_MAX_CHARS

    panel = RulingsPanel()
    assert len(panel.output.value) > STATIC_MAX_CHARS  # every ruling in full
    page = panel._repr_mimebundle_()["text/html"]
    assert panel.frame.summary in page and "shows when the notebook runs" in page
    assert len(page) < STATIC_MAX_CHARS


def test_all_panels_read_the_rules_handle_they_are_given(tmp_path):
    # A database of its own, with a house rule: every panel holds that handle, and the panels that
    # search or quote see the house rule the default database lacks.
    from ruleslawyer.rulesdb.handle import open_rules

    house = tmp_path / "house"
    house.mkdir()
    (house / "manners.md").write_text(
        "---\nruleset: house\nruleset_title: House\nchapter: extras\ntitle: House Rules\nkind: house-rules\n"
        "provenance: The app test's own rule.\n---\n# House Rules\n\n## Table Manners\n\nNo phones at the table.\n",
        encoding="utf-8")
    rules = open_rules(tmp_path / "house.db", house)
    panels = dict(all_panels(rules))
    for title, panel in panels.items():
        assert getattr(panel, "rules", None) is rules, title
    search = panels["Search"]
    search.query.value = "phones"
    assert [h.id for h in search.results.hits] == ["house/extras/table-manners#1"]
    viewer = panels["Rule by id"]
    viewer.show("house/extras/table-manners#1")
    assert "No phones at the table." in viewer.output.value
    assert ("House", "house") in panels["Glossary"].ruleset.options


def test_the_committed_app_notebook_reads_without_a_kernel():
    # Exported to HTML with no widget state saved (as GitHub or nbviewer would show it), the app cell
    # shows the tabs and their result lines, not the widget's repr.
    from pathlib import Path

    import nbformat
    from nbconvert import HTMLExporter

    nb = nbformat.read(Path(__file__).resolve().parents[1] / "notebooks" / "app.ipynb", as_version=4)
    out = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs][0]
    assert {"text/html", "text/plain", "application/vnd.jupyter.widget-view+json"} <= set(out["data"])
    page, _ = HTMLExporter().from_notebook_node(nb)
    assert page.count('class="rl-static-tab"') == len(panel_specs())
    assert "<b>Rule by id</b>: Mastery › Combat › Death › Fighting On ¶2" in page
    assert "VBox(children" not in page
