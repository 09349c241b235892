"""Citation ids of the Mastery combat chapter used by the engine (every one exists in the db).

Kept in one place so a renumbered source shows up as one failing test, not a hunt.
"""

from __future__ import annotations

_C = "mastery/combat"
_AR = f"{_C}/actions-and-reactions"
_AP = f"{_C}/action-points"
_ACR = f"{_C}/additional-combat-rules"
_WIT = f"{_C}/wounds-injuries-and-trauma"
_SA = f"{_C}/startle-and-ambush"

# Combat flow
FLOW_STARTLE = f"{_C}/combat-flow#2"
FLOW_DECLARATION = f"{_C}/combat-flow#3"
FLOW_WEAPON = f"{_C}/combat-flow#4"
FLOW_SPELLS = f"{_C}/combat-flow#6"
FLOW_HOLD = f"{_C}/combat-flow#8"
FLOW_HOLD_PHASE = f"{_C}/combat-flow#9"
FLOW_HOLD_TRIGGER = f"{_C}/combat-flow#10"
FLOW_ONLY_DECLARED = f"{_C}/combat-flow#11"
FLOW_SIDE_ROLL = f"{_C}/combat-flow#12"
FLOW_FAST = f"{_C}/combat-flow#13"
FLOW_MODERATE = f"{_C}/combat-flow#14"
FLOW_SLOW = f"{_C}/combat-flow#15"
FLOW_NEXT_ROUND = f"{_C}/combat-flow#16"

# Action points
AP_PER_ROUND = f"{_AP}#1"
COST_MOVE = f"{_AP}/action-costs#2"
COST_ATTACK = f"{_AP}/action-costs#3"
COST_DEFENSE = f"{_AP}/action-costs#4"
COST_INTERACTION = f"{_AP}/action-costs#5"
COST_CASTING = f"{_AP}/action-costs#6"
USE_IT_OR_LOSE_IT = f"{_AP}/use-it-or-lose-it#1"
PHASES_BY_SPEED = f"{_AP}/initiative-phases#1"
PHASE_FAST = f"{_AP}/initiative-phases#2"
PHASE_MODERATE = f"{_AP}/initiative-phases#3"
PHASE_SLOW = f"{_AP}/initiative-phases#4"
PHASE_DECLARED = f"{_AP}/initiative-phases#5"
SPELL_SPEED = f"{_AP}/initiative-phases#6"
WEAPON_SWITCHING = f"{_AP}/initiative-phases#7"
SHIELD_REMOVAL = f"{_AP}/initiative-phases#8"
UNARMED_FAST = f"{_AP}/initiative-phases#9"

# Startle and ambush
STARTLE_TRIAL = f"{_SA}#1"
STARTLE_DC = f"{_SA}/startle#1"
AMBUSH_DC = f"{_SA}/ambush#1"
STARTLE_DAZED = f"{_SA}/results#1"
STARTLE_STUNNED = f"{_SA}/results#2"
STARTLE_PARALYZED = f"{_SA}/results#3"
IMPAIRED_PROGRESSION = f"{_SA}/results#4"

# Additional combat rules
ALLIES = f"{_ACR}#1"
FLANKING = f"{_ACR}#2"
ENGAGED = f"{_ACR}#3"
DAMAGE_MUNDANE = f"{_ACR}/damage-types#1"
DAMAGE_MAGICAL = f"{_ACR}/damage-types#2"
DAMAGE_ENERGY = f"{_ACR}/damage-types#3"
DAMAGE_MATERIAL = f"{_ACR}/damage-types#4"
DAMAGE_PORTIONS = f"{_ACR}/damage-types#5"
DURABILITY = f"{_ACR}/health-types#1"
HEALTH = f"{_ACR}/health-types#2"
HEALTH_ENDURANCE = f"{_ACR}/health-types#3"
HEALTH_CLASS = f"{_ACR}/health-types#4"

# Attack
ACTIONS_AND_REACTIONS = f"{_AR}#1"
ATTACK = f"{_AR}/attack#1"
WEAPON_ATTACK = f"{_AR}/attack#2"
MELEE_HITS = f"{_AR}/attack#3"
RANGED_AIM = f"{_AR}/attack#4"
AIMING_TRIAL = f"{_AR}/attack#5"
FORMULA_MELEE = f"{_AR}/attack#7"
FORMULA_BOW = f"{_AR}/attack#8"
FORMULA_CROSSBOW = f"{_AR}/attack#9"
ATTACK_EXPLODES = f"{_AR}/attack#11"
ATTACK_ALWAYS_HITS = f"{_AR}/attack#12"
ATTACK_TIE = f"{_AR}/attack#13"

# Defense
DEFENSE = f"{_AR}/defense#1"
DEFENSE_DECLARE = f"{_AR}/defense#2"
DEFENSE_NO_AP = f"{_AR}/defense#3"
DEFENSE_WIELDING = f"{_AR}/defense#4"
DEFENSE_SHIELD_WEAPON = f"{_AR}/defense#5"
DEFENSE_PROJECTILE = f"{_AR}/defense#6"
DEFENSE_INFERIORITY = f"{_AR}/defense#7"
HOSTILE_WITHIN_5FT = f"{_AR}/defense#8"
DEFENSE_CASTING = f"{_AR}/defense#9"
FORMULA_DEFENSE = f"{_AR}/defense#10"
DEFENSE_EXPLODES = f"{_AR}/defense#12"
DEFENSE_TIE = f"{_AR}/defense#13"
DEFENSE_RANGED_SHIELD = f"{_AR}/defense#14"
ARMOR_RESISTANCE = f"{_AR}/defense#15"
PASSIVE_DEFENSE = f"{_AR}/defense#16"

# Triggered reactions
COUNTERATTACK = f"{_AR}/triggered-reactions-all-cost-1-ap#1"

# Movement and terrain
SPEED = f"{_AR}/movement#1"
MOVE_COST = f"{_AR}/movement#2"
MOVE_AGAIN = f"{_AR}/movement#3"
MOVE_REPEATED = f"{_AR}/movement#4"
RUGGED = f"{_AR}/movement/terrain#1"
RUGGED_DOUBLE = f"{_AR}/movement/terrain#2"
ELEVATION = f"{_AR}/movement/terrain#7"

# Interaction, casting, other actions
INTERACTION = f"{_AR}/interaction#1"
QUICK_ITEM = f"{_AR}/interaction#2"
BODY_ITEM = f"{_AR}/interaction#3"
CONTAINER_ITEM = f"{_AR}/interaction#4"
STOW_ITEM = f"{_AR}/interaction#5"
CASTING_COST = f"{_AR}/casting#1"
CASTING_CHOOSE = f"{_AR}/casting#2"
CASTING_INTERRUPTED = f"{_AR}/casting#3"
CASTING_REACTION = f"{_AR}/casting#4"
CASTING_COMPONENTS = f"{_AR}/casting#5"
TINDERBOX_ADJUST = f"{_AR}/other-actions#21"
OTHER_ACTIONS_TABLE = "mastery/combat/tables/other-actions"

# Wounds, injuries, traumas
WOUND = f"{_WIT}/wounds#1"
INJURY = f"{_WIT}/injuries#1"
TRAUMAS = f"{_WIT}/traumas#1"
TRAUMA_SETTINGS = f"{_WIT}/trauma-table#1"
SETTING_REALISTIC = f"{_WIT}/trauma-table#2"
SETTING_BRUTAL = f"{_WIT}/trauma-table#3"
SETTING_DEADLY = f"{_WIT}/trauma-table#4"
TRAUMA_ROLL = f"{_WIT}/trauma-table#6"
TRAUMA_TABLE = "mastery/combat/tables/trauma"

# Death
REACHING_ZERO = "mastery/combat/death/reaching-0-health#1"
ZERO_INJURY = "mastery/combat/death/reaching-0-health#2"
DYING_TIMER = "mastery/combat/death/reaching-0-health#3"
ZERO_ENDURANCE = "mastery/combat/death/reaching-0-health#4"
FIGHTING_ON = "mastery/combat/death/fighting-on#1"
FIGHTING_ON_TRAUMA = "mastery/combat/death/fighting-on#2"
FIGHTING_ON_ENDURANCE = "mastery/combat/death/fighting-on#3"
FIGHTING_ON_TIMER = "mastery/combat/death/fighting-on#4"
GOING_DOWN = "mastery/combat/death/going-down#1"
GOING_DOWN_UNCONSCIOUS = "mastery/combat/death/going-down#2"
GOING_DOWN_TIMER = "mastery/combat/death/going-down#3"
TRIAGE = "mastery/combat/death/triage#1"

# Supplement tables (data restated from the chapter; each row cites its chapter unit)
TIER_DICE_TABLE = "mastery/supplement/tables/tier-dice"
NAMED_DC_TABLE = "mastery/supplement/tables/named-dc"
DAMAGE_TYPES_TABLE = "mastery/supplement/tables/damage-types"
ACTION_COSTS_TABLE = "mastery/supplement/tables/action-costs"

__all__ = sorted(n for n in dir() if n.isupper())
