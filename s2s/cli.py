"""Command-line interface: argument parsing, exit codes, atomic output.

Exit status: 0 success (also when loops stay scalar, each with a warning),
1 the input could not be processed (the output is then not created or left
untouched), 2 bad usage.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from typing import Optional, Sequence

from . import __version__
from .diagnostics import UserError
from .driver import DEFAULT_TARGETS, Options, known_targets, resolve_targets, run


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="s2svec",
        description="Vectorize the '#pragma omp simd' loops of a C file into "
                    "AVX2 / AVX-512 / NEON intrinsics.")
    p.add_argument("input", help="the C file to vectorize (never modified)")
    p.add_argument("-o", "--output", required=True, metavar="OUTPUT",
                   help="where to write the vectorized C file")
    p.add_argument("--target", default=",".join(DEFAULT_TARGETS), metavar="LIST",
                   help="comma list of " + ", ".join(known_targets()) +
                        ", or 'host' (default: %(default)s; every variant sits "
                        "behind #if on the ISA macros, the original loop in #else)")
    p.add_argument("--simdlen", type=int, metavar="N",
                   help="preferred number of lanes (overrides simdlen clauses)")
    p.add_argument("-I", dest="include_dirs", action="append", default=[],
                   metavar="DIR", help="add an include directory for parsing")
    p.add_argument("-D", dest="defines", action="append", default=[],
                   metavar="NAME[=VAL]", help="define a macro for parsing")
    p.add_argument("--std", default="gnu17",
                   choices=["c99", "c11", "c17", "gnu99", "gnu11", "gnu17"],
                   help="C standard for parsing (default: %(default)s, gcc's default)")
    p.add_argument("--report", nargs="?", const="text", choices=["text", "json"],
                   help="optimization report per annotated loop/function "
                        "(text to stderr, or json)")
    p.add_argument("--report-file", metavar="F",
                   help="write the report to F instead of stderr")
    p.add_argument("--math", default="vector", choices=["vector", "exact"],
                   help="vector: libmvec on x86 (<= 4 ulp, link -lmvec); "
                        "exact: scalar libm per lane (default: %(default)s)")
    p.add_argument("--no-boscc", action="store_true",
                   help="do not insert all-false skips around divergent regions")
    p.add_argument("--emit-cfg", metavar="DIR",
                   help="write Graphviz .dot files of each region's CFG to DIR")
    p.add_argument("--print-shapes", action="store_true",
                   help="print each region's IR annotated with vector shapes to stdout")
    p.add_argument("--version", action="version", version=f"s2svec {__version__}")
    return p


def write_atomically(path: str, data: bytes) -> None:
    """Write via a temporary file in the same directory and rename it."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".s2svec-", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        if os.path.exists(path):
            os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        else:
            os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def check_output_path(path: str) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise UserError(f"cannot write output '{path}': is a directory")
    if not os.path.isdir(directory):
        raise UserError(f"cannot write output '{path}': directory '{directory}' does not exist")
    if not os.access(directory, os.W_OK):
        raise UserError(f"cannot write output '{path}': directory is not writable")


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        targets = resolve_targets(args.target)
    except ValueError as e:
        parser.error(str(e))  # exits with status 2
    if args.simdlen is not None and (args.simdlen < 2 or args.simdlen & (args.simdlen - 1)):
        parser.error("--simdlen must be a power of two >= 2")
    options = Options(targets=targets, include_dirs=args.include_dirs,
                      defines=args.defines, std=args.std, math=args.math,
                      simdlen=args.simdlen, boscc=not args.no_boscc,
                      emit_cfg=args.emit_cfg, print_shapes=args.print_shapes)
    try:
        check_output_path(args.output)
        result = run(args.input, options)
        write_atomically(args.output, result.output)
    except UserError as e:
        print(e.format(), file=sys.stderr)
        return 1
    except OSError as e:
        print(f"s2svec: error: {e}", file=sys.stderr)
        return 1
    for warning in result.warnings:
        print(warning, file=sys.stderr)
    if args.report:
        text = result.report_text() if args.report == "text" else result.report_json()
        if args.report_file:
            with open(args.report_file, "w") as f:
                f.write(text)
        else:
            sys.stderr.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
