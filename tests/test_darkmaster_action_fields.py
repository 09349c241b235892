"""The declared fields of a Darkmaster action live in one place (:class:`ActionSpec`): the Round's
:class:`Action` and the fight's :class:`FightAction` both derive them, a fight action hands every one of
them to the Tactical Round Sequence, and the fight's input declaration reads every one of them."""

from __future__ import annotations

import dataclasses

from ruleslawyer.rulesets.darkmaster.actions import Action, ActionKind, ActionSpec, ActionType
from ruleslawyer.rulesets.darkmaster.fight_state import ACTION, FightAction, read_action

SPEC = [f.name for f in dataclasses.fields(ActionSpec)]


def test_both_actions_derive_the_declared_fields_and_redeclare_none():
    for cls in (Action, FightAction):
        assert issubclass(cls, ActionSpec)
        own = [f.name for f in dataclasses.fields(cls)][len(SPEC):]
        assert [f.name for f in dataclasses.fields(cls)][:len(SPEC)] == SPEC
        assert not set(own) & set(SPEC), cls
        # no class body between them repeats a declared field
        assert not set(vars(cls).get("__annotations__", {})) & set(SPEC), cls
    assert [f.name for f in dataclasses.fields(Action)][len(SPEC):] == ["round", "interrupted", "continuing"]
    assert [f.name for f in dataclasses.fields(FightAction)][len(SPEC):] == ["trigger", "bonus", "result"]


def _every_field_set() -> dict:
    """A value for each declared field that differs from its default."""
    return {"name": "Shoot (2)", "type": ActionType.FULL, "kind": ActionKind.RANGED, "target": "Grak",
            "weapon_length": "Long", "weapon": "bow", "positional_bonus": True, "dashing": True, "instant": True,
            "prepared_rounds": 2, "reloaded_before": True, "thrown_in_hand": True, "readied": True, "rounds": 3}


def test_a_fight_action_hands_every_declared_field_to_the_round():
    values = _every_field_set()
    assert sorted(values) == sorted(SPEC)  # a new declared field needs a value here
    a = FightAction(**values, trigger="Grak", bonus=5)
    trs = a.trs(2, continuing=True)
    assert type(trs) is Action
    assert {k: getattr(trs, k) for k in SPEC} == values
    assert (trs.round, trs.continuing, trs.interrupted) == (2, True, False)
    assert a.duration == trs.duration == 3  # rounds wins over the name's (2)


def test_the_fight_input_reads_every_declared_field_back():
    assert set(SPEC) <= set(ACTION.fields)
    a = FightAction(**_every_field_set(), trigger="Grak", bonus=-10)
    assert read_action(a.to_dict(), "a") == a
