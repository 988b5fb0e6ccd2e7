"""No-show storage on both back ends: the rules, no-shows counted once per game, the substitutes'
list, and a seat handed to a substitute whose result counts as the organiser chose."""

from __future__ import annotations

import sqlite3

import asyncpg
import pytest

from bot.league.noshows import Rules
from bot.storage.noshows import Substitute
from bot.storage.profiles import Holder
from engines.core import said
from tests.league.test_storage import GUILD, new_league


async def running_league(service, players=(10, 20)):
    store = service.store
    lid = await new_league(store)
    for uid in players:
        await store.leagues.join_league(lid, uid, f"u{uid}")
    await store.leagues.start_league(lid, store.clock.time(), 3)
    (gid,) = await store.leagues.open_round(lid, 1, [list(players)], [], store.clock.time() + 10)
    session = await service.lobby.create(
        "nim", guild_id=GUILD, channel_id=7, host_id=10, host_name="u10", seed=3
    )
    await service.lobby.join(7, 20, "u20")
    await store.leagues.attach_session(gid, session.id)
    session = (await service.lobby.start(7, 10)).session
    return lid, gid, session


async def test_rules_default_until_set_and_bad_values_are_refused_by_the_database(store):
    lid = await new_league(store)
    assert await store.noshows.rules(lid) == Rules()
    await store.noshows.set_rules(lid, Rules("forfeit", 3, "nobody"))
    assert await store.noshows.rules(lid) == Rules("forfeit", 3, "nobody")
    await store.noshows.set_rules(lid, Rules("score", 0, "substitute"))
    assert await store.noshows.rules(lid) == Rules("score", 0, "substitute")
    with pytest.raises((sqlite3.IntegrityError, asyncpg.CheckViolationError)):
        await store.noshows.set_rules(lid, Rules("wait", 2, "original"))
    assert await store.noshows.rules(lid) == Rules("score", 0, "substitute")


async def test_a_no_show_counts_once_per_game_and_person(service):
    store = service.store
    lid, gid, _ = await running_league(service)
    assert await store.noshows.record(lid, gid, 1, [10], "computer") == [10]
    assert await store.noshows.record(lid, gid, 1, [10, 20], "computer") == [20]
    assert await store.noshows.counts(lid) == {10: 1, 20: 1}
    assert [(n.user_id, n.round, n.game_id) for n in await store.noshows.of_league(lid)] == [
        (10, 1, gid),
        (20, 1, gid),
    ]


async def test_the_substitutes_list_keeps_its_order(store, clock):
    lid = await new_league(store)
    assert await store.noshows.add_substitute(lid, 40, "Sub A")
    clock.advance(1)
    assert await store.noshows.add_substitute(lid, 30, "Sub B")
    assert not await store.noshows.add_substitute(lid, 40, "Sub A")
    assert await store.noshows.substitutes(lid) == [Substitute(40, "Sub A"), Substitute(30, "Sub B")]
    assert await store.noshows.remove_substitute(lid, 40)
    assert not await store.noshows.remove_substitute(lid, 40)
    assert await store.noshows.substitutes(lid) == [Substitute(30, "Sub B")]


async def test_a_substitute_who_signs_up_leaves_the_list(store, clock):
    """A person on the substitutes' list who signs up for the league, before its start or late,
    plays in it: they are off the list (never someone's substitute in their own league)."""
    lid = await new_league(store)
    for uid in (40, 30, 50):
        assert await store.noshows.add_substitute(lid, uid, f"Sub {uid}")
        clock.advance(1)
    assert await store.leagues.join_league(lid, 40, "Sub 40") == "joined"
    assert await store.noshows.substitutes(lid) == [Substitute(30, "Sub 30"), Substitute(50, "Sub 50")]
    for uid in (10, 20):
        await store.leagues.join_league(lid, uid, f"u{uid}")
    await store.leagues.start_league(lid, store.clock.time(), 3)
    assert await store.attendance.late_join(lid, 50, "Sub 50", 1.0) == "joined"
    assert await store.noshows.substitutes(lid) == [Substitute(30, "Sub 30")]


@pytest.mark.parametrize(
    ("credit", "places"),
    [
        ("original", {10: 1, 20: 2}),  # the substitute won for the dropped player
        ("substitute", {30: 1, 20: 2}),  # the substitute's own result
        ("nobody", {10: 2, 20: 1}),  # the original keeps the forfeit; the substitute gets nothing
    ],
)
async def test_a_substitutes_result_counts_as_the_organiser_chose(service, credit, places):
    store = service.store
    lid, gid, session = await running_league(service)
    assert await store.leagues.drop_player(lid, 10) == [session.id]
    await store.noshows.add_substitute(lid, 30, "Sub")
    seat = session.seat_of(10).seat
    version = session.row.version
    assert await store.noshows.hand_seat(lid, gid, session.id, seat, 10, Substitute(30, "Sub"), credit)
    assert not await store.noshows.hand_seat(lid, gid, session.id, seat, 10, Substitute(30, "Sub"), credit)
    after = await service.core.get(session.id)
    assert after.row.version == version + 1
    taken = after.seat_of(30)
    assert taken.seat == seat and not taken.computer and not taken.resigned and after.seat_of(10) is None
    assert await store.noshows.substitutes(lid) == []  # the substitute left the list
    assert await store.noshows.substitutions(gid) == [(10, 30, credit)]
    # The substitute wins the game.
    from bot.storage import ResultRow

    other = after.seat_of(20).seat
    await store.games.finish(
        session.id,
        status="finished",
        reason="won",
        outcome=None,
        results=[ResultRow(seat, 30, 1.0, 1, False), ResultRow(other, 20, 0.0, 2, False)],
    )
    (game,) = await store.leagues.league_games(lid, 1)
    assert {s.user_id: s.place for s in game.seats} == places
    players = {p.user_id: p for p in await store.leagues.league_players(lid)}
    assert (30 in players) is (credit == "substitute")
    if credit == "substitute":
        # In the standings with the game's result, neither dropped nor paired in later rounds:
        # they played that one game.
        sub = players[30]
        assert sub.substitute and not sub.active and not sub.dropped
        assert not players[20].substitute and players[20].active
        from bot.league.service import LeagueService

        leagues = LeagueService(store, service)
        league = await store.leagues.league(lid)
        table = {s.name: (s.row.points, s.dropped) for s in await leagues.standings(league)}
        assert table["Sub"] == (1.0, False) and table["u10"][1] is True
        groups, byes = await leagues.draw.pair(league, 2)
        assert 30 not in {u for g in groups for u in g} | set(byes)
        assert {u for g in groups for u in g} | set(byes) == {20}


async def test_a_substitute_in_a_clocked_game_gets_a_full_start_and_plays(service, clock):
    """The computer took a late seat (its clock stopped); the substitute who gets it plays on,
    with the clock's full start running from their turn."""
    store = service.store
    lid = await new_league(store)
    for uid in (10, 20):
        await store.leagues.join_league(lid, uid, f"u{uid}")
    await store.leagues.start_league(lid, store.clock.time(), 3)
    (gid,) = await store.leagues.open_round(lid, 1, [[10, 20]], [], store.clock.time() + 10)
    session = await service.lobby.create(
        "nim", guild_id=GUILD, channel_id=7, host_id=10, host_name="u10", seed=3, clock="bank:1d"
    )
    await service.lobby.join(7, 20, "u20")
    await store.leagues.attach_session(gid, session.id)
    session = (await service.lobby.start(7, 10)).session
    (first,) = session.waiting_on()
    late = first.user_id
    clock.advance(3600)

    taken = await service.seats.computer_takes(session.id, [late], said("late"))
    assert taken is not None
    session = await service.core.get(session.id)
    assert session.seat_of(late).computer and first.seat not in session.banks.since
    await store.leagues.drop_player(lid, late)
    await store.noshows.add_substitute(lid, 30, "Sub")

    async def change(clock, version):
        return await store.noshows.hand_seat(
            lid, gid, session.id, first.seat, late, Substitute(30, "Sub"), "original", clock, None, version
        )

    handed = await service.seats.hand_over(session.id, first.seat, 30, change)
    assert handed is not None and handed.banks.banks[first.seat] == 86400.0
    assert first.seat not in handed.banks.taken
    while handed.status == "active" and not any(s.user_id == 30 for s in handed.waiting_on()):
        (seat,) = handed.waiting_on()
        move = (await service.play.legal_moves(7, seat.user_id))[-1]
        handed = (await service.play.play(7, seat.user_id, move)).session
    assert handed.status == "active"
    assert first.seat in handed.banks.since  # the substitute's clock runs on their turn
    move = (await service.play.legal_moves(7, 30))[-1]
    assert (await service.play.play(7, 30, move)).session.version > handed.version


async def test_each_move_is_put_to_whoever_held_its_seat_then(service, clock):
    """Cusi (30) substitutes for Ana (10) in one league and plays her own seat in another, where
    Ana substitutes for her.  Each game reads back who held each seat before its handover (with
    that league's name for them), so its log, its history's names and the profiles' turns put
    every move to whoever made it (named as the seat named them then), and the same person is
    never mixed up between the two games."""
    from bot import movetexts
    from bot.profiles import reckon
    from bot.storage.profiles import Holder

    store = service.store
    games = []
    for name, channel, (first, second), sub in (("Autumn", 7, (10, 20), 30), ("Winter", 8, (30, 40), 10)):
        lid = await new_league(store, name=name)
        for uid, shown in ((first, f"First{first}"), (second, f"Second{second}")):
            await store.leagues.join_league(lid, uid, shown)
        await store.leagues.start_league(lid, store.clock.time(), 3)
        (gid,) = await store.leagues.open_round(lid, 1, [[first, second]], [], store.clock.time() + 10)
        session = await service.lobby.create(
            "nim", guild_id=GUILD, channel_id=channel, host_id=first, host_name=f"seat{first}", seed=3
        )
        await service.lobby.join(channel, second, f"seat{second}")
        await store.leagues.attach_session(gid, session.id)
        session = (await service.lobby.start(channel, first)).session
        for _ in range(4):  # two moves each
            (seat,) = session.waiting_on()
            move = (await service.play.legal_moves(channel, seat.user_id))[0]
            session = (await service.play.play(channel, seat.user_id, move)).session
            clock.advance(60)
        await store.leagues.drop_player(lid, first)
        await store.noshows.add_substitute(lid, sub, f"Sub{sub}")
        seat = session.seat_of(first).seat
        handed_at = clock.time()
        assert await store.noshows.hand_seat(
            lid, gid, session.id, seat, first, Substitute(sub, f"seat{sub}"), "original"
        )
        session = await service.core.get(session.id)
        while session.status == "active" and sub not in {s.user_id for s in session.waiting_on()}:
            (other,) = session.waiting_on()
            move = (await service.play.legal_moves(channel, other.user_id))[0]
            session = (await service.play.play(channel, other.user_id, move)).session
        move = (await service.play.legal_moves(channel, sub))[0]
        session = (await service.play.play(channel, sub, move)).session
        games.append((session, seat, first, sub, handed_at))

    for session, seat, first, sub, handed_at in games:
        earlier = await store.history.handovers(session.id)
        assert earlier == (Holder(seat, first, 4, None, handed_at, f"seat{first}"),)
        read = await service.logbook.with_holders(session)
        rows = await store.history.moves(session.id)
        mine = [r.number for r in rows if r.seat == seat]
        assert (
            read.names_at(mine[0])[seat] == f"seat{first}" and read.names_at(mine[-1])[seat] == f"seat{sub}"
        )
        assert read.names_at(0)[seat] == f"seat{first}" and session.names()[seat] == f"seat{sub}"
        log = movetexts.log_text(read, await service.logbook.log(read), None).splitlines()
        assert [
            line.split(":")[0] for line in log if line.split(":")[0].endswith(read.names_at(None)[seat])
        ] == [f"{mine[-1]}. seat{sub}"]
        assert sum(f"seat{first}" in line for line in log) == len(mine) - 1
        (game_log,) = await store.profiles.logs([session.id])
        assert game_log.earlier == earlier
        turns = {t.number: t.user_id for t in reckon.turns_of(game_log, {})}
        assert [turns[n] for n in mine] == [first] * (len(mine) - 1) + [sub]


async def test_a_substitute_takes_back_only_moves_of_their_own(service):
    """/game undo takes back the asker's last move: a substitute who has not moved yet has none
    (the seat's moves before the handover were the dropped player's), and once they have moved,
    theirs is the one taken back, never the dropped player's."""
    from bot.history import History
    from bot.sessions import Refusal
    from bot.undo import UndoService

    store = service.store
    lid, gid, session = await running_league(service)
    undo = UndoService(service, History(service))
    for _ in range(4):  # two moves each
        (seat,) = session.waiting_on()
        move = (await service.play.legal_moves(7, seat.user_id))[0]
        session = (await service.play.play(7, seat.user_id, move)).session
    seat = session.seat_of(10).seat
    await store.leagues.drop_player(lid, 10)
    await store.noshows.add_substitute(lid, 30, "Sub")
    assert await store.noshows.hand_seat(lid, gid, session.id, seat, 10, Substitute(30, "Sub"), "original")
    session = await service.core.get(session.id)
    with pytest.raises(Refusal, match="you have no move in this game that could be taken back"):
        await undo.ask(7, 30)
    assert await store.history.move_count(session.id) == 4  # nothing changed
    while 30 not in {s.user_id for s in session.waiting_on()}:
        (other,) = session.waiting_on()
        session = (
            await service.play.play(7, other.user_id, (await service.play.legal_moves(7, other.user_id))[0])
        ).session
    session = (await service.play.play(7, 30, (await service.play.legal_moves(7, 30))[0])).session
    theirs = await store.history.move_count(session.id)
    asked = await undo.ask(7, 30)
    assert asked.target == theirs and [m.number for m in asked.moves] == [theirs]


async def test_a_substitute_replaced_in_turn_keeps_their_moves_and_name(service):
    """Ann's seat goes to Sub (the result stays Ann's, so Sub never joins the league's players);
    Sub is late in turn and the seat goes to Tom.  Each keeps the moves made while the seat was
    theirs, named as the seat named them then."""
    from bot import movetexts
    from bot.storage.profiles import Holder

    store = service.store
    lid, gid, session = await running_league(service)
    await store.noshows.add_substitute(lid, 30, "Sub")
    await store.noshows.add_substitute(lid, 40, "Tom")
    seat = session.seat_of(10).seat
    held = []
    for original, sub in ((10, Substitute(30, "Sub")), (30, Substitute(40, "Tom"))):
        for _ in range(2):  # a move each
            (mover,) = session.waiting_on()
            move = (await service.play.legal_moves(7, mover.user_id))[0]
            session = (await service.play.play(7, mover.user_id, move)).session
        held.append(await store.history.move_count(session.id))
        assert await store.noshows.hand_seat(lid, gid, session.id, seat, original, sub, "original")
        session = await service.core.get(session.id)
    earlier = await store.history.handovers(session.id)
    assert [(h.user_id, h.until, h.name) for h in earlier] == [(10, held[0], "u10"), (30, held[1], "Sub")]
    assert isinstance(earlier[0], Holder)
    read = await service.logbook.with_holders(session)
    lines = movetexts.log_text(read, await service.logbook.log(read), None).splitlines()
    mine = [
        line.split(":")[0]
        for line in lines
        if (await store.history.move_at(session.id, int(line.split(".")[0]))).seat == seat
    ]
    assert [m.split(". ")[1] for m in mine] == ["u10", "Sub"], lines


async def places_after_two_handovers(service, first: str, then: str) -> dict[int, int]:
    """Ann's (10) seat handed to Sub (30) crediting ``first``, then to Tom (40) crediting ``then``;
    Tom wins against Bo (20): the league seats' places."""
    from bot.storage import ResultRow

    store = service.store
    lid, gid, session = await running_league(service)
    assert await store.leagues.drop_player(lid, 10) == [session.id]
    await store.noshows.add_substitute(lid, 30, "Sub")
    await store.noshows.add_substitute(lid, 40, "Tom")
    seat = session.seat_of(10).seat
    assert await store.noshows.hand_seat(lid, gid, session.id, seat, 10, Substitute(30, "Sub"), first)
    assert await store.noshows.hand_seat(lid, gid, session.id, seat, 30, Substitute(40, "Tom"), then)
    other = session.seat_of(20).seat
    await store.games.finish(
        session.id,
        status="finished",
        reason="won",
        outcome=None,
        results=[ResultRow(seat, 40, 1.0, 1, False), ResultRow(other, 20, 0.0, 2, False)],
    )
    (game,) = await store.leagues.league_games(lid, 1)
    return {s.user_id: s.place for s in game.seats}


@pytest.mark.parametrize(("credit", "places"), [("original", {10: 1, 20: 2}), ("nobody", {10: 2, 20: 1})])
async def test_a_seat_handed_on_twice_gives_its_result_to_the_first_player(service, credit, places):
    """Ann's seat goes to Sub, who is late in turn, and on to Tom, who wins: with the result
    counting for the seat's original player, it is Ann's (not Sub's, who is no player of the
    league); crediting nobody, Ann keeps her forfeit."""
    assert await places_after_two_handovers(service, credit, credit) == places


@pytest.mark.parametrize(
    ("credits", "places"),
    [(("original", "substitute"), {40: 1, 20: 2}), (("substitute", "original"), {30: 1, 20: 2})],
)
async def test_a_seat_handed_on_with_the_credit_changed_keeps_its_league_seat(service, credits, places):
    """Ann's seat goes to Sub and on to Tom, who wins, the organiser having changed whom a result
    counts for in between: the seat's result lands on a league seat either way (crediting Ann
    first and Tom then, the league seat is Tom's; it stayed Ann's, and Tom's win counted nowhere)."""
    assert await places_after_two_handovers(service, *credits) == places


async def test_a_game_whose_seat_went_to_a_substitute_counts_in_the_originals_profile(service):
    """Ana (10) missed a turn (the computer played it) and was dropped; Cusi (30) took her seat and
    the game finished.  Ana's profile counts the game she left among her ended games, as timed out
    (the turn she missed is hers), and no longer as nothing; Cusi's counts it once, finished."""
    from bot import profiles
    from bot.storage import NewMove

    store = service.store
    lid, gid, session = await running_league(service)
    seat = session.seat_of(10).seat
    other = session.seat_of(20).seat
    for who, by_computer in ((seat, True), (other, False)):
        version = (await store.games.session(session.id)).version
        await store.games.record_moves(session.id, version, [NewMove(who, "1", by_computer)], {"x": 1})
    await store.leagues.drop_player(lid, 10)
    await store.noshows.add_substitute(lid, 30, "Sub")
    assert await store.noshows.hand_seat(lid, gid, session.id, seat, 10, Substitute(30, "Sub"), "substitute")
    ana = await profiles.figures_of(store, 10)
    assert (ana.missed, ana.running, ana.waiting) == (1, 0, 0)  # she plays it no more
    await store.games.finish(session.id, status="finished", reason="won", outcome=None, results=[])
    ana = await profiles.figures_of(store, 10)
    assert (ana.finished, ana.abandoned, ana.timed_out, ana.resigned) == (0, 0, 1, 0)
    cusi = await profiles.figures_of(store, 30)
    assert (cusi.finished, cusi.abandoned, cusi.timed_out, cusi.resigned) == (1, 0, 0, 0)


async def test_a_resigned_seat_handed_on_keeps_when_its_player_resigned(service, clock):
    """Ana (10) resigned after two moves (the computer plays her seat) and her seat goes to Cusi
    (30): the seat is a person's again, not resigned, and the handover keeps Ana's moves and her
    resignation as the seat held them."""
    store = service.store
    lid, gid, session = await running_league(service)
    for _ in range(2):
        (mover,) = session.waiting_on()
        move = (await service.play.legal_moves(7, mover.user_id))[0]
        session = (await service.play.play(7, mover.user_id, move)).session
    seat = session.seat_of(10).seat
    await store.games.set_seat_flags(session.id, seat, computer=True, resigned=True)
    await store.noshows.add_substitute(lid, 30, "Cusi")
    handed_at = clock.time()
    assert await store.noshows.hand_seat(lid, gid, session.id, seat, 10, Substitute(30, "Cusi"), "original")
    after = await service.core.get(session.id)
    taken = after.seat_of(30)
    assert taken.seat == seat and not taken.computer and not taken.resigned
    assert await store.history.handovers(session.id) == (Holder(seat, 10, 2, 2, handed_at, "u10"),)


async def test_a_substitute_credited_in_two_games_joins_the_league_once(service):
    """Cusi (30) takes a dropped player's seat in two games of one round, each result counting as
    hers: she joins the league's players once, under the name she first took a seat with, and
    holds both league seats."""
    store = service.store
    lid = await new_league(store)
    for uid in (10, 20, 40, 50):
        await store.leagues.join_league(lid, uid, f"u{uid}")
    await store.leagues.start_league(lid, store.clock.time(), 3)
    groups = [[10, 20], [40, 50]]
    gids = await store.leagues.open_round(lid, 1, groups, [], store.clock.time() + 10)
    for channel, gid, (first, second) in zip((7, 8), gids, groups, strict=True):
        session = await service.lobby.create(
            "nim", guild_id=GUILD, channel_id=channel, host_id=first, host_name=f"u{first}", seed=3
        )
        await service.lobby.join(channel, second, f"u{second}")
        await store.leagues.attach_session(gid, session.id)
        session = (await service.lobby.start(channel, first)).session
        await store.leagues.drop_player(lid, first)
        await store.noshows.add_substitute(lid, 30, f"Cusi{channel}")
        seat = session.seat_of(first).seat
        sub = Substitute(30, f"Cusi{channel}")
        assert await store.noshows.hand_seat(lid, gid, session.id, seat, first, sub, "substitute")
    players = [p for p in await store.leagues.league_players(lid) if p.user_id == 30]
    assert [(p.name, p.substitute) for p in players] == [("Cusi7", True)]
    games = await store.leagues.league_games(lid, 1)
    assert sorted(sorted(s.user_id for s in g.seats) for g in games) == [[20, 30], [30, 50]]
    assert await store.noshows.substitutes(lid) == []
