#!/usr/bin/env python3
"""Regenerate templates/<target>/capabilities.toml from the templates.

    .venv/bin/python scripts/capabilities.py [--check] [TARGET ...]

For each target folder under templates/ (or the ones named) it renders every
macro of ops.j2 for every argument combination the code generator may ask
about and writes the table of those that render something
(s2s/codegen/capabilities.py; the format is in templates/README.md).  Run it
after changing a target's ops.j2, helpers or target.toml: the code generator
answers "can this target do that?" from the table alone, and
tests/test_capabilities.py fails while a table is out of date.  ``--check``
writes nothing and exits 1 when a table differs from the templates.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from s2s.codegen.capabilities import (
    table_path,
    table_text,
    target_names,
    write_tables,
)
from s2s.codegen.target import load_target


def main() -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("targets", nargs="*", help="target folders (default: all under templates/)")
    p.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 when a table is out of date"
    )
    args = p.parse_args()
    names = args.targets or target_names()
    if args.check:
        stale = [
            n
            for n in names
            if not table_path(n).is_file()
            or table_path(n).read_text() != table_text(load_target(n))
        ]
        for name in stale:
            print(f"{table_path(name)} is out of date: run scripts/capabilities.py")
        return 1 if stale else 0
    changed = write_tables(names)
    for path in changed:
        print(f"wrote {path}")
    if not changed:
        print("capability tables up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
