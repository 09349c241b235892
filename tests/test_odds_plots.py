"""The odds plots return matplotlib Figures built from the exact odds."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")

from ruleslawyer.odds.mastery import mastery_exchange_odds  # noqa: E402
from ruleslawyer.odds.plots import defense_holds_figure, special_effects_figure, trauma_tiers_figure  # noqa: E402


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def test_defense_holds_figure_plots_the_exact_values():
    fig = defense_holds_figure({"tier": 1}, defender_tiers=[1, 2], armours=[0, 1])
    ax = fig.axes[0]
    assert len(ax.lines) == 2
    # armour 0, tier 1 vs tier 1: the hand-worked 2/3 (within the cap's 2**-20)
    assert abs(ax.lines[0].get_ydata()[0] - 2 / 3) < 1e-6
    # more armour never makes the defense less likely to hold
    assert all(b >= a for a, b in zip(ax.lines[0].get_ydata(), ax.lines[1].get_ydata()))
    one = mastery_exchange_odds({"attacker": {"attack": {"tier": 1}},
                                 "defender": {"defense_tier": 2, "armour_resistance": 1}})
    assert abs(ax.lines[1].get_ydata()[1] - float(one.p_defense_holds)) < 1e-12
    assert _png(fig).startswith(b"\x89PNG")


def test_special_effects_figure():
    fig = special_effects_figure(defender_skill=50, gaps=[-20, 0, 20])
    assert len(fig.axes) == 2
    # stacked bars sum to 1 at each gap
    bars = fig.axes[0].patches
    heights = {}
    for b in bars:
        heights[round(b.get_x(), 6)] = heights.get(round(b.get_x(), 6), 0) + b.get_height()
    assert all(abs(h - 1) < 1e-9 for h in heights.values())
    assert _png(fig).startswith(b"\x89PNG")


def test_trauma_tiers_figure():
    fig = trauma_tiers_figure()
    tiers = [p.get_height() for p in fig.axes[0].patches]
    assert [round(t, 2) for t in tiers] == [0.47, 0.19, 0.16, 0.18]
    assert _png(fig).startswith(b"\x89PNG")
