"""The C compiler's flags on s2svec's command line, as gcc reads them.

s2svec takes the flags the compiler gets (``s2svec $(CPPFLAGS) $(CFLAGS) x.c
-o x_simd.c``, and ``s2svec-cc`` passes them all), so that the file is parsed
as the compiler will see it.  Each flag has one of these kinds (``FLAGS``):

    kind        what s2svec does with it                 examples
    ----------  ---------------------------------------  -----------------------------
    parser      handed to the C parser, in command-line  -D -U -I -isystem -iquote
                order                                    -idirafter -include -imacros
                                                         --sysroot
    std         the C standard of the parse              -std=gnu11
    machine     chooses the target set when --target is  -march= -mcpu= -mavx2 -mavx512f
                not given (``targets_for``, from the     -target / --target=TRIPLE
                targets' ``[select]`` data)
    openmp      the parse defines _OPENMP (201511, the   -fopenmp
                value gcc 12 defines)
    offload     target regions may run on an offload     -fopenmp-targets=T (clang)
                device: ``target ... simd`` loops and    --offload-arch=A (clang)
                loops in target regions stay scalar      -foffload=T (gcc; not
                                                         -foffload=disable)
    ignored     accepted; the output does not change     -O2 -g -Wall -fPIC -MMD -MF F
                                                         -c -pipe -pthread -x c -l m

A flag that takes a value takes it joined (``-DX``, ``-Ifoo``) or as the next
argument (``-D X``), as gcc does; ``-std=``, ``-march=`` and the like only
joined.  Any other single-dash flag (``-Xfoo``) is accepted and ignored and
takes no value: gcc's unknown flags are boolean ones, and a flag that takes
a separate value must be in the table so its value is not read as a file.
Options starting with ``--`` are s2svec's own, except ``--target=TRIPLE``
(a value with a ``-``, as every triple has) and ``--sysroot``/``--param``.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
from dataclasses import dataclass, field

PARSER, STD, MACHINE, OPENMP, OFFLOAD, IGNORED = (
    "parser",
    "std",
    "machine",
    "openmp",
    "offload",
    "ignored",
)

OPENMP_VERSION = "201511"
"""``_OPENMP`` as gcc 12 defines it with ``-fopenmp`` (OpenMP 4.5)."""


@dataclass(frozen=True)
class Flag:
    """One row of the table: a flag's spelling and how it takes its value."""

    name: str
    kind: str
    value: str = "none"
    """``none``; ``joined``: only glued to the name (``-std=c11``, the name
    ends with ``=`` or is a prefix such as ``-O``); ``both``: glued or the
    next argument (``-DX``, ``-D X``); ``separate``: always the next one."""


FLAGS: tuple[Flag, ...] = (
    Flag("-D", PARSER, "both"),
    Flag("-U", PARSER, "both"),
    Flag("-I", PARSER, "both"),
    Flag("-isystem", PARSER, "both"),
    Flag("-iquote", PARSER, "both"),
    Flag("-idirafter", PARSER, "both"),
    Flag("-include", PARSER, "both"),
    Flag("-imacros", PARSER, "both"),
    Flag("--sysroot=", PARSER, "joined"),
    Flag("--sysroot", PARSER, "separate"),
    Flag("-nostdinc", PARSER),
    Flag("-std=", STD, "joined"),
    Flag("-ansi", STD),
    # inline semantics: which inline definitions are emitted (frontend.linkage)
    Flag("-fgnu89-inline", PARSER),
    Flag("-fno-gnu89-inline", PARSER),
    Flag("-march=", MACHINE, "joined"),
    Flag("-mcpu=", MACHINE, "joined"),
    Flag("-target", MACHINE, "separate"),
    Flag("--target=", MACHINE, "joined"),
    Flag("-m", MACHINE, "joined"),
    Flag("-fopenmp", OPENMP),
    Flag("-fno-openmp", OPENMP),
    Flag("-fopenmp-targets=", OFFLOAD, "joined"),
    Flag("--offload-arch=", OFFLOAD, "joined"),
    Flag("-foffload=", OFFLOAD, "joined"),
    # the device compiler's flags: not the host's (-Xopenmp-target -march=sm_70)
    Flag("-Xopenmp-target", IGNORED, "separate"),
    Flag("-Xopenmp-target=", IGNORED, "joined-separate"),
    Flag("-Xoffload-linker", IGNORED, "separate"),
    # Flags with a separate value: the value must not be taken for a file.
    Flag("-MF", IGNORED, "both"),
    Flag("-MT", IGNORED, "both"),
    Flag("-MQ", IGNORED, "both"),
    Flag("-x", IGNORED, "both"),
    Flag("-l", IGNORED, "both"),
    Flag("-L", IGNORED, "both"),
    Flag("-Xlinker", IGNORED, "separate"),
    Flag("-Xassembler", IGNORED, "separate"),
    Flag("-Xpreprocessor", IGNORED, "separate"),
    Flag("-Xclang", IGNORED, "separate"),
    Flag("-aux-info", IGNORED, "separate"),
    Flag("--param", IGNORED, "separate"),
    Flag("--param=", IGNORED, "joined"),
    Flag("-T", IGNORED, "both"),
    Flag("-u", IGNORED, "both"),
    Flag("-z", IGNORED, "both"),
    Flag("-iprefix", IGNORED, "separate"),
    Flag("-iwithprefix", IGNORED, "separate"),
    Flag("-iwithprefixbefore", IGNORED, "separate"),
    Flag("-isysroot", IGNORED, "separate"),
)
"""In no particular order: ``_match`` takes an exact name, else the longest
name that is a prefix of the argument."""

STANDARDS = frozenset(
    f"{family}{year}"
    for family in ("c", "gnu")
    for year in ("89", "90", "99", "9x", "11", "1x", "17", "18", "2x", "23")
) | frozenset(f"iso9899:{y}" for y in ("1990", "199409", "1999", "2011", "2017", "2018"))
"""The C standards libclang and gcc both know (``-std=``)."""


@dataclass
class CompilerFlags:
    """What s2svec takes from the compiler's flags, in command-line order."""

    parser: list[tuple[str, str]] = field(default_factory=list)
    """``-D``/``-U``/``-I``... as ``(name, value)``, in order (value "" for
    ``-nostdinc``)."""
    std: str | None = None
    machine: list[str] = field(default_factory=list)
    """``-m*``, ``-march=``, ``-mcpu=`` and triples (as ``--target=T``)."""
    openmp: bool = False
    offload: str | None = None
    """The flag that makes target regions run on an offload device
    (``-fopenmp-targets=nvptx64``), None when they run on the host."""
    ignored: list[str] = field(default_factory=list)
    given: list[str] = field(default_factory=list)
    """Every argument read as a compiler flag or its value, as given."""
    others: list[int] = field(default_factory=list)
    """Where the other arguments (files, ``-o F``, s2svec's options) are."""


class FlagError(ValueError):
    """Bad usage: a flag without its value, an unknown -std."""


def split(argv: list[str]) -> tuple[list[str], CompilerFlags]:
    """s2svec's own arguments (for argparse) and the compiler's flags."""
    own: list[str] = []
    flags = CompilerFlags()
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            own.extend(argv[i:])
            flags.others.extend(range(i, len(argv)))
            break
        match = _match(arg)
        if match is None:
            own.append(arg)
            flags.others.append(i)
            i += 1
            continue
        flag, value, used = _value(match, argv, i)
        _record(flags, flag, value, arg)
        flags.given += argv[i : i + used]
        i += used
    return own, flags


def _match(arg: str) -> Flag | None:
    """The table row ``arg`` is, or None for s2svec's own arguments."""
    if not arg.startswith("-") or arg == "-" or arg in ("-o", "-h"):
        return None
    if arg.startswith("--"):
        name, eq, value = arg.partition("=")
        if name == "--target":
            return _by_name["--target="] if _is_triple(value) else None  # a target list
        if name in ("--sysroot", "--param", "--offload-arch"):
            return _by_name.get(name + eq)
        return None
    if arg.startswith("-o"):
        return None  # -oFILE: s2svec's output
    if arg in _by_name:
        return _by_name[arg]
    prefixes = [
        f for f in FLAGS if f.value != "none" and f.value != "separate" and arg.startswith(f.name)
    ]
    if prefixes:
        return max(prefixes, key=lambda f: len(f.name))
    return Flag(arg, IGNORED)  # -O2 -g -Wall -c -pipe -pthread and unknown ones


_by_name = {f.name: f for f in FLAGS}


def _value(flag: Flag, argv: list[str], i: int) -> tuple[Flag, str, int]:
    """The flag, its value and how many arguments they take."""
    arg = argv[i]
    if flag.value == "none":
        return flag, "", 1
    if flag.value == "joined-separate":  # -Xopenmp-target=T ARG
        if i + 1 >= len(argv):
            raise FlagError(f"missing argument to '{arg}'")
        return flag, argv[i + 1], 2
    if arg != flag.name:
        return flag, arg[len(flag.name) :], 1  # joined: -DX, -std=c11
    if flag.value == "joined":
        return flag, "", 1
    if i + 1 >= len(argv):
        raise FlagError(f"missing argument to '{arg}'")
    return flag, argv[i + 1], 2


def _record(flags: CompilerFlags, flag: Flag, value: str, arg: str) -> None:
    if flag.kind == PARSER:
        flags.parser.append((flag.name.rstrip("="), value))
    elif flag.kind == STD:
        std = "c89" if flag.name == "-ansi" else value
        if std not in STANDARDS:
            raise FlagError(
                f"invalid value '{value}' in '-std={value}' (C standards: "
                "c89 c99 c11 c17 c23 and the gnu* ones)"
            )
        flags.std = std
    elif flag.kind == MACHINE:
        triple = flag.name in ("-target", "--target=")
        flags.machine.append(f"--target={value}" if triple else arg)
    elif flag.kind == OPENMP:
        flags.openmp = flag.name == "-fopenmp"
    elif flag.kind == OFFLOAD:
        # gcc: -foffload=disable turns it off; an empty list offloads nothing
        off = not value or (flag.name == "-foffload=" and value == "disable")
        flags.offload = None if off else arg
    else:
        flags.ignored.append(arg)


def _is_triple(value: str) -> bool:
    return "-" in value


# -- the targets the machine flags select -------------------------------------------------


@dataclass(frozen=True)
class Selection:
    """How compiler flags select one s2svec target: the ``[select]`` table
    of its ``target.toml`` (templates/README.md).  Names in ``march`` and
    ``mcpu`` are prefixes (``icelake`` takes ``icelake-server``), those in
    ``flags`` when they end in ``*``."""

    name: str
    arch: str
    """The architecture (targets of one architecture share a view)."""
    rank: int
    """Wider ISAs of an architecture rank higher."""
    triples: tuple[str, ...] = ()
    """Prefixes of the ``--target=`` triples of the architecture."""
    base: bool = False
    """What a triple of the architecture selects by itself."""
    march: tuple[str, ...] = ()
    """``-march=``/``-mcpu=`` names with the ISA (``x86-64-v3``, ``armv9``)."""
    mcpu: tuple[str, ...] = ()
    """``-mcpu=`` names only (cores)."""
    any_mcpu: bool = False
    """Any other ``-mcpu=`` names a core of this architecture."""
    extensions: tuple[str, ...] = ()
    """``-march=...+ext`` that add the ISA (``+sve``)."""
    no_extensions: tuple[str, ...] = ()
    """``-march=...+ext`` that take it away (``+nosve``)."""
    flags: tuple[str, ...] = ()
    """Flags that enable it (``-mavx2``, ``-mavx512*``)."""
    off: tuple[str, ...] = ()
    """Flags that disable it (and every wider ISA of the architecture)."""
    also: tuple[str, ...] = ()
    """The narrower targets the output keeps beside it (``avx2`` beside
    ``avx512``: taken when the flags lack a subset the wider code needs)."""
    cpuinfo: str = ""
    """The ``/proc/cpuinfo`` flag of a host that runs it (-march=native)."""


def _flagged(flag: str, patterns: tuple[str, ...]) -> bool:
    return any(flag.startswith(p[:-1]) if p.endswith("*") else flag == p for p in patterns)


def targets_for(machine: list[str], host: str | None, table: list[Selection]) -> list[str] | None:
    """The target list the machine flags ask for, or None to keep the default.

    The flags apply left to right and the widest ISA they enable decides
    (``table``: how each target is selected): its target and the narrower
    ones it keeps (AVX-512 flags give ``avx512,avx2``, ``-march=...+sve``
    ``sve,neon``); a triple selects its architecture's base target
    (``neon``, ``rvv``), or with no ISA flag every target of an
    architecture without one (x86-64: ``avx512,avx2``); ``-march=native``
    the host's.  Flags naming none (``-m64``, ``-mtune=``,
    ``-march=x86-64-v2``) keep the default list."""
    by_name = {s.name: s for s in table}
    level: Selection | None = None
    arch: str | None = None
    for flag in machine:
        name, _, value = flag.partition("=")
        if name == "--target":
            arch = _arch_of(value, table) or arch
            level = _base(arch, table) or level
        elif name in ("-march", "-mcpu"):
            level = _cpu(name, value, level, by_name.get(host or ""), table)
        else:
            level = _feature_flag(flag, level, table)
    if level is None:
        of_arch = [s for s in table if s.arch == arch]
        return _listed(max(of_arch, key=lambda s: s.rank)) if of_arch else None
    return _listed(level)


def _listed(s: Selection) -> list[str]:
    return [s.name, *s.also]


def _arch_of(triple: str, table: list[Selection]) -> str | None:
    return next((s.arch for s in table if triple.startswith(s.triples)), None)


def _base(arch: str | None, table: list[Selection]) -> Selection | None:
    return next((s for s in table if s.arch == arch and s.base), None)


def _cpu(
    name: str, value: str, level: Selection | None, host: Selection | None, table: list[Selection]
) -> Selection | None:
    """The target after ``-march=value`` / ``-mcpu=value``."""
    cpu, *extensions = value.split("+")
    if cpu == "native":
        return host
    hits = [
        s for s in table if cpu.startswith(s.march) or (name == "-mcpu" and cpu.startswith(s.mcpu))
    ]
    if not hits and name == "-mcpu":
        hits = [s for s in table if s.any_mcpu]
    if not hits:
        return level
    chosen = max(hits, key=lambda s: s.rank)
    for ext in extensions:
        for s in (s for s in table if s.arch == chosen.arch):
            if ext in s.extensions and s.rank > chosen.rank:
                chosen = s
            elif ext in s.no_extensions and chosen.rank >= s.rank:
                chosen = _below(s, table) or chosen
    return chosen


def _feature_flag(flag: str, level: Selection | None, table: list[Selection]) -> Selection | None:
    """The target after an ISA flag (``-mavx2``, ``-mno-avx512f``); the
    flags of another architecture than the chosen target's do nothing."""
    for s in table:
        if level is not None and level.arch != s.arch:
            continue
        if _flagged(flag, s.flags):
            return s if level is None or level.rank < s.rank else level
        if flag in s.off:
            return _below(s, table) if level is not None and level.rank >= s.rank else level
    return level


def _below(s: Selection, table: list[Selection]) -> Selection | None:
    """The widest target of the architecture narrower than ``s``."""
    lower = [t for t in table if t.arch == s.arch and t.rank < s.rank]
    return max(lower, key=lambda t: t.rank) if lower else None


def host_target_of(machine: str, cpuinfo: str, table: list[Selection]) -> str:
    """The widest target a host of this ``uname`` machine and
    ``/proc/cpuinfo`` text runs (ValueError: none)."""
    runs = [
        s
        for s in table
        if s.arch == machine and s.cpuinfo and re.search(rf"\b{re.escape(s.cpuinfo)}\b", cpuinfo)
    ]
    if not runs:
        names = ", ".join(sorted(s.name for s in table if s.cpuinfo))
        raise ValueError(f"the host has none of the supported ISAs ({names})")
    return max(runs, key=lambda s: s.rank).name


_NOT_FOR_PREPROCESSING = frozenset(
    (
        "-c",
        "-S",
        "-E",
        "-M",
        "-MM",
        "-MD",
        "-MMD",
        "-MP",
        "-MG",
        "-MF",
        "-MT",
        "-MQ",
        "-x",
        "-fsyntax-only",
    )
)
"""What ``preprocessing_flags`` leaves out: flags that choose the output
(or write dependency files) rather than how the code reads."""


def preprocessing_flags(given: list[str], own_triple: str | None = None) -> list[str]:
    """The compiler flags ``given`` (``CompilerFlags.given``) for a
    ``CC -E`` run that reads the file as the compile does: without output
    and dependency flags, and without ``--target=own_triple`` (what
    ``s2svec-cc`` adds to choose the targets; the compiler's own triple)."""
    kept: list[str] = []
    i = 0
    while i < len(given):
        try:
            flag, value, used = _value(_match(given[i]) or Flag(given[i], IGNORED), given, i)
        except FlagError:
            break  # not from ``split``: a flag without its value ends the list
        own = flag.name in ("--target=", "-target") and value == own_triple
        dropped = flag.name in _NOT_FOR_PREPROCESSING or flag.name.startswith("-save-temps")
        if not (own or dropped):
            kept += given[i : i + used]
        i += used
    return kept


@functools.cache
def compiler_triple(cc: tuple[str, ...]) -> str | None:
    """The compiler's target triple (``x86_64-linux-gnu``), if it says
    (``CC -dumpmachine``; asked once per compiler command)."""
    try:
        done = subprocess.run(
            [*cc, "-dumpmachine"], capture_output=True, text=True, timeout=60, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    answer = done.stdout.strip()
    return answer if done.returncode == 0 and answer and " " not in answer else None


@functools.cache
def default_offload(cc: tuple[str, ...]) -> str | None:
    """The device gcc compiles target regions for when ``-fopenmp`` comes
    without ``-foffload=``: a gcc configured with offload targets
    (``OFFLOAD_TARGET_NAMES`` in ``CC -v``) offloads to each whose
    compiler is installed (Debian's gcc-12-offload-nvptx puts it where
    ``CC -print-prog-name=accel/nvptx-none/mkoffload`` finds it).  None
    when it offloads nothing by default (so does clang, without
    ``-fopenmp-targets=``); asked once per compiler command."""
    try:
        done = subprocess.run([*cc, "-v"], capture_output=True, text=True, timeout=60)
        names = re.search(r"OFFLOAD_TARGET_NAMES=(\S+)", done.stderr)
        for name in names.group(1).split(":") if names else []:
            probe = subprocess.run(
                [*cc, f"-print-prog-name=accel/{name}/mkoffload"],
                capture_output=True,
                text=True,
                timeout=60,
            )
            path = probe.stdout.strip()
            if probe.returncode == 0 and os.path.isabs(path) and os.path.exists(path):
                return name
    except (OSError, subprocess.SubprocessError):
        pass
    return None


OFFLOAD_FLAGS = ("-fopenmp-targets=", "--offload-arch=", "-foffload=")
"""The flags that say whether the build offloads (kind ``offload``)."""


def parser_args(parser: list[tuple[str, str]]) -> list[str]:
    """The parser flags as libclang arguments."""
    args: list[str] = []
    for name, value in parser:
        if name == "--sysroot":
            args.append(f"--sysroot={value}")
        else:
            args += [name, value] if value else [name]
    return args


def describe() -> str:
    """The compiler flags section of --help, from the table."""

    def names(kind: str) -> str:
        return " ".join(
            f.name for f in FLAGS if f.kind == kind and f.name not in ("--sysroot", "-fno-openmp")
        )

    return f"""\
compiler flags (give s2svec the flags the compiler gets; joined or not: -DX, -D X):
  {names(PARSER)}
                        to the C parser, in command-line order
  {names(STD).ljust(22)}the C standard of the parse (default: gnu17)
  -fopenmp              the parse defines _OPENMP={OPENMP_VERSION}
  -fopenmp-targets= --offload-arch= -foffload=
                        the build offloads target regions: loops that may run
                        on a device stay scalar (-foffload=disable: it does not)
  -march= -mcpu= -m* --target=TRIPLE
                        the targets when --target LIST is absent: -march=native
                        the host's; -mavx2, -march=haswell/x86-64-v3: avx2;
                        -mavx512*, -march=x86-64-v4/skylake-avx512/...:
                        avx512,avx2; an aarch64 triple, -march=armv8*/armv9*,
                        -mcpu=<arm core>: neon; none of these: the default
  anything else         -O* -g* -W* -f* -M* -c -pipe -pthread, unknown -X...:
                        accepted, no effect (-MF -MT -x -l -L ... take a value)
"""
