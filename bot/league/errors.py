"""The league's refusal (no Discord here)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.sessions import Refusal

if TYPE_CHECKING:
    from bot.storage.leagues import LeagueRow


class LeagueError(Refusal):
    """A refusal, in words the asker can read."""


def over(league: LeagueRow) -> LeagueError | None:
    """The refusal of a sign-up (or its withdrawal) in a league that is over or was cancelled (its
    server removed the bot), which no longer takes either; None for a league in sign-up or running."""
    if league.status == "finished":
        return LeagueError(
            "{league} is over; an organiser can start a new league with {/league create}", league=league.shown
        )
    if league.status == "cancelled":
        return LeagueError(
            "{league} was cancelled; an organiser can start a new league with {/league create}",
            league=league.shown,
        )
    return None
