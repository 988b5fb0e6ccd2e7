"""The bot's web side: the aiohttp server (the one discord.py already depends on), its
``/healthz`` and ``/metrics`` for operators, and later the read-only pages."""
