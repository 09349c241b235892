"""The Mythras exchange panel: attack and defence rolls, the differential, then the winner chooses
Special Effects before damage is rolled (:func:`ruleslawyer.rulesets.mythras.resolve_exchange`)."""

from __future__ import annotations

import ipywidgets as widgets

from .base import DiceControls, PanelArgs, PanelFrame, esc, explain_html, int_box, slot_dice

__all__ = ["MythrasExchangePanel"]

_W = {"description_width": "initial"}
_AGAIN = "\x00again"  # option value suffix: a stackable Special Effect taken a second time
#: Dice slots rolled up to the differential: kept from step one for step two.
DIFFERENTIAL_SLOTS = ("attack", "parry", "evade")


def _until_differential(step):
    """The trace cut after its differential step (the first ``compare`` child), or None if it has none.

    Presentation only: the winner chooses Special Effects there, before damage is shown. The root
    keeps its label, citations and rulings but not its value or detail, which name the damage and
    the hit location (they depend on the choice still to come).
    """
    from ruleslawyer.trace import Step, StepKind

    kids = list(step.children)
    for i, child in enumerate(kids):
        if child.kind is StepKind.COMPARE:
            return Step.of(step.kind, step.label, None, cites=step.cites, rulings=step.rulings,
                           children=kids[: i + 1])
    return None


class MythrasExchangePanel:
    """Resolve one Mythras attack–parry exchange in two steps, as at the table.

    1. ``button`` (Roll attack and defence): the rolls and the differential are shown; when a side
       wins Special Effects, ``effects`` lists the ones that side may take (``result.eligible``) and
       ``apply_button`` is offered. With no effects to choose the whole exchange is shown at once.
    2. ``apply_button`` (Apply effects, roll damage): the exchange again with the chosen Special
       Effects, the inputs of step one and its attack and defence dice kept (scripted from step one's
       faces), so the differential is unchanged; damage and location follow the choice. Unscripted
       dice come from :func:`~ruleslawyer.widgets.base.slot_dice` (one stream per slot), so Choose
       Location, which skips the location roll, never shifts the damage dice. Nothing that depends on
       the choice (damage, location) shows before it. Editing the seed, the script or the dice mode
       between the steps cancels the pending choice, with a message.

    ``button`` rolls with a fresh seed (seeded mode; shown, so ``dice.replay_button`` repeats it).

    Controls: attacker ``a_name``, ``a_skill`` (Combat Style %), ``a_weapon``, ``a_damage`` (dice),
    ``a_size``, ``a_trait``, ``a_grade``, ``a_str_siz``; defender ``d_name``, ``d_skill``, ``d_defence``
    (parry, evade, none), ``d_weapon``, ``d_damage``, ``d_size``, ``d_grade``, ``d_ap``, ``d_armour``
    (Armor Points on every location); ``location`` (for Choose Location); ``dice``.

    ``rules`` is the rules database whose tables the panel and the engine read (default: the default
    database). A bad argument (a seed the seed box cannot hold, a script
    :func:`~ruleslawyer.widgets.base.parse_script` cannot read, a ``rules`` path that is not a rules
    database) never raises and is never replaced silently: the panel shows its message
    (``frame.error``, :class:`~ruleslawyer.widgets.base.PanelArgs`).

    Attributes:
        result: the last :class:`~ruleslawyer.rulesets.mythras.ExchangeResult` (None if none).
        stage: ``"differential"`` while effects are being chosen, ``"done"`` after, or ``""``.
    """

    def __init__(self, *, script: str = "", seed: int = 7, rules=None) -> None:
        from ruleslawyer.rulesets.mythras import DifficultyGrade
        from ruleslawyer.rulesets.mythras.damage import location_names, size_names
        from ruleslawyer.rulesets.mythras.exchange import Defence

        args = PanelArgs(rules)
        self.rules = args.rules
        seed, script = args.seed(seed), args.script(script)
        sizes = args.safely(lambda: list(size_names(self.rules)), ["Small", "Medium"])
        locations = args.safely(lambda: list(location_names(self.rules)), ["Head"])
        grades = [g.value for g in DifficultyGrade]
        self.a_name = widgets.Text("Ana", description="Attacker", layout=widgets.Layout(width="200px"))
        self.a_skill = int_box("Combat Style %", 70, "170px")
        self.a_weapon = widgets.Text("Broadsword", description="Weapon", layout=widgets.Layout(width="200px"))
        self.a_damage = widgets.Text("1d8", description="Damage", layout=widgets.Layout(width="150px"))
        self.a_size = widgets.Dropdown(options=sizes, value="Medium", description="Size",
                                       layout=widgets.Layout(width="170px"))
        self.a_trait = widgets.Dropdown(options=["cutting", "impaling", "bludgeoning"], value="cutting",
                                        description="Trait", layout=widgets.Layout(width="180px"))
        self.a_grade = widgets.Dropdown(options=grades, value="Standard", description="Grade",
                                        layout=widgets.Layout(width="180px"))
        self.a_str_siz = int_box("STR+SIZ", 27, "130px")
        self.d_name = widgets.Text("Bors", description="Defender", layout=widgets.Layout(width="200px"))
        self.d_skill = int_box("Skill %", 50, "130px")
        self.d_defence = widgets.Dropdown(options=[d.value for d in Defence], value="parry", description="Defence",
                                          layout=widgets.Layout(width="180px"))
        self.d_weapon = widgets.Text("Dagger", description="Parrying with", layout=widgets.Layout(width="230px"),
                                     style=_W)
        self.d_damage = widgets.Text("1d4+1", description="Damage", layout=widgets.Layout(width="150px"))
        self.d_size = widgets.Dropdown(options=sizes, value="Small", description="Size",
                                       layout=widgets.Layout(width="170px"))
        self.d_grade = widgets.Dropdown(options=grades, value="Standard", description="Grade",
                                        layout=widgets.Layout(width="180px"))
        self.d_ap = int_box("AP", 2, "90px")
        self.d_armour = int_box("Armor Points (all locations)", 2, "250px")
        self.d_armour.add_class("rl-armour")
        self.location = widgets.Dropdown(options=locations, value="Head",
                                         description="Choose Location", layout=widgets.Layout(width="260px"),
                                         style=_W)
        self.location.add_class("rl-location")
        self.dice = DiceControls(seed=seed, script=script, on_new_seed=self.run,
                                 slots_hint="attack: 5; parry: 80; damage: 6; damage_modifier: 2; location: 11")
        self.button = widgets.Button(description="Roll attack and defence", button_style="primary",
                                     layout=widgets.Layout(width="220px"))
        self.button.add_class("rl-run")
        self.effects = widgets.SelectMultiple(options=[], description="Special Effects", rows=7,
                                              layout=widgets.Layout(width="420px", display="none"), style=_W)
        self.effects.add_class("rl-effects")
        self.apply_button = widgets.Button(description="Apply effects, roll damage", button_style="warning",
                                           layout=widgets.Layout(width="240px", display="none"))
        self.apply_button.add_class("rl-apply")
        self.frame = PanelFrame("Mythras: the attack–parry exchange", [
            [self.a_name, self.a_skill, self.a_grade, self.a_str_siz],
            [self.a_weapon, self.a_damage, self.a_size, self.a_trait],
            [self.d_name, self.d_skill, self.d_defence, self.d_grade, self.d_ap],
            [self.d_weapon, self.d_damage, self.d_size, self.d_armour],
            self.dice.row, [self.button], [self.effects, widgets.VBox([self.location, self.apply_button])]],
            on_rulings_change=self._rerun, css_class="rl-mythras-exchange-panel", rules=self.rules)
        self.output = self.frame.output
        self.widget = self.frame.widget
        self.result = None
        self.stage = ""
        self._chosen: tuple[str, ...] = ()
        self._pending: dict | None = None  # step one: its inputs, seed, script and the faces kept
        self.button.on_click(lambda _b: self.dice.roll())
        self.apply_button.on_click(lambda _b: self.apply())
        for control, what in ((self.dice.seed, "seed"), (self.dice.script, "dice script"), (self.dice.mode, "dice mode")):
            control.observe(lambda _c, what=what: self._dice_changed(what), names="value")
        args.report(self.frame)  # a bad argument: its message in place of a first result

    def load(self, *, attacker: dict | None = None, defender: dict | None = None, script: str | None = None,
             seed: int | None = None) -> None:
        """Fill controls from plain values (names without the ``a_``/``d_`` prefix), without running."""
        for prefix, values in (("a_", attacker), ("d_", defender)):
            for key, value in (values or {}).items():
                getattr(self, prefix + key).value = value
        if script is not None:
            self.dice.script.value = script
            self.dice.mode.value = "Scripted dice" if script else "Seeded dice"
        if seed is not None:
            self.dice.seed.value = seed

    def _input(self):
        """The exchange input from the controls, without Special Effects."""
        from ruleslawyer.rulesets.mythras import Attacker, Defender, ExchangeInput, Weapon
        from ruleslawyer.rulesets.mythras.damage import location_names

        a_weapon = Weapon(self.a_weapon.value or "weapon", self.a_damage.value, self.a_size.value,
                          frozenset({self.a_trait.value}))
        attacker = Attacker(self.a_name.value or "Attacker", skill=self.a_skill.value, weapon=a_weapon,
                            difficulty=self.a_grade.value, str_siz=self.a_str_siz.value)
        d_weapon = (Weapon(self.d_weapon.value or "weapon", self.d_damage.value, self.d_size.value)
                    if self.d_weapon.value.strip() else None)
        armour = tuple((loc, self.d_armour.value) for loc in location_names(self.rules)) if self.d_armour.value else ()
        defender = Defender(self.d_name.value or "Defender", skill=self.d_skill.value, defence=self.d_defence.value,
                            weapon=d_weapon, difficulty=self.d_grade.value, action_points=self.d_ap.value,
                            armour=armour)
        return ExchangeInput(attacker, defender)

    def _with_effects(self, inp, winner: str, effects: tuple[str, ...]):
        """Step one's input with the winner's chosen Special Effects (and the location named)."""
        from dataclasses import replace

        if winner == "attacker":
            located = self.location.value if "Choose Location" in effects else None
            return replace(inp, attacker=replace(inp.attacker, effects=effects, chosen_location=located))
        return replace(inp, defender=replace(inp.defender, effects=effects))

    def _resolve(self, inp, script: dict | None, seed: int):
        from ruleslawyer.rulesets.mythras import resolve_exchange

        dice = slot_dice(seed, script)
        return resolve_exchange(inp, dice=dice, rulings=dict(self.frame.rulings.overrides), rules=self.rules), dice

    def run(self) -> None:
        """Step one: roll attack and defence; stop at the differential when the winner has Special
        Effects to choose (keeping the inputs and the dice for step two)."""
        self._chosen = ()
        self.frame.guard(self._run_differential)

    def _run_differential(self) -> None:
        self.result, self.stage, self._pending = None, "", None
        self._hide_choice()
        kw = self.dice.kwargs()
        inp = self._input()
        r, dice = self._resolve(inp, kw["script"], kw["seed"])
        self.result = r
        kept = {slot: [d.face for d in dice.history if d.slot == slot] for slot in DIFFERENTIAL_SLOTS}
        self._pending = {"input": inp, "seed": kw["seed"], "script": {**(kw["script"] or {}),
                                                                        **{k: v for k, v in kept.items() if v}}}
        cut = _until_differential(r.trace)
        if r.winner and r.effects_won and r.eligible.get(r.winner) and cut is not None:
            self._offer_choice(r, cut)
            return
        self._show_done(r)

    def _offer_choice(self, r, cut) -> None:
        from ruleslawyer.rulesets.mythras.special_effects import stackable_effects

        self.stage = "differential"
        options = [(name, name) for name in r.eligible[r.winner]]
        if r.effects_won > 1:  # a stackable Effect may be taken again
            options += [(f"{name} (again)", name + _AGAIN) for name in r.eligible[r.winner]
                        if name in stackable_effects(self.rules)]
        self.effects.options = options
        self.effects.value = ()
        self.effects.description = f"{r.winner.capitalize()}: {r.effects_won} to pick"
        self.effects.layout.display = None
        self.apply_button.layout.display = None
        who = self.a_name.value if r.winner == "attacker" else self.d_name.value
        n = f"{r.effects_won} Special Effect{'s' if r.effects_won != 1 else ''}"
        head = (f'<div class="rl-outcome" data-stage="differential" data-winner="{esc(r.winner)}" '
                f'data-effects-won="{r.effects_won}">Pick {"them" if r.effects_won != 1 else "it"} in the list below '
                f'(and the location, for Choose Location), then click Apply.</div>')
        self.frame.rulings.show(cut.ruling_uses())
        self.frame.show(head + explain_html(cut, rules=self.rules), status=self.dice.describe(),
                        summary=f"{who} ({r.winner}) wins {n} ({r.attack_level} vs {r.defence_level}): "
                                f"choose, then apply to roll damage")

    def _dice_changed(self, what: str) -> None:
        """The seed, script or dice mode changed: a pending choice would be rolled on other dice, so
        it is cancelled, with a message."""
        if self.stage != "differential":
            return
        self.stage, self._pending, self._chosen = "", None, ()
        self._hide_choice()
        self.frame.show(f'<div class="rl-hint">The {esc(what)} changed after the roll, so the pending choice of '
                        f'Special Effects is cancelled: roll attack and defence again.</div>',
                        summary=f"Choice cancelled: the {what} changed")

    def apply(self) -> None:
        """Step two: the exchange again with step one's inputs and attack and defence dice, now with
        the chosen Special Effects; show the whole exchange."""
        self._chosen = tuple(v.removesuffix(_AGAIN) for v in self.effects.value)
        self.frame.guard(self._apply)

    def _apply(self) -> None:
        from ruleslawyer.errors import RulesInputError

        if self._pending is None or self.result is None:
            raise RulesInputError("effects", "no choice is pending: roll attack and defence first")
        won = self.result.effects_won
        if len(self._chosen) > won:
            raise RulesInputError("effects", f"the winner has {won} Special Effect{'s' if won != 1 else ''} to "
                                             f"choose; {len(self._chosen)} are selected")
        p = self._pending
        inp = self._with_effects(p["input"], self.result.winner, self._chosen) if self._chosen else p["input"]
        r, _dice = self._resolve(inp, p["script"], p["seed"])
        self.result = r
        self._hide_choice()
        self._show_done(r)

    def _rerun(self) -> None:
        """A ruling changed: redo the current stage with the same dice."""
        if self.stage == "done" and self._pending is not None and self._chosen:
            self.frame.guard(self._apply)
        else:
            self.run()

    def _hide_choice(self) -> None:
        self.effects.layout.display = "none"
        self.apply_button.layout.display = "none"

    def _show_done(self, r) -> None:
        self.stage = "done"
        chosen = ", ".join(r.attacker_effects or r.defender_effects) or "none"
        hit = (f"{r.damage} damage to the {r.location}" if r.location else "no damage")
        head = (f'<div class="rl-outcome" data-stage="done" data-winner="{esc(r.winner or "")}" '
                f'data-damage="{r.damage}" data-location="{esc(r.location or "")}">'
                f'<b>{esc(r.trace.label)}</b>: winner {esc(r.winner or "none")}.</div>')
        arithmetic = ""
        if r.location and r.damage_rolled is not None:
            past = r.damage_after_parry if r.damage_after_parry is not None else r.damage_rolled
            arithmetic = f" ({r.damage_rolled} rolled" + (f", {past} past the parry" if past != r.damage_rolled
                                                           else "") + f" − {r.armour or 0} armour)"
        summary = (f"{'Hit' if r.location else 'No damage'}: {hit}{arithmetic}; {r.attack_level} vs "
                   f"{r.defence_level}, Special Effects: {chosen}")
        self.frame.show_trace(r.trace, header=head, status=self.dice.describe(), summary=summary)

    def _repr_mimebundle_(self, **kwargs):
        return self.frame.mimebundle(**kwargs)
