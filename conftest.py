"""pytest, for tests/ and bench/: the IR verifier runs after every pass of
every pipeline (s2s.pipeline.VERIFY_EACH), in the tests' own processes and
in the s2svec processes they start, so that a pass that breaks the IR is
named even where a later pass would hide it."""

import os

os.environ.setdefault("S2S_VERIFY_EACH", "1")
