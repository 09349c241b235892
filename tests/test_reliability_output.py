"""Output: under --json, standard output is exactly one valid UTF-8 JSON document whatever the input;
output that cannot be written is one error line, never a traceback.

- ``search $'\\xff' --json`` once wrote a raw 0xFF byte (or half a document and then an error one).
- ``search parry --json > /dev/full`` (or with standard output closed) once printed a traceback.
/dev/full is only ever written to here (never replaced), and skipped where it does not exist.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ruleslawyer import rulesdb
from ruleslawyer.cli import main

CLI = [sys.executable, "-m", "ruleslawyer.cli"]
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "mastery" / "exchange-melee.json"


@pytest.fixture(scope="module")
def db(tmp_path_factory, shipped_db) -> Path:
    return shipped_db(tmp_path_factory.mktemp("out") / "rules.db")


def _run(db: Path, *args: bytes | str, **kwargs) -> subprocess.CompletedProcess:
    argv = [a if isinstance(a, bytes) else a.encode() for a in (*CLI, "--db", str(db), *args)]
    kwargs.setdefault("stdout", subprocess.PIPE)
    kwargs.setdefault("stderr", subprocess.PIPE)
    return subprocess.run(argv, timeout=120, **kwargs)


def _one_document(stdout: bytes):
    """The single JSON document ``stdout`` holds (strict UTF-8; extra data is an error)."""
    return json.loads(stdout.decode("utf-8"))


HOSTILE = [
    (b"search", b"\xff", b"--json"),
    (b"search", b"parry \xff\xfe caf\xe9", b"--json"),
    (b"show", b"\xff", b"--json"),
    (b"show", b"mastery/combat/death/fighting-on#2\xff", b"--json"),
    (b"table", b"mastery/combat/tables/\xff", b"--json"),
    (b"roll", b"\xffmastery", b"--json"),
    (b"tables", b"--ruleset", b"\xff", b"--json"),
    (b"exchange", b"mastery", b"--input", b"/nonexistent/\xff.json", b"--json"),
    (b"search", b"--limit", b"\xff", b"parry", b"--json"),  # a usage error: exit 2, still one document
]


@pytest.mark.parametrize("argv", HOSTILE, ids=[b" ".join(a).decode("utf-8", "replace") for a in HOSTILE])
def test_json_output_is_one_valid_document_whatever_the_bytes(db, argv):
    out = _run(db, *argv)
    assert out.returncode in (0, 1, 2), out.stderr
    doc = _one_document(out.stdout)
    if out.returncode:
        assert doc["error"]["internal"] is False, doc
        assert out.stderr.startswith(b"ruleslawyer: error: ") or out.returncode == 2
    assert b"Traceback" not in out.stderr


def test_the_query_comes_back_escaped_not_as_a_raw_byte(db):
    out = _run(db, "search", b"\xff", "--json")
    assert b"\xff" not in out.stdout
    assert _one_document(out.stdout)["query"] == "\udcff"  # the \udcff escape reads back as what was typed


def test_plain_output_of_undecodable_text_is_escaped_not_an_internal_error(db):
    for argv in (("show", b"\xff"), ("search", b"\xff"), ("search", b"no\xffsuch\xfewords")):
        out = _run(db, *argv)
        assert out.returncode in (0, 1)
        assert b"internal error" not in out.stderr and b"Traceback" not in out.stderr
        out.stdout.decode("utf-8")


def test_a_value_json_cannot_hold_is_an_internal_error_document_not_invalid_json(db, monkeypatch, capsys):
    from ruleslawyer.rulesdb import lookup

    real = lookup.list_tables

    def with_nan(*args, **kwargs):
        info = real(*args, **kwargs)[0]
        return [type("Odd", (), {"to_dict": lambda self: {**info.to_dict(), "rows": float("nan")}})()]

    monkeypatch.setattr(rulesdb, "list_tables", with_nan, raising=False)  # first: see tests/conftest.py
    monkeypatch.setattr(lookup, "list_tables", with_nan)
    assert main(["--db", str(db), "tables", "--json"]) == 1
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    assert doc["error"]["internal"] is True and "NaN" not in captured.out.replace("NaN compliant", "")


FULL = [("search", "parry", "--json"), ("search", "parry"), ("table", "mastery/combat/tables/trauma"),
        ("exchange", "mastery", "--input", str(EXAMPLE), "--json"), ("show", "nope", "--json")]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize("argv", FULL, ids=[" ".join(a[:2]) for a in FULL])
def test_a_full_disk_on_standard_output_is_one_error_line(db, argv):
    with open("/dev/full", "w") as full:  # written to, never replaced
        out = _run(db, *argv, stdout=full)
    assert out.returncode == 1
    if argv[1] == "nope":  # an error already: its line stands, its JSON document cannot be written
        assert out.stderr.decode() == ("ruleslawyer: error: no rule with id 'nope'; search for it with "
                                       "`ruleslawyer search`\n")
    else:
        assert out.stderr.decode() == "ruleslawyer: error: cannot write the output: No space left on device\n"


@pytest.mark.parametrize("argv", FULL, ids=[" ".join(a[:2]) for a in FULL])
def test_a_pipe_closed_early_is_exit_0_and_silent(db, argv):
    read, write = os.pipe()
    os.close(read)  # the reader went away before anything was written (``| head -c0``)
    try:
        out = _run(db, *argv, stdout=write)
    finally:
        os.close(write)
    if argv[1] == "nope":
        assert out.returncode == 1 and out.stderr.startswith(b"ruleslawyer: error: no rule with id 'nope'")
    else:
        assert out.returncode == 0, out.stderr
        assert out.stderr == b""


def test_a_pipe_closed_after_a_little_is_exit_0_and_silent(db):
    proc = subprocess.Popen([*CLI, "--db", str(db), "search", "attack", "--limit", "1000", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.read(10) == b'{\n  "query'
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=120) in (0,)
    assert err == b""


@pytest.mark.parametrize("argv", FULL[:2], ids=[" ".join(a[:2]) for a in FULL[:2]])
def test_standard_output_closed_is_one_error_line(db, argv):
    out = _run(db, *argv, stdout=None, preexec_fn=lambda: os.close(1))
    assert out.returncode == 1
    assert out.stderr == b"ruleslawyer: error: cannot write the output: standard output is closed\n"
