"""s2svec-cc: a C compiler wrapper that vectorizes every C file it compiles.

    make CC="s2svec-cc gcc"        make CC="s2svec-cc clang-19"
    S2SVEC_FLAGS="--report" make CC="s2svec-cc gcc"

``s2svec-cc CC ARGS...`` runs ``CC ARGS...`` with each ``.c`` file of a
compile step replaced by its translation:

* A compile step (``-c``, ``-S``, or a compile-and-link) translates each
  ``.c`` operand with exactly the compiler's flags (``compiler_flags``),
  ``--target=`` the compiler's triple (``CC -dumpmachine``, so an AArch64
  compiler gets NEON code), ``--line-directives``, ``--check-branches=CC``
  (a warning at each loop whose announced vector code this compiler and
  these flags do not compile, ``s2s.branch_check``) and the options of
  ``S2SVEC_FLAGS``.  The translation is written to a fresh temporary folder
  under the file's own name, so the compiler's default object and dependency
  names are unchanged, and compiled with ``-iquote`` the file's folder, so
  ``#include "x.h"`` finds what it found next to the file.  ``#line``
  directives make diagnostics, ``__FILE__`` and debug information name the
  user's file and lines (``-fdebug-prefix-map`` the compilation unit's).
* A gcc that offloads target regions by default (an offload compiler
  installed, no ``-foffload=``) counts as ``-foffload=<device>``: loops
  that may run on the device stay scalar.
* A file without the word ``omp`` has nothing to vectorize: it is compiled
  as it is, without starting s2svec.
* Dependency files (``-MD``/``-MMD``, ``-MF``) name the user's file, not
  the translation.
* Any failure falls back to the original file, with a warning: s2svec
  fails on a file (its message is shown), or the translation does not
  compile while the original does.
* A link step on x86-64 adds ``-lmvec -lm`` at the end (glibc's vector math
  library, which ``--math vector`` code calls; with no call into it the
  linker records a dependency on a glibc library and nothing else).  Not
  with ``-nostdlib``/``-nodefaultlibs``, nor for AArch64 or RISC-V (the
  compiler's triple, or clang's ``--target=``), whose glibc 2.36 has no
  libmvec (their code calls scalar libm).
* ``-E``, ``-M``, ``-MM``, ``-fsyntax-only`` and calls without a ``.c``
  file (``--version``, ``-dumpmachine``) run the compiler unchanged.

A launcher may come first (``make CC="s2svec-cc ccache gcc"``): the words
up to the first flag or file that are commands on PATH name the compiler.

Exit status: the compiler's; 2 when no compiler is given.
"""

from __future__ import annotations

import contextlib
import io
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field

from .compiler_flags import OFFLOAD_FLAGS, compiler_triple, default_offload, split

PROG = "s2svec-cc"
FLAGS_ENV = "S2SVEC_FLAGS"
VECTOR_MATH_LIBS = ["-lmvec", "-lm"]
_NO_COMPILE = {"-E", "-M", "-MM", "-fsyntax-only"}
_NO_DEFAULT_LIBS = {"-nostdlib", "-nodefaultlibs", "-nolibc"}


@dataclass
class Step:
    """One compiler command and the C files it compiles."""

    cc: list[str]
    args: list[str]
    sources: list[int] = field(default_factory=list)
    """Indices in ``args`` of the ``.c`` operands."""
    flags: list[str] = field(default_factory=list)
    """The compiler flags (and their values), in order."""
    has_operands: bool = False
    """Files to compile or link (not only ``--version``)."""

    @property
    def compiles(self) -> bool:
        return bool(self.sources) and not _NO_COMPILE.intersection(self.args)

    @property
    def links(self) -> bool:
        stops = {"-c", "-S"} | _NO_COMPILE
        return not stops.intersection(self.args) and self.has_operands


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] in (["-h"], ["--help"]):
        print(f"usage: {PROG} CC [compiler arguments...]\n\n{__doc__}")
        return 0
    if not args or args[0].startswith("-"):
        _say(f'usage: {PROG} CC [compiler arguments...]   (make CC="{PROG} gcc"; {PROG} --help)')
        return 2
    if shutil.which(args[0]) is None:
        _say(f"{PROG}: error: {args[0]}: command not found")
        return 127
    words = _compiler_words(args)
    step = plan(args[:words], args[words:])
    extra = _link_libraries(step)
    if not step.compiles:
        return _run(step.cc + step.args + extra)
    work = tempfile.mkdtemp(prefix="s2svec-cc-")
    try:
        return _compile_translated(step, work, extra)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _compiler_words(args: list[str]) -> int:
    """How many words name the compiler: ``gcc``, or a launcher and the
    compiler (``ccache gcc``): commands on PATH that are not files here."""
    n = 1
    while (
        n < len(args)
        and not args[n].startswith("-")
        and not os.path.exists(args[n])
        and shutil.which(args[n]) is not None
    ):
        n += 1
    return n


def plan(cc: list[str], args: list[str]) -> Step:
    """Which operands of ``args`` are C files to translate."""
    _, flags = split(args)
    step = Step(cc, args, flags=flags.given)
    skip_next = False
    for k in flags.others:
        arg = args[k]
        if skip_next or arg == "-o":
            skip_next = arg == "-o"
            continue
        if arg.startswith("-o") or arg.startswith("--"):
            continue
        step.has_operands = True
        if arg.endswith(".c") and os.path.isfile(arg):
            step.sources.append(k)
    return step


def _compile_translated(step: Step, work: str, extra: list[str]) -> int:
    translated: dict[str, str] = {}
    failures: list[str] = []
    for k in step.sources:
        source = step.args[k]
        out, messages = translate(step, source, os.path.join(work, str(k)))
        if out is not None:
            translated[source] = out
            _err(messages or "")
        elif messages is not None:
            failures.append(
                messages + f"{PROG}: warning: {source}: s2svec failed; "
                "compiling the original file\n"
            )
    if not translated:
        return _compile_original(step, extra, failures)
    args = [translated.get(a, a) if k in step.sources else a for k, a in enumerate(step.args)]
    folders = dict.fromkeys(os.path.dirname(s) or "." for s in translated)
    quote = [f for folder in folders for f in ("-iquote", folder)]
    # Debug information names the user's folder, not the temporary one.
    debug = [
        f"-fdebug-prefix-map={os.path.dirname(t)}={os.path.dirname(s) or '.'}"
        for s, t in translated.items()
    ]
    done = _capture(step.cc + quote + debug + args + extra)
    if done.returncode != 0:
        names = ", ".join(translated)
        failures.append(
            done.stderr.decode(errors="replace") + f"{PROG}: warning: the "
            f"vectorized translation of {names} did not compile (please "
            "report this); compiling the original file\n"
        )
        return _compile_original(step, extra, failures)
    _err(done.stderr)
    for depfile in _dependency_files(step):
        fix_dependency_file(depfile, {t: s for s, t in translated.items()})
    return 0


def translate(step: Step, source: str, folder: str) -> tuple[str | None, str | None]:
    """The translation of ``source`` and what s2svec said (its warnings);
    ``(None, why)`` when s2svec failed, ``(None, None)`` when there is
    nothing to translate: compile the original then."""
    try:
        with open(source, "rb") as handle:
            if b"omp" not in handle.read():
                return None, None  # no pragma: nothing to vectorize
    except OSError:
        return None, None  # the compiler says why
    os.makedirs(folder)
    out = os.path.join(folder, os.path.basename(source))
    from .cli import main as s2svec

    triple = _triple(tuple(step.cc))
    target = [f"--target={triple}"] if triple else []
    target += _offload(step)
    try:
        user = shlex.split(os.environ.get(FLAGS_ENV, ""))
    except ValueError as e:
        return None, f"{PROG}: error: {FLAGS_ENV}: {e}\n"
    said = io.StringIO()
    with contextlib.redirect_stderr(said):
        try:
            status = s2svec(
                [
                    *target,
                    *step.flags,
                    "--line-directives",
                    f"--check-branches={shlex.join(step.cc)}",
                    source,
                    "-o",
                    out,
                    *user,
                ]
            )
        except SystemExit as e:  # bad usage: argparse exits
            status = e.code if isinstance(e.code, int) else 2
    return (out if status == 0 else None), said.getvalue()


def _compile_original(step: Step, extra: list[str], failures: list[str]) -> int:
    """Compile the user's files as they are.  What went wrong before is
    shown when they compile: when they do not, the compiler's errors are
    the user's to fix, and s2svec's would only repeat them."""
    if not failures:
        return _run(step.cc + step.args + extra)
    done = _capture(step.cc + step.args + extra)
    if done.returncode == 0:
        _err("".join(failures))
    _err(done.stderr)
    return done.returncode


def _capture(command: list[str]) -> subprocess.CompletedProcess[bytes]:
    """Run the compiler, its messages kept for later."""
    return subprocess.run(command, stderr=subprocess.PIPE, check=False)


def _dependency_files(step: Step) -> list[str]:
    """The files ``-MD``/``-MMD`` made: ``-MF F``, else ``-o``'s name with
    ``.d``, else each source's base name with ``.d`` (gcc's and clang's rule)."""
    args = step.args
    if not {"-MD", "-MMD"}.intersection(args):
        return []
    for k, arg in enumerate(args):
        if arg == "-MF" and k + 1 < len(args):
            return [args[k + 1]]
        if arg.startswith("-MF") and len(arg) > 3:
            return [arg[3:]]
    output = _output(args)
    if output is not None:  # also for compile and link in one: prog.d
        return [os.path.splitext(output)[0] + ".d"]
    return [os.path.splitext(os.path.basename(args[k]))[0] + ".d" for k in step.sources]


def _output(args: list[str]) -> str | None:
    for k, arg in enumerate(args):
        if arg == "-o" and k + 1 < len(args):
            return args[k + 1]
        if arg.startswith("-o") and len(arg) > 2:
            return arg[2:]
    return None


def fix_dependency_file(path: str, users: dict[str, str]) -> None:
    """Name the user's file where the compiler named the translation."""
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as handle:
            text = handle.read()
    except OSError:
        return
    for temporary, user in users.items():
        text = text.replace(temporary, _make_escaped(user))
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as handle:
        handle.write(text)


def _make_escaped(path: str) -> str:
    """A file name as make reads it in a rule (as gcc writes it)."""
    return path.replace("$", "$$").replace("#", "\\#").replace(" ", "\\ ")


def _link_libraries(step: Step) -> list[str]:
    if not step.links or _NO_DEFAULT_LIBS.intersection(step.args):
        return []
    # the target the link is for: clang's --target= (the last one), else the
    # compiler's own triple
    given = [a.partition("=")[2] for a in step.args if a.startswith("--target=")]
    triple = given[-1] if given else _triple(tuple(step.cc)) or ""
    return VECTOR_MATH_LIBS if triple.startswith("x86_64") else []


def _offload(step: Step) -> list[str]:
    """``-foffload=T`` when the compiler offloads target regions to T by
    default (a gcc with an offload compiler installed: ``default_offload``)
    and the flags say nothing about offloading: s2svec then leaves the
    loops that may run on the device scalar."""
    if "-fopenmp" not in step.flags or any(f.startswith(OFFLOAD_FLAGS) for f in step.flags):
        return []
    device = default_offload(tuple(step.cc))
    return [f"-foffload={device}"] if device else []


def _triple(cc: tuple[str, ...]) -> str | None:
    """The compiler's target triple (``x86_64-linux-gnu``), if it says."""
    return compiler_triple(cc)


def _run(command: list[str]) -> int:
    try:
        return subprocess.run(command, check=False).returncode
    except FileNotFoundError:
        _say(f"{PROG}: error: {command[0]}: command not found")
        return 127
    except OSError as e:
        _say(f"{PROG}: error: {command[0]}: {e.strerror}")
        return 126


def _err(text: str | bytes) -> None:
    """Messages in the order they were made (text and bytes share stderr)."""
    sys.stderr.flush()
    if isinstance(text, bytes):
        sys.stderr.buffer.write(text)
        sys.stderr.buffer.flush()
    else:
        sys.stderr.write(text)
        sys.stderr.flush()


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
