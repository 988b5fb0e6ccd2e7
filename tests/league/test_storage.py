"""League storage on both back ends: sign-ups, rounds, games, byes, drops, and results that reach
the league in the session's own finishing transaction."""

from __future__ import annotations

import sqlite3

import pytest

from bot.storage import ResultRow, migrations, open_store
from bot.storage.base import MIGRATIONS_TABLE
from bot.storage.leagues import DEADLINE_JOB, NUDGE_JOB, ROUND_JOB, LeagueNameTaken, league_places

GUILD = 9


NEW_VALUES = dict(
    guild_id=GUILD,
    channel_id=100,
    organiser_id=1,
    name="Autumn",
    game="nim",
    format="swiss",
    group_size=2,
    options={},
    points=(1.0, 0.0),
    bye_points=1.0,
    round_seconds=86400.0,
    rounds=3,
    timer_seconds=None,
    starts_at=0.0,
    seed=5,
)


async def new_league(store, name="Autumn", size=2, points=(1.0, 0.0), bye=1.0):
    return await store.leagues.create_league(
        **{
            **NEW_VALUES,
            "name": name,
            "group_size": size,
            "points": points,
            "bye_points": bye,
            "starts_at": store.clock.time() + 60,
        }
    )


async def test_sign_ups_until_the_start(store):
    lid = await new_league(store)
    assert await store.leagues.join_league(lid, 10, "Ana") == "joined"
    assert await store.leagues.join_league(lid, 10, "Ana") == "already"
    assert await store.leagues.join_league(lid, 20, "Bo") == "joined"
    assert await store.leagues.leave_league(lid, 20) == "left"
    assert await store.leagues.leave_league(lid, 20) == "absent"
    assert [p.user_id for p in await store.leagues.league_players(lid)] == [10]
    assert await store.leagues.start_league(lid, store.clock.time() + 60, 3)
    assert not await store.leagues.start_league(lid, store.clock.time(), 3)
    assert await store.leagues.join_league(lid, 30, "Cy") == "closed"
    assert await store.leagues.leave_league(lid, 10) == "closed"
    job = await store.jobs.job(ROUND_JOB, str(lid))
    assert job is not None and job.payload == {"round": 1}


async def test_a_live_name_is_unique_per_server(store):
    lid = await new_league(store)
    with pytest.raises(LeagueNameTaken):
        await new_league(store)
    await store.leagues.end_league(lid, None, status="cancelled")
    assert await new_league(store) != lid
    assert [x.name for x in await store.leagues.of_server(GUILD)] == ["Autumn"]
    assert len(await store.leagues.of_server(GUILD, live=False)) == 2


async def test_a_server_that_removes_the_bot_cancels_its_live_leagues_and_their_jobs(store):
    """A running league with a round open (its deadline and a reminder of late games armed), one
    in sign-up, one already ended, and a running league of another server: the server's two live
    leagues are cancelled, with every job of theirs, and nothing of the others changes."""
    running, signup, ended = [await new_league(store, name) for name in ("Autumn", "Winter", "Spring")]
    for uid in (10, 20):
        await store.leagues.join_league(running, uid, f"u{uid}")
    await store.leagues.start_league(running, store.clock.time(), 3)
    await store.leagues.open_round(running, 1, [[10, 20]], [], store.clock.time() + 86400)
    await store.leagues.schedule_round(running, 2, store.clock.time() + 86400)
    await store.jobs.schedule(NUDGE_JOB, f"{running}:1", store.clock.time() + 3600, {"league": running})
    await store.leagues.end_league(ended, 10)
    elsewhere = await store.leagues.create_league(
        **{**NEW_VALUES, "guild_id": GUILD + 1, "starts_at": store.clock.time() + 60}
    )
    for uid in (10, 20):
        await store.leagues.join_league(elsewhere, uid, f"u{uid}")
    await store.leagues.start_league(elsewhere, store.clock.time() + 60, 3)
    kept = {(j.kind, j.key) for j in await store.jobs.pending()}
    assert {(ROUND_JOB, str(running)), (DEADLINE_JOB, f"{running}:1"), (NUDGE_JOB, f"{running}:1")} <= kept

    assert await store.leagues.cancel_server(GUILD) == sorted([running, signup])
    statuses = {x.id: x.status for x in await store.leagues.of_server(GUILD, live=False)}
    assert statuses == {running: "cancelled", signup: "cancelled", ended: "finished"}
    assert (await store.leagues.league(ended)).champion_id == 10
    left = {(j.kind, j.key) for j in await store.jobs.pending()}
    assert [k for k in left if k[1] in (str(running), str(signup)) or k[1].startswith(f"{running}:")] == []
    assert (ROUND_JOB, str(elsewhere)) in left
    assert (await store.leagues.league(elsewhere)).status == "running"
    assert await store.leagues.cancel_server(GUILD) == []  # told twice: nothing more


async def test_a_round_opens_once_with_its_games_byes_and_deadline(store):
    lid = await new_league(store)
    for uid in (10, 20, 30):
        await store.leagues.join_league(lid, uid, f"u{uid}")
    await store.leagues.start_league(lid, store.clock.time(), 3)
    deadline = store.clock.time() + 86400
    ids = await store.leagues.open_round(lid, 1, [[10, 20]], [30], deadline)
    assert ids is not None and len(ids) == 1
    assert (
        await store.leagues.open_round(lid, 1, [[10, 20]], [30], deadline) is None
    )  # fired twice: no change
    assert await store.leagues.open_round(lid, 3, [[10, 20]], [30], deadline) is None  # not the next round
    (game,) = await store.leagues.league_games(lid, 1)
    assert game.players == [10, 20] and game.status == "pending" and game.session_id is None
    assert await store.leagues.league_byes(lid) == [(1, 30, 1.0)]
    assert (await store.leagues.league(lid)).current_round == 1
    job = await store.jobs.job(DEADLINE_JOB, f"{lid}:1")
    assert job.due_at == deadline and job.payload == {"league": lid, "round": 1}
    assert [r.number for r in await store.leagues.league_rounds(lid)] == [1]
    assert await store.leagues.close_round(lid, 1) and not await store.leagues.close_round(lid, 1)


async def test_a_rounds_deadline_moves_with_its_claimed_job_or_not_at_all(store, clock):
    lid = await new_league(store)
    for uid in (10, 20):
        await store.leagues.join_league(lid, uid, f"u{uid}")
    await store.leagues.start_league(lid, store.clock.time(), 1)
    deadline = store.clock.time() + 86400
    await store.leagues.open_round(lid, 1, [[10, 20]], [], deadline)
    clock.advance(86400)
    (job,) = [j for j in await store.jobs.claim_jobs("here", lease=60) if j.kind == DEADLINE_JOB]
    assert await store.leagues.postpone_round(lid, 1, job, deadline + 3600)
    assert [r.deadline_at for r in await store.leagues.league_rounds(lid)] == [deadline + 3600]
    moved = await store.jobs.job(DEADLINE_JOB, f"{lid}:1")
    assert moved.due_at == deadline + 3600 and moved.claim is None
    assert not await store.leagues.postpone_round(lid, 1, job, deadline + 7200)  # its claim is spent
    clock.advance(3600)
    (again,) = [j for j in await store.jobs.claim_jobs("here", lease=60) if j.kind == DEADLINE_JOB]
    await store.leagues.close_round(lid, 1)
    assert not await store.leagues.postpone_round(lid, 1, again, deadline + 7200)  # the round closed
    assert [r.deadline_at for r in await store.leagues.league_rounds(lid)] == [deadline + 3600]
    assert (await store.jobs.job(DEADLINE_JOB, f"{lid}:1")).claim == again.claim


async def test_a_finished_game_feeds_the_league_in_its_own_transaction(service):
    store = service.store
    lid = await new_league(store)
    for uid in (10, 20):
        await store.leagues.join_league(lid, uid, f"u{uid}")
    await store.leagues.start_league(lid, store.clock.time(), 3)
    (gid,) = await store.leagues.open_round(lid, 1, [[10, 20]], [], store.clock.time() + 10)
    session = await service.lobby.create(
        "nim", guild_id=GUILD, channel_id=7, host_id=10, host_name="u10", seed=3
    )
    await service.lobby.join(7, 20, "u20")
    assert await store.leagues.attach_session(gid, session.id)
    assert not await store.leagues.attach_session(gid, session.id)
    assert await store.leagues.league_game_of(session.id) == (lid, 1)
    session = (await service.lobby.start(7, 10)).session
    while session.status == "active":
        (seat,) = session.to_move()
        uid = session.by_seat(seat).user_id
        session = (await service.play.play(7, uid, (await service.play.legal_moves(7, uid))[-1])).session
    (game,) = await store.leagues.league_games(lid, 1)
    winner = session.by_seat(session.state.winner).user_id
    assert game.status == "finished"
    by = {s.user_id: s for s in game.seats}
    assert by[winner].place == 1 and by[winner].points == 1.0
    loser = 30 - winner
    assert by[loser].place == 2 and by[loser].points == 0.0


async def test_a_failed_finish_leaves_the_league_untouched(store, database):
    """The league rows are written in the finishing transaction: when it fails, neither the
    session's result nor the league's is kept."""
    lid = await new_league(store)
    for uid in (10, 20):
        await store.leagues.join_league(lid, uid, f"u{uid}")
    await store.leagues.start_league(lid, store.clock.time(), 3)
    (gid,) = await store.leagues.open_round(lid, 1, [[10, 20]], [], store.clock.time() + 10)
    sid = await store.games.create_session(
        game="nim", guild_id=GUILD, channel_id=8, host_id=10, host_name="a", options={}, max_players=2, seed=1
    )
    await store.leagues.attach_session(gid, sid)
    results = [ResultRow(0, 10, 1.0, 1, False), ResultRow(0, 20, 0.0, 2, False)]  # the same seat twice
    with pytest.raises(Exception):  # noqa: B017 - the primary key refuses the second row, on either back end
        await store.games.finish(sid, status="finished", reason="x", outcome=None, results=results)
    (game,) = await store.leagues.league_games(lid, 1)
    assert game.status == "playing" and all(s.place is None for s in game.seats)
    assert (await store.games.session(sid)).status == "lobby"


async def test_a_dropped_player_forfeits_the_games_left(store):
    lid = await new_league(store, size=3, points=(2.0, 1.0, 0.0))
    for uid in (10, 20, 30):
        await store.leagues.join_league(lid, uid, f"u{uid}")
    await store.leagues.start_league(lid, store.clock.time(), 3)
    (gid,) = await store.leagues.open_round(lid, 1, [[10, 20, 30]], [], store.clock.time() + 10)
    assert await store.leagues.drop_player(lid, 10) == []  # no session yet
    assert await store.leagues.drop_player(lid, 10) is None  # already dropped
    assert [p.dropped_round for p in await store.leagues.league_players(lid)] == [1, None, None]
    assert await store.leagues.record_forfeit(gid)
    (game,) = await store.leagues.league_games(lid, 1)
    by = {s.user_id: s for s in game.seats}
    assert by[10].forfeit and by[10].place == 3 and by[10].points == 0.0
    assert by[20].place == by[30].place == 1 and by[20].points == 1.5


async def test_a_game_both_players_forfeited_is_lost_by_both_not_drawn(store):
    """Two dropped players a round robin still pairs: neither played, so each scores a loss (a
    double forfeit), as an abandoned game does; they drew it, half a point each, before."""
    lid = await new_league(store)
    for uid in (10, 20, 30, 40):
        await store.leagues.join_league(lid, uid, f"u{uid}")
    await store.leagues.start_league(lid, store.clock.time(), 3)
    gid, _ = await store.leagues.open_round(lid, 1, [[10, 20], [30, 40]], [], store.clock.time() + 10)
    assert await store.leagues.drop_player(lid, 10) == [] and await store.leagues.drop_player(lid, 20) == []
    assert await store.leagues.record_forfeit(gid, [10, 20])
    game = next(g for g in await store.leagues.league_games(lid, 1) if g.id == gid)
    assert {s.user_id: (s.place, s.points, s.forfeit) for s in game.seats} == {
        10: (2, 0.0, True),
        20: (2, 0.0, True),
    }


async def test_every_forfeit_at_a_table_is_a_loss_however_many_forfeit(store):
    """Two of a three-player table dropped before it opened: the one left wins, and each of the two
    ranks last with the last place's points, as one forfeit alone does; tied for second they shared
    the second and third places' points, half a point each, more than a lone forfeit scores."""
    lid = await new_league(store, size=3, points=(2.0, 1.0, 0.0))
    for uid in (10, 20, 30):
        await store.leagues.join_league(lid, uid, f"u{uid}")
    await store.leagues.start_league(lid, store.clock.time(), 3)
    (gid,) = await store.leagues.open_round(lid, 1, [[10, 20, 30]], [], store.clock.time() + 10)
    assert await store.leagues.record_forfeit(gid, [10, 20])
    (game,) = await store.leagues.league_games(lid, 1)
    assert {s.user_id: (s.place, s.points) for s in game.seats} == {10: (3, 0.0), 20: (3, 0.0), 30: (1, 2.0)}


def test_forfeits_rank_last_and_keep_ties():
    rows = [ResultRow(0, 1, None, 1, False), ResultRow(1, 2, None, 2, False), ResultRow(2, 3, None, 2, False)]
    assert league_places(rows, set()) == {1: 1, 2: 2, 3: 2}
    assert league_places(rows, {1}) == {2: 1, 3: 1, 1: 3}


async def test_the_organiser_role_per_server(store):
    assert await store.people.organiser_role(GUILD) is None
    await store.people.set_organiser_role(GUILD, 555)
    await store.people.set_organiser_role(GUILD, 556)
    assert await store.people.organiser_role(GUILD) == 556
    await store.people.set_organiser_role(GUILD, None)
    assert await store.people.organiser_role(GUILD) is None


async def test_a_league_keeps_its_clock_spec(store):
    lid = await store.leagues.create_league(**{**NEW_VALUES, "name": "Clocked", "clock": "bank:3d+12h"})
    league = await store.leagues.league(lid)
    assert (
        league.clock == "bank:3d+12h" and league.game_clock == "bank:3d+12h" and league.legacy_timer is None
    )
    assert (await store.leagues.of_server(GUILD))[0].clock == "bank:3d+12h"
    # A league with only the older per-move timer reads as the per-move clock of that timer.
    old = await store.leagues.league(await new_league(store, name="Old"))
    assert old.clock is None and old.game_clock is None
    timed = await store.leagues.create_league(**{**NEW_VALUES, "name": "Timed", "timer_seconds": 36 * 3600.0})
    assert (await store.leagues.league(timed)).game_clock == "move:1d12h"


async def test_a_league_written_before_clocks_keeps_its_timer_after_the_upgrade(db_path, clock):
    """An SQLite file at the schema before league clocks, with a league that has a per-move timer:
    the upgrade leaves its clock empty, and the league reads as that timer's per-move clock."""
    known = migrations("sqlite")
    (upgrade,) = [n for n, name, _ in known if name == "league_clocks"]
    con = sqlite3.connect(db_path)
    con.execute(MIGRATIONS_TABLE)
    for number, name, sql in known:
        if number < upgrade:
            con.executescript(sql)
            con.execute("INSERT INTO schema_migrations VALUES (?, ?, 'then')", (number, name))
    con.execute(
        "INSERT INTO leagues (guild_id, channel_id, organiser_id, name, game, format, group_size, options,"
        " points, bye_points, round_seconds, rounds, timer_seconds, starts_at, status, seed, created_at)"
        " VALUES (9, 100, 1, 'Before', 'nim', 'swiss', 2, '{}', '[1.0, 0.0]', 1.0, 86400.0, 3, 18000.0,"
        " 0.0, 'signup', 5, 'then')"
    )
    con.commit()
    con.close()
    store = await open_store(str(db_path), clock=clock)
    try:
        (league,) = await store.leagues.of_server(GUILD)
        assert league.name == "Before" and league.clock is None and league.timer_seconds == 18000.0
        assert league.game_clock == "move:5h"
        assert await store.schema_version() == len(known)
    finally:
        await store.close()
