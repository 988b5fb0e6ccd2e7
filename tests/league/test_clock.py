"""League games on the game clock, on both back ends: a league's clock spec is checked when the
league is created, every game of the league starts with it, and a league stored before leagues
had clocks opens its games with a per-move clock equal to its old timer."""

from __future__ import annotations

import pytest

from bot.league.service import LeagueError, LeagueService
from bot.league.texts import clock_text
from bot.storage.base import DEADLINE
from bot.time import gameclock as gc

GUILD = 9
DAY = 86400.0
HOUR = 3600.0


@pytest.fixture
def leagues(service):
    return LeagueService(service.store, service)


NAMES = {101: "Ana", 102: "Bo"}
BASE = dict(
    guild_id=GUILD, channel_id=50, organiser_id=1, game="pachakuna", format="swiss", group_size=2, rounds=1
)


async def first_game(leagues, league, channel=1000):
    """Sign Ana and Bo up, start the league and open its first round's one game."""
    for uid, name in NAMES.items():
        await leagues.join(league, uid, name)
    league, _ = await leagues.start(league)
    opened = await leagues.open_round(league.id, 1)
    assert opened is not None and len(opened.games) == 1
    return await leagues.open_game(opened.league, opened.games[0], channel, NAMES)


async def test_a_league_game_opens_with_the_leagues_bank_clock(leagues, service, clock):
    store = service.store
    league = await leagues.create(**BASE, name="Banked", days=7, clock="  BANK:2d + 6h ")
    assert league.clock == "bank:2d+6h" and league.game_clock == "bank:2d+6h"
    assert (await store.leagues.league(league.id)).clock == "bank:2d+6h"  # stored, read back
    session = await first_game(leagues, league)
    spec = gc.parse_clock("bank:2d+6h")
    assert session.status == "active" and session.clock == spec
    # The clocks run from the first move: each seat holds the full bank, the one to move is running.
    banks = session.banks
    (mover,) = session.to_move()
    assert banks.banks == {0: 2 * DAY, 1: 2 * DAY} and banks.since == {mover: clock.time()}
    job = await store.jobs.job(DEADLINE, str(session.id))
    assert job is not None and job.due_at == pytest.approx(clock.time() + 2 * DAY)
    clock.advance(5 * HOUR)
    assert gc.left(spec, session.banks, mover, clock.time()) == pytest.approx(2 * DAY - 5 * HOUR)
    # The round's deadline still finishes a late game with the computer, clock or not.
    clock.advance(7 * DAY)
    finished = await leagues.round_deadline(league.id, 1)
    assert len(finished) == 1 and finished[0].finished
    (game,) = await store.leagues.league_games(league.id, 1)
    assert game.status == "finished" and sorted(s.place for s in game.seats) in ([1, 2], [1, 1])


async def old_league(store, name, timer_seconds):
    """A league row as written before leagues had clocks: a per-move timer, no clock spec."""
    return await store.leagues.create_league(
        guild_id=GUILD,
        channel_id=50,
        organiser_id=1,
        name=name,
        game="pachakuna",
        format="swiss",
        group_size=2,
        options={},
        points=(1.0, 0.0),
        bye_points=1.0,
        round_seconds=7 * DAY,
        rounds=1,
        timer_seconds=timer_seconds,
        starts_at=store.clock.time(),
        seed=3,
    )


async def test_an_old_league_keeps_its_per_move_timer_as_a_clock(leagues, service, clock):
    store = service.store
    league = await store.leagues.league(await old_league(store, "Old", 5 * HOUR))
    assert league.clock is None and league.game_clock == "move:5h" and league.legacy_timer is None
    session = await first_game(leagues, league)
    assert session.clock == gc.ClockSpec(gc.MOVE, 5 * HOUR)
    job = await store.jobs.job(DEADLINE, str(session.id))
    assert job is not None and job.due_at == pytest.approx(clock.time() + 5 * HOUR)


async def test_an_old_timer_no_clock_can_hold_becomes_the_games_turn_timer(leagues, service, clock):
    store = service.store
    # 1.5 minutes: not whole minutes.
    league = await store.leagues.league(await old_league(store, "Odd", 90.0))
    assert league.game_clock is None and league.legacy_timer == 90.0
    session = await first_game(leagues, league)
    assert session.clock == gc.turn_timer(90.0) and session.row.timer_seconds == 90.0
    job = await store.jobs.job(DEADLINE, str(session.id))
    assert job is not None and job.due_at == pytest.approx(clock.time() + 90.0)


async def test_a_league_without_a_clock_opens_games_without_one(leagues, service, clock):
    store = service.store
    plain = await leagues.create(**BASE, name="Plain")
    off = await leagues.create(**BASE, name="Off", clock="off")
    assert plain.clock is None and off.clock is None and plain.game_clock is None
    session = await first_game(leagues, plain)
    assert session.clock is None and session.row.timer_seconds is None
    assert await store.jobs.job(DEADLINE, str(session.id)) is None


async def test_a_bad_clock_is_refused_with_what_is_allowed(leagues, service):
    base = {**BASE, "name": "Refused", "days": 2}
    for spec, words in (
        ("3 days", '"3 days" is not a clock'),
        ("move:", "is not a time like 24h"),
        ("bank:1d+2d", "more than the starting bank"),
        ("move:45d", "out of range"),
        ("move:3d", r"a turn's time \(3 d\) is longer than a round \(2 d\)"),
        ("bank:2d1m", r"the starting bank \(2 d\) is longer than a round"),
    ):
        with pytest.raises(LeagueError, match=words) as refused:
            await leagues.create(**base, clock=spec)
        if "longer than a round" not in words:
            assert "`move:<time>`" in str(refused.value) and "`bank:<start>+<increment>`" in str(
                refused.value
            )
    assert await service.store.leagues.of_server(GUILD) == []  # nothing was created
    league = await leagues.create(**base, clock="bank:2d")  # as long as the round is allowed
    assert league.clock == "bank:2d"


async def test_the_clock_line_shown_with_the_leagues_settings(leagues, service):
    store = service.store
    banked = await leagues.create(**BASE, name="Banked", clock="bank:2d+12h")
    assert clock_text(banked) == (
        "Clock: `bank:2d+12h`, a time bank of 2 d each, plus 12 h after each turn (never above 2 d);"
        " at the round's deadline the computer finishes every game still running."
    )
    assert clock_text(await leagues.create(**BASE, name="Plain")).startswith("No clock; at the round's")
    old = await store.leagues.league(await old_league(store, "Old", 24 * HOUR))
    assert clock_text(old).startswith("Clock: `move:1d`, 1 d for each turn;")
    odd = await store.leagues.league(await old_league(store, "Odd", 90.0))
    assert clock_text(odd).startswith("Turn timer: 0.025 hours a turn;")
