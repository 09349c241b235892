"""Toy Skirmish: a fourth ruleset shipped as its own package (a test fixture of ruleslawyer)."""
