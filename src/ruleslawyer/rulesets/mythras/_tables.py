"""The Mythras supplement tables, read from the rules database (never a copy in Python).

Tables are loaded lazily through :func:`ruleslawyer.rulesdb.load_table` and cached per database
path; :func:`clear_cache` forgets them (after a rebuild). Each accessor parses the cells it needs
and keeps the :class:`~ruleslawyer.tables.TableRow` so the engine cites the row it used.
"""

from __future__ import annotations

from ruleslawyer.errors import RulesDataError

import re
from dataclasses import dataclass
from fractions import Fraction

from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.tables import RuleTable, TableRow, cell

__all__ = [
    "TABLE_IDS", "table", "clear_cache", "cell", "LevelRow", "GradeRow", "SizeRow", "ParrySizeRow",
    "DamageModifierRow", "EffectRow", "levels", "grades", "sizes", "parry_sizes", "damage_modifiers",
    "ModifierLadder", "modifier_ladder", "continued_modifier", "MAX_CONTINUED_STEPS", "modifier_for_dice",
    "hit_locations", "effects", "action_row",
]

_S = "mythras/supplement/tables/"
TABLE_IDS = {
    "levels": _S + "levels-of-success",
    "grades": _S + "difficulty-grades",
    "location": _S + "hit-location-humanoid",
    "damage_modifier": _S + "damage-modifier",
    "size": _S + "weapon-size",
    "parry_size": _S + "parry-size",
    "effects": _S + "special-effects",
    "actions": _S + "action-menu",
}
"""The supplement tables the engine runs on, by role."""

def clear_cache(rules: Rules | None = None) -> None:
    """Forget the loaded tables of ``rules`` (default database), e.g. after rebuilding it."""
    resolve_rules(rules).reset()


def table(role: str, rules: Rules | None = None) -> RuleTable:
    """The table for ``role`` (a key of :data:`TABLE_IDS`), loaded once per database."""
    return resolve_rules(rules).table(TABLE_IDS[role])


def _memo(name: str, build, rules: Rules | None = None):
    return resolve_rules(rules).cached("mythras:" + name, build)


@dataclass(frozen=True)
class LevelRow:
    name: str
    rank: int
    row: TableRow


@dataclass(frozen=True)
class GradeRow:
    name: str
    multiplier: Fraction | None  # None: no roll (Hopeless)
    row: TableRow


@dataclass(frozen=True)
class SizeRow:
    step: int
    name: str
    row: TableRow


@dataclass(frozen=True)
class ParrySizeRow:
    min_steps_smaller: int  # how many steps smaller the parry is, at least (0 = equal or larger)
    max_steps_smaller: int | None
    stopped: str  # "all", "half", "none"
    row: TableRow


@dataclass(frozen=True)
class DamageModifierRow:
    """One step of the Damage Modifier: a STR+SIZ band and its dice.

    Attributes:
        low, high: the STR+SIZ band (None: open-ended).
        dice: the dice added to each weapon damage roll (``"+1d4"``, ``"-1d8"``, ``"+0"``).
        row: the ``damage-modifier`` table row, or None for a step past the table's last row.
        unit_id: the citation id: the row's, or for a step past the table the supplement paragraph
            saying the progression continues.
        band: the band as the table prints it (``"26–30"``), or as continued (``"121–130"``).
    """

    low: int | None
    high: int | None
    dice: str
    row: TableRow | None
    unit_id: str
    band: str


@dataclass(frozen=True)
class EffectRow:
    name: str
    side: str
    needs: str
    weapons: str
    row: TableRow


def levels(rules: Rules | None = None) -> dict[str, LevelRow]:
    """Level name -> rank and row, from ``levels-of-success``."""
    def build():
        t = table("levels", rules)
        return {cell(t, r, "Level"): LevelRow(cell(t, r, "Level"), int(cell(t, r, "Rank")), r) for r in t.rows}
    return _memo("levels", build, rules)


def _multiplier(text: str) -> Fraction | None:
    m = re.search(r"(\d+(?:\.\d+)?)(?:\s*/\s*(\d+))?", text)
    if m is None:
        return None
    value = Fraction(m.group(1))
    return value / int(m.group(2)) if m.group(2) else value


def grades(rules: Rules | None = None) -> list[GradeRow]:
    """The difficulty grades, easiest first, from ``difficulty-grades``."""
    def build():
        t = table("grades", rules)
        return [GradeRow(cell(t, r, "Grade"), _multiplier(cell(t, r, "Skill")), r) for r in t.rows]
    return _memo("grades", build, rules)


def sizes(rules: Rules | None = None) -> list[SizeRow]:
    """The weapon Sizes, smallest first, from ``weapon-size``."""
    def build():
        t = table("size", rules)
        rows = [SizeRow(int(cell(t, r, "Step")), cell(t, r, "Size"), r) for r in t.rows]
        return sorted(rows, key=lambda s: s.step)
    return _memo("sizes", build, rules)


_WORDS = {"equal": 0, "one": 1, "two": 2, "three": 3, "four": 4}


def parry_sizes(rules: Rules | None = None) -> list[ParrySizeRow]:
    """How much a successful parry stops by Size difference, from ``parry-size``."""
    def build():
        t = table("parry_size", rules)
        out = []
        for r in t.rows:
            text = r.cells[0].lower()
            words = re.findall(r"[a-z]+|\d+", text)
            n = 0 if ("equal" in words or "larger" in words) else next(
                (int(w) if w.isdigit() else _WORDS[w] for w in words if w.isdigit() or w in _WORDS), None)
            if n is None:
                raise RulesDataError(f"{r.unit_id}: cannot read the Size difference {r.cells[0]!r}")
            open_ended = "more" in words or "larger" in words
            stopped = cell(t, r, "Damage").lower().split()[0]
            out.append(ParrySizeRow(n, None if open_ended else n, stopped, r))
        return out
    return _memo("parry_sizes", build, rules)


_DASHES = str.maketrans({"–": "-", "—": "-", "−": "-"})


def damage_modifiers(rules: Rules | None = None) -> list[DamageModifierRow]:
    """STR+SIZ bands and their dice, lowest first, from ``damage-modifier``."""
    def build():
        t = table("damage_modifier", rules)
        out = []
        for r in t.rows:
            band = r.cells[0].translate(_DASHES).replace(" ", "")
            if band.startswith("≤") or band.startswith("<="):
                low, high = None, int(band.lstrip("≤<="))
            elif band.endswith("+"):
                low, high = int(band[:-1]), None
            elif "-" in band:
                a, b = band.split("-", 1)
                low, high = int(a), int(b)
            else:
                low = high = int(band)
            dice = cell(t, r, "Damage Modifier").translate(_DASHES).replace(" ", "")
            out.append(DamageModifierRow(low, high, dice, r, r.unit_id, r.cells[0]))
        return out
    return _memo("damage_modifiers", build, rules)


def _add_dice(*exprs: str) -> str:
    """Positive dice expressions added up, like dice together, the term with the highest maximum
    first: +2d10 and +2d10+1d2 -> +4d10+1d2; +2d10 and +1d12 -> +2d10+1d12."""
    counts: dict[int, int] = {}
    for expr in exprs:
        for n, sides in re.findall(r"(\d+)d(\d+)", expr):
            counts[int(sides)] = counts.get(int(sides), 0) + int(n)
    order = sorted(counts, key=lambda s: (counts[s] * s, s), reverse=True)
    return "+" + "+".join(f"{counts[s]}d{s}" for s in order)


@dataclass(frozen=True)
class ModifierLadder:
    """How the Damage Modifier goes on past the table's last row, one step per ``width`` points.

    Read from the table itself: its last row is an earlier row (``base``, +2d10) plus the first
    positive step (+1d2), so each further step adds the next positive step to ``base`` again. Step
    ``n`` of the positive rows (+1d2 is 0) is ``q`` × ``base`` + ``positives[r]``, ``q, r = divmod(n,
    period)``: the kit's reading, ruling ``mythras.damage-modifier-ladder``.
    """

    first_positive: int  # index of the +1d2 row in the table
    positives: tuple[str, ...]
    base: str
    period: int
    width: int
    unit_id: str  # the paragraph saying the progression continues

    def dice(self, index: int, rows: list[DamageModifierRow]) -> str:
        """The dice of table index ``index`` (0-based; may be past the last row)."""
        q, r = divmod(index - self.first_positive, self.period)
        return _add_dice(*[self.base] * q, self.positives[r])


def modifier_ladder(rules: Rules | None = None) -> ModifierLadder:
    """How the ``damage-modifier`` table continues (see :class:`ModifierLadder`).

    Raises:
        RulesDataError: the table or its paragraph cannot be read as a progression (naming the row).
    """
    rules = resolve_rules(rules)

    def build():
        rows = damage_modifiers(rules)
        last = rows[-1]
        first = next((i for i, r in enumerate(rows) if re.fullmatch(r"\+(\d+d\d+)(\+\d+d\d+)*", r.dice)), None)
        terms = re.findall(r"\+\d+d\d+", last.dice)
        base = "".join(terms[:-1])
        positives = tuple(r.dice for r in rows[first:]) if first is not None else ()
        if last.low is None or last.high is None or base not in positives:
            raise RulesDataError(f"{last.unit_id}: cannot read how the Damage Modifier continues past {last.band}")
        ladder = ModifierLadder(first, positives, base, positives.index(base) + 1, last.high - last.low + 1,
                                _continuation(rules))
        for i, r in enumerate(rows[first:], first):
            if ladder.dice(i, rows) != _add_dice(r.dice):
                raise RulesDataError(f"{r.unit_id}: {r.dice} does not follow the Damage Modifier progression")
        return ladder
    return _memo("modifier_ladder", build, rules)


def _continuation(rules: Rules) -> str:
    """The supplement paragraph that says the Damage Modifier progression continues past the table."""
    section = table("damage_modifier", rules).section
    unit = rules.rule(section + "#1")
    if "progression" not in unit.text.lower():
        raise RulesDataError(f"{unit.id}: expected the paragraph saying how the Damage Modifier continues")
    return unit.id


MAX_CONTINUED_STEPS = 100
"""How many steps past the table a Damage Modifier given by its dice is looked for (STR+SIZ 1120)."""


def modifier_for_dice(dice: str, rules: Rules | None = None) -> DamageModifierRow | None:
    """The Damage Modifier step whose dice are ``dice`` (``"+1d6"``, ``"+2d10+1d4"``), or None."""
    rules = resolve_rules(rules)
    rows = damage_modifiers(rules)
    for row in rows:
        if row.dice == dice:
            return row
    for index in range(len(rows), len(rows) + MAX_CONTINUED_STEPS):
        row = continued_modifier(index, rules)
        if row.dice == dice:
            return row
    return None


def continued_modifier(index: int, rules: Rules | None = None) -> DamageModifierRow:
    """Table index ``index`` (0-based) of the Damage Modifier, past the last row if need be.

    Past the last row (111–120, +2d10+1d2) each further 10 points is one more step:
    121–130 +2d10+1d4, 131–140 +2d10+1d6, …, 211–220 +4d10, 221–230 +4d10+1d2.
    """
    rules = resolve_rules(rules)
    rows = damage_modifiers(rules)
    if index < len(rows):
        return rows[index]
    ladder = modifier_ladder(rules)
    past = index - len(rows) + 1
    low = rows[-1].high + ladder.width * (past - 1) + 1
    high = low + ladder.width - 1
    return DamageModifierRow(low, high, ladder.dice(index, rows), None, ladder.unit_id, f"{low}–{high}")


def hit_locations(rules: Rules | None = None) -> RuleTable:
    """The rollable humanoid hit-location table (1d20)."""
    return table("location", rules)


def effects(rules: Rules | None = None) -> dict[str, EffectRow]:
    """Special Effect name -> side, needs, weapons and row, from ``special-effects``."""
    def build():
        t = table("effects", rules)
        return {cell(t, r, "Name"): EffectRow(cell(t, r, "Name"), cell(t, r, "Side").lower(),
                                             cell(t, r, "Needs"), cell(t, r, "Weapons").lower(), r)
                for r in t.rows}
    return _memo("effects", build, rules)


def action_row(name: str, rules: Rules | None = None) -> TableRow:
    """The ``action-menu`` row of an action (``"Parry"``, ``"Evade"``, ``"Ward Location"``)."""
    def build():
        t = table("actions", rules)
        return {cell(t, r, "Action").lower(): r for r in t.rows}
    rows = _memo("actions", build, rules)
    try:
        return rows[name.lower()]
    except KeyError:
        raise RulesDataError(f"action-menu has no action {name!r}") from None
