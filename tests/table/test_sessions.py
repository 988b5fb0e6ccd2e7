"""The session service on real SQLite files, played with the Nim test game."""

from __future__ import annotations

import asyncio

import pytest

from bot.history import History
from bot.sessions import NoGameHere, NotSeated, Refusal, SessionService, StaleMove
from bot.storage.profiles import ServerGates
from bot.undo import UndoService
from engines.core import IllegalMove, MalformedMove, NotYourTurn
from tests.support import nim

CH = 555
GUILD = 1


async def two_player_game(service, seed=7):
    await service.lobby.create("nim", guild_id=GUILD, channel_id=CH, host_id=1, host_name="ann", seed=seed)
    await service.lobby.join(CH, 2, "bob")
    result = await service.lobby.start(CH, 1)
    return result.session


def user_to_move(session):
    (seat,) = session.to_move()
    return session.by_seat(seat).user_id


async def test_one_live_game_per_channel(service):
    """A second game in the same channel is refused with the reason."""
    await service.lobby.create("nim", guild_id=GUILD, channel_id=CH, host_id=1, host_name="ann")
    with pytest.raises(Refusal, match="already has a Nim game"):
        await service.lobby.create("nim", guild_id=GUILD, channel_id=CH, host_id=2, host_name="bob")
    other = await service.lobby.create("nim", guild_id=GUILD, channel_id=CH + 1, host_id=2, host_name="bob")
    assert other.status == "lobby"


async def test_bad_options_are_refused_at_creation(service):
    """Options outside their choices are refused, naming what is allowed."""
    with pytest.raises(Refusal, match="piles must be one of 1, 2, 3, 4, 5"):
        await service.lobby.create(
            "nim", guild_id=GUILD, channel_id=CH, host_id=1, host_name="a", options={"piles": 9}
        )
    with pytest.raises(Refusal, match='unknown option "colour"'):
        await service.lobby.create(
            "nim", guild_id=GUILD, channel_id=CH, host_id=1, host_name="a", options={"colour": "red"}
        )
    assert await service.core.in_channel(CH) is None


async def test_lobby_join_leave_and_full_table(service):
    """Joining twice, joining a full table and leaving when not seated are refused."""
    await service.lobby.create(
        "nim", guild_id=GUILD, channel_id=CH, host_id=1, host_name="ann", max_players=2
    )
    with pytest.raises(Refusal, match="already seated"):
        await service.lobby.join(CH, 1, "ann")
    await service.lobby.join(CH, 2, "bob")
    with pytest.raises(Refusal, match="full"):
        await service.lobby.join(CH, 3, "cid")
    with pytest.raises(NotSeated):
        await service.lobby.leave(CH, 3)
    session = await service.lobby.leave(CH, 2)
    assert [s.name for s in session.seats] == ["ann"]
    assert await service.lobby.leave(CH, 1) is None  # the last person out closes the lobby
    assert await service.core.in_channel(CH) is None


async def test_no_game_in_channel(service):
    """A move in a channel with no game is refused."""
    with pytest.raises(NoGameHere):
        await service.play.play(CH, 1, "A1")


async def test_start_shuffles_seats_by_seed(service):
    """Seat order comes from the seed: the same seed seats people the same way."""
    # Six tables at once for the same people: the server lifts its cap on running games.
    await service.store.profiles.set_server_gates(GUILD, ServerGates(cap=0))
    orders = []
    for channel, seed in ((10, 3), (11, 3), (12, 4), (13, 5), (14, 6), (15, 8)):
        await service.lobby.create(
            "nim", guild_id=GUILD, channel_id=channel, host_id=1, host_name="a", seed=seed
        )
        for uid in (2, 3, 4):
            await service.lobby.join(channel, uid, f"u{uid}")
        session = (await service.lobby.start(channel, 1)).session
        orders.append(tuple(session.seat_of(uid).seat for uid in (1, 2, 3, 4)))
    assert orders[0] == orders[1]
    assert len(set(orders)) > 1
    assert all(sorted(o) == [0, 1, 2, 3] for o in orders)


async def test_refusals_leave_the_game_unchanged(service):
    """Out-of-turn, unseated, malformed and illegal moves change nothing."""
    session = await two_player_game(service)
    mover = user_to_move(session)
    other = 1 if mover == 2 else 2
    before = (session.version, nim.to_dict(session.state))
    with pytest.raises(NotYourTurn):
        await service.play.play(CH, other, "A1")
    with pytest.raises(NotSeated):
        await service.play.play(CH, 99, "A1")
    with pytest.raises(MalformedMove, match="like B3"):
        await service.play.play(CH, mover, "hello")
    with pytest.raises(IllegalMove, match="take 1 to"):
        await service.play.play(CH, mover, "A9")
    session = await service.core.in_channel(CH)
    assert (session.version, nim.to_dict(session.state)) == before
    assert await service.store.history.move_count(session.id) == 0


async def test_fifty_concurrent_attempts_give_one_move(service):
    """50 concurrent attempts at the same move: one accepted, 49 refused, log and snapshot agree."""
    session = await two_player_game(service)
    mover = user_to_move(session)
    version = session.version
    results = await asyncio.gather(
        *(service.play.play(CH, mover, "A1", expected_version=version) for _ in range(50)),
        return_exceptions=True,
    )
    accepted = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(accepted) == 1 and len(refused) == 49
    assert all(isinstance(r, StaleMove) and "board changed" in str(r) for r in refused)
    session = await service.core.in_channel(CH)
    assert session.version == version + 1
    log = await service.store.history.moves(session.id)
    assert [m.move for m in log] == ["A1"]
    assert nim.to_dict(await service.logbook.replay(session.id)) == nim.to_dict(session.state)


async def test_concurrent_moves_without_versions_follow_the_rules(service):
    """Racing different moves without a version: the turn order refuses all but one."""
    session = await two_player_game(service)
    mover = user_to_move(session)
    results = await asyncio.gather(
        *(service.play.play(CH, mover, "A1") for _ in range(20)), return_exceptions=True
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(isinstance(r, NotYourTurn) for r in results if isinstance(r, Exception))


async def test_game_survives_reopening_the_database(database):
    """Close the database in the middle of a game, reopen it, and play on."""
    store = await database.open()
    service = SessionService(store)
    session = await two_player_game(service)
    await service.play.play(CH, user_to_move(session), "A1")
    before = await service.core.in_channel(CH)
    await store.close()

    store = await database.open()
    service = SessionService(store)
    try:
        session = await service.core.in_channel(CH)
        assert session.version == before.version
        assert nim.to_dict(session.state) == nim.to_dict(before.state)
        result = await service.play.play(CH, user_to_move(session), "B1")
        assert result.session.version == before.version + 1
    finally:
        await store.close()


async def play_out(service, session):
    while session.status == "active":
        uid = user_to_move(session)
        legal = await service.play.legal_moves(CH, uid)
        result = await service.play.play(CH, uid, legal[-1])
        session = result.session
    return result


async def test_finished_game_records_results_and_replays(service):
    """A finished game records results, and replaying seed and log reproduces its state."""
    session = await two_player_game(service, seed=11)
    result = await play_out(service, session)
    assert result.finished and result.outcome is not None
    session = await service.core.get(session.id)
    assert session.status == "finished"
    rows = await service.store.ratings.results(session.id)
    assert sorted(r.place for r in rows) == [1, 2]
    winner = next(r for r in rows if r.place == 1)
    assert winner.seat == session.state.winner
    assert nim.to_dict(await service.logbook.replay(session.id)) == nim.to_dict(session.state)
    with pytest.raises(Refusal, match="over|no game"):
        await service.play.play_in(session.id, 1, "A1")


async def test_a_game_ended_and_never_told_is_listed_for_its_last_board_for_a_week(service, clock):
    """A finished game whose last moves the channel was never told (its board not posted) is
    listed for the table's start, until its board and its results card are posted or a week has
    passed."""
    session = await two_player_game(service, seed=11)
    result = await play_out(service, session)
    assert result.finished
    assert await service.play.ends_untold([GUILD]) == [session.id]
    assert await service.play.ends_untold([GUILD + 1]) == []
    clock.advance(7 * 86400 - 1)
    assert await service.play.ends_untold([GUILD]) == [session.id]
    last = (await service.store.history.moves(session.id))[-1].number
    await service.store.games.set_board_message(session.id, 99, last, end_told=True)  # the last board posted
    assert await service.play.ends_untold([GUILD]) == [session.id]  # its results card is not
    assert await service.store.games.card_told(session.id)
    assert await service.play.ends_untold([GUILD]) == []
    await service.store.games.set_board_message(session.id, 99, 0)  # told_through never goes back
    assert await service.play.ends_untold([GUILD]) == []


async def test_a_game_ended_without_a_move_and_never_told_is_listed_until_told(service):
    """A game ended by a resignation (no move), or abandoned by its host, is listed for the table's
    start until its end is told (a finished game's results card too); a game abandoned with nobody to tell (its channel deleted) and a
    lobby that closed are not."""
    session = await two_player_game(service, seed=11)
    assert (await service.seats.resign(CH, 2)).finished
    assert await service.play.ends_untold([GUILD]) == [session.id]
    await service.store.games.set_board_message(session.id, 99, 0, end_told=True)  # its end posted
    assert await service.play.ends_untold([GUILD]) == [session.id]  # its results card not yet
    await service.store.games.card_told(session.id)
    assert await service.play.ends_untold([GUILD]) == []
    abandoned = await two_player_game(service, seed=12)
    await service.seats.abandon(CH, 1, can_manage=False)
    assert await service.play.ends_untold([GUILD]) == [abandoned.id]
    await service.store.games.end_told(abandoned.id)
    assert await service.play.ends_untold([GUILD]) == []
    await two_player_game(service, seed=13)
    assert await service.seats.channel_gone(GUILD, CH)
    await service.lobby.create("nim", guild_id=GUILD, channel_id=CH, host_id=1, host_name="ann")
    assert await service.lobby.leave(CH, 1) is None
    assert await service.play.ends_untold([GUILD]) == []


async def test_a_game_whose_first_board_was_never_posted_is_taken_up_at_the_start(service):
    """A game started (stored) whose first board was not posted is listed for the table's start
    until a board of it is posted."""
    session = await two_player_game(service)
    assert await service.play.computers_waiting([GUILD]) == [session.id]
    await service.store.games.set_board_message(session.id, 99, 0)
    assert await service.play.computers_waiting([GUILD]) == []


async def test_a_game_ended_and_never_told_a_week_ago_is_not_posted_any_more(service, clock):
    session = await two_player_game(service, seed=11)
    await play_out(service, session)
    clock.advance(7 * 86400 + 1)
    assert await service.play.ends_untold([GUILD]) == []


async def test_a_game_abandoned_in_another_process_while_its_last_move_ends_it_gets_no_result(service, store):
    """Two processes share the database: the last move is committed in one, and the game is
    abandoned in the other before the first records its end (each holds its own lock).  The
    game stays abandoned, without results or ratings, and the mover hears that it did not finish."""
    elsewhere = SessionService(store)
    session = await two_player_game(service, seed=11)
    finish = store.games.finish

    async def abandoned_first(session_id, **kwargs):
        if kwargs["status"] == "finished":
            store.games.finish = finish
            await elsewhere.seats.abandon(CH, 1, can_manage=True)
        return await finish(session_id, **kwargs)

    store.games.finish = abandoned_first
    result = await play_out(service, session)
    assert result.session.status == "abandoned"
    assert not result.finished and result.outcome is None and result.ratings == []
    assert await store.ratings.results(session.id) == []
    assert await store.ratings.leaderboard(GUILD, "nim") == []


async def test_computer_player_fills_a_seat(service):
    """A computer seat moves by itself after each human move, and the moves are logged as its own."""
    await service.lobby.create("nim", guild_id=GUILD, channel_id=CH, host_id=1, host_name="ann", seed=5)
    await service.lobby.add_computer(CH, 1)
    result = await service.lobby.start(CH, 1)
    session = result.session
    while session.status == "active":
        assert session.to_move() == {session.seat_of(1).seat}
        legal = await service.play.legal_moves(CH, 1)
        result = await service.play.play(CH, 1, legal[0])
        session = result.session
    log = await service.store.history.moves(session.id)
    assert any(m.by_computer for m in log) and any(not m.by_computer for m in log)
    assert nim.to_dict(await service.logbook.replay(session.id)) == nim.to_dict(session.state)


async def test_resign_in_two_player_game_ends_it(service):
    """Resigning a two-player game hands the win to the other player."""
    session = await two_player_game(service)
    result = await service.seats.resign(CH, 1)
    assert result.finished
    rows = {r.user_id: r for r in await service.store.ratings.results(session.id)}
    assert rows[2].place == 1 and rows[1].place == 2 and rows[1].resigned


async def test_resign_with_three_players_hands_seat_to_computer(service):
    """With others still playing, the computer takes a resigned seat and it ranks last."""
    await service.lobby.create("nim", guild_id=GUILD, channel_id=CH, host_id=1, host_name="a", seed=2)
    await service.lobby.join(CH, 2, "b")
    await service.lobby.join(CH, 3, "c")
    session = (await service.lobby.start(CH, 1)).session
    result = await service.seats.resign(CH, 3)
    assert not result.finished and "computer plays" in str(result.note)
    session = result.session
    assert session.seat_of(3).computer
    with pytest.raises(Refusal, match="^you resigned from this game; the computer plays your seat now$"):
        await service.play.play(CH, 3, "A1")
    with pytest.raises(Refusal, match="^you resigned from this game"):
        await UndoService(service, History(service)).ask(CH, 3)
    while session.status == "active":
        result = await service.play.play(
            CH, user_to_move(session), (await service.play.legal_moves(CH, user_to_move(session)))[0]
        )
        session = result.session
    rows = {r.user_id: r for r in await service.store.ratings.results(session.id)}
    assert rows[3].place == 3


async def test_abandon_needs_host_or_manager(service):
    """Only the host or someone with Manage Channels may abandon."""
    await two_player_game(service)
    with pytest.raises(Refusal, match="only the host"):
        await service.seats.abandon(CH, 2, can_manage=False)
    session = await service.seats.abandon(CH, 2, can_manage=True)
    assert session.status == "abandoned"
    assert await service.core.in_channel(CH) is None


async def test_many_sessions_at_once_see_their_own_writes(service):
    """Lobbies opened, joined and played concurrently in many channels all see their committed rows."""

    async def one(channel: int) -> str:
        await service.lobby.create(
            "nim", guild_id=GUILD, channel_id=channel, host_id=channel, host_name="a", seed=channel
        )
        await service.lobby.join(channel, channel + 100000, "b")
        session = (await service.lobby.start(channel, channel)).session
        for _ in range(3):
            if session.status != "active":
                break
            (seat,) = session.to_move()
            uid = session.by_seat(seat).user_id
            session = (
                await service.play.play(channel, uid, (await service.play.legal_moves(channel, uid))[0])
            ).session
        return session.status

    statuses = await asyncio.gather(*(one(1000 + i) for i in range(16)))
    assert all(s in ("active", "finished") for s in statuses)
    live = await service.core.live(GUILD)
    assert {s.row.channel_id for s in live} == {1000 + i for i, st in enumerate(statuses) if st == "active"}


@pytest.mark.parametrize("held", [True, False], ids=["copy held", "after a restart"])
async def test_a_move_reads_its_game_at_most_once_and_hands_back_the_row_as_committed(service, store, held):
    """A move starts from the copy of the game the service holds (no read), or, without one (as
    after a restart), from one read under the lock; the commit returns the session as stored,
    deadline, clocks and version included, so no second read follows it."""
    session = await two_player_game(service)
    await service.clocks.set_clock(CH, 1, "move:1h", can_manage=True)
    if not held:
        service.core.states.clear()
    reads = 0
    load = store.games.load

    async def counted(**where):
        nonlocal reads
        reads += 1
        return await load(**where)

    store.games.load = counted
    result = await service.play.play_in(session.id, user_to_move(session), "A1")
    result = await service.play.play(CH, user_to_move(result.session), "B1")
    store.games.load = load
    assert reads == (0 if held else 1)
    fresh = await service.core.get(session.id)
    assert result.session.row.clock_state is not None and result.session.row.timer_seconds is not None
    assert {k: v for k, v in vars(result.session.row).items() if k != "state"} == {
        k: v for k, v in vars(fresh.row).items() if k != "state"
    }
    assert nim.to_dict(result.session.state) == nim.to_dict(fresh.state) == fresh.row.state
    assert [(s.seat, s.user_id, s.name) for s in result.session.seats] == [
        (s.seat, s.user_id, s.name) for s in fresh.seats
    ]
    job = await store.jobs.job("deadline", str(session.id))
    assert job is not None and job.payload == {"version": fresh.version}


async def test_a_stale_commit_of_a_move_writes_nothing(service, store):
    """The commit that hands back the row still refuses a session no longer at the expected version."""
    from bot.storage import NewMove, StaleVersion

    session = await two_player_game(service)
    await service.play.play_in(session.id, user_to_move(session), "A1")
    with pytest.raises(StaleVersion) as caught:
        await store.games.play_moves(session.id, session.version, [NewMove(0, "B1")], {"stale": True})
    assert caught.value.current == session.version + 1
    assert [m.move for m in await store.history.moves(session.id)] == ["A1"]
    assert (await service.core.get(session.id)).row.state != {"stale": True}


async def test_every_act_by_someone_not_seated_gets_the_one_refusal(service):
    """Adding a computer, leaving, starting, moving, resigning, returning, asking and answering an
    undo: each refuses someone without a seat with the same words, as NotSeated, and changes nothing."""
    await service.lobby.create("nim", guild_id=GUILD, channel_id=CH, host_id=1, host_name="ann", seed=7)
    await service.lobby.join(CH, 2, "bob")
    lobby = [service.lobby.add_computer(CH, 99), service.lobby.leave(CH, 99), service.lobby.start(CH, 99)]
    for act in lobby:
        with pytest.raises(NotSeated) as refused:
            await act
        assert str(refused.value) == "you are not playing in this game"
    session = (await service.lobby.start(CH, 1)).session
    undo = UndoService(service, History(service))
    running = [
        service.play.play(CH, 99, "1-1"),
        service.seats.resign(CH, 99),
        service.seats.return_seat(CH, 99),
        undo.ask(CH, 99),
        undo.answer(session.id, session.version, 99, True),
    ]
    for act in running:
        with pytest.raises(NotSeated) as refused:
            await act
        assert str(refused.value) == "you are not playing in this game"
    assert (await service.core.in_channel(CH)).version == session.version


async def test_an_act_on_a_channel_whose_game_changed_before_the_lock_locks_the_new_game(service):
    """A join that looked up the channel just before its game was abandoned and a new one opened
    acts on the new game under the new game's lock, not on the new game under the old one's."""
    old = await two_player_game(service)
    await service.seats.abandon(CH, 1, can_manage=True)
    new = await service.lobby.create("nim", guild_id=GUILD, channel_id=CH, host_id=3, host_name="cid")
    looked_up = service.core.require
    calls = []

    async def stale_then_true(channel_id, **kwargs):
        calls.append(channel_id)
        return old if len(calls) == 1 else await looked_up(channel_id, **kwargs)

    service.core.require = stale_then_true
    held = []
    real_lock = service.core.lock

    def lock(session_id):
        held.append(session_id)
        return real_lock(session_id)

    service.core.lock = lock
    session = await service.lobby.join(CH, 2, "bob")
    assert session.id == new.id and [s.name for s in session.seats] == ["cid", "bob"]
    assert held[:2] == [old.id, new.id]  # the stale game's lock was let go, the new one's taken
