"""What a command writes to standard output: one JSON document, or text, each in one write.

Every command module and :mod:`ruleslawyer.cli` (its error documents) print through here, so the
commands never import the entry module. Standard library only (a cold start stays fast).
"""

from __future__ import annotations

import sys

__all__ = ["print_json", "json_text", "write_stdout", "OUTPUT", "start_output"]

#: What this run of the command line has written: an error document must not follow a JSON result.
OUTPUT = {"json": False}


def start_output() -> None:
    """Forget what an earlier run wrote (:func:`ruleslawyer.cli.main` calls it as a run starts)."""
    OUTPUT["json"] = False


def print_json(obj) -> None:
    """Print ``obj`` (a dict/list, or anything with ``to_dict()``) as indented JSON, in one write.

    The whole document is built first, so a failure leaves nothing half written; text that is not
    valid Unicode (a lone surrogate from undecodable command-line bytes) is written as a ``\\uXXXX``
    escape, so standard output is always one valid UTF-8 JSON document. NaN and infinities are not
    JSON: they raise ValueError (a bug, reported as such) instead of being written.
    """
    text = json_text(obj) + "\n"
    OUTPUT["json"] = True
    write_stdout(text)


def json_text(obj, indent: int | None = 2) -> str:
    """The JSON document :func:`print_json` writes for ``obj`` (``to_dict()`` if it has one; other
    objects as ``str``), indented by ``indent`` spaces (None: on one line).

    Raises:
        ValueError: ``obj`` holds NaN or an infinity (not JSON).
    """
    import json

    if hasattr(obj, "to_dict"):
        obj = obj.to_dict()
    return json.dumps(obj, ensure_ascii=False, indent=indent, default=str, allow_nan=False)


def write_stdout(text: str) -> None:
    """Write ``text`` to standard output in one piece, as UTF-8; anything unencodable (a lone
    surrogate) as a backslash escape. Write errors (a full disk, a closed pipe) are raised."""
    data = text.encode("utf-8", "backslashreplace")
    out = sys.stdout
    buffer = getattr(out, "buffer", None)
    if buffer is None:  # a text-only stream (a test's StringIO)
        out.write(data.decode("utf-8"))
        return
    out.flush()
    buffer.write(data)
    buffer.flush()
