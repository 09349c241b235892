"""Where the shipped data folders are: the rules data and the panels' assets.

In a source checkout (or an editable install) they are the top-level ``rulesdb/`` and ``widgets/``
folders; an installed wheel carries them as the data-only packages ``ruleslawyer.rulesdata`` and
``ruleslawyer.assets``. Neither holds Python, so no module has two import paths.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["ASSETS_DIR", "DATA_DIR"]

_PACKAGE = Path(__file__).resolve().parent


def _shipped(installed_name: str, checkout_name: str) -> Path:
    installed = _PACKAGE / installed_name
    return installed if installed.is_dir() else _PACKAGE.parent.parent / checkout_name


#: ``rulesdb/``: sources/<ruleset>/*.md, schema.sql, synonyms/*.json, concordance.json.
DATA_DIR = _shipped("rulesdata", "rulesdb")
#: ``widgets/``: the panels' stylesheet.
ASSETS_DIR = _shipped("assets", "widgets")
