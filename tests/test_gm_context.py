"""A GM's context: the table of contents, and a default ruleset for the session."""

from __future__ import annotations

import json
import subprocess

import pytest

from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb import toc


@pytest.fixture
def _cli(monkeypatch, capsys):
    """``_cli(*args, env=...)``: ``ruleslawyer ARGS`` with ``env`` added to the environment, through the
    CLI's main() in this process; its exit status and output as a finished process gives them."""
    from ruleslawyer.cli import main

    def run(*args, env=None) -> subprocess.CompletedProcess:
        for name, value in (env or {}).items():
            monkeypatch.setenv(name, value)
        capsys.readouterr()
        code = main(list(args))
        out = capsys.readouterr()
        return subprocess.CompletedProcess(["ruleslawyer", *args], code, out.out, out.err)
    return run


def test_toc_lists_every_section_in_book_order_with_its_level():
    entries = toc("mastery")
    assert entries[0].id == "mastery/combat" and entries[0].level == 1
    ids = [e.id for e in entries]
    # the chapter's own order: Death comes before its subsections Reaching 0 Health and Fighting On
    assert ids.index("mastery/combat/death") < ids.index("mastery/combat/death/reaching-0-health") \
        < ids.index("mastery/combat/death/fighting-on")
    assert {e.level for e in entries if e.id.count("/") == 2} == {2}
    assert {e.ruleset for e in toc()} >= {"mastery", "mythras", "darkmaster"}
    with pytest.raises(RulesInputError, match="ruleset: unknown ruleset 'dnd'"):
        toc("dnd")


def test_toc_on_the_command_line(_cli):
    out = _cli("toc", "--ruleset", "darkmaster", "--json")
    data = json.loads(out.stdout)
    assert data[0] == {"id": "darkmaster/combat", "ruleset": "darkmaster", "title": "Combat", "level": 1}
    text = _cli("toc", "--ruleset", "darkmaster").stdout.splitlines()
    assert text[0] == "Combat  [darkmaster/combat]" and text[1].startswith("  ")


def test_the_session_ruleset_is_the_default_and_an_option_overrides_it(_cli):
    hits = json.loads(_cli("search", "parry", "--json", env={"RULESLAWYER_RULESET": "mythras"}).stdout)["hits"]
    assert hits and {h["ruleset"] for h in hits} == {"mythras"}
    hits = json.loads(_cli("search", "parry", "--ruleset", "mastery", "--json",
                           env={"RULESLAWYER_RULESET": "mythras"}).stdout)["hits"]
    assert hits and {h["ruleset"] for h in hits} == {"mastery"}
    every = json.loads(_cli("search", "parry", "--json", env={"RULESLAWYER_RULESET": ""}).stdout)["hits"]
    assert len({h["ruleset"] for h in every}) > 1
