"""Panels built with bad arguments: the message in the panel's error area, never a traceback from
the constructor, never a silent fallback to another table, mode or ruleset (headless)."""

from __future__ import annotations

import math

import pytest

from ruleslawyer.errors import DatabasePathError, RulesInputError
from ruleslawyer.widgets.base import MAX_PANEL_SEED, PanelArgs
from ruleslawyer.widgets.odds import OddsPanel
from ruleslawyer.widgets.search import SearchPanel
from ruleslawyer.widgets.tables import TablePanel


def _shows(panel, field: str, says: str) -> None:
    err = panel.frame.error
    assert isinstance(err, RulesInputError) and err.field == field and says in err.message, err
    assert 'class="rl-error"' in panel.output.value and f'<b class="rl-field">{field}</b>' in panel.output.value


@pytest.mark.parametrize("table_id", ["nope/x", "", None, 5, "mastery/combat/tables/trauma "])
def test_an_unknown_table_id_is_shown_and_a_roll_shows_it_again_not_another_table(table_id):
    panel = TablePanel(table_id)
    _shows(panel, "table_id", f"unknown table {table_id!r}")
    assert panel.table.value is None and panel.result is None
    panel.roll()
    _shows(panel, "table_id", f"unknown table {table_id!r}")
    assert panel.result is None and "Action types" not in panel.output.value
    panel.table.value = "mastery/combat/tables/trauma"  # choosing a table clears the error
    panel.run()
    assert panel.frame.error is None and panel.result.table_id == "mastery/combat/tables/trauma"


@pytest.mark.parametrize("seed", [float("nan"), "x", 1.5, None, True, MAX_PANEL_SEED + 1, 10**40, -MAX_PANEL_SEED - 1])
def test_a_bad_seed_is_shown_never_raised_from_the_constructor(seed):
    panel = TablePanel("mastery/combat/tables/trauma", seed=seed)
    _shows(panel, "seed", f"must be a whole number from {-MAX_PANEL_SEED} to {MAX_PANEL_SEED}")
    assert panel.seed.value == 7  # the box's default, not a roll with it
    assert panel.result is None


def test_good_seeds_at_the_edges_are_taken():
    for seed in (0, MAX_PANEL_SEED, -MAX_PANEL_SEED):
        panel = TablePanel("mastery/combat/tables/trauma", seed=seed)
        assert panel.frame.error is None and panel.seed.value == seed


@pytest.mark.parametrize("mode", ["nope", "MASTERY-EXCHANGE", None, 3])
def test_an_unknown_odds_mode_is_shown_not_mastery_exchange_odds(mode):
    panel = OddsPanel(mode)
    _shows(panel, "mode", f"unknown mode {mode!r}; choose one of: mastery-exchange, mastery-trial, "
                          "mythras-exchange, trauma")
    assert panel.result is None and "P(hit)" not in panel.output.value


@pytest.mark.parametrize("ruleset", ["nope", 5, ["mastery"]])
def test_an_unknown_search_ruleset_is_shown_not_a_search_of_every_ruleset(ruleset):
    panel = SearchPanel("parry", ruleset=ruleset)
    err = panel.frame.error
    assert isinstance(err, RulesInputError) and err.field == "ruleset"
    assert "mastery" in err.message and "mythras" in err.message
    assert panel.results is None and 'class="rl-error"' in panel.output.value
    assert SearchPanel("parry", ruleset=" MYTHRAS ").ruleset.value == "mythras"  # matched as everywhere


def test_a_non_string_query_is_shown():
    panel = SearchPanel(5)
    _shows(panel, "query", "must be text (a string), got int 5")
    assert panel.results is None


@pytest.mark.parametrize("make", [lambda r: TablePanel(rules=r), lambda r: OddsPanel(rules=r),
                                  lambda r: SearchPanel("parry", rules=r)])
def test_a_rules_path_that_is_a_folder_is_shown_not_raised(tmp_path, make):
    panel = make(tmp_path)
    assert isinstance(panel.frame.error, DatabasePathError)
    assert "is a folder" in panel.output.value and 'class="rl-error"' in panel.output.value
    panel.frame.guard(lambda: None)
    if hasattr(panel, "roll"):
        panel.roll()
        assert isinstance(panel.frame.error, DatabasePathError)


def test_panel_args_records_the_first_bad_argument_only():
    args = PanelArgs()
    assert args.choice("mode", "a", ["a", "b"], "a") == "a" and args.error is None
    assert args.seed(11) == 11 and args.text("query", None, "x") == "x"
    assert args.choice("mode", "c", ["a", "b"], "a") == "a"
    assert args.seed(math.inf) == 7
    assert str(args.error) == "mode: unknown mode 'c'; choose one of: a, b"


# ------------------------------------------------------------------ the other panels (PanelArgs)

from ruleslawyer.rulesets.mastery import RoundCombatant  # noqa: E402
from ruleslawyer.widgets.compare import ComparePanel  # noqa: E402
from ruleslawyer.widgets.exchange_mastery import MasteryExchangePanel  # noqa: E402
from ruleslawyer.widgets.exchange_mythras import MythrasExchangePanel  # noqa: E402
from ruleslawyer.widgets.glossary import GlossaryPanel  # noqa: E402
from ruleslawyer.widgets.rounds import DarkmasterRoundPanel, MasteryRoundPanel  # noqa: E402
from ruleslawyer.widgets.rulings import RulingsPanel  # noqa: E402

DICE_PANELS = [MasteryExchangePanel, MythrasExchangePanel, MasteryRoundPanel]
EVERY_OTHER = [lambda r: MasteryExchangePanel(rules=r), lambda r: MythrasExchangePanel(rules=r),
               lambda r: MasteryRoundPanel(rules=r), lambda r: DarkmasterRoundPanel(rules=r),
               lambda r: GlossaryPanel(rules=r), lambda r: ComparePanel(rules=r), lambda r: RulingsPanel(rules=r)]


@pytest.mark.parametrize("cls", DICE_PANELS)
@pytest.mark.parametrize("seed", [float("nan"), "7", 1.5, None, True, MAX_PANEL_SEED + 1, -10**40])
def test_a_bad_seed_is_shown_by_every_dice_panel_not_raised(cls, seed):
    panel = cls(seed=seed)
    _shows(panel, "seed", f"must be a whole number from {-MAX_PANEL_SEED} to {MAX_PANEL_SEED}")
    assert panel.dice.seed.value == 7 and panel.result is None


@pytest.mark.parametrize("cls", DICE_PANELS)
@pytest.mark.parametrize("script, says", [("attack 4", "write each slot as 'slot: faces'"),
                                          ("attack: x", "could not read 'attack: x'"),
                                          (5, "must be text (a string), got int 5"),
                                          (["attack: 4"], "must be text (a string), got list")])
def test_a_bad_script_is_shown_by_every_dice_panel_not_rolled_from_the_seed(cls, script, says):
    panel = cls(script=script)
    _shows(panel, "script", says)
    assert panel.dice.script.value == "" and panel.result is None
    panel.dice.mode.value = "Scripted dice"
    panel.dice.script.value = "attack: 4 4 1"  # fixing it and running clears the error
    panel.run()
    assert panel.frame.error is None or not isinstance(panel.frame.error, RulesInputError) or \
        panel.frame.error.field != "script"


def test_good_seeds_and_scripts_are_taken_by_the_dice_panels():
    for cls in DICE_PANELS:
        panel = cls(seed=MAX_PANEL_SEED, script="attack: 4 4 1")
        assert panel.frame.error is None and panel.dice.seed.value == MAX_PANEL_SEED
        assert panel.dice.script.value == "attack: 4 4 1" and panel.dice.mode.value == "Scripted dice"


@pytest.mark.parametrize("combatants, field, says", [
    ("Aldric", "combatants", "must be a list, got str"),
    ({"name": "Aldric"}, "combatants", "must be a list, got dict"),
    ([{"name": "Aldric"}], "combatants[0]", "must be a RoundCombatant"),
    ([RoundCombatant("A", "pcs"), RoundCombatant("A", "enemies")], "combatants[1]", "'A' is already in the round"),
])
def test_a_bad_mastery_roster_is_shown_and_kept_out(combatants, field, says):
    panel = MasteryRoundPanel(combatants)
    _shows(panel, field, says)
    assert panel.combatants == [] and panel.result is None


def test_a_good_mastery_roster_is_taken():
    roster = [RoundCombatant("A", "pcs"), RoundCombatant("B", "enemies")]
    panel = MasteryRoundPanel(roster)
    assert panel.frame.error is None and panel.combatants == roster


@pytest.mark.parametrize("roster, field, says", [
    ("Ana", "roster", "must be a list, got str"),
    ([5], "roster[0]", "must be an object (a dict)"),
    ([{"name": "Ana", "cmb": "x", "side": "player", "actions": []}], "roster[0].cmb", ""),
    ([{"name": "Ana", "cmb": 5, "side": "player", "actions": [], "nope": 1}], "roster[0]", "nope"),
])
def test_a_bad_darkmaster_roster_is_shown_naming_the_field(roster, field, says):
    panel = DarkmasterRoundPanel(roster)
    err = panel.frame.error
    assert isinstance(err, RulesInputError) and err.field.startswith(field) and says in str(err), err
    assert 'class="rl-error"' in panel.output.value
    assert panel.roster == [] and panel.result is None


def test_a_good_darkmaster_roster_is_taken_and_runs():
    roster = [{"name": "Ana", "cmb": 5, "side": "player", "actions": [{"name": "Move", "type": "Half", "kind": "move"}]}]
    panel = DarkmasterRoundPanel(roster)
    assert panel.frame.error is None and panel.roster == roster and panel.roster[0] is not roster[0]
    panel.run()
    assert panel.result is not None and panel.frame.error is None


@pytest.mark.parametrize("make, field", [(lambda: GlossaryPanel("Engaged", "nope"), "ruleset"),
                                         (lambda: GlossaryPanel("Engaged", 5), "ruleset"),
                                         (lambda: RulingsPanel("", "nope"), "ruleset"),
                                         (lambda: RulingsPanel("", ["kit"]), "ruleset")])
def test_an_unknown_ruleset_is_shown_not_every_rulesets_answer(make, field):
    panel = make()
    err = panel.frame.error
    assert isinstance(err, RulesInputError) and err.field == field and "mastery" in err.message, err
    assert 'class="rl-error"' in panel.output.value and panel.ruleset.value == ""
    assert getattr(panel, "result", None) is None and getattr(panel, "shown", []) == []


def test_rulesets_match_as_everywhere_in_the_glossary_and_rulings_panels():
    assert GlossaryPanel("Engaged", " MYTHRAS ").ruleset.value == "mythras"
    assert RulingsPanel("", "Mastery").ruleset.value == "mastery"


@pytest.mark.parametrize("make, field", [(lambda: GlossaryPanel(5), "term"), (lambda: RulingsPanel(["x"]), "query")])
def test_a_non_string_term_or_filter_is_shown(make, field):
    panel = make()
    _shows(panel, field, "must be text (a string)")


@pytest.mark.parametrize("concept", ["nope", 5, "FLANKING "])
def test_an_unknown_concept_is_shown_not_the_first_concept(concept):
    panel = ComparePanel(concept)
    _shows(panel, "concept", f"unknown concept {concept!r}; choose one of: ")
    assert panel.result is None


@pytest.mark.parametrize("make", EVERY_OTHER)
def test_a_rules_path_that_is_a_folder_is_shown_by_every_other_panel(tmp_path, make):
    panel = make(tmp_path)
    assert isinstance(panel.frame.error, DatabasePathError)
    assert "is a folder" in panel.output.value and 'class="rl-error"' in panel.output.value


@pytest.mark.parametrize("make", EVERY_OTHER)
def test_a_rules_path_that_is_not_a_database_is_shown(tmp_path, make):
    junk = tmp_path / "rules.db"
    junk.write_bytes(b"not a database at all" * 100)
    panel = make(junk)
    assert panel.frame.error is not None and 'class="rl-error"' in panel.output.value


def test_the_glossary_panel_s_no_definition_hint_speaks_of_the_panel():
    from ruleslawyer.widgets import GlossaryPanel

    panel = GlossaryPanel("xylophone")
    panel.run()
    shown = panel.frame.output.value
    assert "No definition of &#x27;xylophone&#x27;." in shown
    assert "ruleslawyer " not in shown and "Search tab" in shown
