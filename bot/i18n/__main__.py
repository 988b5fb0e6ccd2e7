"""``python -m bot.i18n extract|check``: see :mod:`bot.i18n.catalogue`."""

import sys

from bot.i18n.catalogue import main

sys.exit(main())
