"""A league's decision about a game is stored whole with the change it makes at the table, on both
back ends: the organiser's "forfeit" (the no-shows, the league seats forfeited and the late
players' seats resigned, or the game's end), and a player's drop (their drop in the league and
their seat's forfeit or substitute).  The database refuses the table's part (a trigger, as a
failing disk or a server cut would between two commits): nothing of the decision is kept, the
game goes on as it was and the decision can be made again; without the fault all of it is
stored."""

from __future__ import annotations

import pytest

from bot.league.noshow_desk import NoShowDesk
from bot.league.season import Rounds
from bot.league.service import RESUME_AFTER, LeagueService
from bot.storage.leagues import DEADLINE_JOB, ROUND_JOB
from bot.time import jobs
from bot.time.scheduler import Scheduler
from tests.league.test_restarts import Desk
from tests.league.test_service import new_league
from tests.table.test_seat_changes_whole import allow, refuse


@pytest.fixture
def league_desk(service, clock):
    """The league's service, its no-show desk (Discord in memory) and the scheduler."""
    leagues = LeagueService(service.store, service)
    scheduler = Scheduler(service.store, owner="test", retry_after=60.0)
    noshows = NoShowDesk(Rounds(leagues, Desk(), scheduler))
    scheduler.register(ROUND_JOB, noshows.fire_round)
    scheduler.register(DEADLINE_JOB, noshows.fire_deadline)
    scheduler.register(jobs.LEAGUE_NUDGE, noshows.fire_nudge)
    return leagues, noshows, scheduler


async def opened(league_desk, people: int, action: str):
    """A running one-round Nim league of ``people`` at one table, its game open; (league, game,
    session)."""
    leagues, noshows, scheduler = league_desk
    league = await new_league(
        leagues, name="Whole", game="nim", format="swiss", group_size=people, rounds=1, days=3
    )
    for uid in range(41, 41 + people):
        await leagues.join(league, uid, f"P{uid}")
    await noshows.set_rules(league, action, 0, "original")  # 0: nobody is dropped for no-shows
    league, _ = await leagues.start(league)
    await scheduler.run_due()  # round 1 opens
    (game,) = await leagues.store.leagues.league_games(league.id, 1)
    session = await leagues.sessions.core.get(game.session_id)
    return await leagues.store.leagues.league(league.id), game, session


async def league_seats(store, league_id: int) -> dict[int, tuple[bool, int | None]]:
    """Each league seat's (forfeited, place) in the league's only game."""
    (game,) = await store.leagues.league_games(league_id, 1)
    return {s.user_id: (s.forfeit, s.place) for s in game.seats}


@pytest.mark.parametrize("people", [2, 3])
async def test_the_organisers_forfeit_is_stored_with_the_seats_it_forfeits(
    league_desk, service, database, people
):
    """The organiser decides a late game, the league forfeiting whoever is late.  Refused at the
    seats, neither the no-show nor the league's forfeit is stored (they used to be: the player
    counted as forfeited in the league played on, and, having moved, was no longer late, so the
    organiser could not decide again); allowed, the no-show, the forfeit and the resigned seat
    (for two, the game's end) are stored together."""
    _, noshows, _ = league_desk
    store = service.store
    league, game, session = await opened(league_desk, people, "forfeit")
    (late,) = session.waiting_on()

    await refuse(database, "no_resign", "seats", column="resigned")
    with pytest.raises(database.integrity_error):
        await noshows.decide(league, game.id)
    assert await store.noshows.counts(league.id) == {}
    assert {f for f, _ in (await league_seats(store, league.id)).values()} == {False}
    after = await service.core.get(session.id)
    assert after.status == "active" and after.version == session.version
    assert not after.by_seat(late.seat).resigned and not after.by_seat(late.seat).computer

    await allow(database, "no_resign", "seats")
    done = await noshows.decide(league, game.id)
    assert done.late == [late.user_id] and done.counted == [late.user_id]
    assert await store.noshows.counts(league.id) == {late.user_id: 1}
    seats = await league_seats(store, league.id)
    assert {u for u, (f, _) in seats.items() if f} == {late.user_id}
    after = await service.core.get(session.id)
    assert after.by_seat(late.seat).resigned
    if people == 2:  # the one left wins at once; the forfeit ranks last in the league
        assert after.status == "finished"
        assert {u: p for u, (_, p) in seats.items()} == {late.user_id: 2, 83 - late.user_id: 1}
    else:
        assert after.status == "active" and after.by_seat(late.seat).computer


async def test_seats_forfeited_together_share_their_place(league_desk, service):
    """Two of three seats forfeited in one commit end the game: the one left wins, and the two
    share the place below (neither ranks above the other for the order they were listed in)."""
    _, _, session = await opened(league_desk, 3, "forfeit")
    result = await service.seats.forfeit_seats(session.id, [43, 41])
    assert result is not None and result.finished
    places = {r.user_id: (r.place, r.resigned) for r in await service.store.ratings.results(session.id)}
    assert places == {42: (1, False), 41: (2, True), 43: (2, True)}


@pytest.mark.parametrize("substitute", [False, True])
async def test_a_drop_is_stored_with_its_seats_forfeit_or_substitute(
    league_desk, service, database, substitute
):
    """The organiser drops a player of a three-player game: their seat goes to a substitute, or
    resigns to the computer.  Refused at the seat, the drop is not stored either (it used to be:
    the player was dropped and forfeited in the league but kept playing the game, and dropping
    them again was refused as they were dropped already); allowed, both are stored."""
    _, noshows, _ = league_desk
    store = service.store
    league, game, session = await opened(league_desk, 3, "computer")
    leaving = session.seat_of(42)
    if substitute:
        await store.noshows.add_substitute(league.id, 30, "Sub")
    column = "user_id" if substitute else "resigned"

    await refuse(database, "no_seat", "seats", column=column)
    with pytest.raises(database.integrity_error):
        await noshows.drop(league, 42, "P42")
    players = {p.user_id: p for p in await store.leagues.league_players(league.id)}
    assert players[42].active
    assert {f for f, _ in (await league_seats(store, league.id)).values()} == {False}
    after = await service.core.get(session.id)
    assert after.version == session.version and after.by_seat(leaving.seat) == leaving

    await allow(database, "no_seat", "seats")
    assert await noshows.drop(league, 42, "P42") == ((1, 0, 0) if substitute else (0, 1, 0))
    players = {p.user_id: p for p in await store.leagues.league_players(league.id)}
    assert players[42].dropped
    after = await service.core.get(session.id)
    seat = after.by_seat(leaving.seat)
    if substitute:
        assert seat.user_id == 30 and not seat.computer
        assert await store.noshows.substitutions(game.id) == [(42, 30, "original")]
        assert (await league_seats(store, league.id))[42] == (False, None)  # credited to the original
    else:
        assert seat.user_id == 42 and seat.computer and seat.resigned
        assert (await league_seats(store, league.id))[42] == (True, None)


async def test_a_drop_with_no_game_being_played_is_stored_by_itself(league_desk, service):
    """A player whose game has ended is dropped all the same (their drop has no seat to go with)."""
    leagues, noshows, _ = league_desk
    league, game, session = await opened(league_desk, 2, "computer")
    await service.seats.resign(session.row.channel_id, 41)
    assert await noshows.drop(league, 42, "P42") == (0, 0, 0)
    players = {p.user_id: p for p in await service.store.leagues.league_players(league.id)}
    assert players[42].dropped and players[41].active
    with pytest.raises(Exception, match="dropped already"):
        await noshows.drop(league, 42, "P42")


async def test_the_organisers_computer_decision_counts_the_no_show_with_the_seat_it_takes(
    league_desk, service, database
):
    """The league's choice is the computer: refused at the seat, the no-show is not counted
    either (it used to be, while the late player kept their seat); allowed, both are stored."""
    _, noshows, _ = league_desk
    league, game, session = await opened(league_desk, 3, "computer")
    (late,) = session.waiting_on()
    await refuse(database, "no_computer", "seats", column="is_computer")
    with pytest.raises(database.integrity_error):
        await noshows.decide(league, game.id)
    assert await service.store.noshows.counts(league.id) == {}
    assert not (await service.core.get(session.id)).by_seat(late.seat).computer

    await allow(database, "no_computer", "seats")
    await noshows.decide(league, game.id)
    assert await service.store.noshows.counts(league.id) == {late.user_id: 1}
    seat = (await service.core.get(session.id)).by_seat(late.seat)
    assert seat.computer and not seat.resigned


async def test_a_game_whose_start_failed_is_started_when_the_round_opening_resumes(
    league_desk, service, database, clock
):
    """The round's opening builds a game's lobby, then the database refuses its start.  The
    round's job fires again: the lobby is started where it was built, its players called there
    once (it used to be listed as open and left a lobby for good: nobody could play it, and the
    round's deadline had no game to finish)."""
    leagues, noshows, scheduler = league_desk
    desk = noshows.posts
    league = await new_league(
        leagues, name="Whole", game="nim", format="swiss", group_size=3, rounds=1, days=3
    )
    for uid in (41, 42, 43):
        await leagues.join(league, uid, f"P{uid}")
    league, _ = await leagues.start(league)
    await refuse(database, "no_start", "sessions", column="status")
    await scheduler.run_due()
    (game,) = await service.store.leagues.league_games(league.id, 1)
    lobby = await service.core.get(game.session_id)
    assert lobby.status == "lobby" and sorted(s.user_id for s in lobby.seats) == [41, 42, 43]

    await allow(database, "no_start", "sessions")
    clock.advance(RESUME_AFTER)
    await scheduler.run_due()
    (game,) = await service.store.leagues.league_games(league.id, 1)
    session = await service.core.get(game.session_id)
    assert session.id == lobby.id and session.status == "active"
    assert desk.threads == [7000] and len(desk.posts[7000]) == 1  # its players called once, there
    assert "in <#7000>" in desk.posts[50][-1]


async def test_a_lobby_is_never_left_without_its_league_game(league_desk, service, database, clock):
    """The database refuses to mark the league game as played by the new lobby: the lobby is not
    stored either (it used to stay, a lobby in a thread the league did not know of, and the
    resumed opening made a second one for the same game); the resumed opening opens the game
    once."""
    leagues, noshows, scheduler = league_desk
    desk = noshows.posts
    league = await new_league(
        leagues, name="Whole", game="nim", format="swiss", group_size=2, rounds=1, days=3
    )
    for uid in (41, 42):
        await leagues.join(league, uid, f"P{uid}")
    league, _ = await leagues.start(league)
    await refuse(database, "no_attach", "league_games", column="session_id")
    await scheduler.run_due()
    (game,) = await service.store.leagues.league_games(league.id, 1)
    assert game.status == "pending" and game.session_id is None
    assert await service.store.games.live_session(7000) is None

    await allow(database, "no_attach", "league_games")
    clock.advance(RESUME_AFTER)
    await scheduler.run_due()
    (game,) = await service.store.leagues.league_games(league.id, 1)
    session = await service.core.get(game.session_id)
    assert session.status == "active" and session.row.channel_id == desk.threads[-1]
    live = [await service.store.games.live_session(t) for t in desk.threads]
    assert [s.id for s in live if s is not None] == [session.id]  # one game for the table


async def test_a_game_opened_twice_keeps_the_first_lobby_only(league_desk, service):
    """Two openings of the same pending game (a round resumed in two processes at once): the
    second stores no lobby of its own (it used to build and start a second game for the same
    table in its own thread, which its league never knew of) and answers with the first."""
    leagues, _, _ = league_desk
    league = await new_league(
        leagues, name="Whole", game="nim", format="swiss", group_size=2, rounds=1, days=3
    )
    for uid in (41, 42):
        await leagues.join(league, uid, f"P{uid}")
    league, _ = await leagues.start(league)
    opened = await leagues.open_round(league.id, 1)
    (game,) = opened.games
    names = {41: "P41", 42: "P42"}
    first = await leagues.open_game(opened.league, game, 7100, names)
    second = await leagues.open_game(opened.league, game, 7101, names)  # ``game`` as read before
    assert first is not None and second is not None and second.id == first.id
    assert await service.store.games.live_session(7101) is None
    (stored,) = await service.store.leagues.league_games(league.id, 1)
    assert stored.session_id == first.id


async def test_the_services_drop_is_stored_with_the_seat_it_forfeits(league_desk, service, database):
    """The service's own drop (the computer in the seat, no substitutes) is one commit with the
    first game's forfeit, as the organiser's is: refused at the seat, the player stays active and
    can be dropped later; allowed, both are stored."""
    leagues, _, _ = league_desk
    store = service.store
    league, _, session = await opened(league_desk, 3, "computer")
    leaving = session.seat_of(42)

    await refuse(database, "no_seat", "seats", column="resigned")
    with pytest.raises(database.integrity_error):
        await leagues.drop(league, 42, "P42")
    players = {p.user_id: p for p in await store.leagues.league_players(league.id)}
    assert players[42].active
    assert (await service.core.get(session.id)).version == session.version

    await allow(database, "no_seat", "seats")
    (result,) = await leagues.drop(league, 42, "P42")
    assert result.session.by_seat(leaving.seat).computer
    players = {p.user_id: p for p in await store.leagues.league_players(league.id)}
    assert players[42].dropped
    assert (await league_seats(store, league.id))[42] == (True, None)
    with pytest.raises(Exception, match="dropped already"):
        await leagues.drop(league, 42, "P42")
