"""``ruleslawyer odds mastery|mythras``: same input as ``exchange``, exact odds out."""

from __future__ import annotations

import json
from pathlib import Path

from ruleslawyer.cli import main

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _json(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_odds_mastery_json(capsys):
    out = _json(capsys, ["odds", "mastery", "--input", str(EXAMPLES / "mastery/exchange-melee.json"), "--json"])
    # probabilities are exact fractions in JSON (strings), distributions floats
    from fractions import Fraction

    p_hit, p_holds = Fraction(out["p_hit"]), Fraction(out["p_defense_holds"])
    assert p_hit + p_holds + Fraction(out["truncated_mass"]) == 1
    assert 0 < p_hit < 1 and out["defends"] is True
    assert abs(sum(out["to_health"]["outcomes"].values()) - 1) < 1e-12
    assert out["trace"]["label"].startswith("Odds: Aldric attacks Brute")


def test_odds_mastery_text_and_ruling(capsys):
    path = str(EXAMPLES / "mastery/exchange-melee.json")
    assert main(["odds", "mastery", "--input", path]) == 0
    text = capsys.readouterr().out
    assert "P(hit)" in text and "Probability mass cut off" in text
    assert main(["odds", "mastery", "--input", path, "--ruling",
                 "mastery.failed-defense-damage=attack-minus-defense", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "mastery.failed-defense-damage" in json.dumps(out["trace"])


def test_odds_trauma(capsys):
    out = _json(capsys, ["odds", "mastery", "--trauma", "--json"])
    assert out["p_close_call"] == "33/100" and len(out["rows"]) == 48


def test_odds_mythras(capsys):
    out = _json(capsys, ["odds", "mythras", "--input", str(EXAMPLES / "mythras/broadsword-vs-dagger.json"),
                         "--json"])
    # skill 63 attack: Critical 01-07 + Success 08-63 -> P(hit) = 63/100
    assert out["p_hit"] == "63/100"
    assert set(out["attacker_effects"]["outcomes"]) <= {"0", "1", "2", "3"}
    assert "Head" in out["damage_by_location"]


def test_bad_input_fails_with_one_line(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"attacker": {"attack": {"tier": 0}}, "defender": {}}))
    assert main(["odds", "mastery", "--input", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "attacker.attack.tier" in err
    assert main(["odds", "mastery", "--input", str(bad), "--tolerance", "0.5"]) == 1
    assert main(["odds", "mythras"]) == 1
    assert "--input FILE.json is required" in capsys.readouterr().err


def test_a_long_distribution_shows_its_likely_values_and_sums_the_rest():
    from fractions import Fraction

    from ruleslawyer.commands.odds import _dist_lines
    from ruleslawyer.odds.core import Dist

    # 1: 1/2, 2: 1/4, ..., 20: 1/2**20, and 21 with the rest (1/2**20): values from 2**-14 on fall below 0.01 %
    dist = Dist({n: Fraction(1, 2 ** n) for n in range(1, 21)} | {21: Fraction(1, 2 ** 20)})
    lines = _dist_lines("Damage", dist)
    assert lines[0] == "Damage:" and len(lines) == 1 + 13 + 1  # 2**-13 = 0.0122 % is the last one shown
    assert lines[1].split() == ["1", "50%"] and lines[13].split() == ["13", "0.01221%"]
    # the 8 values from 14 to 21 hold 2**-13 in all
    assert lines[-1] == "  ... 8 more values, 0.01221% in all (--json lists every one)"
    assert _dist_lines("One", Dist({"x": Fraction(1)})) == ["One:", "                         x  100%"]


def test_every_mythras_exchange_example_gets_odds_or_says_what_is_not_computed(capsys):
    # `odds` reads the same input as `exchange`: an example it cannot price says so in one line,
    # naming the field (never "unknown field" for a field `exchange` accepts)
    for path in sorted((EXAMPLES / "mythras").glob("*.json")):
        if path.stem in ("fight-duel", "initiative"):
            continue  # inputs of `fight` and `initiative`, not of `exchange`
        assert main(["exchange", "mythras", "--input", str(path), "--seed", "1"]) == 0, path.name
        capsys.readouterr()
        code = main(["odds", "mythras", "--input", str(path)])
        err = capsys.readouterr().err
        assert code == 0 or ("are not computed" in err and "unknown field" not in err), (path.name, err)
