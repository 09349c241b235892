"""Trace headers a GM can read: no bare counts in the round/exchange headers, and no value that the
label already says (``Phase: moderate (the slowest declared): moderate``, ``1. Orc: …: 1``)."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest

from ruleslawyer.cli import main

EX = Path(__file__).resolve().parent.parent / "examples"

RUNS = [
    *(["exchange", "mastery", "--input", str(p)] for p in sorted((EX / "mastery").glob("exchange-*.json"))),
    ["sequence", "mastery", "--input", str(EX / "mastery" / "sequence.json")],
    ["mastery-ap", "--input", str(EX / "mastery" / "ap-torch.json")],
    ["mastery-health", "--endurance-tier", "3", "--seed", "1"],
    ["mastery-move", "--agility-tier", "2", "--moves", "2", "--rugged", "2"],
    ["trauma", "--seed", "3"],
    *(["exchange", "mythras", "--input", str(p)] for p in sorted((EX / "mythras").glob("*.json"))
      if p.name != "initiative.json" and not p.name.startswith("fight-")),
    *(["fight", rs, "--input", str(p)] for rs in ("mastery", "mythras", "darkmaster")
      for p in sorted((EX / rs).glob("fight-*.json"))),
    ["initiative", "mythras", "--input", str(EX / "mythras" / "initiative.json")],
    ["sequence", "darkmaster", "--input", str(EX / "darkmaster" / "ambush-round.json")],
]


def _trace(argv) -> dict:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main([*argv, "--json"]) == 0
    data = json.loads(out.getvalue())
    if argv[0] == "fight":  # a fight: every round's trace under one root
        return {"label": "fight", "value": None, "children": [r["trace"] for r in data["rounds"]]}
    return data["trace"]


def _walk(step, depth=0):
    yield step, depth
    for c in step.get("children", []):
        yield from _walk(c, depth + 1)


def _repeats(label: str, value) -> bool:
    """The value is already the start of the label's last part, or the label's own number."""
    if value is None or isinstance(value, (bool, dict, list)):
        return False
    v = str(value).strip().lower()
    if not v:
        return False
    lab = label.strip().lower()
    last = lab.rsplit(": ", 1)[-1]
    return (last == v or last.startswith(v + " ") or last.startswith(v + "(") or lab.startswith(v + ". ")
            or re.match(rf"^{re.escape(v)}\. ", lab) is not None)


def _is_header(label: str, depth: int) -> bool:
    return depth == 0 or (depth == 1 and (re.match(r"^\d", label) is not None or "phase" in label.lower()))


@pytest.mark.parametrize("argv", RUNS, ids=lambda a: " ".join(a[:2]) + (" " + Path(a[3]).stem if len(a) > 3 and
                                                                          a[2] == "--input" else ""))
def test_headers_say_what_their_numbers_count_and_values_are_not_repeated(argv):
    trace = _trace(argv)
    bare = [(s["label"], s["value"]) for s, d in _walk(trace) if _is_header(s["label"], d)
            and isinstance(s.get("value"), (int, float)) and not isinstance(s.get("value"), bool)]
    assert bare == []
    repeated = [(s["label"], s["value"]) for s, _ in _walk(trace) if _repeats(s["label"], s.get("value"))]
    assert repeated == []


def _heads(argv) -> dict[str, object]:
    return {s["label"]: s.get("value") for s, d in _walk(_trace(argv)) if d <= 1}


def test_the_headers_read_as_sentences():
    # Mythras broadsword vs dagger: Critical vs Success, 1 Effect (Choose Location: Head); 1d8 7 + 1d2 2 = 9;
    # the Small dagger parries a Medium sword (one step smaller: half gets through, 9 -> 5); Head armour
    # 3 worn + 1 natural: 5 - 4 = 1
    m = _heads(["exchange", "mythras", "--input", str(EX / "mythras" / "broadsword-vs-dagger.json")])
    assert m["Mythras exchange"] == "1 damage to the Head"
    assert m["5–7. Damage"] == "1 to the Head"
    # Mastery sequence example: 5 combatants declare; side roll 5 (4-6: enemies first); Aldric, Mira and
    # Goblin (held) act in Moderate, the Orc in Slow, nobody in Fast, the Archer's trigger comes too early
    s = _heads(["sequence", "mastery", "--input", str(EX / "mastery" / "sequence.json")])
    assert s["Round 1: enemies first"] == "side roll 5"
    assert s["2. Declaration Phase"] == "5 declarations"
    assert s["3. Side roll (rolled): enemies first"] == "1d6 = 5"
    assert s["4. Fast phase (winning side, then losing side)"] == "nobody acts"
    assert s["5. Moderate phase (winning side, then losing side)"] == "3 combatants act"
    assert s["6. Slow phase (winning side, then losing side)"] == "1 combatant acts"
    # Darkmaster ambush round: 6 characters declare (Brom failed his Assessment Roll: assessment-phase#3);
    # 3 melee attacks; Aldric's dagger and Wulf's Load (2) in Other Actions
    d = _heads(["sequence", "darkmaster", "--input", str(EX / "darkmaster" / "ambush-round.json")])
    assert d["1. Assessment Phase"] == "1 Assessment Roll"
    assert d["2. Action Declaration Phase"] == "6 characters declare; 1 cannot (failed Assessment Roll)"
    assert d["6. Melee Phase"] == "3 actions"
    assert d["9. Other Actions Phase"] == "2 actions"
