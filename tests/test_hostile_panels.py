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
