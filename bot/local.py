"""``python -m bot.local``, the terminal table's former name, runs :mod:`bot.terminal` (older
messages and exports name it so)."""

import sys

from bot.terminal.cli import main

if __name__ == "__main__":
    sys.exit(main())
