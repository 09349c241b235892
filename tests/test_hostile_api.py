"""Hostile arguments to the public helper functions a notebook calls directly.

Ruling overrides that are not an object, and a Darkmaster weapon length that is not in the table,
raise RulesInputError naming the field (not a TypeError, or a bare LookupError whose message is
only the text that was given).
"""

from __future__ import annotations

import math

import pytest

from ruleslawyer.dice import explosion_cap
from ruleslawyer.errors import RulesInputError, RulingError
from ruleslawyer.rulesets.darkmaster import effective_length
from ruleslawyer.trace import check_overrides, merge_overrides, resolve_ruling

NOT_AN_OBJECT = ["x", 5, 1.5, math.nan, True, ["kit.explosion-cap"], [("kit.explosion-cap", "5")]]


@pytest.mark.parametrize("overrides", NOT_AN_OBJECT, ids=repr)
def test_overrides_that_are_not_an_object_are_a_ruling_error(overrides):
    for call in (lambda: resolve_ruling("kit.explosion-cap", overrides), lambda: explosion_cap(overrides),
                 lambda: check_overrides(overrides), lambda: merge_overrides({}, overrides)):
        with pytest.raises(RulingError) as exc:
            call()
        assert exc.value.field == "rulings" and "object of ruling id -> answer" in exc.value.message


def test_overrides_that_are_an_object_still_work():
    # kit.explosion-cap answers are text: "5" is allowed, the default is 20
    assert explosion_cap({"kit.explosion-cap": "5"})[0] == 5
    assert explosion_cap(None)[0] == 20 and explosion_cap({})[0] == 20
    assert merge_overrides({"a": "1"}, None, {"a": "2", "b": "3"}) == {"a": "2", "b": "3"}


@pytest.mark.parametrize("length", ["x", "", None, 5, ["Long"], "Longer"], ids=repr)
def test_an_unknown_weapon_length_names_the_field_and_the_allowed_lengths(length):
    with pytest.raises(RulesInputError) as exc:
        effective_length(length)
    assert exc.value.field == "weapon_length"
    assert "Hand" in exc.value.message and "Longest" in exc.value.message


def test_a_known_weapon_length_still_works():
    # a longsword is Long; with a Positional Bonus it attacks one step longer, as Longest
    assert effective_length("longsword")[1] == "Long"
    assert effective_length("Long", positional_bonus=True)[1] == "Longest"
