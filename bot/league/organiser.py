"""Telling a league's organiser something, as their ``/me notify`` asks.

What the bot has to tell an organiser (a round waiting for their review, the late games before a
deadline, a permission the bot lacks) reaches them by the notices policy that tells a player of
their games (:func:`bot.notices.reach`): a direct message when they want one and it is not their
quiet hours; a post in the league's channel that names them, pinging them when they want
mentions or when the direct message was refused, and naming them without a ping otherwise.  A
post the channel refuses goes to them by direct message after all, when no direct message reached
them yet: otherwise nobody would be told at all.

Imports notices and storage rows; never Discord.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from bot import notices
from bot.storage import PersonRow
from bot.storage.leagues import LeagueRow
from bot.storage.store import Store
from languages import Language, language

Told = Sequence[object]
"""What a message a stop may have had sent twice tells (:func:`told`)."""


def told(league: LeagueRow, *what: object) -> tuple[object, ...]:
    """What a league's post that a stop may have made twice tells (``what``: which post, of which
    round), with what makes the league unique where a restored backup reuses its number (not its seed)."""
    return (league.id, league.channel_id, league.created_at, *what)


class OrganiserPosts(Protocol):
    """What telling the organiser needs of Discord (:class:`bot.league.season.Posts`)."""

    async def post(
        self, channel_id: int, guild_id: int, text: str, *, pings: Sequence[int] = (), told: Told = ()
    ) -> bool: ...

    async def direct(self, user_id: int, text: str, *, told: Told = ()) -> bool: ...


async def tell(
    store: Store,
    posts: OrganiserPosts,
    league: LeagueRow,
    words: Callable[[Language], str],
    t: Language,
    *,
    private: str | None = None,
    told: Told = (),
) -> bool:
    """Tell the organiser of ``league`` what ``words`` says in a language (see the module): by
    direct message as they chose, in their own language (``t``, the server's, when they set
    none), and in the league's channel in ``t``.  ``private``: what the direct message says
    instead, when only they may read it (the review's tables); the channel is then told only when
    no direct message reached them.  ``told``: what a letter a stop may have had sent twice tells
    (:func:`told`), so that its post and direct message, sent again, are the same
    messages (:meth:`bot.league.season.Posts.post`); empty: sent anew each time.  False when
    nothing reached them."""
    organiser = league.organiser_id
    person = (await store.people.several([organiser])).get(organiser, PersonRow(organiser))
    mention, direct = notices.reach(person, store.clock.time())
    mine = language(person.locale) if person.locale else t
    letter = private if private is not None else words(mine)
    written = False
    if direct:
        written = await posts.direct(organiser, letter, told=told)
        if not written:
            mention = True  # a refused DM falls back to a mention, as for turns
    if written and private is not None:
        return True
    pings = [organiser] if mention else []
    if await posts.post(league.channel_id, league.guild_id, words(t), pings=pings, told=told):
        return True
    if written:
        return True
    return await posts.direct(organiser, letter, told=told)
