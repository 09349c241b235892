"""Plots of the exact odds (matplotlib): each function returns a :class:`matplotlib.figure.Figure`.

Every plot takes ``rules=`` (the rules handle its odds read) and ``rulings=`` as the odds functions do.
Figures are built with the object API (no ``pyplot`` state), so they work headless, in notebooks
(a Figure displays itself) and in widgets (``fig.savefig(buf, format="png")``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ruleslawyer.rulesdb.handle import RulesLike

__all__ = ["defense_holds_figure", "special_effects_figure", "trauma_tiers_figure"]


def _figure(width: float = 6.4, height: float = 4.0):
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def defense_holds_figure(attack: Mapping[str, Any] | None = None, *, defender_tiers: Sequence[int] = range(1, 6),
                         armours: Sequence[int] = (0, 1, 2, 3, 4), defender: Mapping[str, Any] | None = None,
                         rulings: Mapping[str, str] | None = None, rules: RulesLike = None):
    """P(defense holds) against the defender's tier, one line per armour resistance (Mastery).

    Args:
        attack: the attacker's attack profile (as in the exchange input; default tier 2, WEA 1).
        defender_tiers: defense tiers on the x axis; armours: armour resistances, one line each.
        defender: other defender fields (shield, modifiers, wielding...).
        rulings: overrides.
        rules: the rules database the odds read (a handle or a path; None: the default database).

    Returns:
        A Figure; its axes' lines carry the probabilities (``ax.lines[i].get_ydata()``).
    """
    from .mastery import mastery_exchange_odds

    attack = dict(attack or {"tier": 2, "weapon": 1})
    fig = _figure()
    ax = fig.add_subplot()
    for armour in armours:
        ys = []
        for tier in defender_tiers:
            data = {"attacker": {"attack": attack},
                    "defender": {**(defender or {}), "defense_tier": tier, "armour_resistance": armour}}
            ys.append(float(mastery_exchange_odds(data, rulings=rulings, rules=rules).p_defense_holds))
        ax.plot(list(defender_tiers), ys, marker="o", label=f"armour resistance {armour}")
    ax.set_xlabel("defender's tier")
    ax.set_ylabel("P(defense holds)")
    ax.set_ylim(0, 1)
    ax.set_xticks(list(defender_tiers))
    weapon = attack.get("weapon", 0)
    ax.set_title(f"Mastery: tier {attack.get('tier', 1)} attack, WEA {weapon} — ties go to the defender")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    return fig


def special_effects_figure(*, defender_skill: int = 50, gaps: Sequence[int] = range(-40, 45, 10),
                           defence: str = "parry", rulings: Mapping[str, str] | None = None,
                           rules: RulesLike = None):
    """How many Special Effects each side wins, against the skill gap (attacker − defender) (Mythras).

    Two stacked bar panels: the attacker's 0–3 and the defender's 0–3 Special Effects.

    Args:
        defender_skill: the defender's skill; the attacker's is ``defender_skill + gap``.
        gaps: skill gaps on the x axis (attacker skills below 0 are skipped).
        defence: "parry" or "evade".
        rules: the rules database the odds read (a handle or a path; None: the default database).
    """
    from .mythras import mythras_exchange_odds

    xs, att, dfn = [], [], []
    for gap in gaps:
        skill = defender_skill + gap
        if skill < 0:
            continue
        data = {"attacker": {"skill": skill, "str_siz": 22},
                "defender": {"skill": defender_skill, "defence": defence, "weapon": {"size": "Medium"}}}
        r = mythras_exchange_odds(data, rulings=rulings, rules=rules)
        xs.append(gap)
        att.append([float(r.attacker_effects[n]) for n in range(4)])
        dfn.append([float(r.defender_effects[n]) for n in range(4)])
    fig = _figure(8.0, 4.0)
    axes = fig.subplots(1, 2, sharey=True)
    width = (xs[1] - xs[0]) * 0.8 if len(xs) > 1 else 8
    for ax, rows, who in ((axes[0], att, "attacker"), (axes[1], dfn, "defender")):
        bottom = [0.0] * len(xs)
        for n in range(4):
            vals = [row[n] for row in rows]
            ax.bar(xs, vals, width=width, bottom=bottom, label=f"{n} Effect{'s' if n != 1 else ''}")
            bottom = [b + v for b, v in zip(bottom, vals)]
        ax.set_title(f"Special Effects won by the {who}")
        ax.set_xlabel("skill gap (attacker − defender)")
        ax.grid(alpha=0.3, axis="y")
    axes[0].set_ylabel("probability")
    axes[0].set_ylim(0, 1)
    axes[1].legend(fontsize="small")
    fig.suptitle(f"Mythras: attack vs {defence} {defender_skill}%")
    return fig


def trauma_tiers_figure(*, sheet=None, rulings: Mapping[str, str] | None = None, rules: RulesLike = None):
    """The Trauma table's odds: P(each tier) and P(each row) (Mastery), from the Trauma table of
    ``rules`` (a handle or a path; None: the default database)."""
    from .trauma import trauma_odds

    r = trauma_odds(sheet=sheet, rulings=rulings, rules=rules)
    fig = _figure(8.0, 4.0)
    ax1, ax2 = fig.subplots(1, 2, width_ratios=[1, 3])
    order = ["", "Minor", "Severe", "Grievous"]
    ax1.bar(["none" if t == "" else t for t in order], [float(r.tiers[t]) for t in order],
            color=["#999999", "#6baed6", "#fd8d3c", "#d62728"])
    ax1.set_ylabel("probability")
    ax1.set_title("Trauma tier")
    colours = {"": "#999999", "Minor": "#6baed6", "Severe": "#fd8d3c", "Grievous": "#d62728"}
    ax2.bar(range(len(r.rows)), [float(row.probability) for row in r.rows],
            color=[colours.get(row.tier, "#999999") for row in r.rows])
    ax2.set_xticks(range(len(r.rows)), [row.range for row in r.rows], rotation=90, fontsize=6)
    ax2.set_title("each row (d100)")
    fig.suptitle("Mastery Trauma table (1d100)")
    return fig
