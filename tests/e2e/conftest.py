"""End-to-end fixtures: the Discord stand-in and a way to run the real bot against it."""

from __future__ import annotations

import asyncio
import io
import itertools
import sqlite3
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

from bot.app import PukllayBot
from bot.settings import Settings
from bot.time.source import ManualClock
from tests.conftest import migrated
from tests.standin.fixtures import DEFAULT_OPTIONS, discord_errors, standin  # noqa: F401

BASE_EXTENSIONS = ("cogs.table", "tests.support.nim_cog")


@pytest.fixture
def standin_options() -> dict:
    """Discord's own limits: every interaction the bot gets must be answered (or deferred) within
    3 s.  (The stricter 1 s of ``STRICT_OPTIONS`` made the outcome depend on how busy the machine
    was: the suite runs on every core, beside other work.  How fast the bot answers is measured by
    ``bench/``, not asserted here.)"""
    return dict(DEFAULT_OPTIONS)


@pytest.fixture
def discord_error_loggers() -> tuple[str, ...]:
    """The bot's own unexpected errors fail a test too."""
    return ("discord", "bot", "cogs")


@pytest.fixture
def table_clock() -> ManualClock:
    """The bot's clock: turn timers run out when the test moves it, and the test fires them
    (``await bot.scheduler.run_due()``); the scheduler's own loop is not started."""
    return ManualClock()


class DiscordTime:
    """Discord's time for rate limits (the stand-in's clock) follows the table's clock.

    A test moves the table's clock on by hours or days and fires what came due meanwhile at once
    (``bot.scheduler.run_due()``); a running bot would have fired each job at its due time, with
    that time passing for Discord too.  So each job fires at Discord's time of its due time (the
    jobs the scheduler claims together fire one after the other, in due order), and the time the table's clock moved on
    passes for Discord as well: a round's opening, its reminders, its no-shows and its deadline
    are not taken for one burst of messages, which Discord would make discord.py wait on."""

    def __init__(self, standin_clock: Any, table_clock: ManualClock):
        self.standin_clock, self.table_clock = standin_clock, table_clock
        self.seen = table_clock.time()

    def at(self, when: float) -> None:
        """The table's time is ``when``: as much has passed for Discord since the last time seen."""
        if when > self.seen:
            self.standin_clock.advance(when - self.seen)
            self.seen = when

    def follow(self, scheduler: Any) -> None:
        fire, run_due = scheduler._fire, scheduler.run_due
        one_at_a_time = asyncio.Lock()  # first come, first served: the jobs of a batch in due order

        async def fire_at_due_time(job: Any) -> bool:
            async with one_at_a_time:
                self.at(job.due_at)
                return await fire(job)

        async def run_due_now() -> int:
            fired = await run_due()
            self.at(self.table_clock.time())
            return fired

        scheduler._fire = fire_at_due_time
        scheduler.run_due = run_due_now


class SeededBot(PukllayBot):
    """The bot, its new games seeded 1, 2, 3... instead of at random, so that a test plays the same
    games on every run (a test may still set ``bot.sessions.new_seed`` itself); with
    ``discord_time``, its scheduler fires jobs at Discord's time of their due time (see
    :class:`DiscordTime`)."""

    def __init__(self, *args: Any, discord_time: DiscordTime | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.discord_time = discord_time

    async def setup_hook(self) -> None:
        await super().setup_hook()
        seeds = itertools.count(1)
        self.ready_sessions().new_seed = lambda: next(seeds)
        if self.discord_time is not None and self.scheduler is not None:
            self.discord_time.follow(self.scheduler)


@pytest.fixture
def bot_factory(request, standin, tmp_path, table_clock) -> Callable[..., Callable]:
    """``bot_factory(extensions=..., **settings)`` returns a maker for ``standin.run_client`` on one
    database file (``settings``: fields of :class:`Settings` other than the defaults;
    ``dev_guild_id=None`` for global commands, as on several servers), a copy of the migrated
    template; the games it opens are seeded (see ``SeededBot``).  ``shard_count`` with one of
    ``shard_ids``: the bot identifies as that shard, and its gateway carries only that shard's servers."""
    db = tmp_path / "e2e.db"
    migrated(request, db)

    def factory(extensions: tuple[str, ...] = BASE_EXTENSIONS, **options: Any):
        options.setdefault("dev_guild_id", standin.guild.id)
        settings = Settings(token="standin-token", database_path=str(db), **options)
        ids = settings.shard_ids or ()
        shard = {"shard_id": ids[0], "shard_count": settings.shard_count} if len(ids) == 1 else {}

        def make(connector):
            return SeededBot(
                settings,
                extensions=extensions,
                connector=connector,
                guild_ready_timeout=0.01,
                clock=table_clock,
                start_scheduler=False,
                discord_time=DiscordTime(standin.clock, table_clock),
                **shard,
            )

        return make

    return factory


def damage(bot, session_id: int) -> None:
    """Make a game's saved state unreadable (as a bad disk or a hand edit would), and forget the
    copies this process keeps, so the next read finds the game damaged."""
    con = sqlite3.connect(bot.settings.database_path)
    con.execute("UPDATE sessions SET state = 'not json' WHERE id = ?", (session_id,))
    con.commit()
    con.close()
    bot.sessions.core.states.clear()
    bot.sessions.core.copies.clear()


def png_of(message) -> Image.Image:
    """The first attachment of a stand-in message, opened and checked as a PNG."""
    assert message.files, f"no image attached to {message.content!r}"
    image = Image.open(io.BytesIO(bytes(message.files[0])))
    image.load()
    assert image.format == "PNG"
    return image


def menu_moves(menu) -> dict[str, tuple[str, str]]:
    """The moves a private menu plays in one click: move -> (custom_id, select value or "")."""
    out: dict[str, tuple[str, str]] = {}
    for select in menu.selects:
        for option in select["options"]:
            if option["value"].startswith("m:"):
                out[option["value"][2:]] = (select["custom_id"], option["value"])
    for button in menu.buttons:
        cid = button["custom_id"]
        if cid.startswith("pk:mv:") and not button.get("disabled"):
            out[cid.split(":", 4)[4]] = (cid, "")
    return out


def menu_groups(menu) -> dict[str, tuple[str, str]]:
    """The groups a private menu opens: ``g:<kind>:<group>`` -> (select custom_id, value)."""
    return {
        option["value"]: (select["custom_id"], option["value"])
        for select in menu.selects
        for option in select["options"]
        if option["value"].startswith("g:")
    }


async def click_choice(standin, user, menu, custom_id: str, value: str):
    """Press a menu's button, or choose ``value`` in its select."""
    if value:
        return await standin.select(user, menu, custom_id, [value])
    return await standin.click(user, menu, custom_id)


async def pick_from_menu(standin, user, menu, choose=lambda moves: moves[0]):
    """Choose a move on the private Play menu, however it is shown; returns (result, move).

    Moves are buttons or select options; a group (a select option ``g:...``) is
    opened first when no move is offered at once.  ``choose`` picks among the
    moves offered at the last step.
    """
    while True:
        moves = menu_moves(menu)
        if moves:
            move = choose(list(moves))
            custom_id, value = moves[move]
            return await click_choice(standin, user, menu, custom_id, value), move
        groups = menu_groups(menu)
        assert groups, f"the menu offers nothing to choose: {menu.text!r}"
        custom_id, value = next(iter(groups.values()))
        edits = menu.edits
        result = await standin.select(user, menu, custom_id, [value])
        assert result.type == 6, "opening a group updates the menu in place"
        menu = await result.original(lambda m, before=edits: m.edits > before)


async def nim_to_the_end(standin, bot, chan, alice, bob, piles: int = 2, labels=("Join", "Start")):
    """A Nim game of two people opened, started and played to its end by slash commands
    (``labels``: the lobby's Join and Start buttons, in the server's language)."""
    lobby = await standin.slash(alice, chan, "nim new", thread=False, piles=piles)
    await standin.click(bob, lobby.message, labels[0])
    await standin.click(alice, lobby.message, labels[1])
    return await nim_played_out(standin, bot, chan, alice, bob)


async def nim_played_out(standin, bot, chan, alice, bob):
    """The running Nim game of two in ``chan`` played to its end by slash commands, each move the
    first legal one; its session then."""
    session = await bot.sessions.core.in_channel(chan.id)
    while session.status == "active":
        (seat,) = session.to_move()
        user = alice if session.by_seat(seat).user_id == alice.id else bob
        legal = await bot.sessions.play.legal_moves(chan.id, user.id)
        await (await standin.slash(user, chan, "nim move", move=legal[0])).original()
        session = await bot.sessions.core.get(session.id)
    return session
