"""A league is also a rating season: the seasons of a game on a server as ``/ratings`` and
``/leaderboard`` offer and find them (a season is named by its league).

No Discord here.
"""

from __future__ import annotations

from collections.abc import Callable

import engines
from bot.league import names
from bot.league.errors import LeagueError
from bot.storage import Store
from bot.storage.leagues import LeagueRow
from engines.core import N_
from languages import ENGLISH, Language

SEASON_LABELS = {
    "signup": N_("{league} (sign-ups open)"),
    "running": N_("{league} (running)"),
    "finished": N_("{league} (ended)"),
    "cancelled": N_("{league} (cancelled)"),
}


def season_label(league: LeagueRow, t: Language = ENGLISH) -> str:
    """How a season is offered in a list, in ``t``: its league's name and state."""
    label = SEASON_LABELS.get(league.status)
    return t.gettext(label, league=league.name) if label else f"{league.name} ({league.status})"


async def seasons(
    store: Store,
    guild_id: int,
    game: str,
    typed: str = "",
    visible: Callable[[LeagueRow], bool] | None = None,
) -> list[LeagueRow]:
    """The server's rating seasons of ``game`` (its leagues, newest first) whose name holds ``typed``
    (with ``visible``: only the leagues it accepts)."""
    wanted = " ".join(typed.split()).casefold()
    return [
        x
        for x in await store.leagues.of_server(guild_id, live=False)
        if x.game == game
        and x.status != "cancelled"
        and wanted in x.name.casefold()
        and (visible is None or visible(x))
    ]


async def season_named(
    store: Store,
    guild_id: int,
    game: str,
    text: str,
    visible: Callable[[LeagueRow], bool] | None = None,
) -> LeagueRow:
    """The season ``text`` names: a league id (what the autocomplete sends) or a league's name (the
    newest of that name); with ``visible``, only among the leagues it accepts."""
    found = await seasons(store, guild_id, game, visible=visible)
    text = " ".join(text.split())
    for league in found:
        if str(league.id) == text or league.name.casefold() == text.casefold():
            return league
    if not found:
        raise LeagueError(
            "{name} is not a {game} season on this server (seasons: none yet; each league of the game is a season)",
            name=names.quoted(text),
            game=engines.title(game),
        )
    raise LeagueError(
        "{name} is not a {game} season on this server (seasons: {seasons})",
        name=names.quoted(text),
        game=engines.title(game),
        seasons=", ".join(x.shown for x in found[:10]),
    )
