"""Packages whose public names load on first use (PEP 562), so importing a package stays cheap."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping

__all__ = ["lazy_exports"]


def lazy_exports(package: str, exports: Mapping[str, str]) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package`` whose name -> submodule map is ``exports``.

    A name mapped to itself is the submodule (``"rulings": "rulings"``); any other is that
    submodule's attribute. A loaded name is stored on the package, so it loads once.
    """

    def __getattr__(name: str):
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        imported = importlib.import_module(f".{module}", package)
        value = imported if module == name else getattr(imported, name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(exports)

    return __getattr__, __dir__
