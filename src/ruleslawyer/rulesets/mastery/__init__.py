"""The Mastery combat engine: every step cited to the chapter or to a named ruling.

Modules (the field's own terms):

- :mod:`.tiers` — tier dice, exploding rolls, Dominance/Impotence/Inferiority, trials vs a DC.
- :mod:`.trauma` — the d100 Trauma table (from the db), the finger sub-roll, the trauma sheet,
  Realistic/Brutal/Deadly settings.
- :mod:`.damage` — damage types; armour resistance, then durability, then health.
- :mod:`.combatant` — exchange inputs (:class:`Combatant`, :class:`Attack`).
- :mod:`.actions` — what each action costs in AP (the action tables), spending it.
- :mod:`.death` — reaching 0 health, fighting on, the dying timer, Triage.
- :mod:`.exchange` — one melee or ranged exchange (:func:`resolve_exchange`).
- :mod:`.round` — Startle/Ambush, declarations, side roll, phases, holds (:func:`sequence_round`).
- :mod:`.planner` — AP planner (:func:`plan_actions`).
- :mod:`.fight` — a whole fight across rounds (:class:`MasteryEncounter`): :mod:`.fighter` (a
  combatant's state between rounds), :mod:`.orders` (a round's declaration, checked against it),
  :mod:`.fight_play` and :mod:`.fight_actions` (the round's turns and actions), :mod:`.trauma_effects`
  (what the Traumas on a sheet do, read from the table's sentences).
- :mod:`.movement`, :mod:`.health` — speed and movement; starting health.
- :mod:`._tables` — typed views of the tables the engines read, parsed once per rules handle.
- :mod:`.rulings` — the named rulings (registered on import).

Every entry point takes ``rules=`` (a :class:`~ruleslawyer.rulesdb.handle.Rules` handle; None: the
default database), resolves it once and reads every table from it.

Where a rule lives — the engines are pipelines of named stages, each returning its trace steps:

- :func:`resolve_exchange` (:data:`.exchange.STAGES`): ``attack_allowed`` (hostile within 5 ft),
  ``attack_costs_ap``, ``trauma_trial`` (a Trauma's Endurance trial to attack, in a fight),
  ``defender_declares`` (defense or passive defense), ``aiming_trial``,
  ``attack_roll``, ``defense_roll``, then ``counterattack`` after a successful defense, or
  ``hit_damage``, ``armour_durability_health`` and ``after_health_damage``.
- :func:`health_damage_aftermath` (:data:`.death.STAGES`): ``wound``, ``fighting_on_damage``,
  ``reaching_zero``, ``deadly_exploding_hit``; every Trauma goes through ``suffer_trauma``.
- :func:`sequence_round` (:data:`.round.STAGES`): ``startle_or_ambush``, ``declarations``,
  ``side_roll``, ``phases``, ``next_round`` (the chapter's combat flow, steps 1-7).
- :func:`plan_actions`: one planner per action key (:data:`.planner.ACTION_KEYS`).
- :func:`ruleslawyer.odds.mastery.mastery_exchange_odds`: ``structure``, ``aiming``, ``totals``,
  ``damage_outcomes``.

Adding a rule, e.g. "Disarm costs 2 AP, opposed by Strength" — four files:

1. ``rulesdb/sources/mastery/supplement.md``: a row ``| Disarm | 2 | Strength | [...](<unit id>) |``
   in the action-costs table. The AP planner (``{"action": "Disarm"}``), :func:`.actions.action_cost`
   and :func:`.actions.spend_ap` read it with no code change.
2. ``src/ruleslawyer/rulesets/mastery/actions.py``: one stage function, ``disarm(actor, target, *,
   dice, rulings, rules)``: :func:`.actions.spend_ap` for the AP, the target's Strength tier die
   (:func:`.tiers.roll_tier_die`) as the DC of the actor's trial (:func:`.tiers.roll_trial`, a tie
   per ``mastery.trial-tie``), returning its steps, each citing the row.
3. ``tests/test_mastery_actions.py``: the hand-worked case and the bad inputs.
4. ``README.md``: one line under the Mastery engine.

Example::

    from ruleslawyer.rulesets.mastery import Attack, Combatant, Situation, resolve_exchange
    r = resolve_exchange(Combatant("Aldric", attack=Attack("melee", tier=3, weapon=2)),
                         Combatant("Brute", health=6, armour_resistance=2, durability=3),
                         Situation(defend=False), script={"attack": [4, 4, 1], "endurance": [2]})
    r.outcome, r.to_health, r.defender.state   # ('hit', 6, <State.UNCONSCIOUS>)
"""

from ruleslawyer.lazy import lazy_exports

# Names load on first use (PEP 562), so the registry, the CLI and the rules database can import
# this package's declaration (``.ruleset``) and command module without loading the engine.
_EXPORTS = {
    'rulings': 'rulings',
    'ActionCost': 'actions',
    'action_cost': 'actions',
    'spend_ap': 'actions',
    'Attack': 'combatant',
    'AttackKind': 'combatant',
    'Combatant': 'combatant',
    'MagicPortion': 'combatant',
    'State': 'combatant',
    'Wielding': 'combatant',
    'DamagePortion': 'damage',
    'DamageType': 'damage',
    'apply_damage': 'damage',
    'classify': 'damage',
    'advance_dying': 'death',
    'health_damage_aftermath': 'death',
    'triage': 'death',
    'MasteryEncounter': 'fight',
    'Fighter': 'fighter',
    'Elevation': 'exchange',
    'ExchangeResult': 'exchange',
    'Range': 'exchange',
    'Situation': 'exchange',
    'exchange_from_dict': 'exchange',
    'resolve_exchange': 'exchange',
    'StartingHealth': 'health',
    'starting_health': 'health',
    'MovementPlan': 'movement',
    'plan_movement': 'movement',
    'speed': 'movement',
    'APPlan': 'planner',
    'plan_actions': 'planner',
    'Declaration': 'round',
    'HoldTrigger': 'round',
    'Phase': 'round',
    'RoundCombatant': 'round',
    'SequenceResult': 'round',
    'Side': 'round',
    'Spell': 'round',
    'StartleResult': 'round',
    'declared_phase': 'round',
    'sequence_from_dict': 'round',
    'sequence_round': 'round',
    'startle': 'round',
    'Edge': 'tiers',
    'TrialResult': 'tiers',
    'named_dc': 'tiers',
    'roll_tier_die': 'tiers',
    'roll_trial': 'tiers',
    'tier_die': 'tiers',
    'Trauma': 'trauma',
    'TraumaCheck': 'trauma',
    'TraumaEvent': 'trauma',
    'TraumaSetting': 'trauma',
    'TraumaSheet': 'trauma',
    'finger_name': 'trauma',
    'roll_trauma': 'trauma',
    'trauma_follows': 'trauma',
}


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

__all__ = [
    "rulings",
    "ActionCost", "action_cost", "spend_ap",
    "Attack", "AttackKind", "Combatant", "MagicPortion", "State", "Wielding",
    "DamagePortion", "DamageType", "apply_damage", "classify",
    "advance_dying", "health_damage_aftermath", "triage", "MasteryEncounter", "Fighter",
    "Elevation", "ExchangeResult", "Range", "Situation", "exchange_from_dict", "resolve_exchange",
    "StartingHealth", "starting_health", "MovementPlan", "plan_movement", "speed", "APPlan", "plan_actions",
    "Declaration", "HoldTrigger", "Phase", "RoundCombatant", "SequenceResult", "Side", "Spell", "StartleResult",
    "declared_phase", "sequence_from_dict", "sequence_round", "startle",
    "Edge", "TrialResult", "named_dc", "roll_tier_die", "roll_trial", "tier_die",
    "Trauma", "TraumaCheck", "TraumaEvent", "TraumaSetting", "TraumaSheet", "finger_name", "roll_trauma",
    "trauma_follows",
]
