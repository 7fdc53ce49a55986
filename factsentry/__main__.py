"""``python -m factsentry`` is the ``factsentry`` command."""

from __future__ import annotations

import sys

from factsentry.cli import main

sys.exit(main())
