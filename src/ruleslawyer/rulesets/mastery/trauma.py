"""Traumas: the d100 Trauma table (as stored in the rules database), the finger sub-roll, the
character's accumulating trauma sheet, and the Realistic / Brutal / Deadly trauma settings.

Rules: ``mastery/combat/wounds-injuries-and-trauma/traumas#1`` (when Traumas occur),
``.../trauma-table#1-6`` (settings, 1d100 per Trauma) and the table ``mastery/combat/tables/trauma``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum

from ruleslawyer.dice import Dice, read_face
from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.tables import RuleTable, SeeAlso, TableRow, headline, see_also, see_also_step
from ruleslawyer.trace import Citation, Step, StepKind, TracedResult

from . import _tables, ids
from . import rulings as R

__all__ = ["TraumaSetting", "TraumaEvent", "TraumaCheck", "TraumaSheet", "Trauma", "FINGERS",
           "trauma_follows", "roll_trauma", "finger_name"]


class TraumaSetting(StrEnum):
    """How often Traumas occur (``.../trauma-table#1``); each includes those above it."""

    REALISTIC = "realistic"
    BRUTAL = "brutal"
    DEADLY = "deadly"


class TraumaEvent(StrEnum):
    """Events the trauma settings speak of."""

    FIGHTING_ON_HEALTH_DAMAGE = "fighting-on-health-damage"
    """Health damage while at 0 health and fighting on (Realistic and up)."""
    REACHED_ZERO = "reached-zero"
    """Reaching 0 health (Brutal and up)."""
    NATURAL_MINIMUM_RESIST = "natural-minimum-resist"
    """A natural minimum on a trial to resist damage (Brutal and up)."""
    EXPLODED_HIT_HEALTH_DAMAGE = "exploded-hit-health-damage"
    """Health damage from a hit whose dice exploded (Deadly: Endurance trial, Straightforward 4, or a Trauma)."""


_SETTING_RANK = {TraumaSetting.REALISTIC: 0, TraumaSetting.BRUTAL: 1, TraumaSetting.DEADLY: 2}
_SETTING_CITE = {TraumaSetting.REALISTIC: ids.SETTING_REALISTIC, TraumaSetting.BRUTAL: ids.SETTING_BRUTAL,
                 TraumaSetting.DEADLY: ids.SETTING_DEADLY}
# event -> (lowest setting that has it, what follows)
_EVENTS = {
    TraumaEvent.FIGHTING_ON_HEALTH_DAMAGE: (TraumaSetting.REALISTIC, "trauma"),
    TraumaEvent.REACHED_ZERO: (TraumaSetting.BRUTAL, "trauma"),
    TraumaEvent.NATURAL_MINIMUM_RESIST: (TraumaSetting.BRUTAL, "trauma"),
    TraumaEvent.EXPLODED_HIT_HEALTH_DAMAGE: (TraumaSetting.DEADLY, "endurance-trial-or-trauma"),
}


def _enum(cls, value, field_name: str):
    try:
        return cls(str(value).lower())
    except ValueError:
        allowed = ", ".join(m.value for m in cls)
        raise RulesInputError(field_name, f"unknown value {value!r}; allowed: {allowed}") from None


@dataclass(frozen=True)
class TraumaCheck(TracedResult):
    """Whether a Trauma follows an event under a setting.

    Attributes:
        setting, event: as asked.
        outcome: ``"trauma"`` (a Trauma follows), ``"endurance-trial-or-trauma"`` (Endurance trial
            at ``endurance_dc``; a failure means a Trauma) or ``"none"``.
        endurance_dc: 4 (Straightforward) for the Deadly exploding-dice event, else None.
        trace: cited steps.
    """

    setting: TraumaSetting
    event: TraumaEvent
    outcome: str
    endurance_dc: int | None
    trace: Step

    @property
    def trauma(self) -> bool:
        """True when a Trauma follows for certain."""
        return self.outcome == "trauma"


def trauma_follows(event: TraumaEvent | str, setting: TraumaSetting | str = TraumaSetting.REALISTIC, *,
                   rules: Rules | None = None) -> TraumaCheck:
    """Say whether a Trauma (or an Endurance trial, Straightforward 4) follows ``event`` under ``setting``.

    Rules: ``.../trauma-table#1`` (each setting includes those above it), ``#2`` Realistic (the
    default), ``#3`` Brutal, ``#4`` Deadly; ``.../traumas#1``; ``mastery/combat/death/fighting-on#2``.

    Raises:
        RulesInputError: unknown event (field ``event``) or setting (field ``setting``).
    """
    ev = _enum(TraumaEvent, event, "event")
    st = _enum(TraumaSetting, setting, "setting")
    lowest, what = _EVENTS[ev]
    applies = _SETTING_RANK[st] >= _SETTING_RANK[lowest]
    children = [Step.of(StepKind.RULE, f"Trauma setting: {st.value.capitalize()}",
                        cites=[ids.TRAUMA_SETTINGS, _SETTING_CITE[st]])]
    cites: list[str | Citation] = [_SETTING_CITE[lowest]]
    if ev is TraumaEvent.FIGHTING_ON_HEALTH_DAMAGE:
        cites += [ids.TRAUMAS, ids.FIGHTING_ON_TRAUMA]
    dc = None
    if not applies:
        outcome = "none"
        label = f"{ev.value}: no Trauma under {st.value.capitalize()} (first in {lowest.value.capitalize()})"
    elif what == "trauma":
        outcome = "trauma"
        label = f"{ev.value}: a Trauma follows"
    else:
        from .tiers import named_dc

        dc, dc_row = named_dc("Straightforward", rules)
        cites.append(dc_row)
        outcome = what
        label = f"{ev.value}: Endurance trial (Straightforward, {dc}) or suffer a Trauma"
    children.append(Step.of(StepKind.RULE, label, outcome, cites=cites))
    trace = Step.of(StepKind.RESULT, "Does a Trauma follow?", outcome, children=children)
    return TraumaCheck(st, ev, outcome, dc, trace)


FINGERS: tuple[str, ...] = (
    "left little finger", "left ring finger", "left middle finger", "left index finger", "left thumb",
    "right thumb", "right index finger", "right middle finger", "right ring finger", "right little finger",
)
"""The 1d10 finger sub-roll, 1..10, counted from the left little finger across both hands."""


def finger_name(face: int, rulings: Mapping[str, str] | None = None) -> str:
    """The finger a 1d10 face names (ruling ``mastery.finger-order``)."""
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 10:
        raise RulesInputError("finger", f"the finger roll is a d10: a whole number from 1 to 10, got {face!r}")
    if R.use(R.FINGER_ORDER, rulings) == "little-to-little" and face > 5:
        return FINGERS[15 - face]
    return FINGERS[face - 1]


_PART_RE = re.compile(r"^Lose your (left|right) (eye|hand|foot|ear)\.")


@dataclass(frozen=True)
class TraumaSheet:
    """A character's Traumas so far, and what they add up to.

    Attributes:
        traumas: the Traumas suffered, as ``"<roll>: <first sentence>"``, in order.
        lost: body parts lost (``"left eye"``, ``"right hand"``, ``"left thumb"``, ``"nose"``, ...).
        punctured_lungs: how many Punctured Lung results (2 = both lungs).
        ap_per_round: 2, or 1 after a Trauma whose row says "You have 1 AP per round" (Punctured
            Lung, Cracked Sternum).
    """

    traumas: tuple[str, ...] = ()
    lost: frozenset[str] = field(default_factory=frozenset)
    punctured_lungs: int = 0
    ap_per_round: int = 2

    @property
    def conditions(self) -> tuple[str, ...]:
        """Blinded (no eyes left), Deafened (no ears left), Suffocating (both lungs punctured)."""
        out = []
        if {"left eye", "right eye"} <= self.lost:
            out.append("Blinded")
        if {"left ear", "right ear"} <= self.lost:
            out.append("Deafened")
        if self.punctured_lungs >= 2:
            out.append("Suffocating")
        return tuple(out)

    def has_lost(self, part: str) -> bool:
        """True if ``part`` is lost (a finger is lost with its hand)."""
        if part in self.lost:
            return True
        for side in ("left", "right"):
            if part.startswith(side) and part != f"{side} hand" and part in _hand_fingers(side):
                return f"{side} hand" in self.lost
        return False

    def to_dict(self) -> dict:
        return {"traumas": list(self.traumas), "lost": sorted(self.lost),
                "punctured_lungs": self.punctured_lungs, "ap_per_round": self.ap_per_round,
                "conditions": list(self.conditions)}

    @classmethod
    def from_dict(cls, data: Mapping | None) -> TraumaSheet:
        """Rebuild from :meth:`to_dict` output (``conditions`` is ignored; it is derived), read strictly
        by :data:`.schema.SHEET`; ``None`` is an empty sheet.

        Raises:
            RulesInputError: not an object (``[]``, ``false``), an unknown field (with a did-you-mean),
                a wrong type or a value past its bound, naming ``sheet.<field>``.
        """
        from .schema import SHEET

        return cls.from_checked(SHEET.read({} if data is None else data, "sheet"))

    @classmethod
    def from_checked(cls, d: Mapping) -> TraumaSheet:
        """Build from data :data:`.schema.SHEET` has already read."""
        return cls(tuple(d.get("traumas", ())), frozenset(d.get("lost", ())), d.get("punctured_lungs", 0),
                   d.get("ap_per_round", 2))


def _hand_fingers(side: str) -> tuple[str, ...]:
    return tuple(f for f in FINGERS if f.startswith(side))


@dataclass(frozen=True)
class Trauma(TracedResult):
    """A Trauma rolled on the table.

    Attributes:
        roll: the d100 face (1..100) of the row that applied.
        rows: ``"3–5"`` style range of that row; text, tier ("Minor"/"Severe"/"Grievous"/"" ),
            recovery: the row's cells; unit_id: the row's citation id.
        close_call: the row is a Close Call (no Trauma).
        finger: the 1d10 finger face for "Lose a finger", else None; finger_lost: its name.
        effect: what happened to the sheet (``"lost left eye"``, ``"no further effect"``, ...).
        sheet: the updated sheet (None if none was given).
        rolls: every d100 face rolled (more than one after a reroll ruling).
        trace: cited steps.
        seed: the seed the d100 was rolled with, to repeat it (None when entered, scripted or rolled
            from a caller's generator).
        see_also: for an "As left arm." row, the row it refers to (:func:`ruleslawyer.tables.see_also`);
            ``text`` stays the row's own words.
    """

    roll: int
    range: str
    text: str
    tier: str
    recovery: str
    unit_id: str
    close_call: bool
    finger: int | None
    finger_lost: str | None
    effect: str
    sheet: TraumaSheet | None
    rolls: tuple[int, ...]
    trace: Step
    seed: int | None = None
    see_also: SeeAlso | None = None


def _loss(text: str) -> tuple[str, str | None]:
    m = _PART_RE.match(text)
    if m:
        return "part", f"{m.group(1)} {m.group(2)}"
    if text.startswith("Lose your nose"):
        return "part", "nose"
    if text.startswith("Lose a finger"):
        return "finger", None
    if text.startswith("Punctured Lung"):
        return "lung", None
    return "other", None


@dataclass(frozen=True)
class _Landed:
    """The row a d100 face landed on, read: its span, cells, what it takes from the sheet."""

    face: int
    row: TableRow
    span: str
    text: str
    tier: str
    recovery: str
    kind: str
    part: str | None
    close_call: bool


def _land(table: RuleTable, face: int, entered: bool, seed: int | None = None) -> tuple[_Landed, Step]:
    """The row covering ``face`` (``mastery/combat/tables/trauma``) and the roll step citing it."""
    row = table.row_for(face)
    span = f"{row.low}" if row.low == row.high else f"{row.low}–{row.high}"
    text = row.cells[1]
    kind, part = _loss(text)
    landed = _Landed(face, row, span, text, row.cells[2] if len(row.cells) > 2 else "",
                     row.cells[3] if len(row.cells) > 3 else "", kind, part, text.startswith("Close Call"))
    how = "d100 entered" if entered else "d100 rolled" + (f" (seed {seed})" if seed is not None else "")
    return landed, Step.of(StepKind.ROLL, how, face, detail=f"row {span}",
                           cites=[Citation(ids.TRAUMA_ROLL, "roll 1d100 for each Trauma"),
                                  Citation(row.unit_id, f"row {span} of {table.id}")])


def _finger_roll(landed: _Landed, face: int | None, dice: Dice, rulings) -> tuple[int, str, Step]:
    """The 1d10 finger sub-roll of "Lose a finger" (``mastery.finger-order``)."""
    fuse = R.ruling_use(R.FINGER_ORDER, rulings)
    face = face if face is not None else dice.roll(10, "finger")
    lost = finger_name(face, rulings)
    return face, lost, Step.of(StepKind.ROLL, "1d10 from the left little finger", face, detail=lost,
                               cites=[landed.row.unit_id], rulings=[fuse])


def _already_lost(landed: _Landed, part: str | None, sheet: TraumaSheet | None) -> bool:
    return sheet is not None and ((part is not None and sheet.has_lost(part))
                                  or (landed.kind == "lung" and sheet.punctured_lungs >= 2))


def roll_trauma(*, roll: int | None = None, finger: int | None = None, dice: Dice | None = None,
                seed: int | None = None, sheet: TraumaSheet | None = None,
                rulings: Mapping[str, str] | None = None, table=None, rules: Rules | None = None) -> Trauma:
    """Roll 1d100 on the Trauma table (``mastery/combat/tables/trauma``, loaded from the db).

    Args:
        roll: the d100 face already rolled (1..100, or ``"00"`` / 0 read as 100); None to roll
            (slot ``trauma``).
        finger: the 1d10 face for "Lose a finger"; None to roll (slot ``finger``).
        dice: seeded or scripted dice; else ``Dice(seed=seed)``.
        sheet: the character's trauma sheet to update (second eye -> Blinded, second ear ->
            Deafened, both lungs -> suffocating, all fingers of a hand -> lost hand).
        rulings: overrides (``mastery.trauma-lost-part``, ``mastery.finger-order``).
        table: the trauma :class:`~ruleslawyer.tables.RuleTable` (default: loaded from ``rules``).
        rules: the rules database (default database).

    Returns:
        A :class:`Trauma` with the row, its citation, the roll(s) and the updated sheet.

    Raises:
        RulesInputError: roll outside 1..100 (field ``roll``), finger outside 1..10 (``finger``).
        DiceScriptError: a scripted slot ran out or holds an impossible face.
    """
    R.check(rulings)
    table = table or _tables.trauma_table(resolve_rules(rules))
    if roll is not None:
        roll = read_face(roll, table.sides or 100, "roll")  # 1..100; "00" (or 0) is 100
    if finger is not None:
        finger_name(finger, rulings)
    dice = dice or Dice(seed=seed)
    seed = None if roll is not None or dice.is_scripted("trauma") else dice.seed
    children: list[Step] = []
    rolls: list[int] = []
    while True:
        first = not rolls
        landed, step = _land(table, roll if (roll is not None and first) else dice.d100("trauma"),
                             roll is not None and first, seed if first else None)
        rolls.append(landed.face)
        children.append(step)
        part, finger_face, finger_lost = landed.part, None, None
        if landed.kind == "finger":
            finger_face, finger_lost, step = _finger_roll(landed, finger if first else None, dice, rulings)
            part = finger_lost
            children.append(step)
        already = _already_lost(landed, part, sheet)
        if not already:
            break
        use = R.ruling_use(R.TRAUMA_LOST_PART, rulings)
        children.append(Step.of(StepKind.RULING, f"Already lost: {part or 'both lungs'}", use.answer,
                                cites=[landed.row.unit_id], rulings=[use]))
        if use.answer != "reroll" or len(rolls) >= 100:
            break
    effect = "no Trauma (Close Call)" if landed.close_call else ("no further effect" if already else "recorded")
    new_sheet = None
    if sheet is not None:
        new_sheet, effect_steps, eff = _apply(table, sheet, landed.face, landed.text, landed.kind, part,
                                              landed.row.unit_id, landed.close_call, already)
        children.extend(effect_steps)
        effect = eff if not (already or landed.close_call) else effect
    found = see_also(table, landed.row)
    label = headline(table, landed.row, landed.face) + (f" ({finger_lost})" if finger_lost else "")
    trace = Step.of(StepKind.RESULT, label,
                    detail=f"{landed.tier}; mundane recovery: {landed.recovery}" if landed.tier else "",
                    children=children + ([see_also_step(found)] if found else []))
    return Trauma(landed.face, landed.span, landed.text, landed.tier, landed.recovery, landed.row.unit_id,
                  landed.close_call, finger_face, finger_lost, effect, new_sheet, tuple(rolls), trace, seed, found)


def _apply(table, sheet: TraumaSheet, face: int, text: str, kind: str, part: str | None, unit_id: str,
           close_call: bool, already: bool) -> tuple[TraumaSheet, list[Step], str]:
    if close_call or already:
        return sheet, [], "no change to the sheet"
    entry = f"{face}: {text.split('. ')[0].rstrip('.')}" + (f" ({part})" if kind == "finger" else "")
    lost = set(sheet.lost)
    lungs = sheet.punctured_lungs
    steps: list[Step] = []
    effect = "recorded"
    before = set(sheet.conditions)
    if kind in ("part", "finger") and part:
        lost.add(part)
        effect = f"lost {part}"
        if kind == "finger":
            side = part.split()[0]
            if all(f in lost for f in _hand_fingers(side)) and f"{side} hand" not in lost:
                lost.add(f"{side} hand")
                effect += f"; all fingers of the {side} hand lost: treat it as a lost hand"
                steps.append(Step.of(StepKind.RULE, f"All fingers of the {side} hand lost", f"{side} hand lost",
                                     cites=[Citation(unit_id, "If a hand loses all its fingers, treat it as a lost hand.")]))
    elif kind == "lung":
        lungs += 1
        effect = "punctured lung" + (" (both lungs)" if lungs >= 2 else "")
    ap = sheet.ap_per_round
    if "You have 1 AP per round." in text and ap != 1:
        ap = 1
        steps.append(Step.of(StepKind.RULE, "Now 1 AP per round", 1,
                             cites=[Citation(unit_id, "You have 1 AP per round.")]))
        effect += "; 1 AP per round"
    new = replace(sheet, traumas=sheet.traumas + (entry,), lost=frozenset(lost), punctured_lungs=lungs,
                  ap_per_round=ap)
    for cond in new.conditions:
        if cond not in before:
            note = {"Blinded": "If you have no eyes left, you are Blinded.",
                    "Deafened": "If you have no ears left, you are Deafened.",
                    "Suffocating": "If both lungs are punctured, you are suffocating"}[cond]
            where = next((r.unit_id for r in table.rows if note in r.cells[1]), unit_id)
            steps.append(Step.of(StepKind.RULE, f"Now {cond}", cond, cites=[Citation(where, note)]))
            effect += f"; now {cond}"
    steps.append(Step.of(StepKind.RESULT, "Trauma sheet", ", ".join(new.conditions) or "no conditions",
                         detail="; ".join(new.traumas)))
    return new, steps, effect
