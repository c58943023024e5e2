"""``python -m s2s``: the same as the ``s2svec`` command."""

import sys

from .cli import main

sys.exit(main())
