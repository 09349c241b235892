"""The Mastery exchange panel: attacker and defender, the situation, seeded or scripted dice, then the
step-by-step trace of :func:`ruleslawyer.rulesets.mastery.resolve_exchange`."""

from __future__ import annotations

import ipywidgets as widgets

from ruleslawyer.rulesdb.handle import RulesLike

from .base import DiceControls, PanelArgs, PanelFrame, esc, int_box

__all__ = ["MasteryExchangePanel"]

_W = {"description_width": "initial"}


class MasteryExchangePanel:
    """Resolve one Mastery exchange.

    Controls (all plain widgets, read by ``run()``):

    * attacker: ``a_name``, ``a_ap`` (0–2), ``a_kind`` (melee, thrown, bow, ...), ``a_tier``,
      ``a_weapon`` (WEA: a number or dice such as ``1d4``), ``a_mods``, ``a_damage_type``,
      ``a_perception`` (Perception tier, for the Aiming Trial of a ranged attack);
    * defender: ``d_name``, ``d_ap``, ``d_health``, ``d_durability``, ``d_resistance`` (Armor
      Resistance, the chapter's spelling), ``d_endurance`` (tier), ``d_defense_tier``, ``d_shield`` (bonus; blank = no shield),
      ``d_wielding``;
    * situation: ``defend``, ``range``, ``flanking``, ``elevation``, ``cover`` (extra Aiming DC),
      ``allies`` (the attacker's allies adjacent to the target), ``setting`` (trauma setting);
    * ``dice``: a :class:`~ruleslawyer.widgets.base.DiceControls` (seed, or scripted slots ``attack``,
      ``defense``, ``aim``, ``endurance``, ``trauma``, ``finger``); ``button`` resolves with a fresh
      seed (seeded mode; shown, so ``dice.replay_button`` repeats it).

    Rulings used by the trace get dropdowns; changing one reruns with ``rulings={id: answer}``.
    ``rules``: the rules database (a :class:`~ruleslawyer.rulesdb.handle.Rules` handle or a path; default
    database) the engine reads.

    A bad argument (a seed the seed box cannot hold, a script :func:`~ruleslawyer.widgets.base.parse_script`
    cannot read, a ``rules`` path that is not a rules database) never raises and is never replaced
    silently: the panel shows its message (``frame.error``,
    :class:`~ruleslawyer.widgets.base.PanelArgs`).

    Attributes:
        result: the last :class:`~ruleslawyer.rulesets.mastery.ExchangeResult` (None if none).
    """

    def __init__(self, *, script: str = "", seed: int = 7, rules: RulesLike = None) -> None:
        from ruleslawyer.rulesets.mastery import AttackKind, DamageType, Elevation, Range, TraumaSetting, Wielding

        args = PanelArgs(rules)
        self.rules = args.rules
        seed, script = args.seed(seed), args.script(script)
        self.a_name = widgets.Text("Aldric", description="Attacker", layout=widgets.Layout(width="220px"))
        self.a_ap = int_box("AP", 2, "90px")
        self.a_kind = widgets.Dropdown(options=[k.value for k in AttackKind], value="melee", description="Attack",
                                       layout=widgets.Layout(width="190px"))
        self.a_tier = int_box("Tier", 3, "100px")
        self.a_weapon = widgets.Text("2", description="WEA", layout=widgets.Layout(width="130px"), style=_W)
        self.a_mods = int_box("Modifiers", 0, "140px")
        self.a_perception = int_box("Perception tier (aiming)", 1, "210px")
        self.a_damage_type = widgets.Dropdown(options=[t.value for t in DamageType], value="cutting",
                                              description="Damage type", layout=widgets.Layout(width="230px"), style=_W)
        self.d_name = widgets.Text("Brute", description="Defender", layout=widgets.Layout(width="220px"))
        self.d_ap = int_box("AP", 2, "90px")
        self.d_health = int_box("Health", 6, "120px")
        self.d_durability = int_box("Durability", 3, "140px")
        self.d_resistance = int_box("Armor Resistance", 2, "190px")  # the chapter's spelling
        self.d_endurance = int_box("Endurance tier", 1, "160px")
        self.d_defense_tier = int_box("Defense tier", 1, "150px")
        self.d_shield = widgets.Text("", placeholder="none", description="Shield bonus",
                                     layout=widgets.Layout(width="170px"), style=_W)
        self.d_wielding = widgets.Dropdown(options=[w.value for w in Wielding], value="melee", description="Wielding",
                                           layout=widgets.Layout(width="200px"), style=_W)
        self.defend = widgets.Checkbox(value=False, description="Defender defends (1 AP)", indent=False,
                                       layout=widgets.Layout(width="200px"))
        self.range = widgets.Dropdown(options=[r.value for r in Range], value="melee", description="Range",
                                      layout=widgets.Layout(width="170px"))
        self.flanking = widgets.Checkbox(value=False, description="Flanking", indent=False,
                                         layout=widgets.Layout(width="100px"))
        self.elevation = widgets.Dropdown(options=[e.value for e in Elevation], value="none",
                                          description="Higher ground", layout=widgets.Layout(width="220px"), style=_W)
        self.cover = int_box("Cover DC", 0, "120px")
        self.allies = int_box("Allies next to target", 0, "190px")
        self.setting = widgets.Dropdown(options=[s.value for s in TraumaSetting], value="realistic",
                                        description="Trauma setting", layout=widgets.Layout(width="230px"), style=_W)
        self.dice = DiceControls(seed=seed, script=script, on_new_seed=self.run,
                                 slots_hint="attack: 4 4 1; defense: 2; endurance: 2")
        self.button = widgets.Button(description="Resolve exchange", button_style="primary")
        self.button.add_class("rl-run")
        self.frame = PanelFrame("Mastery: one exchange", [
            [self.a_name, self.a_ap, self.a_kind, self.a_tier, self.a_weapon, self.a_mods, self.a_damage_type,
             self.a_perception],
            [self.d_name, self.d_ap, self.d_health, self.d_durability, self.d_resistance],
            [self.d_endurance, self.d_defense_tier, self.d_shield, self.d_wielding],
            [self.defend, self.range, self.flanking, self.elevation, self.cover, self.allies,
             self.setting],
            self.dice.row, [self.button]], on_rulings_change=self.run, css_class="rl-mastery-exchange-panel",
            rules=self.rules)
        self.output = self.frame.output
        self.widget = self.frame.widget
        self.result = None
        self.button.on_click(lambda _b: self.dice.roll())
        args.report(self.frame)  # a bad argument: its message in place of a first result

    def load(self, *, attacker: dict | None = None, defender: dict | None = None, situation: dict | None = None,
             script: str | None = None, seed: int | None = None) -> None:
        """Fill the controls from plain values (e.g. a worked example), without running.

        Keys are the control names without their prefix: ``attacker={"tier": 3, "weapon": "2"}``,
        ``defender={"health": 6, "resistance": 2}``, ``situation={"defend": False}``.
        """
        for prefix, values in (("a_", attacker), ("d_", defender), ("", situation)):
            for key, value in (values or {}).items():
                getattr(self, prefix + key).value = value
        if script is not None:
            self.dice.script.value = script
            self.dice.mode.value = "Scripted dice" if script else "Seeded dice"
        if seed is not None:
            self.dice.seed.value = seed

    def _inputs(self):
        from ruleslawyer.errors import RulesInputError
        from ruleslawyer.rulesets.mastery import Attack, Combatant, Situation

        weapon_text = self.a_weapon.value.strip() or "0"
        weapon: int | str = int(weapon_text) if weapon_text.isdigit() else weapon_text
        shield_text = self.d_shield.value.strip()
        if shield_text and not shield_text.isdigit():
            raise RulesInputError("defender.shield", f"a whole number >= 0, or blank for no shield; got {shield_text!r}")
        attack = Attack(self.a_kind.value, tier=self.a_tier.value, weapon=weapon, modifiers=self.a_mods.value,
                        damage_type=self.a_damage_type.value)
        attacker = Combatant(self.a_name.value or "attacker", ap=self.a_ap.value, attack=attack,
                             perception_tier=self.a_perception.value)
        defender = Combatant(self.d_name.value or "defender", ap=self.d_ap.value, health=self.d_health.value,
                             durability=self.d_durability.value, armour_resistance=self.d_resistance.value,
                             endurance_tier=self.d_endurance.value, defense_tier=self.d_defense_tier.value,
                             shield=int(shield_text) if shield_text else None, wielding=self.d_wielding.value)
        situation = Situation(defend=self.defend.value, range=self.range.value, flanking=self.flanking.value,
                              elevation=self.elevation.value, cover=self.cover.value,
                              allies_adjacent_to_target=self.allies.value, setting=self.setting.value)
        return attacker, defender, situation

    def run(self) -> None:
        """Resolve the exchange with the controls' values, the dice and the rulings chosen."""
        self.frame.guard(self._run)

    def _run(self) -> None:
        from ruleslawyer.rulesets.mastery import resolve_exchange

        self.result = None
        attacker, defender, situation = self._inputs()
        r = resolve_exchange(attacker, defender, situation, rulings=dict(self.frame.rulings.overrides),
                             rules=self.rules, **self.dice.kwargs())
        self.result = r
        totals = []
        if r.aim_total is not None:
            totals.append(f"Aiming Trial {r.aim_total}")
        if r.attack_total is not None:
            totals.append(f"attack {r.attack_total}")
        if r.defense_total is not None:
            totals.append(f"defense {r.defense_total}")
        if r.outcome == "hit":
            totals.append(f"{r.to_durability} to durability, {r.to_health} to health")
        # the result line says what happened; the banner only the defender's state after it (said once)
        head = (f'<div class="rl-outcome" data-outcome="{esc(r.outcome)}" data-attack="{esc(r.attack_total)}">'
                f'{esc(r.defender.name)}: health {r.defender.health}, {esc(r.defender.state.value)}.</div>')
        summary = (f"Hit: {r.to_durability + r.to_health} damage ({'; '.join(totals[:-1] or ['no roll'])}"
                   + (f", {r.absorbed} absorbed by armor" if r.absorbed else "")
                   + f"): {r.to_durability} to durability, {r.to_health} to health" if r.outcome == "hit"
                   else f"{r.trace.label} ({'; '.join(totals)})")
        self.frame.show_trace(r.trace, header=head, status=self.dice.describe(), summary=summary)

    def _repr_mimebundle_(self, **kwargs):
        return self.frame.mimebundle(**kwargs)
