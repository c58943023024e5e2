"""Where s2svec keeps what it works out once per machine.

Compiled templates and parsed capability tables (``s2s.codegen.target``)
and the compilers' predefined macros (``s2s.frontend.target_macros``) are
kept between runs so that the start-up stays short.  Every cache is found
the same way, and a run without a writable folder still works, only slower.
"""

from __future__ import annotations

import contextlib
import os
import tempfile


def cache_root() -> str:
    """``$S2SVEC_CACHE``, else ``$XDG_CACHE_HOME/s2svec``, else ``~/.cache/s2svec``."""
    return os.environ.get("S2SVEC_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "s2svec"
    )


def cache_folder(name: str) -> str | None:
    """``<cache root>/<name>``, made if needed; None when it cannot be made
    or written."""
    folder = os.path.join(cache_root(), name)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return None
    if not os.access(folder, os.W_OK | os.X_OK):
        return None
    return folder


def write_atomically(path: str, data: bytes) -> None:
    """Put ``data`` at ``path`` whole or not at all (runs in parallel may
    write the same entry); a failure leaves the cache as it was."""
    try:
        fd, temp = tempfile.mkstemp(prefix=".tmp-", dir=os.path.dirname(path))
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temp)
