"""Parse one C file with libclang (without OpenMP) and keep its text at hand.

The file is parsed as plain C: without ``-fopenmp`` the ``#pragma omp`` lines
stay out of the AST, so loops and functions appear as ordinary ``FOR_STMT`` /
``FUNCTION_DECL`` cursors; ``s2s.frontend.pragmas`` finds the pragmas in the
text. libclang reports byte offsets, so ``ParsedFile`` keeps the raw bytes
next to the decoded text and converts between the two.
"""

from __future__ import annotations

import bisect
import contextlib
import ctypes
import functools
import glob
import os
import shutil
import subprocess
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import clang.cindex as ci

from s2s.deep import in_deep_stack
from s2s.diagnostics import Location, Unsupported, UserError

_ERROR_SEVERITIES = (ci.Diagnostic.Error, ci.Diagnostic.Fatal)


@dataclass
class ParsedFile:
    """A parsed translation unit and the text of its main file."""

    path: str
    """The path as given to ``parse_file`` (used in diagnostics)."""
    tu: ci.TranslationUnit
    raw: bytes
    """The file's bytes; libclang offsets index into these."""
    text: str
    """``raw`` decoded as UTF-8 (invalid bytes kept via surrogateescape)."""
    defines: list[str] = field(default_factory=list)
    """The ``-D`` arguments, ``NAME`` or ``NAME=VALUE``."""
    target_args: tuple[str, ...] = ()
    """The target arguments the file was parsed with (see ``parse_file``)."""
    args: tuple[str, ...] = ()
    """Every argument the parser got (to read other text the same way)."""
    warnings: list[Unsupported] = field(default_factory=list)
    """Warnings about the file that belong to no loop (``pragmas`` fills it)."""
    lines: LineMap | None = None
    """Where the lines come from when ``raw`` is the file rewritten
    (``macro_loops``: macro uses that write simd loops, expanded)."""
    unexpanded: dict[int, str] = field(default_factory=dict)
    """Macro uses that write simd loops left as written: start -> why."""
    _line_starts: list[int] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        starts = [0]
        pos = self.raw.find(b"\n")
        while pos >= 0:
            starts.append(pos + 1)
            pos = self.raw.find(b"\n", pos + 1)
        self._line_starts = starts

    @property
    def data(self) -> bytes:
        """Alias of ``raw`` (the driver splices these bytes)."""
        return self.raw

    def source(self, start: int, end: int) -> str:
        """The text between two byte offsets."""
        return _decode(self.raw[start:end])

    def extent_text(self, cursor: ci.Cursor) -> str:
        """The source text of a cursor's extent."""
        return self.source(cursor.extent.start.offset, cursor.extent.end.offset)

    def char_offset(self, byte_offset: int) -> int:
        """Convert a byte offset into an index into ``text``."""
        return len(_decode(self.raw[:byte_offset]))

    def byte_offset(self, char_offset: int) -> int:
        """Convert an index into ``text`` into a byte offset."""
        return len(_encode(self.text[:char_offset]))

    def location(self, byte_offset: int) -> Location:
        """File, line and byte column (1-based, as clang counts) of an offset."""
        line = bisect.bisect_right(self._line_starts, byte_offset)
        column = byte_offset - self._line_starts[line - 1] + 1
        if self.lines is not None:
            line, column = self.lines.original(line, column)
        return Location(self.path, line, column)

    def is_main_file(self, cursor: ci.Cursor) -> bool:
        """True when the cursor's extent starts in the parsed file itself."""
        start_file = cursor.extent.start.file
        return start_file is not None and start_file.name == self.tu.spelling

    @functools.cached_property
    def top_level(self) -> TopLevel:
        """The translation unit's top-level cursors, sorted once (walking
        them through the Python bindings costs more than anything per loop)."""
        return TopLevel.of(self.tu)

    def enclosing_function(self, offset: int) -> ci.Cursor | None:
        """The function definition of the main file holding byte ``offset``."""
        functions = self.top_level.functions
        k = bisect.bisect_right(functions, offset, key=lambda f: f[0]) - 1
        if k >= 0 and functions[k][0] <= offset < functions[k][1]:
            return functions[k][2]
        return None


@dataclass(frozen=True)
class LineMap:
    """The lines of a rewritten main file as the lines of the file as
    written: ``origins[k]`` is where line k+1 comes from, (line, column) --
    the column None for a line kept as written, whose columns are the
    file's, and the macro use's column for the lines of its expansion."""

    origins: tuple[tuple[int, int | None], ...]

    def original(self, line: int, column: int) -> tuple[int, int]:
        if not 1 <= line <= len(self.origins):
            return line, column
        written, fixed = self.origins[line - 1]
        return written, column if fixed is None else fixed

    def jumps(self) -> list[int]:
        """The lines kept as written that a compiler reading this text
        would number otherwise (after an expansion): where ``#line``
        directives put the numbering right again."""
        found = []
        numbered = self.origins[0][0] if self.origins else 1  # as a compiler counts
        for k in range(1, len(self.origins)):
            line, fixed = self.origins[k]
            numbered += 1
            if fixed is None and line != numbered:
                found.append(k + 1)
                numbered = line
        return found

    def then(self, later: LineMap) -> LineMap:
        """This map after ``later``, a map of this file's lines rewritten again."""
        found: list[tuple[int, int | None]] = []
        for line, fixed in later.origins:
            if fixed is not None:  # an expansion: where its use came from
                found.append(self.original(line, fixed))
            elif 1 <= line <= len(self.origins):
                found.append(self.origins[line - 1])
            else:
                found.append((line, None))
        return LineMap(tuple(found))


def name_position(data: bytes, offset: int) -> str:
    """``line_column`` of a byte offset in the text parsed, for the names
    s2svec makes (helpers, labels): where macro uses were written out, two
    loops of one use share their location in diagnostics, not this."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    line = data.count(b"\n", 0, offset) + 1
    return f"{line}_{offset - line_start + 1}"


def original_location(tu: ci.TranslationUnit, location: ci.SourceLocation) -> tuple[int, int]:
    """The line and column of a libclang location in the file as written
    (a rewritten main file's lines mapped back, see ``LineMap``)."""
    lines: LineMap | None = tu.__dict__.get("_s2s_lines")
    if lines is None or location.file is None or location.file.name != tu.spelling:
        return location.line, location.column
    return lines.original(location.line, location.column)


def main_file_bytes(tu: ci.TranslationUnit) -> bytes | None:
    """The bytes the main file was parsed from (rewritten or as read)."""
    return tu.__dict__.get("_s2s_raw")


@dataclass
class TopLevel:
    """Top-level cursors by kind; offsets are the main file's."""

    functions: list[tuple[int, int, ci.Cursor]]
    """Function definitions of the main file: (start, end, cursor), in order."""
    macro_uses: list[tuple[int, ci.Cursor]]
    """Macro expansions in the main file: (start offset, cursor), in order."""
    macro_definitions: list[ci.Cursor]
    """Every macro definition (predefined, headers, main file)."""

    @staticmethod
    def of(tu: ci.TranslationUnit) -> TopLevel:
        found = TopLevel([], [], [])
        for cursor in tu.cursor.get_children():
            kind = cursor.kind
            if kind == ci.CursorKind.MACRO_DEFINITION:
                found.macro_definitions.append(cursor)
                continue
            if kind not in (ci.CursorKind.MACRO_INSTANTIATION, ci.CursorKind.FUNCTION_DECL):
                continue
            extent = cursor.extent
            if not _in_main_file(extent.start):
                continue
            if kind == ci.CursorKind.MACRO_INSTANTIATION:
                found.macro_uses.append((extent.start.offset, cursor))
            elif cursor.is_definition():
                found.functions.append((extent.start.offset, extent.end.offset, cursor))
        found.functions.sort(key=lambda f: f[0])
        found.macro_uses.sort(key=lambda m: m[0])
        return found


def _in_main_file(location: ci.SourceLocation) -> bool:
    """One call into libclang rather than four (file, name, spelling)."""
    check = ci.conf.lib.clang_Location_isFromMainFile
    if check.argtypes is None:
        check.argtypes = [ci.SourceLocation]
        check.restype = ctypes.c_int
    return bool(check(location))


class ParseError(UserError):
    """Compiler errors in the input; ``message`` holds one formatted line each."""

    def format(self) -> str:
        # The lines already carry their own "file:line:col: error:" prefix.
        return self.message


def _decode(data: bytes) -> str:
    return data.decode("utf-8", errors="surrogateescape")


def _encode(text: str) -> bytes:
    return text.encode("utf-8", errors="surrogateescape")


# What gcc 12 accepts with a warning, clang 18 rejects by default; parse the
# way the user's gcc would so such files are vectorized, not refused.
GCC_TOLERATED = [
    "-Wno-error=implicit-function-declaration",
    "-Wno-error=implicit-int",
    "-Wno-error=int-conversion",
    "-Wno-error=incompatible-pointer-types",
    "-Wno-error=incompatible-function-pointer-types",
]


# clang stops at 256 nested brackets by default; gcc has no such limit.
BRACKET_DEPTH = "-fbracket-depth=100000"


# s2svec's own omp.h (see the file): first on the include path of every parse.
OMP_INCLUDE = os.path.join(os.path.dirname(os.path.dirname(__file__)), "include")


def parse_file(
    path: str,
    include_dirs: list[str],
    defines: list[str],
    std: str,
    target_args: tuple[str, ...] = (),
    preprocessor: Sequence[str] = (),
    rewritten: tuple[bytes, LineMap] | None = None,
) -> ParsedFile:
    """Parse ``path`` as C; raise ``UserError`` for unreadable files or errors.
    ``target_args`` (``--target=aarch64-linux-gnu``, ``-mavx2``) make the
    parser see the file as that target's compiler does; ``preprocessor``
    holds the compiler's ``-D -U -I -include ...`` flags in their order
    (after ``include_dirs`` and ``defines``); ``rewritten``: the file's
    text to read instead of the file's own, and where its lines come from."""
    raw, lines = rewritten if rewritten is not None else (_read(path), None)
    # No error limit: after "too many errors" clang stops processing #includes.
    args = [
        "-x",
        "c",
        f"-std={std}",
        "-ferror-limit=0",
        BRACKET_DEPTH,
        *GCC_TOLERATED,
        *target_args,
        "-I",
        OMP_INCLUDE,
    ]
    for directory in include_dirs:
        args += ["-I", directory]
    for define in defines:
        args.append(f"-D{define}")
    args += preprocessor
    builtin = builtin_include_dir()
    if builtin:
        # PyPI libclang lacks clang's own headers (stddef.h, float.h ...).
        args += ["-isystem", builtin]
    index = ci.Index.create()
    try:
        with _parse_on_this_thread():
            tu = index.parse(
                path,
                args=args,
                unsaved_files=[(path, raw)],
                options=ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD,
            )
    except ci.TranslationUnitLoadError as exc:
        raise UserError(f"{path}: cannot parse file ({exc})") from exc
    _raise_errors(tu)
    tu.__dict__["_s2s_raw"] = raw
    if lines is not None:
        tu.__dict__["_s2s_lines"] = lines
    return ParsedFile(
        path,
        tu,
        raw,
        _decode(raw),
        command_line_defines(args),
        tuple(target_args),
        tuple(args),
        lines=lines,
    )


def macros_defined_where(parsed: ParsedFile, names: set[str]) -> set[str]:
    """Which of ``names`` are macros where ``parsed`` was read (its predefined
    macros and -D flags; not the file's own definitions)."""
    probe = "".join(f"#ifdef {n}\nint s2s_defined_{n};\n#endif\n" for n in sorted(names))
    tu = ci.Index.create().parse(
        "s2s_probe.c", args=list(parsed.args), unsaved_files=[("s2s_probe.c", probe)]
    )
    found = {c.spelling for c in tu.cursor.get_children()}
    return {n for n in names if f"s2s_defined_{n}" in found}


def command_line_defines(args: Sequence[str]) -> list[str]:
    """The ``NAME[=VALUE]`` of the ``-D`` flags of ``args`` (joined or not)
    still defined after the ``-U`` flags that follow them."""
    defined: dict[str, str] = {}
    k = 0
    while k < len(args):
        flag = args[k][:2]
        if flag in ("-D", "-U"):
            value = args[k][2:] or (args[k + 1] if k + 1 < len(args) else "")
            k += 1 if args[k][2:] else 2
            name = value.partition("=")[0].partition("(")[0].strip()
            if flag == "-D":
                defined[name] = value
            else:
                defined.pop(name, None)
        else:
            k += 1
    return list(defined.values())


@contextlib.contextmanager
def _parse_on_this_thread() -> Iterator[None]:
    """Let libclang parse on the calling thread when that thread has the big
    stack of ``s2s.deep``: by default libclang parses on a thread of its own
    with an 8 MiB stack, which deeply nested expressions (5,000 parentheses)
    overflow."""
    if not in_deep_stack() or "LIBCLANG_NOTHREADS" in os.environ:
        yield
        return
    os.environ["LIBCLANG_NOTHREADS"] = "1"
    try:
        yield
    finally:
        del os.environ["LIBCLANG_NOTHREADS"]


def _read(path: str) -> bytes:
    # libclang's own messages for these cases are poor; check first.
    if not os.path.exists(path):
        raise UserError(f"{path}: no such file")
    if os.path.isdir(path):
        raise UserError(f"{path}: is a directory")
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as exc:
        raise UserError(f"{path}: cannot read file: {exc.strerror}") from exc


def _raise_errors(tu: ci.TranslationUnit) -> None:
    lines: list[str] = []
    first: Location | None = None
    for diag in tu.diagnostics:
        if diag.severity not in _ERROR_SEVERITIES:
            continue
        loc = diag.location
        name = loc.file.name if loc.file is not None else tu.spelling
        if _in_builtin_headers(name):
            continue
        where = Location(name, loc.line, loc.column)
        first = first or where
        lines.append(f"{where}: error: {diag.spelling}")
        hint = _GCC_ONLY_HINTS.get(diag.spelling)
        if hint is not None:
            lines.append(f"{where}: note: {hint}")
    if lines:
        raise ParseError("\n".join(lines), first)


# clang's words for GNU C that gcc accepts and clang's parser does not: say
# so, since the user's build with gcc works.
_GCC_ONLY_HINTS = {
    "function definition is not allowed here": (
        "a function defined inside another one (a GNU C nested function) is a gcc "
        "extension that clang's parser, which s2svec uses, does not accept; move it "
        "to file scope, or compile this file without s2svec (s2svec-cc does that "
        "by itself)"
    ),
}


def _in_builtin_headers(name: str) -> bool:
    """Errors in the borrowed builtin headers are not the user's.

    Their version may not match the PyPI libclang (clang 14's intrinsic
    headers do not compile with libclang 18); the declarations the user's
    code needs still parse, and no region is ever taken from these headers.
    """
    builtin = builtin_include_dir()
    if builtin is None:
        return False
    return os.path.realpath(name).startswith(os.path.realpath(builtin) + os.sep)


@functools.lru_cache(maxsize=1)
def builtin_include_dir() -> str | None:
    """clang's builtin header directory, else gcc's; None if neither exists."""
    beside = _resource_include_beside_clang()
    if beside is not None:
        return beside
    clang_dir = _ask(["clang", "-print-resource-dir"])
    if clang_dir and os.path.isdir(os.path.join(clang_dir, "include")):
        return os.path.join(clang_dir, "include")
    gcc_dir = _ask(["gcc", "-print-file-name=include"])
    if gcc_dir and os.path.isdir(gcc_dir):
        return gcc_dir
    return None


def _resource_include_beside_clang() -> str | None:
    """``<prefix>/lib/clang/<version>/include`` of the clang on PATH, when
    there is exactly one: what ``clang -print-resource-dir`` says, without
    starting a process at every run."""
    clang = shutil.which("clang")
    if clang is None:
        return None
    prefix = os.path.dirname(os.path.dirname(os.path.realpath(clang)))
    found = glob.glob(os.path.join(glob.escape(prefix), "lib", "clang", "*", "include"))
    return found[0] if len(found) == 1 and os.path.isdir(found[0]) else None


def _ask(command: list[str]) -> str | None:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    answer = done.stdout.strip()
    return answer if done.returncode == 0 and answer else None
