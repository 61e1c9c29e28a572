"""The commands that need no world: ``validate`` (any PDDL), ``schema`` and ``demo``."""

from __future__ import annotations

import argparse

from plancheck.cli.common import FAILED, OK, emit, limits_of


def cmd_validate(args: argparse.Namespace) -> int:
    from plancheck.verifier.pddl_validate import validate_files

    report = validate_files(args.domain, args.problem, args.plan, limits=limits_of(args))
    if args.json:
        emit(report.to_json(), indent=2, ascii_only=True)
    else:
        print(report.text())
    return OK if report.valid else FAILED


def cmd_demo(args: argparse.Namespace) -> int:
    from plancheck.demo import run_demo

    report = run_demo()
    if args.json:
        emit(report.to_json(), indent=2, ascii_only=True)
    else:
        print(report.text())
    return OK if report.ok else FAILED


def cmd_schema(args: argparse.Namespace) -> int:
    from plancheck.verifier.schema import schema_text

    print(schema_text(args.name), end="")
    return OK
