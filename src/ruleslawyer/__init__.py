"""ruleslawyer: rules lookup, table rolls and cited exchange resolution for tabletop RPG combat.

Subpackages: ``ruleslawyer.rulesdb`` (the searchable rules database), ``ruleslawyer.rulesets``
(the Mastery, Mythras and Against the Darkmaster engines), ``ruleslawyer.widgets`` (Jupyter panels).
"""

__version__ = "0.1.0"
__all__ = ["__version__"]
