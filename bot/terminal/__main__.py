"""``python -m bot.terminal``: the terminal table (see :mod:`bot.terminal`)."""

import sys

from bot.terminal.cli import main

sys.exit(main())
