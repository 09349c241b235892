"""One combatant's state in a whole Mastery fight, carried from exchange to exchange and round to round.

A :class:`Fighter` wraps the exchange's :class:`~ruleslawyer.rulesets.mastery.combatant.Combatant`
(AP, health, durability, armour, tiers, state, dying timer, trauma sheet, attack profile) and adds
what only a fight needs: its side, its weapon's speed, where it stands (who is within its reach, a
hazard underfoot) and its conditions (Prone, Impaired, Exhausted, Engaged).

The JSON shape is flat: the Combatant's fields (``ruleslawyer exchange mastery --schema``) plus the
fields in :data:`FIGHTER_FIELDS`; a fight's starting input and its saved state use the same shape, so
``Fighter.from_dict(f.to_dict())`` gives ``f`` back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from ruleslawyer.errors import RulesInputError
from ruleslawyer.trace import to_jsonable

from .combatant import WEAPON_ATTACK_KINDS, Combatant, State
from .round import Side, _weapon_phase
from .schema import FIGHTER
from .tiers import check_tier
from .trauma_effects import trauma_face

__all__ = ["Fighter", "FIGHTER_FIELDS", "COMBATANT_FIELDS", "IMPAIRED_NAMES"]

COMBATANT_FIELDS = frozenset(f.name for f in fields(Combatant))
IMPAIRED_NAMES = {1: "Dazed", 2: "Stunned", 3: "Paralyzed"}
"""The Impaired tiers a Startle trial gives (``mastery/combat/startle-and-ambush/results#1-3``)."""


@dataclass(frozen=True)
class Fighter:
    """A combatant of a fight (frozen; every change makes a new one).

    Attributes:
        body: the exchange's combatant: ``ap`` is the AP left this round (after a round: the AP of the
            next), health, durability, state (standing, fighting-on, unconscious, dead), dying timer,
            trauma sheet, attack profile.
        side: ``pcs`` or ``enemies`` (the 1d6 side roll, who is hostile).
        weapon: the equipped weapon for the phase: a speed (fast, moderate, slow) or a chapter example.
        agility_tier: Agility tier (the Unstable terrain trial, Startle); physique_tier: Physique tier
            (the trial of a Trauma when moving more than once).
        unaware: unaware at the start of combat (a Startle trial in round 1).
        fight_on: on reaching 0 health and passing the Endurance trial, remain conscious and fight on.
        within_reach: names of the creatures within this one's melee attack range (symmetric;
            ``mastery.fight-reach``); None in the input: every creature of the other side.
        prone: Prone; impaired: Impaired tier (0 none, 1 Dazed, 2 Stunned, 3 Paralyzed);
            exhausted: Exhausted tier; engaged_with: names it is Engaged with (until the start of its next turn).
        hazard: the damage type of the Hazardous terrain it stands in (ending a turn there hurts), or None.
        dying_since: the round in which it reached 0 health (the dying timer, ``mastery.dying-timer-tick``).
        triage_begun: ``(patient, AP spent)`` of a Triage begun in an earlier round and not finished
            (``mastery.triage-across-rounds``), or None.
    """

    body: Combatant
    side: Side
    weapon: str
    agility_tier: int = 1
    physique_tier: int = 1
    unaware: bool = False
    fight_on: bool = True
    within_reach: tuple[str, ...] | None = None
    prone: bool = False
    impaired: int = 0
    exhausted: int = 0
    engaged_with: tuple[str, ...] = ()
    hazard: str | None = None
    dying_since: int | None = None
    triage_begun: tuple[str, int] | None = None

    @property
    def name(self) -> str:
        return self.body.name

    @property
    def state(self) -> State:
        return self.body.state

    @property
    def can_act(self) -> bool:
        """Standing or fighting on (an unconscious creature "cannot take actions", ``going-down#2``)."""
        return self.body.state in (State.STANDING, State.FIGHTING_ON)

    def with_(self, **changes) -> Fighter:
        """A copy with ``changes``; Combatant fields (``health=...``) go to the body."""
        body = {k: changes.pop(k) for k in list(changes) if k in COMBATANT_FIELDS}
        return replace(self, body=self.body.with_(**body) if body else self.body, **changes)

    def reaches(self, other: str) -> bool:
        return other in (self.within_reach or ())

    @property
    def conditions(self) -> tuple[str, ...]:
        """Named conditions now: Prone, Impaired (Dazed/Stunned/Paralyzed), Exhausted, Engaged, in a
        hazard, and the sheet's (Blinded, Deafened, Suffocating)."""
        out = ["Prone"] if self.prone else []
        if self.impaired:
            out.append(f"Impaired {self.impaired} ({IMPAIRED_NAMES[self.impaired]})")
        if self.exhausted:
            out.append(f"Exhausted {self.exhausted}")
        if self.engaged_with:
            out.append("Engaged with " + ", ".join(self.engaged_with))
        if self.hazard:
            out.append(f"in {self.hazard} hazard")
        return tuple(out) + self.body.sheet.conditions

    def to_dict(self) -> dict[str, Any]:
        """The flat JSON shape (Combatant fields, then the fight's)."""
        out = self.body.to_dict()
        out.pop("sheet")
        out["sheet"] = {k: v for k, v in self.body.sheet.to_dict().items() if k != "conditions"}
        for f in fields(self):
            if f.name != "body":
                out[f.name] = to_jsonable(getattr(self, f.name))
        return out

    @classmethod
    def from_dict(cls, data: Any, field_name: str) -> Fighter:
        """Read a fighter from the flat JSON shape.

        Read strictly by :data:`.schema.FIGHTER` first (an unknown field with a did-you-mean, a wrong
        type, a value past its bound, a missing name or side), then checked for what the fields mean
        together (a weapon attack without a weapon, the round's AP, the Traumas on the sheet).

        Raises:
            RulesInputError: naming ``<field_name>.<field>`` and what is allowed.
        """
        FIGHTER.read(data, field_name)
        body_data = {k: v for k, v in data.items() if k in COMBATANT_FIELDS}
        if "ap" not in body_data:  # AP this round: the sheet's AP per round
            sheet = body_data.get("sheet") or {}
            body_data["ap"] = sheet.get("ap_per_round", 2) if isinstance(sheet, Mapping) else 2
        body = Combatant.from_dict(body_data, field_name)
        body.check_round_ap(field_name)
        return cls(body, **_fight_fields(data, body, field_name))


FIGHTER_FIELDS = frozenset(f.name for f in fields(Fighter)) - {"body"}


def _flag(data: Mapping, key: str, default: bool, p: str) -> bool:
    v = data.get(key, default)
    if not isinstance(v, bool):
        raise RulesInputError(f"{p}.{key}", f"must be true or false, got {v!r}")
    return v


def _count(data: Mapping, key: str, p: str, high: int) -> int:
    v = data.get(key, 0)
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= high:
        raise RulesInputError(f"{p}.{key}", f"must be a whole number from 0 to {high}, got {v!r}")
    return v


def _names(data: Mapping, key: str, p: str, default):
    v = data.get(key, default)
    if v is None:
        return None
    if isinstance(v, str) or not isinstance(v, (list, tuple)) or not all(isinstance(n, str) for n in v):
        raise RulesInputError(f"{p}.{key}", f"must be a list of combatant names, got {v!r}")
    return tuple(v)


def _weapon(data: Mapping, body: Combatant, p: str) -> str:
    """The weapon that sets the phase: given, or "unarmed" for an unarmed or natural attack."""
    weapon = data.get("weapon")
    if weapon is None:
        if body.attack is not None and body.attack.kind in WEAPON_ATTACK_KINDS:
            raise RulesInputError(f"{p}.weapon", "required with a weapon attack: its speed (fast, moderate, slow) "
                                                 "or a chapter example (dagger, sword, maul, ...)")
        return "unarmed"
    if not isinstance(weapon, str):
        raise RulesInputError(f"{p}.weapon", f"must be a speed or a weapon name, got {weapon!r}")
    _weapon_phase(weapon, f"{p}.weapon")
    return weapon


def _fight_fields(data: Mapping, body: Combatant, p: str) -> dict[str, Any]:
    side = data.get("side")
    if side not in ("pcs", "enemies"):
        raise RulesInputError(f"{p}.side", f"required: pcs or enemies, got {side!r}")
    for key in ("agility_tier", "physique_tier"):
        check_tier(data.get(key, 1), f"{p}.{key}")
    hazard = data.get("hazard")
    if hazard is not None:
        from .damage import parse_type

        hazard = parse_type(hazard, f"{p}.hazard").value
    since = data.get("dying_since")
    if since is not None and (isinstance(since, bool) or not isinstance(since, int) or since < 0):
        raise RulesInputError(f"{p}.dying_since", f"must be null or a round number >= 0, got {since!r}")
    impaired = _count(data, "impaired", p, 3)
    begun = data.get("triage_begun")
    if begun is not None:
        if (not isinstance(begun, (list, tuple)) or len(begun) != 2 or not isinstance(begun[0], str)
                or isinstance(begun[1], bool) or not isinstance(begun[1], int) or begun[1] < 1):
            raise RulesInputError(f"{p}.triage_begun", f"must be null or [patient, AP spent >= 1], got {begun!r}")
        begun = (begun[0], begun[1])
    for i, entry in enumerate(body.sheet.traumas):
        trauma_face(entry, f"{p}.sheet.traumas[{i}]")
    return dict(side=Side(side), weapon=_weapon(data, body, p), agility_tier=data.get("agility_tier", 1),
                physique_tier=data.get("physique_tier", 1), unaware=_flag(data, "unaware", False, p),
                fight_on=_flag(data, "fight_on", True, p), within_reach=_names(data, "within_reach", p, None),
                prone=_flag(data, "prone", False, p), impaired=impaired, exhausted=_count(data, "exhausted", p, 99),
                engaged_with=_names(data, "engaged_with", p, ()), hazard=hazard, dying_since=since,
                triage_begun=begun)
