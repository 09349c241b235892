"""Lookup subcommands: compare (the concordance), define (the glossary), audit (the sources)."""

from __future__ import annotations

import argparse

__all__ = ["register"]


def register(sub: argparse._SubParsersAction) -> None:
    from ruleslawyer.commands.db import add_ruleset_option  # the one --ruleset filter of every command

    p = sub.add_parser("compare", help="how each ruleset handles a concept, every cell cited")
    p.add_argument("concept", nargs="*",
                   help="round-length, actions-per-round, initiative, defending, reactions, flanking, "
                        "ranged-attacks, surprise, dying (or an alias such as ambush); none lists them")
    p.add_argument("--json", action="store_true", help="print the comparison as JSON")
    p.set_defaults(func=_compare)

    p = sub.add_parser("define", help="a term as the rules define it (glossary), with its citation")
    p.add_argument("term", nargs="+", help="e.g. Engaged, Flanking, AP, HP")
    add_ruleset_option(p, "only this ruleset's definitions")
    p.add_argument("--json", action="store_true", help="print the definitions as JSON")
    p.set_defaults(func=_define)

    p = sub.add_parser("audit", help="source audit: dangling references, truncated lists, undefined terms, "
                                     "table coverage, rulings")
    add_ruleset_option(p, "only this ruleset's sources")
    p.add_argument("--supplements", action="store_true", help="also audit the kit's supplement documents")
    p.add_argument("--json", action="store_true", help="print the audit report as JSON")
    p.set_defaults(func=_audit)


def _compare(args) -> int:
    from ruleslawyer.rulesdb.concordance import compare, concepts

    if not args.concept:
        items = concepts()
        if args.json:
            from ruleslawyer.commands.output import print_json
            print_json(items)
        else:
            for c in items:
                print(f"{c['id']:<18} {c['title']}  (also: {', '.join(c['aliases'])})")
        return 0
    result = compare(" ".join(args.concept), rules=args.rules)
    if args.json:
        from ruleslawyer.commands.output import print_json
        print_json(result)
        return 0
    print(result.title)
    for cell in result.cells:
        print()
        print(f"{cell.ruleset_title}: {cell.summary}")
        for c in cell.cites:
            print(f"  [{c.id}]")
            print(f"    {c.text}")
    return 0


def _define(args) -> int:
    from ruleslawyer.rulesdb.glossary import define

    result = define(" ".join(args.term), ruleset=args.ruleset, rules=args.rules)
    if args.json:
        from ruleslawyer.commands.output import print_json
        print_json(result)
        return 0
    if not result:
        print(result.hint)
        return 0
    print(result.query + (f"  ({'; '.join(result.via)})" if result.via else ""))
    for d in result.definitions:
        print()
        print(f"{d.breadcrumb}  [{d.rule_id}]")
        print(f"  {d.text}")
    return 0


def _audit(args) -> int:
    from ruleslawyer.registry import all_rulings
    from ruleslawyer.rulesdb.audit import audit

    report = audit(args.ruleset, include_supplements=args.supplements, rulings=all_rulings(), rules=args.rules)
    if args.json:
        from ruleslawyer.commands.output import print_json
        print_json(report)
        return 0
    print(report.to_markdown(), end="")
    return 0
