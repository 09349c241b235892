"""``--help`` usability: every option explains itself; engine commands name their rulesets."""

from __future__ import annotations

import argparse

import pytest

from ruleslawyer.cli import build_parser, command_modules, main
from ruleslawyer.commands import engines

#: The database commands (build/search/show/tables/table/roll) are covered where they are defined.
_MODULES = command_modules()


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no subcommands")


def test_every_option_of_every_subcommand_has_help():
    subs = _subparsers(build_parser(_MODULES))
    missing = [f"{name} {'/'.join(a.option_strings) or a.dest}"
               for name, p in subs.items() for a in p._actions
               if not isinstance(a, argparse._HelpAction) and not (a.help or "").strip()]
    assert missing == []
    # the engine, Mastery, lookup and rulings commands are all in the walk
    assert {"exchange", "sequence", "initiative", "odds", "mastery-move", "mastery-health", "mastery-ap",
            "trauma", "define", "audit", "compare", "rulings"} <= set(subs)


@pytest.mark.parametrize(("command", "rulesets"), [
    ("exchange", ["mastery", "mythras"]),
    ("sequence", ["darkmaster", "mastery"]),
    ("initiative", ["mythras"]),
    ("odds", ["mastery", "mythras"]),
])
def test_engine_help_lists_the_registered_rulesets(command, rulesets):
    sub = _subparsers(build_parser())[command]
    assert engines.rulesets_for(command) == rulesets
    text = " ".join(sub.format_help().split())  # unwrap argparse's line breaks
    assert f"ruleset whose engine to use: {', '.join(rulesets)}" in text
    assert "see the error" not in text


def test_mastery_only_option_on_another_ruleset_says_so(capsys):
    assert main(["odds", "mythras", "--trauma"]) == 1
    err = capsys.readouterr().err
    assert "--trauma is Mastery-only" in err
    assert "--input FILE.json is required" not in err
    assert len(err.strip().splitlines()) == 1
    # Mastery still accepts it
    assert main(["odds", "mastery", "--trauma"]) == 0


def test_mastery_move_help_explains_its_options():
    text = " ".join(_subparsers(build_parser())["mastery-move"].format_help().split())
    assert "--agility-tier TIER the mover's Agility tier (1-10); speed is 3 + tier squares" in text
    assert "--small the mover is Small (speed - 1)" in text
