"""The odds panel: the exact odds of an input (:mod:`ruleslawyer.odds`: a Mastery exchange or trial, a
Mythras exchange, the Mastery Trauma table) with their cited trace, and on request a plot from
:mod:`ruleslawyer.odds.plots`."""

from __future__ import annotations

import base64
import io
from fractions import Fraction

import ipywidgets as widgets

from .base import PanelArgs, PanelFrame, esc, int_box

__all__ = ["OddsPanel", "MODES", "MODE_RULESET", "figure_html", "pct"]

#: What the panel computes: (label, mode id).
MODES = (("Mastery: one exchange", "mastery-exchange"), ("Mastery: a trial (tier die vs DC)", "mastery-trial"),
         ("Mythras: one exchange", "mythras-exchange"), ("Mastery: the Trauma table", "trauma"))

#: The ruleset whose engine each mode enumerates (its rulings, and the kit's, apply to it).
MODE_RULESET = {"mastery-exchange": "mastery", "mastery-trial": "mastery", "mythras-exchange": "mythras",
                "trauma": "mastery"}


def pct(p: Fraction | float) -> str:
    """A probability as a percentage with three significant figures: ``Fraction(1, 3)`` -> ``"33.3%"``."""
    return f"{float(p) * 100:.3g}%"


def figure_html(fig, alt: str) -> str:
    """A matplotlib Figure as an inline PNG ``<img class="rl-plot">`` (``alt`` escaped)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=72)
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    return f'<img class="rl-plot" alt="{esc(alt)}" src="data:image/png;base64,{data}">'


def _rows(pairs: list[tuple[str, str]]) -> str:
    body = "".join(f"<tr><td>{esc(k)}</td><td>{esc(v)}</td></tr>" for k, v in pairs)
    return f'<table class="rl-table rl-odds-table"><tbody>{body}</tbody></table>'


class OddsPanel:
    """Exact odds of an input, computed through the engines themselves.

    Controls: ``mode`` (one of :data:`MODES`); Mastery exchange: ``a_tier``, ``a_weapon`` (WEA),
    ``d_tier`` (defense tier), ``d_resistance`` (armour resistance), ``d_health``, ``defend``;
    Mastery trial: ``tier``, ``dc``; Mythras exchange: ``a_skill`` (Combat Style %), ``a_damage``,
    ``a_str_siz``, ``d_skill``, ``d_defence``. ``button`` computes the odds (the result line gives
    the headline probabilities, a table the rest, the trace cites the rules); ``plot_button`` adds
    the matching plot of :mod:`ruleslawyer.odds.plots` (a second or so). The rulings switch lists the
    rulings the odds used; choosing another answer recomputes the odds (and the plot) with it, as
    ``rulings={id: answer}`` to the odds function (only the rulings of the mode's ruleset and the kit's:
    an answer chosen for a Mastery mode stays chosen but is not sent to the Mythras odds).

    Args:
        mode: initial mode id (one of :data:`MODES`).
        rules: the rules handle the engines read (None: the default database).

    A bad argument (an unknown mode, a ``rules`` path that is not a rules database) never raises
    and never falls back silently: the panel shows the message (``frame.error``) instead of odds
    (:class:`~ruleslawyer.widgets.base.PanelArgs`).

    Attributes:
        result: the last odds result (``MasteryExchangeOdds``, ``TrialOdds``, ``MythrasExchangeOdds`` or
            ``TraumaOdds``), None if none.
        plotted: True when the output holds a plot.
    """

    def __init__(self, mode: str = "mastery-exchange", *, rules=None) -> None:
        args = PanelArgs(rules)
        self.rules = args.rules
        self.mode = widgets.Dropdown(options=list(MODES), value=args.choice("mode", mode, [m for _l, m in MODES],
                                                                            MODES[0][1]),
                                     description="Odds of", layout=widgets.Layout(width="360px"))
        self.a_tier, self.a_weapon = int_box("Attack tier", 3, "140px"), widgets.Text(
            "2", description="WEA", layout=widgets.Layout(width="130px"))
        self.d_tier, self.d_resistance = int_box("Defense tier", 1, "150px"), int_box("Armor Resistance", 2, "190px")
        self.d_health = int_box("Health", 6, "120px")
        self.defend = widgets.Checkbox(True, description="Defender defends", indent=False,
                                       layout=widgets.Layout(width="160px"))
        self.tier, self.dc = int_box("Tier", 2, "100px"), int_box("DC", 3, "100px")
        self.a_skill, self.d_skill = int_box("Combat Style %", 70, "170px"), int_box("Defender skill %", 50, "170px")
        self.a_damage = widgets.Text("1d8", description="Damage", layout=widgets.Layout(width="150px"))
        self.a_str_siz = int_box("STR+SIZ", 27, "130px")
        self.d_defence = widgets.Dropdown(options=["parry", "evade", "none"], value="parry", description="Defence",
                                          layout=widgets.Layout(width="180px"))
        self._rows = {"mastery-exchange": widgets.HBox([self.a_tier, self.a_weapon, self.d_tier, self.d_resistance,
                                                        self.d_health, self.defend]),
                      "mastery-trial": widgets.HBox([self.tier, self.dc]),
                      "mythras-exchange": widgets.HBox([self.a_skill, self.a_damage, self.a_str_siz, self.d_skill,
                                                        self.d_defence]),
                      "trauma": widgets.HBox([])}
        self.button = widgets.Button(description="Compute odds", button_style="primary")
        self.button.add_class("rl-run")
        self.plot_button = widgets.Button(description="Plot", icon="line-chart",
                                          tooltip="Add the plot of ruleslawyer.odds.plots for this input")
        self.plot_button.add_class("rl-plot-button")
        self.frame = PanelFrame("Odds: exact, from the engines", [[self.mode], *self._rows.values(),
                                                                  [self.button, self.plot_button]],
                                on_rulings_change=lambda: self.run(plot=self.plotted),
                                css_class="rl-odds-panel", rules=self.rules)
        self.output, self.widget = self.frame.output, self.frame.widget
        self.result, self.plotted = None, False
        self.button.on_click(lambda _b: self.run())
        self.plot_button.on_click(lambda _b: self.run(plot=True))
        self.mode.observe(lambda _c: self._sync(), names="value")
        self._sync()
        if not args.report(self.frame):  # a bad argument: its message, not another mode's odds
            self.run()

    def _sync(self) -> None:
        for mode, row in self._rows.items():
            row.layout.display = None if mode == self.mode.value else "none"
        self.plot_button.disabled = self.mode.value == "mastery-trial"  # no plot of a single trial

    def run(self, plot: bool = False) -> None:
        """Compute the odds of the input on show (and the plot when ``plot``)."""
        self.frame.guard(lambda: self._run(plot))

    def overrides(self) -> dict[str, str]:
        """The ruling answers chosen in the rulings switch that apply to the mode on show: the mode's
        ruleset's (:data:`MODE_RULESET`) and the kit's (``kit.explosion-cap``), id -> answer."""
        from ruleslawyer.trace import get_ruling

        ruleset = MODE_RULESET[self.mode.value]
        return {rid: answer for rid, answer in self.frame.rulings.overrides.items()
                if get_ruling(rid).ruleset in (ruleset, "kit")}

    def _run(self, plot: bool) -> None:
        self.result, self.plotted = None, False
        compute = {"mastery-exchange": self._mastery_exchange, "mastery-trial": self._trial,
                   "mythras-exchange": self._mythras_exchange, "trauma": self._trauma}[self.mode.value]
        result, summary, table, figure = compute(plot)
        self.result = result
        shown = figure_html(figure, summary) if figure is not None else ""
        self.plotted = bool(shown)
        self.frame.show_trace(result.trace, header=table + shown, summary=summary)

    def _mastery_exchange(self, plot: bool):
        from ruleslawyer.odds.mastery import mastery_exchange_odds

        weapon = self.a_weapon.value.strip() or "0"
        attack = {"tier": self.a_tier.value, "weapon": int(weapon) if weapon.isdigit() else weapon}
        defender = {"defense_tier": self.d_tier.value, "armour_resistance": self.d_resistance.value,
                    "health": self.d_health.value}
        r = mastery_exchange_odds({"attacker": {"attack": attack}, "defender": defender,
                                   "situation": {"defend": self.defend.value}}, rulings=self.overrides(),
                                  rules=self.rules)
        zero = "" if r.p_zero_health is None else f", P(0 health) {pct(r.p_zero_health)}"
        summary = f"P(hit) {pct(r.p_hit)}, P(defense holds) {pct(r.p_defense_holds)}{zero}"
        table = _rows([("P(hit)", pct(r.p_hit)), ("P(defense holds)", pct(r.p_defense_holds)),
                       ("mean damage to health", f"{float(r.to_health.mean()):.3g}"),
                       *[(f"outcome: {k}", pct(p)) for k, p in r.outcomes.items()]])
        fig = _plots().defense_holds_figure(attack=attack, defender={"health": self.d_health.value},
                                            rulings=self.overrides(), rules=self.rules) if plot else None
        return r, summary, table, fig

    def _trial(self, plot: bool):
        from ruleslawyer.odds.mastery import trial_odds

        r = trial_odds(self.tier.value, self.dc.value, rulings=self.overrides(), rules=self.rules)
        summary = f"Tier {r.tier} vs DC {r.dc}: P(success) {pct(r.p_success)} ({r.p_success})"
        table = _rows([(f"total {k}", pct(p)) for k, p in r.totals.items()])
        return r, summary, table, None

    def _mythras_exchange(self, plot: bool):
        from ruleslawyer.odds.mythras import mythras_exchange_odds

        data = {"attacker": {"skill": self.a_skill.value, "str_siz": self.a_str_siz.value,
                             "weapon": {"damage": self.a_damage.value, "size": "Medium"}},
                "defender": {"skill": self.d_skill.value, "defence": self.d_defence.value,
                             "weapon": {"size": "Medium"}}}
        r = mythras_exchange_odds(data, rulings=self.overrides(), rules=self.rules)
        summary = (f"P(hit) {pct(r.p_hit)}, P(parried) {pct(r.p_parried)}, "
                   f"mean damage {float(r.damage.mean()):.3g}")
        table = _rows([*[(f"attacker wins {n} Special Effect{'s' if n != 1 else ''}", pct(p))
                         for n, p in r.attacker_effects.items()],
                       *[(f"defender wins {n} Special Effect{'s' if n != 1 else ''}", pct(p))
                         for n, p in r.defender_effects.items()]])
        defence = self.d_defence.value if self.d_defence.value != "none" else "parry"
        fig = _plots().special_effects_figure(defender_skill=self.d_skill.value, defence=defence,
                                              rulings=self.overrides(), rules=self.rules) if plot else None
        return r, summary, table, fig

    def _trauma(self, plot: bool):
        from ruleslawyer.odds.trauma import trauma_odds

        r = trauma_odds(rulings=self.overrides(), rules=self.rules)
        tiers = ", ".join(f"{t} {pct(r.tiers[t])}" for t in ("Minor", "Severe", "Grievous"))
        summary = f"P(Close Call) {pct(r.p_close_call)}; {tiers}"
        table = _rows([(f"{row.range}: {row.text}", pct(row.probability)) for row in r.rows])
        fig = _plots().trauma_tiers_figure(rulings=self.overrides(), rules=self.rules) if plot else None
        return r, summary, table, fig

    def _repr_mimebundle_(self, **kwargs):
        return self.frame.mimebundle(**kwargs)


def _plots():
    from ruleslawyer.odds import plots

    return plots
