"""A Swiss round waiting for the organiser's review, told and chased (see the review step in
:mod:`bot.league.controls`).

When a reviewed round is due, :func:`hold` pairs it and keeps it as a draft, and tells the
organiser (its tables privately, as their ``/me notify`` asks: :func:`bot.league.organiser.tell`).
Nothing opens until they publish it, so a round left waiting would stall the season without a
word: the round's job stays armed as a reminder (payload ``{"round": n, "review": since}``) that
fires :data:`REVIEW_FIRST` seconds after the draft and then every :data:`REVIEW_AGAIN` seconds
while the round waits; armed with the draft, it first tells the organiser the round waits,
:data:`TELL_AFTER` on (``first``), should a stop come before the letter (:func:`tell_waiting`) (:func:`remind`, fired by :meth:`bot.league.season.Rounds.fire_round`);
publishing the round arms its guard over it.  ``/league round`` says that the round waits, and
since when (:func:`waiting_line`).

Imports the league's controls, texts and organiser notices and storage rows; never Discord.
"""

from __future__ import annotations

import logging
from typing import Protocol

from bot.league import organiser, texts
from bot.league.controls import Controls
from bot.league.errors import LeagueError
from bot.league.organiser import OrganiserPosts
from bot.league.service import LeagueService
from bot.storage import Job, Store
from bot.storage.leagues import ROUND_JOB, LeagueRow
from languages import N_, Language, language

log = logging.getLogger(__name__)

REVIEW_HOW = N_(
    "Use {/league organiser review} in the server to swap players and publish round {round} of {league}; the"
    " players are told when it is published."
)
REVIEW_WAITS = N_(
    "{organiser}: round {round} of **{league}** is paired and waits for your review: {/league organiser review}"
)
REVIEW_STILL = N_(
    "{organiser}: round {round} of **{league}** has waited for your review since {since}, and its players"
    " wait with it: publish it with {/league organiser review}."
)
REVIEW_FIRST = 12 * 3600.0
"""Seconds a round may wait for the organiser's review before they are reminded of it."""
TELL_AFTER = 120.0
"""Seconds after a round is paired for review before its job tells the organiser it waits, should a
stop have come before the letter (which arms the job as the reminder, :data:`REVIEW_FIRST` on)."""
REVIEW_AGAIN = 24 * 3600.0
"""Seconds between the reminders after that, while the round still waits."""


class ReviewPosts(OrganiserPosts, Protocol):
    """What telling the organiser of a waiting round needs of Discord (:class:`bot.league.season.Posts`)."""

    async def language(self, guild_id: int) -> Language: ...


async def hold(leagues: LeagueService, posts: ReviewPosts, league: LeagueRow, number: int, job: Job) -> None:
    """The review step: pair the round and keep it; only the organiser is told, as their ``/me
    notify`` asks: its tables by direct message, or a post in the league's channel without the
    tables when they want no DMs (or not now) or the DM is refused.  The round's job stays as its
    reminder.  The round opens when the organiser publishes it (:mod:`bot.league.controls`)."""
    store = leagues.store
    since = store.clock.time()  # (the draft's, as its job keeps it)
    if await Controls(leagues).draft_round(league, number, job, since + TELL_AFTER) is not None:
        await tell_waiting(leagues, posts, league, number, since)


async def tell_waiting(
    leagues: LeagueService, posts: ReviewPosts, league: LeagueRow, number: int, since: float
) -> None:
    """Tell the organiser that round ``number``, paired at ``since``, waits for their review (its
    tables privately), then arm the round's job as its reminder, :data:`REVIEW_FIRST` after
    ``since``.  Armed with the draft to tell it :data:`TELL_AFTER` on, the job does it should a stop
    come first; the letter names the round in its nonce, so one Discord took before the stop is the
    same message within Discord's minutes."""
    store, controls = leagues.store, Controls(leagues)
    try:
        draft = await controls.draft(league)  # (round ``number``: the next, which waits)
    except LeagueError:
        return  # published meanwhile: nothing waits
    person = (await store.people.several([league.organiser_id])).get(league.organiser_id)
    server = await posts.language(league.guild_id)
    mine = language(person.locale) if person is not None and person.locale else server
    tables = await controls.tables_text(league, draft, mine)
    how = mine.gettext(REVIEW_HOW, league=league.shown, round=number)

    def words(t: Language) -> str:
        return t.gettext(
            REVIEW_WAITS, organiser=f"<@{league.organiser_id}>", league=league.shown, round=number
        )

    told = organiser.told(league, "review", number, "waits")
    if not await organiser.tell(store, posts, league, words, server, private=f"{tables}\n{how}", told=told):
        log.warning("league %s: could not tell the organiser that round %s waits", league.id, number)
    await store.league_pairing.remind_review(league.id, number, since + REVIEW_FIRST, since)


async def remind(
    leagues: LeagueService,
    posts: ReviewPosts,
    league: LeagueRow,
    number: int,
    since: float,
    due: float | None = None,
) -> None:
    """Round ``number`` still waits for the organiser's review (since ``since``): remind them, as
    their ``/me notify`` asks, and again :data:`REVIEW_AGAIN` seconds on while it waits.  ``due``:
    when this reminder was due, which names it (:func:`bot.league.organiser.told`), so that one a
    stop before the next is armed has sent again is the same post and direct message within
    Discord's minutes."""
    store = leagues.store
    if await store.league_pairing.draft(league.id, number) is None:
        return  # published meanwhile: nothing waits

    def words(t: Language) -> str:
        return t.gettext(
            REVIEW_STILL,
            organiser=f"<@{league.organiser_id}>",
            round=number,
            league=league.shown,
            since=texts.when(since),
        )

    server = await posts.language(league.guild_id)
    which = organiser.told(league, "review", number, due) if due is not None else ()
    if not await organiser.tell(store, posts, league, words, server, told=which):
        log.warning("league %s: could not remind the organiser that round %s waits", league.id, number)
    await store.league_pairing.remind_review(league.id, number, store.clock.time() + REVIEW_AGAIN, since)


async def waiting_line(store: Store, league: LeagueRow, t: Language) -> list[str]:
    """``/league round``'s line for the next round when it is paired and waits for the organiser's
    review, and since when."""
    number = league.current_round + 1
    if league.status != "running" or await store.league_pairing.draft(league.id, number) is None:
        return []
    job = await store.jobs.job(ROUND_JOB, str(league.id))
    since = job.payload.get("review") if job is not None and job.payload.get("round") == number else None
    if since is None:
        return [t.gettext("Round {round} is paired and waits for the organiser's review.", round=number)]
    return [
        t.gettext(
            "Round {round} is paired and has waited for the organiser's review since {since}.",
            round=number,
            since=texts.when(since),
        )
    ]
