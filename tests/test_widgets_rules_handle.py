"""Panels and odds plots read the database they are handed (``rules=``), never the default one.

Two kinds of check:

- a guard: with a handle given, opening the default database at all is a failure (its path function
  raises), for every panel of the app, each odds mode with its plot, each ruleset's fight, and every
  plot of :mod:`ruleslawyer.odds.plots`;
- two handles on two databases in one process, one table cell changed in the second, each panel and
  plot giving its own database's answer (in both orders: nothing is cached across handles).

The second database changes: Mastery tier 1 rolls a d6 (shipped d2); the Trauma row d100 26 (Blurred
Vision) is Grievous (shipped Minor); a Mythras Critical ranks 4 (shipped 3); the Darkmaster length Hand
is step 5, the longest (shipped 1).
"""

from __future__ import annotations

import json
import sqlite3
from fractions import Fraction as F

import pytest

from ruleslawyer.rulesdb import db as db_module, handle as handle_module
from ruleslawyer.rulesdb.handle import open_rules
from ruleslawyer.rulesdb.paths import seal_database

TIER_DICE = "mastery/supplement/tables/tier-dice"
TRAUMA = "mastery/combat/tables/trauma"
LEVELS = "mythras/supplement/tables/levels-of-success"
LENGTHS = "darkmaster/supplement/tables/weapon-length"


def _edit(db, table_id: str, first_cell: str, column: str, value: str) -> None:
    """Set ``column`` of the row of ``table_id`` whose first cell is ``first_cell``."""
    conn = sqlite3.connect(db)
    with conn:
        cols = json.loads(conn.execute("SELECT columns FROM rule_tables WHERE id = ?", (table_id,)).fetchone()[0])
        rows = conn.execute("SELECT row_index, cells FROM table_rows WHERE table_id = ?", (table_id,)).fetchall()
        (index, cells), = [(i, json.loads(c)) for i, c in rows if json.loads(c)[0] == first_cell]
        cells[cols.index(column)] = value
        conn.execute("UPDATE table_rows SET cells = ? WHERE table_id = ? AND row_index = ?",
                     (json.dumps(cells), table_id, index))
    conn.close()
    seal_database(db)  # an edit on purpose: seal it again, or the handle rebuilds a "damaged" file


@pytest.fixture(scope="module")
def other_db(tmp_path_factory, shipped_db):
    path = shipped_db(tmp_path_factory.mktemp("other") / "b.db")
    open_rules(path).ensure()  # fresh now, so the handle does not rebuild it (undoing the edits)
    _edit(path, TIER_DICE, "1", "Die", "d6")
    _edit(path, TRAUMA, "26", "Tier", "Grievous")
    _edit(path, LEVELS, "Critical", "Rank", "4")
    _edit(path, LENGTHS, "1", "Step", "5")  # the step 1 row, Hand, becomes the longest
    handle_module.reset_all()
    return path


@pytest.fixture
def no_default(monkeypatch):
    """Opening the default database raises (the handle module and the database module both find its
    path through ``default_db_path``)."""
    def refuse():
        raise AssertionError("the default rules database was opened although a handle was given")

    monkeypatch.setattr(handle_module, "default_db_path", refuse)
    monkeypatch.setattr(db_module, "default_db_path", refuse)


# -- the guard: nothing reads the default database when a handle is given ------------------------------

def _run(panel) -> str:
    if hasattr(panel, "run"):
        panel.run()
    frame = getattr(panel, "frame", None)
    return frame.output.value if frame is not None else ""


def test_no_panel_of_the_app_opens_the_default_database(other_db, no_default):
    from ruleslawyer.widgets import all_panels

    rules = open_rules(other_db)
    for title, panel in all_panels(rules):
        assert getattr(panel, "rules", None) is rules, title  # not the "unavailable" stand-in
        assert "default rules database was opened" not in _run(panel), title


def test_round_panels_with_a_roster_and_refusals_open_only_their_handle(other_db, no_default):
    from ruleslawyer.widgets import DarkmasterRoundPanel, MasteryRoundPanel

    rules = open_rules(other_db)
    # two Full Actions: the second is refused, its message cites the rule (quoted from the handle)
    roster = [{"name": "Brom", "cmb": 40, "actions": [{"name": "Stab", "kind": "melee", "weapon_length": "Short"},
                                                      {"name": "Run", "kind": "move", "type": "Full"}]},
              {"name": "Grak", "cmb": 30, "side": "npc", "actions": [{"name": "Bite", "kind": "melee",
                                                                     "weapon_length": "Hand"}]}]
    panel = DarkmasterRoundPanel(roster, rules=rules)
    panel.run()
    assert panel.frame.error is None, panel.output.value
    assert panel.result.refusals and 'class="rl-citation' in panel.output.value and "rl-refusal" in panel.output.value
    panel = MasteryRoundPanel(script="side: 2; startle_agility: 5; startle_perception: 1", rules=rules)
    panel.name.value, panel.side.value, panel.weapon.value, panel.unaware.value = "Goblin", "enemies", "maul", True
    panel.roster.add_button.click()
    panel.run()
    assert panel.frame.error is None and panel.result.startle, panel.output.value


def test_widgets_hand_their_rules_to_every_helper_that_takes_them():
    """Static: inside src/ruleslawyer/widgets, a call of a widgets helper that takes ``rules`` (cite_html,
    trace_html, resolve_rule, context_html, ...) passes it, by keyword or in its place."""
    import ast
    from pathlib import Path

    import ruleslawyer.widgets as W

    folder = Path(W.__file__).parent
    trees = {p: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.py"))}
    takes: dict[str, int] = {}  # helper name -> position of its rules parameter
    for tree in trees.values():
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                names = [a.arg for a in node.args.args]
                if "rules" in names or "rules" in [a.arg for a in node.args.kwonlyargs]:
                    takes[node.name] = names.index("rules") if "rules" in names else 10**6
    assert {"cite_html", "trace_html", "resolve_rule"} <= set(takes)
    missing = []
    for path, tree in trees.items():
        for call in ast.walk(tree):
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in takes:
                if not any(k.arg in ("rules", None) for k in call.keywords) and len(call.args) <= takes[call.func.id]:
                    missing.append(f"{path.name}:{call.lineno} {call.func.id}")
    assert missing == []


def test_no_odds_mode_plot_or_fight_opens_the_default_database(other_db, no_default):
    from ruleslawyer.widgets import FightPanel, OddsPanel

    rules = open_rules(other_db)
    for mode in ("mastery-exchange", "mastery-trial", "mythras-exchange", "trauma"):
        panel = OddsPanel(mode, rules=rules)
        panel.run(plot=True)
        assert panel.frame.error is None, (mode, panel.output.value)
        assert panel.plotted == (mode != "mastery-trial")
    for ruleset in ("mastery", "mythras", "darkmaster"):
        panel = FightPanel(ruleset, rules=rules)
        panel.resolve_button.click()
        assert panel.frame.error is None and panel.fight.state.round == 1, (ruleset, panel.output.value)


def test_every_plot_takes_the_handle(other_db, no_default):
    import inspect

    from ruleslawyer.odds import plots

    rules = open_rules(other_db)
    for name in plots.__all__:
        fn = getattr(plots, name)
        assert "rules" in inspect.signature(fn).parameters, name
        fn(rules=rules)  # reads only the handle (the guard raises otherwise)


# -- two databases, each panel and plot gives its own answer -----------------------------------------

def test_each_database_gives_its_own_plots(other_db):
    from ruleslawyer.odds.plots import defense_holds_figure, special_effects_figure, trauma_tiers_figure

    other = open_rules(other_db)

    def holds(rules=None):  # tier 1 attack (d2 / d6) against tier 1 defense, armour 0, no weapon
        fig = defense_holds_figure({"tier": 1, "weapon": 0}, defender_tiers=[1], armours=[0], rules=rules)
        return fig.axes[0].lines[0].get_ydata()[0]

    # dn against dn, both exploding: P(defense holds) = P(Y >= X) = (1 + P(tie)) / 2, and P(tie) = T with
    # T = (n-1)/n^2 + T/n^2 (a tie below the top face, or both top and a tie again): d2 T = 1/3 -> 2/3;
    # d6 T = 1/7 -> 4/7 (the explosion cap moves them < 1e-9)
    assert holds() == pytest.approx(2 / 3, abs=1e-9)
    assert holds(other) == pytest.approx(4 / 7, abs=1e-9)
    assert holds() == pytest.approx(2 / 3, abs=1e-9)  # again after: nothing cached across handles

    def tiers(rules=None):  # bar heights: none, Minor, Severe, Grievous
        return [b.get_height() for b in trauma_tiers_figure(rules=rules).axes[0].patches]

    shipped, moved = tiers(), tiers(other)
    assert moved[1] == pytest.approx(shipped[1] - 0.01) and moved[3] == pytest.approx(shipped[3] + 0.01)
    assert moved[0] == shipped[0] and moved[2] == shipped[2]

    def effects(rules=None):  # attacker 50%, defender 50%: the attacker's bars at gap 0
        fig = special_effects_figure(gaps=[0], rules=rules)
        return [b.get_height() for b in fig.axes[0].patches]

    # 3 Special Effects: shipped only a Critical (01-05) against a Fumble (99-00): 5/100 * 2/100; in the
    # other database a Critical (rank 4) against a Failure (51-98, rank 1) too, and against a Fumble 4:
    # 5/100 * 48/100
    assert effects()[3] == pytest.approx(0.001)
    assert effects(other)[3] == pytest.approx(0.024)


def test_each_database_gives_its_own_odds_panel(other_db):
    from ruleslawyer.widgets import OddsPanel

    other = open_rules(other_db)

    def trial(rules=None):
        panel = OddsPanel("mastery-trial", rules=rules)
        panel.tier.value, panel.dc.value = 1, 2
        panel.run()
        return panel.result.p_success

    # tier 1 against DC 2: a d2 succeeds on 2 (1/2); a d6 on 2..6 (5/6)
    assert (trial(), trial(other), trial()) == (F(1, 2), F(5, 6), F(1, 2))

    def trauma(rules=None):
        panel = OddsPanel("trauma", rules=rules)
        panel.run(plot=True)
        return panel.result.tiers["Grievous"], panel.plotted

    # the d100 26 row moves from Minor to Grievous: one face in a hundred more
    (shipped, plotted), (moved, _) = trauma(), trauma(other)
    assert plotted and moved - shipped == F(1, 100)


def test_each_database_gives_its_own_round_panels(other_db):
    from ruleslawyer.widgets import DarkmasterRoundPanel, MasteryRoundPanel

    other = open_rules(other_db)

    def startle(rules=None):
        # an unaware goblin, Agility and Perception tier 1: scripted 5 and 1 fit a d6, not a d2
        panel = MasteryRoundPanel(script="startle_agility: 5; startle_perception: 1; side: 2", rules=rules)
        panel.name.value, panel.side.value, panel.weapon.value, panel.unaware.value = "Goblin", "enemies", "dagger", True
        panel.roster.add_button.click()
        panel.run()
        return panel

    shipped, moved = startle(), startle(other)
    assert shipped.result is None and '<b class="rl-field">' in shipped.output.value  # 5 is no face of a d2
    (st,) = moved.result.startle
    assert (st.total, st.dc, st.failed_by) == (6, 6, 0)   # 5 + 1 = 6 meets the default DC 6
    assert startle().result is None                          # and the default database is untouched

    def lengths(rules=None):
        return [v for _label, v in DarkmasterRoundPanel(rules=rules).length.options if v]

    assert lengths()[0] == "Hand" and lengths(other)[-1] == "Hand"
