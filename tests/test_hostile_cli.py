"""Hostile command lines: whatever is typed, ``ruleslawyer`` prints no traceback.

Bad input exits 1 with exactly one ``ruleslawyer: error: ...`` line naming what was wrong; usage
errors exit 2 (argparse). Every command that reads a JSON file is given every kind of bad file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ruleslawyer import cli
from ruleslawyer.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

#: Every command that reads a JSON file, with the option naming it, the field its errors name and a
#: valid example for it.
FILE_COMMANDS = [
    (["exchange", "mastery"], "--input", "input", "mastery/exchange-melee.json"),
    (["sequence", "mastery"], "--input", "input", "mastery/sequence.json"),
    (["mastery-ap"], "--input", "input", "mastery/ap-torch.json"),
    (["exchange", "mythras"], "--input", "input", "mythras/broadsword-vs-dagger.json"),
    (["initiative", "mythras"], "--input", "input", "mythras/initiative.json"),
    (["sequence", "darkmaster"], "--input", "input", "darkmaster/ambush-round.json"),
    (["odds", "mastery"], "--input", "input", "mastery/exchange-melee.json"),
    (["odds", "mythras"], "--input", "input", "mythras/broadsword-vs-dagger.json"),
    (["trauma"], "--sheet", "sheet", None),
]


def _bad_files(tmp: Path) -> dict[str, str]:
    files = {
        "not-json.json": b"{attacker: ",
        "empty.json": b"",
        "latin1.json": '{"name": "J\u00fcrgen"}'.encode("latin-1"),
        "binary.json": bytes(range(256)) * 8,
        "deep-lists.json": b"[" * 100_000 + b"]" * 100_000,
        "deep-objects.json": b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
    }
    out = {}
    for name, data in files.items():
        (tmp / name).write_bytes(data)
        out[name] = str(tmp / name)
    out["missing"] = str(tmp / "no-such-file.json")
    out["folder"] = str(tmp)
    return out


def _one_error_line(err: str, prefix: str) -> None:
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"ruleslawyer: error: {prefix}"), err


@pytest.mark.parametrize(("argv", "flag", "field", "example"), FILE_COMMANDS,
                         ids=[" ".join(c[0]) for c in FILE_COMMANDS])
def test_every_bad_file_is_one_error_line_naming_the_input(argv, flag, field, example, tmp_path, capsys):
    for what, path in _bad_files(tmp_path).items():
        rc = main([*argv, flag, path])
        err = capsys.readouterr().err
        assert rc == 1, what
        _one_error_line(err, f"{field}: ")
        assert path in err, (what, err)


@pytest.mark.parametrize(("argv", "flag", "field", "example"), [c for c in FILE_COMMANDS if c[3]],
                         ids=[" ".join(c[0]) for c in FILE_COMMANDS if c[3]])
def test_a_byte_order_mark_is_not_an_error(argv, flag, field, example, tmp_path, capsys):
    f = tmp_path / "bom.json"
    f.write_bytes(b"\xef\xbb\xbf" + (EXAMPLES / example).read_bytes())
    assert main([*argv, flag, str(f)]) == 0
    assert capsys.readouterr().err == ""


def _write(tmp: Path, name: str, data) -> str:
    f = tmp / name
    f.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(f)


def _example(name: str, **changes) -> dict:
    data = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    data.update(changes)
    return data


def _hostile_argvs(tmp: Path) -> list[list[str]]:
    melee = _example("mastery/exchange-melee.json")
    sword = _example("mythras/broadsword-vs-dagger.json")
    argvs = [
        # numbers out of range, huge, negative
        ["roll", "mastery/combat/tables/trauma", "--roll", "0"],
        ["roll", "mastery/combat/tables/trauma", "--roll", "101"],
        ["roll", "mastery/combat/tables/trauma", "--roll", "-1"],
        ["roll", "mastery/combat/tables/trauma", "--seed", str(10**100)],
        ["roll", "mastery/combat/tables/trauma", "--seed", "-1"],
        ["trauma", "--roll", "0"], ["trauma", "--roll", "101"], ["trauma", "--finger", "11"],
        ["trauma", "--roll", "50", "--finger", "0"], ["trauma", "--seed", str(-(10**100))],
        ["mastery-health", "--endurance-tier", "0"], ["mastery-health", "--endurance-tier", str(10**100)],
        ["mastery-health", "--endurance-tier", "3", "--class-health", str(-(10**100))],
        ["mastery-move", "--agility-tier", "-5"], ["mastery-move", "--agility-tier", "3", "--rugged", "-1"],
        ["search", "death", "--limit", "0"], ["search", "death", "--limit", str(10**100)],
        ["odds", "mastery", "--trauma", "--tolerance", "inf"],
        ["odds", "mastery", "--trauma", "--tolerance", "nan"],
        ["odds", "mastery", "--trauma", "--tolerance", "-1"],
        # ids that do not exist
        ["show", "no/such/id#1"], ["show", ""], ["show", "../../../etc/passwd"],
        ["table", "no/such/table"], ["roll", "mastery/combat/death"], ["tables", "--ruleset", "nosuch"],
        ["search", "death", "--ruleset", "nosuch"], ["rulings", "--ruleset", "nosuch"],
        ["define", "zzzzqqq"], ["compare", "zzzzqqq"],
        # rulings: unknown ids, bad answers, malformed
        ["trauma", "--ruling", "no.such=x"], ["trauma", "--ruling", "="], ["trauma", "--ruling", "noequals"],
        ["odds", "mastery", "--trauma", "--ruling", "kit.explosion-cap=7"],
        ["exchange", "nosuch", "--input", _write(tmp, "m.json", melee)],
    ]
    for argv, data in [(["exchange", "mastery"], melee), (["exchange", "mythras"], sword),
                       (["odds", "mastery"], melee), (["odds", "mythras"], sword)]:
        name = "-".join(argv)
        argvs += [
            [*argv, "--input", _write(tmp, f"{name}.json", data), "--ruling", "no.such=x"],
            [*argv, "--input", _write(tmp, f"{name}.json", data), "--ruling", "kit.explosion-cap=7"],
            [*argv, "--input", _write(tmp, f"{name}.json", data), "--seed", str(10**100)],
            [*argv, "--input", _write(tmp, f"{name}-r.json", {**data, "rulings": "x"})],
            [*argv, "--input", _write(tmp, f"{name}-r2.json", {**data, "rulings": ["x"]})],
            [*argv, "--input", _write(tmp, f"{name}-nan.json",
                                      json.dumps(data)[:-1] + ', "tolerance": NaN, "seed": Infinity}')],
        ]
    return argvs


def test_hostile_command_lines_print_one_line_and_no_traceback(tmp_path, capsys):
    problems = []
    for argv in _hostile_argvs(tmp_path):
        try:
            rc = main(argv)
        except SystemExit as exc:  # argparse usage error
            rc = exc.code
        except Exception as exc:  # noqa: BLE001 - the point of the test
            problems.append(f"{argv}: {type(exc).__name__}: {exc}")
            continue
        err = capsys.readouterr().err
        if rc == 2:
            continue
        if "Traceback" in err or "internal error" in err:
            problems.append(f"{argv}: {err}")
        elif rc == 1 and not (len(err.splitlines()) == 1 and err.startswith("ruleslawyer: error: ")):
            problems.append(f"{argv}: not one error line: {err!r}")
        elif rc not in (0, 1):
            problems.append(f"{argv}: exit {rc}")
    assert not problems, "\n".join(problems)


def test_a_bug_is_still_one_line_and_exit_1(monkeypatch, capsys):
    """The last line of defence: an unexpected exception in a handler prints one line, no traceback."""
    import ruleslawyer.rulesets.mastery as mastery

    def broken(*args, **kwargs):
        raise TypeError("unsupported operand type(s) for +: 'int' and 'NoneType'")

    monkeypatch.setattr(mastery, "exchange_from_dict", broken)
    monkeypatch.delenv("RULESLAWYER_DEBUG", raising=False)
    argv = ["exchange", "mastery", "--input", str(EXAMPLES / "mastery/exchange-melee.json")]
    assert main(argv) == 1
    err = capsys.readouterr().err
    _one_error_line(err, "internal error (TypeError: unsupported operand")
    assert main([*argv, "--json"]) == 1  # a --json caller gets the error as JSON on stdout too
    out = capsys.readouterr().out
    assert json.loads(out)["error"]["type"] == "TypeError"
    monkeypatch.setenv("RULESLAWYER_DEBUG", "1")
    with pytest.raises(TypeError):
        cli.main(argv)


def test_an_empty_ruleset_name_is_an_error_not_an_empty_listing(capsys):
    assert main(["rulings", "--ruleset", ""]) == 1
    err = capsys.readouterr().err
    _one_error_line(err, "ruleset: no rulings for ''; rulesets with rulings: ")


def test_the_shared_parser_keeps_nothing_from_one_command_line_to_the_next():
    # build_parser() is built once per process and shared: a parse (or a refused one) leaves it as it was
    import contextlib
    import io

    from ruleslawyer.cli import build_parser

    parser = build_parser()
    assert build_parser() is parser
    first = vars(parser.parse_args(["--db", "/nowhere/a.db", "search", "parry", "--ruleset", "mythras", "--json"]))
    with contextlib.redirect_stderr(io.StringIO()), pytest.raises(SystemExit):
        parser.parse_args(["search", "--limit", "many", "parry"])
    second = vars(parser.parse_args(["search", "parry"]))
    assert first["db"] == "/nowhere/a.db" and second["db"] is None
    assert first["ruleset"] == "mythras" and second["ruleset"] != "mythras"
    assert first["json"] is True and second["json"] is False


def test_db_and_house_rules_may_follow_the_command_name(tmp_path, capsys):
    # a GM types `ruleslawyer search parry --db X`; it used to exit 2 ("unrecognized arguments")
    house = tmp_path / "house"
    house.mkdir()
    (house / "table.md").write_text(
        "---\nruleset: house\nruleset_title: House\nchapter: extras\ntitle: House Rules\nkind: house-rules\n"
        "provenance: a test\n---\n# House Rules\n\n## Snacks\n\nThe GM provides the snacks.\n", encoding="utf-8")
    after = tmp_path / "after.db"
    assert main(["search", "snacks", "--db", str(after), "--house-rules", str(house), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["hits"][0]["id"] == "house/extras/snacks#1"
    assert after.exists()
    # given both before and after the command name, the later one counts; given before only, it is kept
    before, later = tmp_path / "before.db", tmp_path / "later.db"
    assert main(["--db", str(before), "tables", "--db", str(later), "--json"]) == 0
    capsys.readouterr()
    assert later.exists() and not before.exists()
    assert main(["--db", str(before), "tables", "--json"]) == 0
    assert before.exists()


def test_an_abbreviated_db_option_before_the_command_takes_its_value(tmp_path, capsys, monkeypatch):
    # argparse takes `--d X` for `--db X`; the command name is then the word after X, not X
    monkeypatch.chdir(tmp_path)
    assert main(["--d", "roll", "define", "parry", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) and (tmp_path / "roll").exists()


def test_an_empty_db_path_and_a_file_as_house_rules_say_what_is_wrong(tmp_path, capsys):
    assert main(["--db", "", "search", "parry"]) == 1
    assert "db: the path is empty" in capsys.readouterr().err
    rules_file = tmp_path / "house.md"
    rules_file.write_text("# House Rules\n", encoding="utf-8")
    assert main(["--db", str(tmp_path / "r.db"), "--house-rules", str(rules_file), "search", "parry"]) == 1
    assert f"{rules_file}: is a file; house rules are read from a folder of *.md files" in capsys.readouterr().err
