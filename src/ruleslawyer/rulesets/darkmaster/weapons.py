"""A melee weapon's length from what the player wrote: a length (Hand, Short, Long, Longest) or a weapon
name from the supplement's ``weapon-examples`` table (``longsword``, ``hand axe``, ``staff``...).

The chapter places the longsword (Long) and the handaxe (one step shorter) in its Positional Bonus
example (``melee-phase#3``); the other rows are the kit's reading (ruling ``darkmaster.weapon-examples``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ruleslawyer.errors import RulesDataError, RulesInputError
from ruleslawyer.limits import clip
from ruleslawyer.rulesdb.handle import Rules
from ruleslawyer.trace import Citation, RulingUse, resolve_ruling

from . import _tables, rulings as _r

__all__ = ["WeaponLength", "find_length"]


@dataclass(frozen=True)
class WeaponLength:
    """A melee weapon's length and where it comes from.

    Attributes:
        length: the ``weapon-length`` row (step, name).
        weapon: the ``weapon-examples`` row when a weapon was named, else None (a length was given).
        ruling: ``darkmaster.weapon-examples`` when the kit's reading placed the weapon, else None.
    """

    length: _tables.LengthRow
    weapon: _tables.WeaponRow | None = None
    ruling: RulingUse | None = None

    def explain(self) -> str:
        """``"Long"``, ``"longsword is Long"`` or ``"staff is Long (the kit's reading)"``."""
        if self.weapon is None:
            return self.length.name
        return f"{self.weapon.name} is {self.length.name}" + ("" if self.weapon.chapter else " (the kit's reading)")

    def cites(self) -> list[Citation]:
        """The weapon row (if a weapon was named) and the length row."""
        out = []
        if self.weapon is not None:
            source = "the chapter's example" if self.weapon.chapter else "the kit's reading"
            out.append(Citation(self.weapon.row.unit_id, f"{self.weapon.name} is {self.length.name}: {source}"))
        return out + [Citation(self.length.row.unit_id, f"{self.length.name} is step {self.length.step}")]


def _allowed(rules: Rules) -> str:
    melee = [w.name for w in _tables.weapons(rules).values() if w.length is not None]
    return (", ".join(r.name for r in _tables.lengths(rules))
            + f", or a weapon the weapons table names ({', '.join(melee)})")


def find_length(text: object, rules: Rules, overrides: Mapping[str, str] | None = None,
                field: str = "weapon_length") -> WeaponLength:
    """The length of the melee weapon ``text`` names (a length or a weapon; capitals, spaces and hyphens
    do not matter).

    Raises:
        RulesInputError: (``field``) not a length nor a weapon of the table; a ranged weapon; a weapon
            only the kit's reading places while ``darkmaster.weapon-examples = chapter-only``.
        RulesDataError: a ``weapon-examples`` row names a length the ``weapon-length`` table lacks.
    """
    key = _tables.name_key(text) if isinstance(text, str) else ""
    by_length = {_tables.name_key(r.name): r for r in _tables.lengths(rules)}
    if key in by_length:
        return WeaponLength(by_length[key])
    weapon = _tables.weapons(rules).get(key)
    if weapon is None:
        raise RulesInputError(field, f"unknown weapon length or weapon {clip(text)}; allowed: {_allowed(rules)}")
    if weapon.length is None:
        raise RulesInputError(field, f"{weapon.name} is a ranged weapon ({weapon.row.unit_id}): declare a ranged "
                                     f"action with it; a melee attack needs one of {_allowed(rules)}")
    length = by_length.get(_tables.name_key(weapon.length))
    if length is None:
        raise RulesDataError(f"{weapon.row.unit_id}: weapon length {weapon.length!r} is not in the weapon-length table")
    if weapon.chapter:
        return WeaponLength(length, weapon)
    use = resolve_ruling(_r.WEAPON_EXAMPLES.id, overrides)
    if use.answer == "chapter-only":
        raise RulesInputError(field, f"{weapon.name} is placed only by the kit's reading, and the ruling "
                                     f"{_r.WEAPON_EXAMPLES.id} is chapter-only: give its length "
                                     f"({', '.join(r.name for r in _tables.lengths(rules))})")
    return WeaponLength(length, weapon, use)
