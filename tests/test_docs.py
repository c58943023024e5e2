"""The manual (docs/) and the README say what the code does, and name no machine path.

The Sphinx build itself (scripts/test.sh: ``sphinx-build -W``) fails on a
broken reference, a page in no table of contents or malformed reST.  These
tests check what the build cannot: that the pages still name every option
of the command line, every pass of the pipeline and every module of the
package, that the README stays a short front page naming the two commands
CI runs, and that no tracked file names a path of one machine.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from s2s.cli import build_parser
from s2s.pipeline import PASS_NAMES

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.rst"


def page(name: str) -> str:
    return (DOCS / name).read_text()


def test_command_line_page_names_every_option() -> None:
    text = page("user/command-line.rst")
    options = [opt for action in build_parser()._actions for opt in action.option_strings]
    assert "--print-after" in options  # the parser was read
    for opt in options:
        assert re.search(rf"``{re.escape(opt)}(?![\w-])", text), opt


def test_pipeline_page_names_every_pass() -> None:
    text = page("internals/pipeline.rst")
    for name in PASS_NAMES:
        assert f"``{name}``" in text, name


def test_architecture_page_names_every_module() -> None:
    text = page("internals/architecture.rst")
    modules = sorted(
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "s2s").rglob("*.py")
        if p.name != "__init__.py" or p.parent.name == "s2s"
    )
    missing = [m for m in modules if f"``{m}``" not in text]
    assert not missing, f"not named in docs/internals/architecture.rst: {missing}"
    named = set(re.findall(r"``(s2s/[\w/]+\.py)``", text))
    stale = sorted(m for m in named if not (ROOT / m).is_file())
    assert not stale, f"docs/internals/architecture.rst names missing modules: {stale}"


def test_every_page_is_reached_from_the_index() -> None:
    """Sphinx -W also fails on this; here the message names the page."""
    index = page("index.rst")
    for rst in DOCS.rglob("*.rst"):
        name = rst.relative_to(DOCS).with_suffix("").as_posix()
        if name != "index":
            assert re.search(rf"^\s+{re.escape(name)}$", index, re.M), name


def test_readme_is_a_short_front_page() -> None:
    text = README.read_text()
    assert len(text.splitlines()) < 150
    for command in ("scripts/example.sh", "scripts/test.sh"):
        assert f"\n    {command}\n" in text, command  # a literal block of its own
        assert (ROOT / command).stat().st_mode & 0o111, command
    assert "exec scripts/test.sh" in (ROOT / ".ci" / "run").read_text()
    assert "docs/" in text


MACHINE_PATH = re.compile("/" + "(?:work|home|root|tmp|Users)" + r"/[\w.-]")
"""A path of one machine: the work tree, a home folder, a temporary file."""


def test_no_tracked_file_names_a_machine_path() -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the tracked files are unknown")
    files = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    found = []
    for name in filter(None, files):
        path = ROOT / name.decode()
        if not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data[:8192]:  # binary: images
            continue
        for no, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            if MACHINE_PATH.search(line):
                found.append(f"{name.decode()}:{no}: {line.strip()[:100]}")
    assert not found, "\n".join(found)


def test_testing_page_lists_every_test_file() -> None:
    """docs/internals/testing.rst names each tests/test_*.py, and no file
    that is gone."""
    page = (ROOT / "docs" / "internals" / "testing.rst").read_text()
    named = set(re.findall(r"``(tests/test_\w+\.py)``", page))
    present = {f"tests/{p.name}" for p in (ROOT / "tests").glob("test_*.py")}
    assert named == present, (sorted(present - named), sorted(named - present))
