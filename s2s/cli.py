"""Command-line interface: argument checks, exit statuses, safe output.

Exit status: 0 success (also when loops stay scalar, each with a warning),
1 the input could not be processed (OUTPUT and the report file are then not
created or left untouched), 2 bad usage, 130 interrupted (SIGINT), 143
terminated (SIGTERM).

The C compiler's flags are accepted as gcc reads them (``compiler_flags``):
``-D -U -I -include -std= ...`` reach the parser in order, ``-m``/``-march=``
choose the targets when ``--target`` is absent, the rest changes nothing.

Guarantees, in the order ``main`` establishes them:

* Usage is checked before anything is read (exit 2): ``--simdlen`` must fit
  some selected target, ``-D`` must be a macro definition and ``-U`` a name,
  a compiler flag needs its value, ``--report-file``
  needs ``--report``, at most one of OUTPUT, the report and ``--print-shapes``
  may use stdout, and the report file must not be OUTPUT.
* INPUT must be a readable regular file whose name is valid UTF-8, and every
  file to be written is checked before the input is processed (exit 1): no
  directory, missing folder, socket or block device, never the input itself
  (by identity: other spellings, hard links and symlinks are caught).
* Nothing is written before the input has been processed.  Regular files
  (also behind symlinks, whose target is written) are written to a temporary
  file next to them and renamed over them; OUTPUT and the report are both
  staged before either is renamed, so a failure leaves both untouched.
  ``-`` is stdout; ``/dev/stdout``, ``/dev/stderr`` and ``/dev/fd/N`` write to
  the open descriptor; character devices and FIFOs (``/dev/null``) are
  written in place and never replaced.
* Messages name the user's paths (never a temporary name) and follow
  ``file:line:col: error: text`` / ``s2svec: error: text``; an unexpected
  exception is one line, ``s2svec: internal error: ...; please report this``
  (the traceback too when ``S2SVEC_DEBUG`` is set), never a traceback alone.

The vectorizer itself (``driver``, which loads libclang) is imported inside
``main`` so that an interrupt while it loads is handled too.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import re
import shlex
import signal
import stat
import sys
import tempfile
import traceback
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import __version__
from .compiler_flags import (
    OPENMP_VERSION,
    STANDARDS,
    CompilerFlags,
    FlagError,
    compiler_triple,
    describe,
    parser_args,
    preprocessing_flags,
    split,
    targets_for,
)
from .diagnostics import UserError

if TYPE_CHECKING:
    from .driver import Result

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
TEMP_PREFIX = ".s2svec-"
DEBUG_ENV = "S2SVEC_DEBUG"

# gcc accepts '$' in identifiers; a function-like macro has a parameter list.
_MACRO = re.compile(r"[A-Za-z_$][\w$]*")
_PARAM = re.compile(r"\s*([A-Za-z_$][\w$]*|\.\.\.)\s*")
_FD_PATH = re.compile(r"/(?:dev|proc/self)/fd/(\d+)")


class _Interrupted(BaseException):
    """SIGINT or SIGTERM arrived; ``status`` is 128 + the signal number."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def shown(path: str) -> str:
    """A path as the user typed it, printable: undecodable bytes as ``\\xNN``."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def _os_reason(exc: OSError) -> str:
    """``No space left on device`` -> ``no space left on device``."""
    text = exc.strerror or str(exc) or type(exc).__name__
    return text[:1].lower() + text[1:]


# -- arguments --------------------------------------------------------------------------


_WRAPPER_HELP = """
in a Makefile (see examples/make_project):
  %_simd.c: %.c
  \t$(CC) $(CPPFLAGS) $(CFLAGS) -MM -MP -MT $@ -MF $@.d $<   # headers -> $@
  \ts2svec $(CPPFLAGS) $(CFLAGS) $< -o $@
  .PRECIOUS: %_simd.c

as the compiler (each -c file.c is vectorized with the compiler's flags):
  make CC="s2svec-cc gcc"        make CC="s2svec-cc clang-19"
  S2SVEC_FLAGS="--report" make CC="s2svec-cc gcc"   # options for s2svec
"""


def build_parser() -> argparse.ArgumentParser:
    from .driver import known_targets

    p = argparse.ArgumentParser(
        prog="s2svec",
        usage="%(prog)s [compiler flags] INPUT.c -o OUTPUT.c [options]",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Vectorize the '#pragma omp simd' loops of a C file into AVX2 / "
        "AVX-512 / NEON intrinsics.\n\n" + describe() + _WRAPPER_HELP,
        epilog="exit status: 0 success (also when loops stay scalar, each with "
        "a warning), 1 the input could not be processed (OUTPUT and the "
        "report file are then not created or left untouched), 2 bad usage, "
        "130 interrupted (143 on SIGTERM); S2SVEC_DEBUG=1 adds a traceback "
        "to an internal error",
    )
    p.add_argument("input", help="the C file to vectorize (never modified)")
    p.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUTPUT",
        help="where to write the vectorized C file, atomically; '-' is "
        "stdout; a symlink is written through; a device or FIFO is "
        "written in place; must not be the input",
    )
    p.add_argument(
        "--target",
        metavar="LIST",
        help="comma list of "
        + ", ".join(known_targets())
        + ", or 'host' (default: the targets the -m/-march flags enable, "
        "else all of them; every variant sits "
        "behind #if on the ISA macros, the original loop in #else)",
    )
    p.add_argument(
        "--simdlen",
        type=int,
        metavar="N",
        help="preferred number of lanes (overrides simdlen clauses): a "
        "power of two >= 2 that at least one selected target's "
        "vectors hold (at most "
        + ", ".join(f"{k} on {t}" for t, k in simdlen_limits(known_targets()).items())
        + "); a target that cannot take it keeps its natural width, "
        "with a warning",
    )
    p.add_argument(
        "--std",
        choices=sorted(STANDARDS),
        metavar="STD",
        help="C standard for parsing, the same as -std=STD (default: gnu17, gcc's default)",
    )
    p.add_argument(
        "--line-directives",
        action="store_true",
        help="write #line directives so that the compiler's diagnostics and "
        "debuggers point at INPUT's lines (s2svec-cc does)",
    )
    p.add_argument(
        "--check-branches",
        metavar="CC",
        help="preprocess the output with the compiler command CC and the "
        "compiler flags given here, and warn at each loop whose vector "
        "code the report announces but that build does not compile (the "
        "report then says so); s2svec-cc always does",
    )
    p.add_argument(
        "--report",
        nargs="?",
        const="text",
        choices=["text", "json"],
        help="optimization report per annotated loop/function "
        "(text, the default, or json; to stderr unless --report-file)",
    )
    p.add_argument(
        "--report-file",
        metavar="F",
        help="write the report to F (atomically, like OUTPUT; '-' is "
        "stdout) instead of stderr; needs --report",
    )
    p.add_argument(
        "--math",
        default="vector",
        choices=["vector", "exact"],
        help="vector: libmvec on x86 (<= 4 ulp, link -lmvec); "
        "exact: scalar libm per lane (default: %(default)s)",
    )
    p.add_argument(
        "--vector-ir",
        action="store_true",
        help="no effect: the vector IR is the code generator (accepted for "
        "scripts written when it was an option)",
    )
    p.add_argument(
        "--interleave",
        type=int,
        default=0,
        choices=[0, 1, 2, 4],
        metavar="N",
        help="vectors per trip of a vectorized loop: 1, 2 or 4, no more than "
        "safelen allows; 0 (the default) lets the cost model choose: one "
        "with per-lane stack objects or a long body, four where the hottest loop's next "
        "trip waits on a load, call or division of this one, else two",
    )
    p.add_argument(
        "--no-refill",
        action="store_true",
        help="keep lanes in groups of consecutive iterations around a divergent "
        "loop (default: a lane whose loop ends takes its next iteration)",
    )
    p.add_argument(
        "--refill-ratio",
        type=float,
        default=None,
        metavar="R",
        help="refill only where a trip of the divergent loop weighs R times what "
        "refill adds to a trip (default: the target's, 2; 0: wherever "
        "refill can be built)",
    )
    p.add_argument(
        "--no-boscc",
        action="store_true",
        help="do not insert all-false skips (BOSCC) in front of expensive divergent regions",
    )
    p.add_argument(
        "--no-all-true",
        action="store_true",
        help="do not give divergent arms with contiguous memory accesses an "
        "unmasked copy taken when every lane is in them",
    )
    p.add_argument(
        "--boscc-threshold",
        type=int,
        default=16,
        metavar="N",
        help="cost of a divergent region from which it gets an all-false skip "
        "(a math call weighs 16, a division 8, a load or store 2, other "
        "operations 1; default: %(default)s)",
    )
    p.add_argument(
        "--emit-cfg", metavar="DIR", help="write Graphviz .dot files of each region's CFG to DIR"
    )
    p.add_argument(
        "--print-shapes",
        action="store_true",
        help="print each region's IR annotated with vector shapes to stdout",
    )
    p.add_argument(
        "--print-after",
        action="append",
        default=[],
        metavar="PASS",
        help="print each region's IR after the pipeline pass PASS to stdout "
        "(inline, sroa, strength, narrow, dce, canonicalize, unroll, licm, merge-arms, hoist, "
        "per-lane-storage, speculate, all-true, boscc, divergent-loops, "
        "loop-closed-ssa, linearize, cse, cleanup; and for a loop's variants "
        "masked-tail, refill; repeatable)",
    )
    p.add_argument("--version", action="version", version=f"s2svec {__version__}")
    return p


def check_define(define: str) -> str | None:
    """Why ``-D define`` is not a macro definition, or None when it is."""
    head = define.partition("=")[0]
    if "\n" in define or "\r" in define:
        return "a macro definition must be one line"
    m = _MACRO.match(head)
    if not head or not m:
        return "macro name must be an identifier"
    rest = head[m.end() :]
    if rest.startswith("(") and not rest.endswith(")"):
        return "missing ')' in the macro parameter list"
    if rest.startswith("("):
        params = rest[1:-1]
        if params.strip() and not all(_PARAM.fullmatch(p) for p in params.split(",")):
            return "macro parameters must be identifiers"
        if "..." in params and not params.rstrip().endswith("..."):
            return "'...' must be the last macro parameter"
    elif rest:
        return "macro name must be an identifier"
    return None


def check_undefine(name: str) -> str | None:
    """Why ``-U name`` does not name a macro, or None when it does."""
    return None if _MACRO.fullmatch(name) else "macro name must be an identifier"


def _fine(_value: str) -> str | None:
    return None


def simdlen_limits(targets: list[str]) -> dict[str, int]:
    """The most lanes a ``--simdlen`` can ask of each target: the widest vector
    of integer lanes, which is what the code generator checks against."""
    from .codegen.target import load_target

    limits = {}
    for name in targets:
        t = load_target(name)
        if t.scalable:  # its lanes are the machine's: simdlen does not apply
            continue
        limits[name] = max(
            (info.lanes for key, info in t.types.items() if key.startswith("i")), default=1
        )
    return limits


def check_usage(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    flags: CompilerFlags,
    targets: list[str],
) -> list[str]:
    """Exit 2 (through ``parser.error``) on bad usage; return usage warnings."""
    warnings: list[str] = []
    if args.refill_ratio is not None and (
        not math.isfinite(args.refill_ratio) or args.refill_ratio < 0
    ):
        parser.error(f"--refill-ratio {args.refill_ratio}: must be a number >= 0")
    if args.simdlen is not None:
        n = args.simdlen
        if n < 2 or n & (n - 1):
            parser.error(f"--simdlen {n}: must be a power of two >= 2")
        limits = simdlen_limits(targets)
        listed = ", ".join(f"{t}: {k}" for t, k in limits.items())
        if limits and all(n > k for k in limits.values()):
            parser.error(
                f"--simdlen {n}: the selected targets' vectors hold at "
                f"most {max(limits.values())} lanes ({listed})"
            )
        for t, k in limits.items():
            if n > k:
                warnings.append(
                    f"s2svec: warning: --simdlen {n}: {t} vectors hold "
                    f"at most {k} lanes; {t} loops keep their natural width"
                )
    for option, value in flags.parser:
        why = {"-D": check_define, "-U": check_undefine}.get(option, _fine)(value)
        if why:
            parser.error(f"{option} '{shown(value)}': {why}")
        if shown(value) != value:  # libclang takes UTF-8 arguments only
            parser.error(f"{option} '{shown(value)}': not valid utf-8")
    if args.report_file is not None and args.report is None:
        parser.error("--report-file needs --report (--report=text or --report=json)")
    to_stdout = [
        name
        for name, used in (
            (f"-o {shown(args.output)}", _is_stdout(args.output)),
            (f"--report-file {shown(args.report_file or '')}", _is_stdout(args.report_file)),
            ("--print-shapes", args.print_shapes),
            ("--print-after", bool(args.print_after)),
        )
        if used
    ]
    if _is_stdout(args.output) and len(to_stdout) > 1:
        parser.error(f"{' and '.join(to_stdout)} cannot share stdout")
    if (
        args.report_file is not None
        and fd_of(args.report_file) is None
        and fd_of(args.output) is None
        and _same_path(args.report_file, args.output)
    ):
        parser.error(f"--report-file '{shown(args.report_file)}' is the output file")
    return warnings


def fd_of(path: str | None) -> int | None:
    """The open descriptor a path names: ``-`` and ``/dev/stdout`` 1,
    ``/dev/stderr`` 2, ``/dev/fd/N`` and ``/proc/self/fd/N`` N; else None."""
    if path is None:
        return None
    if path == "-":
        return 1
    full = os.path.abspath(path)
    m = _FD_PATH.fullmatch(full)
    return int(m[1]) if m else {"/dev/stdout": 1, "/dev/stderr": 2}.get(full)


def _is_stdout(path: str | None) -> bool:
    return fd_of(path) == 1


def _same_path(a: str, b: str) -> bool:
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samestat(os.stat(a), os.stat(b))
    except OSError:
        return False


# -- the input --------------------------------------------------------------------------


def check_input(path: str) -> os.stat_result:
    """INPUT is a readable regular file with a UTF-8 name (exit 1 otherwise)."""

    def fail(why: str) -> UserError:
        return UserError(f"cannot read '{shown(path)}': {why}")

    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise fail("no such file") from None
    except OSError as e:
        raise fail(_os_reason(e)) from None
    if stat.S_ISDIR(st.st_mode):
        raise fail("is a directory")
    if not stat.S_ISREG(st.st_mode):
        raise fail("not a regular file")
    try:
        os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK))
    except OSError as e:
        raise fail(_os_reason(e)) from None
    if shown(path) != path:
        raise fail(
            "file name is not valid utf-8 (the C parser cannot open it; "
            "rename the file or link it under a utf-8 name)"
        )
    return st


# -- where the results go ---------------------------------------------------------------


@dataclass
class Destination:
    """One file to write: OUTPUT or the report.

    ``kind`` is ``atomic`` (temporary file in ``path``'s folder, renamed over
    ``path``), ``fd`` (write to the open descriptor ``fd``) or ``inplace``
    (open the existing device or FIFO ``path`` and write).
    """

    what: str  # "output" or "report file", for messages
    user: str  # as the user spelled it
    kind: str
    path: str = ""
    fd: int = -1
    temp: str | None = None

    def error(self, why: str) -> UserError:
        return UserError(f"cannot write {self.what} '{shown(self.user)}': {why}")


def plan(what: str, user: str, input_stat: os.stat_result) -> Destination:
    """Check that ``user`` can be written (exit 1 otherwise) and say how."""
    fd = fd_of(user)
    if fd is not None:
        dest = Destination(what, user, "fd", fd=fd)
        try:
            open_file = os.fstat(dest.fd)
        except OSError as e:
            raise dest.error(_os_reason(e)) from None
        if os.path.samestat(open_file, input_stat):
            raise dest.error("it is the input file")
        return dest
    dest = Destination(what, user, "atomic")
    try:
        st: os.stat_result | None = os.stat(user)
    except FileNotFoundError:
        st = None
    except NotADirectoryError:
        raise dest.error(f"'{shown(os.path.dirname(user))}' is not a directory") from None
    except OSError as e:
        raise dest.error(_os_reason(e)) from None
    if st is not None:
        if os.path.samestat(st, input_stat):
            raise dest.error("it is the input file")
        if stat.S_ISDIR(st.st_mode):
            raise dest.error("is a directory")
        if stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode):
            dest.kind, dest.path = "inplace", user
            if not os.access(user, os.W_OK):
                raise dest.error("permission denied")
            return dest
        if not stat.S_ISREG(st.st_mode):
            raise dest.error("not a regular file, character device or fifo")
    # A regular file or a new one; a symlink (even a dangling one) is
    # written through: its target is replaced, the link stays.
    dest.path = os.path.realpath(user)
    folder = os.path.dirname(dest.path)
    # Name the folder as the user wrote it, unless a symlink led elsewhere.
    named = shown(folder if os.path.islink(user) else os.path.dirname(user) or ".")
    if not os.path.exists(folder):
        raise dest.error(f"directory '{named}' does not exist")
    if not os.path.isdir(folder):
        raise dest.error(f"'{named}' is not a directory")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise dest.error(f"directory '{named}' is not writable")
    return dest


@contextmanager
def _signals_held() -> Iterator[None]:
    """Hold SIGINT/SIGTERM back while temporary files are created, written,
    renamed or removed, so that an interrupt never leaves one behind; a held
    signal is delivered when the block ends."""
    sigs = {signal.SIGINT, signal.SIGTERM}
    old = signal.pthread_sigmask(signal.SIG_BLOCK, sigs)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def stage(dest: Destination, data: bytes) -> None:
    """Write ``data`` to a temporary file next to an ``atomic`` destination."""
    if dest.kind != "atomic":
        return
    with _signals_held():
        try:
            fd, dest.temp = tempfile.mkstemp(prefix=TEMP_PREFIX, dir=os.path.dirname(dest.path))
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            try:
                mode = os.stat(dest.path).st_mode & 0o7777
            except FileNotFoundError:
                mode = 0o666 & ~_umask()
            os.chmod(dest.temp, mode)
        except OSError as e:
            discard(dest)
            raise dest.error(_os_reason(e)) from None
        except BaseException:
            discard(dest)
            raise


def discard(dest: Destination) -> None:
    with _signals_held():
        if dest.temp is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(dest.temp)
            dest.temp = None


def commit(dest: Destination, data: bytes) -> None:
    """Put ``data`` in place: rename the staged file, or write the descriptor
    or device."""
    try:
        if dest.kind == "atomic":
            assert dest.temp is not None
            with _signals_held():
                os.replace(dest.temp, dest.path)
                dest.temp = None
        elif dest.kind == "fd":
            if dest.fd in (1, 2):
                stream = sys.stdout if dest.fd == 1 else sys.stderr
                if stream is not None:
                    stream.flush()
            _write_all(dest.fd, data)
        else:
            fd = os.open(dest.path, os.O_WRONLY)  # never O_CREAT: no new file here
            try:
                _write_all(fd, data)
            finally:
                os.close(fd)
    except OSError as e:
        raise dest.error(_os_reason(e)) from None


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def write_all(dests: list[tuple[Destination, bytes]]) -> None:
    """Stage every atomic destination, then commit all; on a failure before
    the first commit nothing has been touched."""
    try:
        for dest, data in dests:
            stage(dest, data)
        for dest, data in dests:
            commit(dest, data)
    finally:
        for dest, _ in dests:
            discard(dest)


# -- main -------------------------------------------------------------------------------


def _raise_interrupted(signum: int, frame: object) -> None:
    raise _Interrupted(128 + signum)


def main(argv: Sequence[str] | None = None) -> int:
    # SIGINT keeps Python's handler (KeyboardInterrupt); SIGTERM would end
    # the process without any clean-up.
    try:
        old_term = signal.signal(signal.SIGTERM, _raise_interrupted)
    except ValueError:  # not the main thread (an embedding program)
        old_term = None
    try:
        return _main(argv)
    except (KeyboardInterrupt, _Interrupted) as e:
        status = e.status if isinstance(e, _Interrupted) else 128 + signal.SIGINT
        _say("s2svec: error: interrupted")
        return status
    except Exception as e:
        if os.environ.get(DEBUG_ENV):
            traceback.print_exc()
        text = str(e).strip().splitlines()
        short = f"{type(e).__name__}: {text[0]}" if text else type(e).__name__
        if len(short) > 200:
            short = short[:197] + "..."
        _say(f"s2svec: internal error: {short}; please report this")
        return EXIT_FAILED
    finally:
        if old_term is not None:
            signal.signal(signal.SIGTERM, old_term)


def _say(line: str) -> None:
    # When stderr is closed the exit status has to do.
    with contextlib.suppress(OSError, ValueError, AttributeError):
        print(line, file=sys.stderr, flush=True)


def _main(argv: Sequence[str] | None) -> int:
    from . import driver

    parser = build_parser()
    try:
        own, flags = split(list(sys.argv[1:] if argv is None else argv))
    except FlagError as e:
        parser.error(str(e))
    args = parser.parse_args(own)
    try:
        targets = driver.resolve_targets(_target_spec(args, flags))
    except ValueError as e:
        parser.error(str(e))  # exits with status 2
    usage_warnings = check_usage(parser, args, flags, targets)
    check = _check_command(parser, args.check_branches)
    from .pipeline import PASS_NAMES

    for name in args.print_after:
        if name not in PASS_NAMES:
            parser.error(f"--print-after: unknown pass '{name}' (passes: {', '.join(PASS_NAMES)})")
    options = driver.Options(
        targets=targets,
        preprocessor=_preprocessor(flags),
        offload=flags.offload,
        std=args.std or flags.std or "gnu17",
        math=args.math,
        simdlen=args.simdlen,
        boscc=not args.no_boscc,
        all_true=not args.no_all_true,
        refill=not args.no_refill,
        refill_ratio=args.refill_ratio,
        boscc_threshold=args.boscc_threshold,
        emit_cfg=args.emit_cfg,
        print_shapes=args.print_shapes,
        print_after=args.print_after,
        interleave=args.interleave,
        line_directives=args.input if args.line_directives else None,
    )
    try:
        input_stat = check_input(args.input)
        output = plan("output", args.output, input_stat)
        report = (
            plan("report file", args.report_file, input_stat)
            if args.report_file is not None
            else None
        )
        if (
            args.emit_cfg is not None
            and os.path.exists(args.emit_cfg)
            and not os.path.isdir(args.emit_cfg)
        ):
            raise UserError(f"cannot write cfg files to '{shown(args.emit_cfg)}': not a directory")
        for w in usage_warnings:
            print(w, file=sys.stderr)
        try:
            result = driver.run(args.input, options)
        except OSError as e:  # --emit-cfg files, templates
            where = f"{shown(e.filename)}: " if isinstance(e.filename, str) else ""
            raise UserError(f"{where}{_os_reason(e)}") from None
        if check is not None:
            result.warnings += _check_branches(result, check, flags, args.input)
        report_text = (
            _report_text(result, args.report, to_stderr=report is None) if args.report else ""
        )
        writes = [(output, result.output)]
        if report is not None:
            writes.append((report, report_text.encode()))
        write_all(writes)
    except UserError as e:
        print(e.format(), file=sys.stderr)
        return EXIT_FAILED
    for warning in result.warnings:
        print(warning, file=sys.stderr)
    if args.report and report is None:
        sys.stderr.write(report_text)
    return EXIT_OK


def _check_command(parser: argparse.ArgumentParser, spec: str | None) -> list[str] | None:
    """The compiler command of ``--check-branches=CC`` (exit 2 when empty
    or badly quoted)."""
    if spec is None:
        return None
    try:
        words = shlex.split(spec)
    except ValueError as e:
        parser.error(f"--check-branches '{shown(spec)}': {e}")
    if not words:
        parser.error("--check-branches needs a compiler command (gcc, clang-19)")
    return words


def _check_branches(
    result: Result, compiler: list[str], flags: CompilerFlags, source: str
) -> list[str]:
    """--check-branches: the build's branch of every vectorized region
    (s2s.branch_check); the compiler gets the flags given to s2svec, less
    the ``--target=`` of its own triple (what s2svec-cc adds)."""
    from .branch_check import Build, check_branches

    triples = any(f.startswith(("--target=", "-target")) for f in flags.given)
    own = compiler_triple(tuple(compiler)) if triples else None
    build = Build(compiler, preprocessing_flags(flags.given, own), source)
    return check_branches(result.reports, result.targets, result.output, build)


def _target_spec(args: argparse.Namespace, flags: CompilerFlags) -> str:
    """--target, else what the -m/-march/--target=TRIPLE flags enable, else
    the default list."""
    from .codegen.target import selections
    from .driver import default_targets

    if args.target is not None:
        return str(args.target)
    chosen = targets_for(flags.machine, _host(), list(selections()))
    return ",".join(chosen or default_targets())


def _host() -> str | None:
    """The host's target for -march=native; None on a host with none."""
    from .driver import host_target

    try:
        return host_target()
    except ValueError:
        return None


def _preprocessor(flags: CompilerFlags) -> list[str]:
    """The parser's preprocessor flags: ``_OPENMP`` first when -fopenmp is
    given (so a later -U removes it), then the user's in their order."""
    implied = [f"-D_OPENMP={OPENMP_VERSION}"] if flags.openmp else []
    return implied + parser_args(flags.parser)


def _report_text(result: Result, kind: str, to_stderr: bool) -> str:
    """The report; on stderr the text form leaves out the remarks of loops
    not vectorized: each has its warning there already, with the reason."""
    if kind == "json":
        return result.report_json()
    if to_stderr:
        from .report import render_text

        return render_text([r for r in result.reports if r.vectorized])
    return result.report_text()


if __name__ == "__main__":
    sys.exit(main())
