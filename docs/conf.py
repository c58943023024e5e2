"""Sphinx configuration of the s2svec manual (built by scripts/test.sh with -W)."""

from __future__ import annotations

import re
from pathlib import Path

_init = (Path(__file__).resolve().parents[1] / "s2s" / "__init__.py").read_text()
_version = re.search(r'__version__ = "([^"]+)"', _init)
assert _version is not None, "s2s/__init__.py has no __version__"

project = "s2svec"
author = "the s2svec developers"
copyright = "the s2svec developers"
release = version = _version.group(1)

root_doc = "index"
source_suffix = {".rst": "restructuredtext"}
exclude_patterns = ["_build"]
extensions: list[str] = []

# Literal blocks hold C, shell, textual IR and program output alike: no
# highlighting unless a block names its language (``.. code-block:: c``).
highlight_language = "none"

html_theme = "alabaster"
html_title = f"s2svec {release}"
html_theme_options = {"description": "a source-to-source vectorizer for C"}
html_static_path: list[str] = []
