"""Database subcommands: build, search, show, toc, tables, table, roll."""

from __future__ import annotations

import argparse
import os
import sys
from ruleslawyer.limits import whole_arg

__all__ = ["register", "RULESET_ENV", "add_ruleset_option", "chosen_ruleset"]

#: The environment variable naming the default of every ``--ruleset`` filter.
RULESET_ENV = "RULESLAWYER_RULESET"


def add_ruleset_option(p: argparse.ArgumentParser, what: str) -> None:
    """The ``--ruleset`` filter of a command, the same on every command that has one: a ruleset id
    (any case and spacing), or ``all``; default ``$RULESLAWYER_RULESET``, else every ruleset.
    :func:`chosen_ruleset` reads it (``cli`` calls it once the database is open)."""
    p.add_argument("--ruleset", default=None,
                   help=f"{what}: mastery, mythras, darkmaster or a house-rules ruleset (any case), or all for "
                        f"every ruleset; default: ${RULESET_ENV}, else every ruleset")
    p.set_defaults(ruleset_filter=True)


def chosen_ruleset(rules, given: str | None = None) -> str | None:
    """The ruleset a ``--ruleset`` filter means: ``given`` (the option), else ``$RULESLAWYER_RULESET``
    (unset or empty: every ruleset), matched against the database's rulesets by
    :func:`ruleslawyer.rulesdb.session.match_ruleset`; ``all`` or a blank means every ruleset (None).

    Raises:
        RulesInputError: an unknown ruleset, naming where it came from (field ``--ruleset`` or
            ``RULESLAWYER_RULESET``) and listing the rulesets.
    """
    from ruleslawyer.rulesdb.session import known_rulesets, match_ruleset

    field, extra = "--ruleset", ", or all"
    if given is None:
        given = os.environ.get(RULESET_ENV) or None
        field, extra = RULESET_ENV, f", or all (or unset {RULESET_ENV} for every ruleset)"
    if given is None or given.strip().casefold() == "all":
        return None
    return match_ruleset(given, known_rulesets(rules=rules), field=field, extra=extra)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("build", help="build the rules database from the Markdown sources")
    p.add_argument("--out", help="where to write the database (default: the standard location)")
    p.add_argument("--json", action="store_true", help="print the build report as JSON")
    p.set_defaults(func=_build)

    p = sub.add_parser("search", help="full-text search of the rules")
    p.__class__ = _SearchParser  # "-parry" is a word of the query, not an unknown option
    p.add_argument("query", nargs="+", help="words, \"a phrase\", or a prefix* (a word may start with -)")
    add_ruleset_option(p, "only this ruleset's rules")
    p.add_argument("--limit", type=whole_arg, default=10, help="maximum hits (1-1000, default 10)")
    p.add_argument("--json", action="store_true", help="print the hits (and hint) as JSON")
    p.set_defaults(func=_search)

    p = sub.add_parser("show", help="a rule by citation id, with its neighbours and breadcrumb")
    p.add_argument("id", help="citation id, e.g. mastery/combat/death/fighting-on#2")
    p.add_argument("--json", action="store_true", help="print the rule and its neighbours as JSON")
    p.set_defaults(func=_show)

    p = sub.add_parser("toc", help="the table of contents: every chapter and section with its citation id")
    add_ruleset_option(p, "only this ruleset's sections")
    p.add_argument("--json", action="store_true", help="print the sections as JSON")
    p.set_defaults(func=_toc)

    p = sub.add_parser("tables", help="list the tables (rollable ones show their die)")
    add_ruleset_option(p, "only this ruleset's tables")
    p.add_argument("--json", action="store_true", help="print the table list as JSON")
    p.set_defaults(func=_tables)

    p = sub.add_parser("table", help="print a table")
    p.add_argument("id", help="table id, e.g. mastery/combat/tables/trauma")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--csv", action="store_true", help="print the rows as CSV (with a citation column)")
    fmt.add_argument("--json", action="store_true", help="print columns and rows as JSON")
    p.set_defaults(func=_table)

    p = sub.add_parser("roll", help="roll on a rollable table")
    p.add_argument("id", help="table id, e.g. mastery/combat/tables/trauma")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--roll", help='use this die result instead of rolling ("00" on a d100 is 100)')
    how.add_argument("--seed", type=_seed, help="seed the roll so it can be repeated")
    p.add_argument("--json", action="store_true", help="print the roll, the row and its citation as JSON")
    p.set_defaults(func=_roll)


def _seed(text: str) -> int:
    """``--seed`` within the one seed bound (:func:`ruleslawyer.commands.engines.seed_arg`), imported
    only when a seed is given so a cold search does not load the engine commands."""
    from ruleslawyer.commands.engines import seed_arg

    return seed_arg(text)


class _SearchParser(argparse.ArgumentParser):
    """The ``search`` parser: an argument starting with a single ``-`` that names none of its options
    (``-parry``, ``-20``) is a word of the query, not an unknown option; ``--`` still ends the options."""

    def _parse_optional(self, arg_string):
        found = super()._parse_optional(arg_string)
        if found is None or arg_string.startswith("--"):
            return found
        entries = found if isinstance(found, list) else [found]
        return None if all(entry[0] is None for entry in entries) else found


def _plain_snippet(snippet: str) -> str:
    """A hit's snippet for the terminal: marks bold (or in brackets), the five entities the search
    escapes with (``&amp;`` last) back to characters; ``html`` stays unloaded on a cold search."""
    bold = sys.stdout.isatty()
    s = snippet.replace("<mark>", "\033[1m" if bold else "[").replace("</mark>", "\033[0m" if bold else "]")
    return (s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&#x27;", "'")
            .replace("&amp;", "&"))


def _build(args) -> int:
    from ruleslawyer.rulesdb import build

    if args.out:
        report = build(args.out, args.rules.house_rules)
    else:
        report = args.rules.rebuild()
    if args.json:
        from ruleslawyer.commands.output import print_json
        print_json({"path": str(report.path), "files": report.files, "sections": report.sections,
                    "units": report.units, "tables": report.tables, "refs": report.refs,
                    "digest": report.digest})
    else:
        print(f"built {report.path}: {report.units} units in {report.sections} sections, "
              f"{report.tables} tables, {report.refs} cross-references from {report.files} files")
    return 0


def _search(args) -> int:
    from ruleslawyer.rulesdb import search

    results = search(" ".join(args.query), ruleset=args.ruleset, limit=args.limit, rules=args.rules)
    if args.json:
        from ruleslawyer.commands.output import print_json
        print_json(results)
        return 0
    if not results:
        print(results.hint)
        return 0
    for line in _via_lines(getattr(results, "expansions", ())):
        print(line)
    for n, hit in enumerate(results, 1):
        print(f"{n}. {hit.breadcrumb}  [{hit.id}]")
        print(f"   {_plain_snippet(hit.snippet)}")
        if hit.matched_heading:
            print(f"   (matched in the heading: {_plain_snippet(hit.matched_heading)})")
        if hit.listed_under:
            print(f"   (in the {'table' if hit.kind == 'row' else 'list'} under: {_plain_snippet(hit.listed_under)})")
    return 0


def _via_lines(notes) -> list[str]:
    """One line per word the query's words reached through: ``via synonym: runs away → reprisal attack,
    attack range`` (notes as ``kind: typed → book``, in order)."""
    grouped: dict[str, list[str]] = {}
    for note in notes:
        head, arrow, book = note.partition(" → ")
        grouped.setdefault(head if arrow else note, []).append(book)
    return [f"via {head} → {', '.join(books)}" if all(books) else f"via {head}" for head, books in grouped.items()]


def _show(args) -> int:
    from ruleslawyer.rulesdb import context

    ctx = context(args.id, rules=args.rules)
    if args.json:
        from ruleslawyer.commands.output import print_json
        print_json(ctx)
        return 0
    print(ctx.rule.breadcrumb)
    print(f"[{ctx.rule.id}]  ({ctx.rule.source})")
    print()
    for r in ctx.before:
        print(f"  {r.text}")
    print(f"> {ctx.rule.text}")
    for r in ctx.after:
        print(f"  {r.text}")
    return 0


def _toc(args) -> int:
    from ruleslawyer.rulesdb.lookup import toc

    entries = toc(args.ruleset, rules=args.rules)  # None (every ruleset) unless a filter was chosen
    if args.json:
        from ruleslawyer.commands.output import print_json
        print_json([e.to_dict() for e in entries])
        return 0
    for e in entries:
        print(f"{'  ' * (e.level - 1)}{e.title}  [{e.id}]")
    return 0


def _tables(args) -> int:
    from ruleslawyer.rulesdb import list_tables

    tables = list_tables(args.ruleset, rules=args.rules)
    if args.json:
        from ruleslawyer.commands.output import print_json
        print_json([t.to_dict() for t in tables])
        return 0
    width = max((len(t.id) for t in tables), default=0)
    for t in tables:
        die = f"roll {t.dice}" if t.dice else ""
        print(f"{t.id:<{width}}  {t.rows:>3} {'row ' if t.rows == 1 else 'rows'}  {die:<9} {t.title}")
    return 0


def _table(args) -> int:
    """Print a table whole: every cell's full text, wrapped to the terminal (pandas is not loaded)."""
    from ruleslawyer.rulesdb.lookup import load_table

    t = load_table(args.id, rules=args.rules)
    records = [{**row.as_dict(t.columns), "citation": row.unit_id} for row in t.rows]
    if args.csv:
        import csv

        writer = csv.DictWriter(sys.stdout, fieldnames=[*t.columns, "citation"], lineterminator="\n")
        writer.writeheader()
        writer.writerows(records)
    elif args.json:
        from ruleslawyer.commands.output import print_json
        print_json({"id": t.id, "title": t.title, "columns": [*t.columns, "citation"], "rows": records})
    else:
        print(t.title)
        print(_wrapped_table(t.columns, [row.cells for row in t.rows]))
    return 0


def _wrapped_table(columns, rows) -> str:
    """``rows`` under ``columns`` as a plain-text table that fits the terminal: narrow columns keep
    their width, the widest ones wrap (never cut)."""
    import shutil

    from tabulate import tabulate

    width = max(shutil.get_terminal_size((100, 24)).columns, 40)
    natural = [max([len(c), *(len(r[i]) if i < len(r) else 0 for r in rows)]) for i, c in enumerate(columns)]
    budget = width - 2 * (len(columns) - 1) - 1
    caps = list(natural)
    while sum(caps) > budget and max(caps) > 12:  # shrink the widest column until the table fits
        i = caps.index(max(caps))
        caps[i] = max(12, caps[i] - (sum(caps) - budget))
    return tabulate([list(r) for r in rows], headers=list(columns), tablefmt="plain",
                    maxcolwidths=caps, disable_numparse=True)


def _roll(args) -> int:
    from ruleslawyer.rulesdb import roll

    result = roll(args.id, roll=args.roll, seed=args.seed, rules=args.rules)
    if args.json:
        from ruleslawyer.commands.output import print_json
        print_json(result)
        return 0
    print(f"{result.dice} = {result.roll}" + (f"  (seed {result.seed})" if result.seed is not None else ""))
    for col, cell in result.cells.items():
        if cell:
            print(f"  {col}: {cell}")
    print(f"  [{result.row.unit_id}]")
    if result.see_also is not None:
        print(f"  {result.see_also.line}")
    return 0
