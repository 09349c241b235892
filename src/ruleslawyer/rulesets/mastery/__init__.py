"""Mastery combat engine (package under construction)."""
