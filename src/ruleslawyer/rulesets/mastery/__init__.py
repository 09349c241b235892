"""The Mastery combat engine: every step cited to the chapter or to a named ruling.

Modules (the field's own terms):

- :mod:`.tiers` — tier dice, exploding rolls, Dominance/Impotence/Inferiority, trials vs a DC.
- :mod:`.trauma` — the d100 Trauma table (from the db), the finger sub-roll, the trauma sheet,
  Realistic/Brutal/Deadly settings.
- :mod:`.damage` — damage types; armour resistance, then durability, then health.
- :mod:`.combatant` — exchange inputs (:class:`Combatant`, :class:`Attack`).
- :mod:`.death` — reaching 0 health, fighting on, the dying timer, Triage.
- :mod:`.exchange` — one melee or ranged exchange (:func:`resolve_exchange`).
- :mod:`.round` — Startle/Ambush, declarations, side roll, phases, holds (:func:`sequence_round`).
- :mod:`.planner` — AP planner (:func:`plan_actions`).
- :mod:`.movement`, :mod:`.health` — speed and movement; starting health.
- :mod:`.rulings` — the named rulings (registered on import).

Example::

    from ruleslawyer.rulesets.mastery import Attack, Combatant, Situation, resolve_exchange
    r = resolve_exchange(Combatant("Aldric", attack=Attack("melee", tier=3, weapon=2)),
                         Combatant("Brute", health=6, armour_resistance=2, durability=3),
                         Situation(defend=False), script={"attack": [4, 4, 1], "endurance": [2]})
    r.outcome, r.to_health, r.defender.state   # ('hit', 6, <State.UNCONSCIOUS>)
"""

from . import rulings
from .combatant import Attack, AttackKind, Combatant, MagicPortion, State, Wielding
from .damage import DamagePortion, DamageType, apply_damage, classify
from .death import advance_dying, health_damage_aftermath, triage
from .exchange import Elevation, ExchangeResult, Range, Situation, exchange_from_dict, resolve_exchange
from .health import StartingHealth, starting_health
from .movement import MovementPlan, plan_movement, speed
from .planner import APPlan, plan_actions
from .round import (Declaration, HoldTrigger, Phase, RoundCombatant, SequenceResult, Side, Spell, StartleResult,
                    declared_phase, sequence_from_dict, sequence_round, startle)
from .tiers import Edge, TrialResult, named_dc, roll_tier_die, roll_trial, tier_die
from .trauma import (Trauma, TraumaCheck, TraumaEvent, TraumaSetting, TraumaSheet, finger_name, roll_trauma,
                     trauma_follows)

__all__ = [
    "rulings",
    "Attack", "AttackKind", "Combatant", "MagicPortion", "State", "Wielding",
    "DamagePortion", "DamageType", "apply_damage", "classify",
    "advance_dying", "health_damage_aftermath", "triage",
    "Elevation", "ExchangeResult", "Range", "Situation", "exchange_from_dict", "resolve_exchange",
    "StartingHealth", "starting_health", "MovementPlan", "plan_movement", "speed", "APPlan", "plan_actions",
    "Declaration", "HoldTrigger", "Phase", "RoundCombatant", "SequenceResult", "Side", "Spell", "StartleResult",
    "declared_phase", "sequence_from_dict", "sequence_round", "startle",
    "Edge", "TrialResult", "named_dc", "roll_tier_die", "roll_trial", "tier_die",
    "Trauma", "TraumaCheck", "TraumaEvent", "TraumaSetting", "TraumaSheet", "finger_name", "roll_trauma",
    "trauma_follows",
]
