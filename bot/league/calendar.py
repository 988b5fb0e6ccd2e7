"""A league's rounds on Discord's calendar, and its tables as forum posts.

Each round becomes a scheduled event of the server (external, at the league's channel or forum):
its name is the league and the round, its description lists the tables, it starts a minute after
the round opens (Discord takes only a start in the future) and ends :data:`EVENT_AFTER` after
the round's deadline (Discord ends an external event by itself at its end time, and the results
are written into it when the round ends, before that).  When the round ends the event is marked
completed, its description listing each table's places.

A league may post its tables in a forum channel (``/league organiser forum``): one post per
table, the game played in the post's thread, the post tagged ``waiting`` until the first move,
``playing`` then, and ``done`` when the game is over.  Without the forum's permissions the
tables go to threads under the league's channel, as before.

Whatever Discord refuses, the season goes on; a missing permission is told to the organiser
once per league (``league_told``).  What reaches Discord goes through :class:`CalendarPosts`,
which the Discord side implements (:class:`bot.surface.calendar.DiscordCalendar`).  Never
imports Discord.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Protocol

from bot import notices
from bot.league import organiser, texts
from bot.league.names import all_shown, shown
from bot.league.service import OpenedRound
from bot.sessions import Session
from bot.storage.calendar import LeagueCalendar, Tag
from bot.storage.leagues import LeagueRow
from bot.storage.store import Store
from bot.texts import clip
from languages import N_, Language

log = logging.getLogger(__name__)

EVENT_GRACE = 60.0
"""Seconds after the round opens that its event starts (Discord refuses a start not in the future)."""
EVENT_AFTER = 3600.0
"""Seconds the event runs past the round's deadline, so that the results are written before
Discord ends it by itself."""
NAME_MAX, DESCRIPTION_MAX = 100, 1000
"""Discord's limits on an event's name and description."""
LEFT = N_("a player who left the league")
"""Who a table lists where a player's league record is gone (an event shows no mentions)."""
TAG_NAMES: dict[Tag, str] = {"waiting": N_("waiting"), "playing": N_("playing"), "done": N_("done")}
"""The forum tags, by what they mean: found by their English name or their name in the server's
language (created in the server's language when the forum has none)."""


class SeasonPosts(organiser.OrganiserPosts, Protocol):
    """What the calendar needs of :class:`bot.league.season.Posts`: a post, a direct message, and:"""

    async def language(self, guild_id: int) -> Language: ...

    async def open_thread(self, channel_id: int, name: str) -> int | None:
        """A new public thread in the channel (its id); None when it cannot be made."""

    async def threads_made(self, guild_id: int, channel_id: int, name: str) -> list[int]:
        """The active threads the bot made in the channel (or a forum's posts) named exactly
        ``name``, newest first; empty when Discord cannot say."""


async def left_behind(
    store: Store, posts: SeasonPosts, league: LeagueRow, channel_id: int, name: str
) -> int | None:
    """The thread (or forum post) named ``name`` that a round's opening made in ``channel_id`` for a
    table and then stopped (a crash, a deploy) before recording the game there: the newest active
    thread of that name the bot made there in which no game lives (one a person made is not the
    bot's, and one a game lived in was a finished table's).  Threads take no nonce, so the resumed
    opening looks for it rather than making a second one.  A table's name is its league's (unique
    among the server's running leagues), round and table number, so no other table of a running
    league has it."""
    for thread in await posts.threads_made(league.guild_id, channel_id, name):
        if await store.games.last_session(thread) is None:
            return thread
    return None


async def table_thread(
    store: Store, posts: SeasonPosts, league: LeagueRow, name: str, again: bool
) -> int | None:
    """A thread of the league's channel for a table named ``name``; ``again`` (the round's opening
    resumed after a stop): the one the stopped opening made, when it made one (:func:`left_behind`)."""
    found = await left_behind(store, posts, league, league.channel_id, name) if again else None
    return found if found is not None else await posts.open_thread(league.channel_id, name)


class CalendarPosts(Protocol):
    """What the calendar needs of Discord."""

    async def missing_event_permissions(self, guild_id: int) -> list[str]:
        """The permissions the bot lacks to put events on the server's calendar."""

    async def create_event(
        self, guild_id: int, name: str, description: str, start: float, end: float, location: str
    ) -> int | None:
        """A new external scheduled event (its id); None when Discord refused it."""

    async def finish_event(self, guild_id: int, event_id: int, description: str) -> bool:
        """Write ``description`` into the event and end it (completed once started, else
        cancelled); False when Discord refused (an event already over is left as it is)."""

    async def move_event(self, guild_id: int, event_id: int, end: float) -> bool:
        """The event ends at ``end`` now; False when Discord refused (an event over already)."""

    async def missing_forum_permissions(self, forum_id: int) -> list[str]:
        """The permissions the bot lacks to post in the forum and play in its posts; ["View
        Channel"] for a forum it cannot find."""

    async def forum_tags(self, forum_id: int, names: Sequence[str]) -> list[str]:
        """Make sure the forum has tags of these names (adding those missing); the names it could
        not add."""

    async def open_post(self, forum_id: int, name: str, text: str, tags: Sequence[str]) -> int | None:
        """A new post (its thread's id) with ``text`` as its first message, tagged with the first
        of ``tags`` the forum has; None when refused."""

    async def tag_post(self, post_id: int, forum_id: int, tags: Sequence[str], drop: Sequence[str]) -> bool:
        """Tag the post with the first of ``tags`` the forum has, taking off its tags named in
        ``drop`` (the league's other tags); False when refused or the forum has no such tag."""


class Calendar:
    """Creates and ends each round's event, and keeps a forum league's posts and tags."""

    def __init__(self, store: Store, posts: SeasonPosts, discord: CalendarPosts):
        self.store = store
        self.rows = LeagueCalendar(store.db)
        self.posts = posts
        self.discord = discord

    # ----------------------------------------------------------------- telling the organiser once

    async def tell_once(self, league: LeagueRow, what: str, missing: list[str], where: str) -> None:
        """Tell the organiser, once per league and permission set, what the bot lacks: noted once
        told, each message with a nonce naming it, so that a stop between the two tells it again
        as the same message within Discord's minutes (noted first, a stop left it never told)."""
        key = f"{what}:{','.join(missing)}"
        if await self.rows.told(league.id, key):
            return

        def words(t: Language) -> str:
            missing_text = texts.and_list(
                [t.gettext(m) for m in missing], t
            )  # as the reader's client names them
            if what == "events":
                return t.ngettext(
                    "{organiser}: I cannot put the rounds of **{league}** on the server's calendar: I am missing"
                    " {missing} (Server Settings, Roles). The league goes on without its events.",
                    "{organiser}: I cannot put the rounds of **{league}** on the server's calendar: I am missing"
                    " {missing} (Server Settings, Roles). The league goes on without its events.",
                    len(missing),
                    organiser=f"<@{league.organiser_id}>",
                    league=league.shown,
                    missing=missing_text,
                )
            else:
                return t.ngettext(
                    "{organiser}: I cannot post the tables of **{league}** in {forum}: I am missing {missing}"
                    " there. Its games are played in threads of {channel} until I have it.",
                    "{organiser}: I cannot post the tables of **{league}** in {forum}: I am missing {missing}"
                    " there. Its games are played in threads of {channel} until I have them.",
                    len(missing),
                    organiser=f"<@{league.organiser_id}>",
                    league=league.shown,
                    missing=missing_text,
                    forum=where,
                    channel=f"<#{league.channel_id}>",
                )

        server = await self.posts.language(league.guild_id)
        letter = organiser.told(league, "lacks", key)
        if not await organiser.tell(self.store, self.posts, league, words, server, told=letter):
            log.warning("league %s: could not tell the organiser about %s %s", league.id, what, missing)
        await self.rows.first_time(league.id, key)

    # ----------------------------------------------------------------- the forum

    async def tag_names(self, guild_id: int, tag: Tag) -> list[str]:
        """The names a tag may have: the server's language first, then English."""
        t = await self.posts.language(guild_id)
        return list(dict.fromkeys([t.gettext(TAG_NAMES[tag]), TAG_NAMES[tag]]))

    async def use_forum(self, league: LeagueRow, forum_id: int | None) -> tuple[list[str], list[str]]:
        """Post the league's tables in ``forum_id`` from the next round on (None: threads of its
        channel again): (permissions the bot lacks there, tags it could not add)."""
        await self.rows.set_forum(league.id, forum_id)
        if forum_id is None:
            return [], []
        missing = await self.discord.missing_forum_permissions(forum_id)
        t = await self.posts.language(league.guild_id)
        wanted = [t.gettext(TAG_NAMES[tag]) for tag in TAG_NAMES]
        unmade = [] if missing else await self.discord.forum_tags(forum_id, wanted)
        return missing, unmade

    async def open_table(
        self, league: LeagueRow, name: str, players: str, *, again: bool = False
    ) -> int | None:
        """Where a table's game is played: a post in the league's forum, else a thread of its channel.
        ``again`` (the round's opening resumed after a stop): the post or thread the stopped opening
        made for the table, when it made one (:func:`left_behind`; a post's first message, the
        table's text, is there already)."""
        forum = await self.rows.forum(league.id)
        if forum is not None:
            missing = await self.discord.missing_forum_permissions(forum)
            if missing:
                await self.tell_once(league, "forum", missing, f"<#{forum}>")
            else:
                post = await left_behind(self.store, self.posts, league, forum, name) if again else None
                if post is None:
                    text = f"**{shown(name)}**\n{players}"  # the post's title is plain; its text is not
                    post = await self.discord.open_post(
                        forum, name, text, await self.tag_names(league.guild_id, "waiting")
                    )
                if post is not None:
                    await self.rows.set_post(post, league.id, forum, "waiting")
                    return post
                log.warning("league %s: no post in forum %s; a thread instead", league.id, forum)
        return await table_thread(self.store, self.posts, league, name, again)

    async def board_posted(self, session: Session) -> None:
        """A board was posted: a league post's tag follows its game (waiting, playing, done)."""
        found = await self.rows.post(session.row.channel_id)
        if found is None:
            return
        league_id, forum, tag = found
        row = await self.store.games.session(session.id) or session.row  # as the post left it
        now: Tag = "done" if not row.live else "playing" if row.told_through > 0 else "waiting"
        if now == tag:
            return
        league = await self.store.leagues.league(league_id)
        if league is None:
            return
        drop = [
            n for other in TAG_NAMES if other != now for n in await self.tag_names(league.guild_id, other)
        ]
        if await self.discord.tag_post(
            session.row.channel_id, forum, await self.tag_names(league.guild_id, now), drop
        ):
            await self.rows.set_post(session.row.channel_id, league_id, forum, now)

    async def post_gone(self, channel_id: int) -> None:
        """A thread was deleted: if it was a table's forum post, it is forgotten, so that the
        game it held, finished now, is not tagged there (Discord would answer that it is unknown)."""
        await self.rows.drop_post(channel_id)

    # ----------------------------------------------------------------- the round's event

    async def round_opened(self, opened: OpenedRound, names: dict[int, str]) -> None:
        """Put the round on the server's calendar, its tables in the description; once (a round
        whose opening a stop cut is opened again by its guard)."""
        league = opened.league
        if await self.rows.event(league.id, opened.number) is not None:
            return
        missing = await self.discord.missing_event_permissions(league.guild_id)
        if missing:
            await self.tell_once(league, "events", missing, "")
            return
        t = await self.posts.language(league.guild_id)
        names = all_shown(names)  # the event's description shows markdown
        gone = t.gettext(LEFT)  # an event's description shows no mentions
        lines = [
            t.gettext(
                "Table {table}: {players}",
                table=g.table_no,
                players=", ".join(names.get(u, gone) for u in g.players),
            )
            for g in opened.games
        ]
        if opened.byes:
            byes = ", ".join(names.get(u, gone) for u in opened.byes)
            if league.format == "elimination" or opened.final_stage:  # a bracket's bye, as its post says
                lines.append(t.gettext("Bye into the next round: {players}", players=byes))
            else:
                lines.append(t.gettext("Bye: {players}", players=byes))
        name = f"{league.name}: {texts.round_name(league, opened.number, t)}"
        forum = await self.rows.forum(league.id)
        location = notices.jump_link(league.guild_id, forum or league.channel_id)
        now = self.store.clock.time()
        event = await self.discord.create_event(
            league.guild_id,
            clip(name, NAME_MAX),
            clip("\n".join(lines), DESCRIPTION_MAX),
            now + EVENT_GRACE,
            max(opened.deadline_at, now + EVENT_GRACE) + EVENT_AFTER,
            location,
        )
        if event is not None:
            await self.rows.set_event(league.id, opened.number, event)

    async def round_moved(self, league: LeagueRow, number: int, deadline: float) -> None:
        """The round's deadline moved (the bot was out of service): its event ends later too."""
        event = await self.rows.event(league.id, number)
        if event is not None:
            await self.discord.move_event(league.guild_id, event, deadline + EVENT_AFTER)

    async def round_ended(self, league: LeagueRow, number: int) -> None:
        """The round is over: its event lists each table's places and is completed."""
        event = await self.rows.event(league.id, number)
        if event is None:
            return
        t = await self.posts.language(league.guild_id)
        names = {p.user_id: shown(p.name) for p in await self.store.leagues.league_players(league.id)}
        gone = t.gettext(LEFT)
        lines = []
        for g in await self.store.leagues.league_games(league.id, number):
            order = sorted(g.seats, key=lambda s: s.place or 99)
            if g.status == "finished":
                places = ", ".join(f"{s.place}. {names.get(s.user_id, gone)}" for s in order)
                lines.append(t.gettext("Table {table}: {places}", table=g.table_no, places=places))
            else:
                who = ", ".join(names.get(u, gone) for u in g.players)
                lines.append(
                    t.gettext("Table {table}: {players}, not finished", table=g.table_no, players=who)
                )
        head = t.gettext("Results of {round}:", round=texts.round_name(league, number, t))
        if not await self.discord.finish_event(
            league.guild_id, event, clip("\n".join([head, *lines]), DESCRIPTION_MAX)
        ):
            log.info("league %s: round %s's event was not updated", league.id, number)
