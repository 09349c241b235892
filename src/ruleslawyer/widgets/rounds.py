"""Round panels: add combatants, declare actions, see the order with the reasons.

* :class:`MasteryRoundPanel` — Startle/Ambush, declarations -> Fast/Moderate/Slow phases, the 1d6
  side roll, holds (:func:`ruleslawyer.rulesets.mastery.sequence_round`).
* :class:`DarkmasterRoundPanel` — the Tactical Round Sequence
  (:func:`ruleslawyer.rulesets.darkmaster.sequence_round`), refused declarations shown with the rule
  that refuses them.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from ruleslawyer.rulesdb.handle import Rules, RulesLike

from .base import DiceControls, PanelArgs, PanelFrame, cite_html, esc, int_box

__all__ = ["MasteryRoundPanel", "DarkmasterRoundPanel"]

_W = {"description_width": "initial"}


def _roster_html(rows: list[list[str]], head: list[str]) -> str:
    if not rows:
        return '<div class="rl-hint">No combatants yet: fill in the row above and press Add.</div>'
    th = "".join(f"<th>{esc(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f'<table class="rl-table rl-roster"><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>'


class _Roster:
    """Add / remove-last / clear buttons and an HTML list of what has been added."""

    def __init__(self, on_add, add_label: str) -> None:
        self.add_button = widgets.Button(description=add_label, button_style="info", icon="plus")
        self.add_button.add_class("rl-add")
        self.remove_button = widgets.Button(description="Remove last")
        self.clear_button = widgets.Button(description="Clear")
        self.view = widgets.HTML("")
        self.view.add_class("rl-roster-view")
        self.add_button.on_click(lambda _b: on_add())


class MasteryRoundPanel:
    """Sequence a Mastery round.

    Controls for the combatant to add: ``name``, ``side`` (pcs / enemies), ``weapon`` (a speed —
    fast, moderate, slow — or one of the chapter's example weapons: dagger, sword, maul, ...),
    ``attack`` (an attack is declared), ``spell`` (speed of a declared spell, or none), ``hold_to``
    (hold to a later phase, or none), ``trigger`` / ``trigger_ap`` / ``trigger_occurs`` (hold for a
    trigger: the condition, AP committed, the phase it occurs in or never), ``unaware`` with ``agility``/``perception`` tiers (Startle).
    ``roster.add_button`` adds; ``roster.remove_button`` / ``roster.clear_button`` edit the list.
    Round controls: ``round_number``, ``startle_dc`` / ``ambush_dc`` (0: not set), ``dice`` (seed, or script ``side: 4`` for the 1d6 side roll and
    ``startle_agility`` / ``startle_perception``). ``button`` runs the sequence. ``rules``: the rules database
    (a :class:`~ruleslawyer.rulesdb.handle.Rules` handle or a path; default database) the engine reads.
    A bad argument (``combatants`` not a list of ``RoundCombatant`` with distinct names, a bad seed or
    script, a ``rules`` path that is not a rules database) never raises and is never replaced
    silently: the panel shows its message (``frame.error``,
    :class:`~ruleslawyer.widgets.base.PanelArgs`) and an empty roster.

    Attributes:
        combatants: the :class:`~ruleslawyer.rulesets.mastery.RoundCombatant` list.
        result: the last :class:`~ruleslawyer.rulesets.mastery.SequenceResult` (None if none).
    """

    def __init__(self, combatants: list | None = None, *, seed: int = 7, script: str = "",
                 rules: RulesLike = None) -> None:
        from ruleslawyer.rulesets.mastery import Phase, Side

        args = PanelArgs(rules)
        self.rules = args.rules
        seed, script = args.seed(seed), args.script(script)
        combatants = args.items("combatants", combatants, _mastery_combatant(set()))
        self.name = widgets.Text("", placeholder="name", description="Combatant", layout=widgets.Layout(width="230px"))
        self.side = widgets.Dropdown(options=[s.value for s in Side], value="pcs", description="Side",
                                     layout=widgets.Layout(width="170px"))
        self.weapon = widgets.Text("sword", description="Weapon or speed", layout=widgets.Layout(width="260px"),
                                   style=_W)
        self.attack = widgets.Checkbox(True, description="attacks", indent=False, layout=widgets.Layout(width="90px"))
        self.spell = widgets.Dropdown(options=[("no spell", "")] + [(p.value, p.value) for p in Phase], value="",
                                      description="Spell", layout=widgets.Layout(width="180px"))
        self.hold_to = widgets.Dropdown(options=[("no hold", "")] + [(p.value, p.value) for p in Phase], value="",
                                        description="Hold to", layout=widgets.Layout(width="180px"))
        self.trigger = widgets.Text("", placeholder="or hold for a trigger: the archer breaks cover",
                                    description="Trigger", layout=widgets.Layout(width="360px"))
        self.trigger_ap = int_box("AP committed", 1, "140px")
        self.trigger_occurs = widgets.Dropdown(options=[("never occurs", "")] + [(p.value, p.value) for p in Phase],
                                               value="", description="Occurs in", layout=widgets.Layout(width="220px"),
                                               style=_W)
        self.unaware = widgets.Checkbox(False, description="unaware", indent=False, layout=widgets.Layout(width="90px"))
        self.agility = int_box("Agility tier", 1, "140px")
        self.perception = int_box("Perception tier", 1, "160px")
        self.round_number = int_box("Round", 1, "110px")
        self.startle_dc = int_box("Startle DC (0: the default 6)", 0, "230px")
        self.ambush_dc = int_box("Ambush DC (0: no ambush)", 0, "210px")
        self.dice = DiceControls(seed=seed, script=script, on_new_seed=self.run, slots_hint="side: 4")
        self.roster = _Roster(self.add, "Add combatant")
        self.roster.remove_button.on_click(lambda _b: self._remove())
        self.roster.clear_button.on_click(lambda _b: self._clear())
        self.button = widgets.Button(description="Sequence the round", button_style="primary",
                                     layout=widgets.Layout(width="200px"))
        self.button.add_class("rl-run")
        self.frame = PanelFrame("Mastery: the round", [
            [self.name, self.side, self.weapon, self.attack, self.spell, self.hold_to],
            [self.trigger, self.trigger_ap, self.trigger_occurs],
            [self.unaware, self.agility, self.perception, self.roster.add_button, self.roster.remove_button,
             self.roster.clear_button],
            self.roster.view, [self.round_number, self.startle_dc, self.ambush_dc], self.dice.row, [self.button]],
            on_rulings_change=self.run, css_class="rl-mastery-round-panel", rules=self.rules)
        self.output = self.frame.output
        self.widget = self.frame.widget
        self.combatants: list = list(combatants or [])
        self.result = None
        self.button.on_click(lambda _b: self.dice.roll())  # a fresh seed for the side roll (shown; Replay repeats)
        self._show_roster()
        args.report(self.frame)  # a bad argument: its message, not a round of part of the roster

    def add(self) -> None:
        """Add the combatant described by the controls to the roster."""
        def go() -> None:
            from ruleslawyer.errors import RulesInputError
            from ruleslawyer.rulesets.mastery import Declaration, HoldTrigger, RoundCombatant, Spell

            name = self.name.value.strip()
            if not name:
                raise RulesInputError("name", "give the combatant a name")
            if any(c.name == name for c in self.combatants):
                raise RulesInputError("name", f"{name!r} is already in the round; names must be unique")
            decl = Declaration(weapon=self.weapon.value.strip() or None, attack=self.attack.value,
                               spell=Spell(speed=self.spell.value) if self.spell.value else None,
                               hold_to=self.hold_to.value or None,
                               hold_trigger=HoldTrigger(self.trigger.value.strip(), self.trigger_ap.value,
                                                        self.trigger_occurs.value or None)
                               if self.trigger.value.strip() else None)
            self.combatants.append(RoundCombatant(name, self.side.value, decl, unaware=self.unaware.value,
                                                  agility_tier=self.agility.value,
                                                  perception_tier=self.perception.value))
            self.name.value = ""
            self.trigger.value = ""
            self._show_roster()
        self.frame.guard(go)

    def _remove(self) -> None:
        if self.combatants:
            self.combatants.pop()
        self._show_roster()

    def _clear(self) -> None:
        self.combatants.clear()
        self._show_roster()

    def _show_roster(self) -> None:
        rows = []
        for c in self.combatants:
            d = c.declaration
            what = [f"weapon {d.weapon}" + ("" if d.attack else " (no attack)")] if d.weapon else []
            if d.spell is not None:
                what.append(f"spell ({d.spell.speed or d.spell.name})")
            if d.hold_to:
                what.append(f"hold to {d.hold_to}")
            if d.hold_trigger is not None:
                t = d.hold_trigger
                what.append(f"hold for '{t.condition}' ({t.ap} AP; occurs in {t.occurs or 'no phase'})")
            rows.append([c.name, str(c.side), ", ".join(what) or "nothing declared",
                         f"unaware (AGI {c.agility_tier}, PER {c.perception_tier})" if c.unaware else ""])
        self.roster.view.value = _roster_html(rows, ["Name", "Side", "Declared", "Startle"])

    def run(self) -> None:
        """Sequence the round for the roster with the dice and rulings chosen."""
        self.frame.guard(self._run)

    def _run(self) -> None:
        from ruleslawyer.rulesets.mastery import sequence_round

        self.result = None
        r = sequence_round(self.combatants, round_number=self.round_number.value,
                           startle_dc=self.startle_dc.value or None, ambush_dc=self.ambush_dc.value or None,
                           rulings=dict(self.frame.rulings.overrides), rules=self.rules, **self.dice.kwargs())
        self.result = r
        rows = []
        n = 0
        for slot in r.order:
            for name in slot.get("combatants", ()):
                n += 1
                info = r.combatants.get(name, {})
                rows.append(f'<tr data-combatant="{esc(name)}"><td>{n}</td><td>{esc(slot.get("phase", ""))}</td>'
                            f'<td>{esc(slot.get("side", ""))}</td><td>{esc(name)}</td>'
                            f'<td>{esc(_mastery_note(info))}</td></tr>')
        listed = {name for slot in r.order for name in slot.get("combatants", ())}
        for name, info in r.combatants.items():
            if name not in listed:  # e.g. held for a trigger that came too early: does not act
                rows.append(f'<tr data-combatant="{esc(name)}" class="rl-not-acting"><td>—</td><td>—</td>'
                            f'<td>{esc(info.get("side", ""))}</td><td>{esc(name)}</td>'
                            f'<td>{esc(_mastery_note(info))}</td></tr>')
        table = ('<table class="rl-table rl-order"><thead><tr><th>#</th><th>Phase</th><th>Side</th><th>Combatant</th>'
                 f'<th>Notes</th></tr></thead><tbody>{"".join(rows)}</tbody></table>')
        head = (f'<div class="rl-outcome" data-first="{esc(r.first)}" data-side-roll="{r.side_roll}">'
                f'Side roll 1d6: <b>{r.side_roll}</b> → <b>{esc(r.first)}</b> act first in each phase.</div>')
        order = ", ".join(name for slot in r.order for name in slot.get("combatants", ())) or "nobody acts"
        self.frame.show_trace(r.trace, header=head + table, status=self.dice.describe(),
                              summary=f"Side roll {r.side_roll}: {r.first} act first in each phase. Order: {order}")

    def _repr_mimebundle_(self, **kwargs):
        return self.frame.mimebundle(**kwargs)


def _mastery_note(info: dict[str, Any]) -> str:
    """Natural vs acting phase and any hold outcome, from ``SequenceResult.combatants[name]``."""
    parts = []
    nat, act = info.get("natural_phase"), info.get("phase") or info.get("acting_phase")
    if nat and act and nat != act:
        parts.append(f"natural phase {nat}, acts in {act}")
    elif nat:
        parts.append(f"natural phase {nat}")
    for key in ("hold", "startle", "note"):
        if info.get(key):
            parts.append(f"{key}: {info[key]}")
    return "; ".join(str(p) for p in parts)


class DarkmasterRoundPanel:
    """Order an Against the Darkmaster round through the Tactical Round Sequence.

    Controls: combatant ``name``, ``cmb``, ``side`` (player / npc), ``caster_level``, ``parry`` (CMB
    held back); the action to declare: ``action``, ``type`` (Full / Half / Free), ``kind`` (move, spell,
    ranged, melee, other), ``length`` (melee weapon length from the db's weapon-length table),
    ``positional`` (Positional Bonus), ``dashing``, ``instant`` (spell). ``roster.add_button`` adds the
    action (creating the combatant the first time the name is used). ``button`` orders the round.
    Declarations the rules refuse are listed with the rule that refuses them (``strict=False``).
    ``rules``: the rules database (a :class:`~ruleslawyer.rulesdb.handle.Rules` handle or a path; default
    database) the engine and the length list read. A bad argument (a roster that is not a list of
    the engine's combatant objects, :meth:`ruleslawyer.rulesets.darkmaster.Combatant.from_dict`; a
    ``rules`` path that is not a rules database) never raises and is never replaced silently: the
    panel shows its message (``frame.error``, :class:`~ruleslawyer.widgets.base.PanelArgs`) and an
    empty roster.

    Attributes:
        roster: ``[{"name", "cmb", "side", "caster_level", "parry", "actions": [...]}]`` (the engine's JSON
            input shape).
        result: the last :class:`~ruleslawyer.rulesets.darkmaster.SequenceResult` (None if none).
    """

    def __init__(self, roster: list[dict] | None = None, *, rules: RulesLike = None) -> None:
        from ruleslawyer.rulesets.darkmaster import ActionKind, ActionType, Side

        args = PanelArgs(rules)
        self.rules = args.rules
        roster = args.items("roster", roster, _darkmaster_entry)
        self.name = widgets.Text("", placeholder="name", description="Combatant", layout=widgets.Layout(width="230px"))
        self.cmb = int_box("CMB", 0, "120px")
        self.side = widgets.Dropdown(options=[s.value for s in Side], value="player", description="Side",
                                     layout=widgets.Layout(width="170px"))
        self.caster_level = int_box("Caster level", 0, "150px")
        self.parry = int_box("Parry (CMB held)", 0, "170px")
        self.action = widgets.Text("", placeholder="e.g. Longsword attack", description="Action",
                                   layout=widgets.Layout(width="280px"))
        self.type = widgets.Dropdown(options=[t.value for t in ActionType], value="Full", description="Type",
                                     layout=widgets.Layout(width="150px"))
        self.kind = widgets.Dropdown(options=[k.value for k in ActionKind], value="melee", description="Kind",
                                     layout=widgets.Layout(width="160px"))
        lengths = args.safely(lambda: _lengths(self.rules), [])
        self.length = widgets.Dropdown(options=[("—", "")] + [(n, n) for n in lengths], value="",
                                       description="Weapon length", layout=widgets.Layout(width="230px"), style=_W)
        self.positional = widgets.Checkbox(False, description="Positional Bonus", indent=False,
                                           layout=widgets.Layout(width="140px"))
        self.dashing = widgets.Checkbox(False, description="Dashing", indent=False, layout=widgets.Layout(width="90px"))
        self.instant = widgets.Checkbox(False, description="Instant spell", indent=False,
                                        layout=widgets.Layout(width="110px"))
        self.roster_controls = _Roster(self.add, "Add action")
        self.roster_controls.remove_button.on_click(lambda _b: self._remove())
        self.roster_controls.clear_button.on_click(lambda _b: self._clear())
        self.button = widgets.Button(description="Order the round (TRS)", button_style="primary",
                                     layout=widgets.Layout(width="220px"))
        self.button.add_class("rl-run")
        self.frame = PanelFrame("Against the Darkmaster: the Tactical Round Sequence", [
            [self.name, self.cmb, self.side, self.caster_level, self.parry],
            [self.action, self.type, self.kind, self.length],
            [self.positional, self.dashing, self.instant, self.roster_controls.add_button,
             self.roster_controls.remove_button, self.roster_controls.clear_button],
            self.roster_controls.view, [self.button]],
            on_rulings_change=self.run, css_class="rl-darkmaster-round-panel", rules=self.rules)
        self.output = self.frame.output
        self.widget = self.frame.widget
        self.roster: list[dict] = roster
        self._added: list[str] = []  # combatant name per added action, to undo
        self.result = None
        self.button.on_click(lambda _b: self.run())
        self._show_roster()
        args.report(self.frame)  # a bad argument: its message, not a round of part of the roster

    def add(self) -> None:
        """Declare the action in the controls for the named combatant (added on first use)."""
        def go() -> None:
            from ruleslawyer.errors import RulesInputError

            name = self.name.value.strip()
            if not name:
                raise RulesInputError("name", "give the combatant a name")
            if not self.action.value.strip():
                raise RulesInputError("action", "name the action, e.g. 'Longsword attack' or 'Move'")
            entry = next((c for c in self.roster if c["name"] == name), None)
            if entry is None:
                entry = {"name": name, "cmb": self.cmb.value, "side": self.side.value,
                         "caster_level": self.caster_level.value, "parry": self.parry.value, "actions": []}
                self.roster.append(entry)
            act: dict[str, Any] = {"name": self.action.value.strip(), "type": self.type.value, "kind": self.kind.value}
            if self.length.value:
                act["weapon_length"] = self.length.value
            if self.positional.value:
                act["positional_bonus"] = True
            if self.dashing.value:
                act["dashing"] = True
            if self.instant.value:
                act["instant"] = True
            entry["actions"].append(act)
            self._added.append(name)
            self.action.value = ""
            self._show_roster()
        self.frame.guard(go)

    def _remove(self) -> None:
        if self._added:
            name = self._added.pop()
            entry = next(c for c in self.roster if c["name"] == name)
            entry["actions"].pop()
            if not entry["actions"]:
                self.roster.remove(entry)
        elif self.roster:
            self.roster.pop()
        self._show_roster()

    def _clear(self) -> None:
        self.roster.clear()
        self._added.clear()
        self._show_roster()

    def _show_roster(self) -> None:
        rows = []
        for c in self.roster:
            acts = "; ".join(f'{a["name"]} ({_action_note(a)})' for a in c.get("actions", []))
            rows.append([c["name"], c.get("side", "player"), str(c.get("cmb", 0)), acts])
        self.roster_controls.view.value = _roster_html(rows, ["Name", "Side", "CMB", "Actions"])

    def run(self) -> None:
        """Order the round for the roster with the rulings chosen."""
        self.frame.guard(self._run)

    def _run(self) -> None:
        from ruleslawyer.rulesets.darkmaster import Combatant, sequence_round
        from ruleslawyer.rulesets.darkmaster.actions import combatant_field

        self.result = None
        combatants = [Combatant.from_dict(c, combatant_field(c.get("name"), i)) for i, c in enumerate(self.roster)]
        r = sequence_round(combatants, rulings=dict(self.frame.rulings.overrides), strict=False, rules=self.rules)
        self.result = r
        rows = []
        for ph in r.phases:
            for p in ph.placements:
                cites = "".join(cite_html(c, rules=self.rules) for c in p.cites)
                rows.append(f'<tr data-phase="{esc(ph.phase)}" data-combatant="{esc(p.combatant)}">'
                            f'<td>{esc(ph.phase)}</td><td>{p.position}</td><td>{esc(p.combatant)}</td>'
                            f'<td>{esc(p.action)}</td><td>{esc(p.reason)}'
                            + (f" (penalty {p.penalty})" if p.penalty else "") + f'</td><td>{cites}</td></tr>')
        table = ('<table class="rl-table rl-order"><thead><tr><th>Phase</th><th>#</th><th>Combatant</th><th>Action</th>'
                 f'<th>Why here</th><th>Rule</th></tr></thead><tbody>{"".join(rows)}</tbody></table>')
        extra = []
        if r.skipped:
            extra.append("Phases with nothing to do: " + ", ".join(str(p) for p in r.skipped))
        if r.readied:
            extra.append("Readied (outside the TRS): " + ", ".join(f"{p.combatant}: {p.action}" for p in r.readied))
        if r.lost:
            extra.append("Lost: " + ", ".join(r.lost))
        notes = "".join(f'<div class="rl-hint">{esc(e)}</div>' for e in extra)
        refused = "".join(f'<div class="rl-error rl-refusal" data-field="{esc(f.field)}"><b class="rl-field">'
                          f'{esc(f.field)}</b>: {esc(f.message)} '
                          f'{cite_html(f.rule_id, rules=self.rules) if f.rule_id else ""}</div>' for f in r.refusals)
        head = (f'<div class="rl-outcome" data-refusals="{len(r.refusals)}">Declaration order: '
                f'{esc(", ".join(r.declaration_order))}</div>')
        order = ", ".join(f"{p.combatant} ({p.action})" for ph in r.phases for p in ph.placements) or "nobody acts"
        refusals = f"; {len(r.refusals)} declaration{'s' if len(r.refusals) != 1 else ''} refused" if r.refusals else ""
        self.frame.show_trace(r.trace, header=head + refused + table + notes, summary=f"Order: {order}{refusals}")

    def _repr_mimebundle_(self, **kwargs):
        return self.frame.mimebundle(**kwargs)


def _action_note(a: dict[str, Any]) -> str:
    """What the roster shows of an action in the engine's JSON shape (absent keys: the engine's defaults)."""
    parts = [a.get("type") or "type by kind", a.get("kind", "other"), a.get("weapon"), a.get("weapon_length"),
             "Positional Bonus" if a.get("positional_bonus") else None, "Dashing" if a.get("dashing") else None,
             "Instant" if a.get("instant") else None]
    return ", ".join(p for p in parts if p)


def _mastery_combatant(names: set):
    """A reader of one ``combatants`` item for :meth:`PanelArgs.items`: a ``RoundCombatant`` whose
    name no earlier item has."""
    def read(item, field: str):
        from ruleslawyer.errors import RulesInputError
        from ruleslawyer.rulesets.mastery import RoundCombatant

        if not isinstance(item, RoundCombatant):
            raise RulesInputError(field, f"must be a RoundCombatant (ruleslawyer.rulesets.mastery), got "
                                         f"{type(item).__name__} {item!r:.80}")
        if item.name in names:
            raise RulesInputError(field, f"{item.name!r} is already in the round; names must be unique")
        names.add(item.name)
        return item
    return read


def _darkmaster_entry(item, field: str) -> dict:
    """One ``roster`` item as the panel keeps it (a copy, its actions a list), read by
    ``Combatant.from_dict`` first so a bad one is named (``roster[0].cmb: ...``)."""
    from ruleslawyer.errors import RulesInputError
    from ruleslawyer.rulesets.darkmaster import Combatant

    if not isinstance(item, dict):
        raise RulesInputError(field, f"must be an object (a dict) with name, cmb, side and actions, got "
                                     f"{type(item).__name__} {item!r:.80}")
    Combatant.from_dict(item, field)
    return dict(item, actions=list(item.get("actions", [])))


def _lengths(rules: Rules) -> list[str]:
    """Melee weapon lengths, shortest first, from the weapon-length table of ``rules``."""
    from ruleslawyer.rulesets.darkmaster import _tables

    return [row.name for row in _tables.lengths(rules)]
