"""The stages of one Mythras exchange, in the order :func:`..exchange.resolve_exchange` runs them.

Each stage is a short function of an :class:`~.context.ExchangeContext` (input, dice, ruling
overrides, rules database) and the values earlier stages settled; it returns the values it settles
and the trace steps that explain them. Where a rule lives:

- :mod:`.context` — reading and checking the input once (``open_exchange``).
- :mod:`.grades` — the attack's grade (Combat Style, Charge, firing into a melee, aiming) and whether
  and at what grade the defender can defend (surprise, Action Points, bullets, missiles).
- :mod:`.surprise` — an ambush: no attack from the ambushed, the first successful attack's bonus Effect.
- :mod:`.rolls` — levels of success: skills over 100%, the attack roll, the defence roll.
- :mod:`.effects` — the differential and the Special Effects (chosen before damage; recorded).
- :mod:`.evade` — an Evade: damage avoided, prone or not.
- :mod:`.ranged` — ranged rules: the stray shot into a melee, the Damage Modifier of a missile,
  Long range halving and Force.
- :mod:`.charge` — a Charge's Size and Damage Modifier steps.
- :mod:`.damage` — the damage roll: hit location, weapon dice, Damage Modifier, what a hit carries.
- :mod:`.protection` — parry Size, Ward Location and armour.
- :mod:`.firearms` — the further hits of a burst or full-auto spray.

Nothing here imports at package load: each module is imported by the pipeline when used.
"""
