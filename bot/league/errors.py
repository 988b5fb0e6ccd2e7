"""The league's refusal (no Discord here)."""

from __future__ import annotations

from bot.sessions import Refusal


class LeagueError(Refusal):
    """A refusal, in words the asker can read."""
