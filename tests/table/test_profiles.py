"""Reliability and pace profiles, the gates and the cap, on both back ends (the Nim test game)."""

from __future__ import annotations

import pytest

from bot import profiles
from bot.profiles import reckon
from bot.sessions import Refusal
from bot.storage import NewMove, PersonRow
from bot.storage.profiles import Gate, ServerGates

ANN, BOB, CID = 1, 2, 3
GUILD = 1
HOUR = 3600.0
DAY = 24 * HOUR


async def seated_game(store, channel: int, people: list[int], *, clock: str | None = None) -> int:
    """A started two-seat game (seat i is people[i])."""
    sid = await store.games.create_session(
        game="nim",
        guild_id=GUILD,
        channel_id=channel,
        host_id=people[0],
        host_name=str(people[0]),
        options={},
        max_players=len(people),
        seed=channel,
        clock=clock,
    )
    for p in people[1:]:
        await store.games.add_seat(sid, p, str(p), limit=len(people))
    await store.games.start(sid, {i: i for i in range(len(people))}, {}, {"x": 0})
    return sid


async def move(
    store, clock, sid: int, seat: int, after: float, *, computer: bool = False, text: str = "1"
) -> None:
    clock.advance(after)
    version = (await store.games.session(sid)).version
    await store.games.record_moves(sid, version, [NewMove(seat, text, computer)], {"x": 1})


async def test_a_profile_after_finished_abandoned_and_timed_out_games_matches_a_hand_count(store, clock):
    """Ann plays four games against Bob: each turn's time is chosen, and the figures are counted by hand."""
    # Game 1, no clock (Ann's reminders every 12 h): Ann 1 h (on time), Bob 2 h, Ann 13 h (late),
    # Ann again (same turn), Bob 1 h; finished.
    g1 = await seated_game(store, 100, [ANN, BOB])
    await move(store, clock, g1, 0, HOUR)
    await move(store, clock, g1, 1, 2 * HOUR)
    await move(store, clock, g1, 0, 13 * HOUR)
    await move(store, clock, g1, 0, 60)  # the same turn goes on: not a turn of its own
    await move(store, clock, g1, 1, HOUR)
    await store.games.finish(g1, status="finished", reason="won", outcome=None, results=[])
    # Game 2, move:24h: Ann 3 h, Bob 1 h, Ann 30 h (late); abandoned.
    g2 = await seated_game(store, 200, [ANN, BOB], clock="move:24h")
    await move(store, clock, g2, 0, 3 * HOUR)
    await move(store, clock, g2, 1, HOUR)
    await move(store, clock, g2, 0, 30 * HOUR)
    await store.games.finish(g2, status="abandoned", reason="abandoned", outcome=None, results=[])
    # Game 3, move:2h: Ann 1 h, Bob 1 h, the computer plays Ann's turn after 2 h (her time ran
    # out), Bob 1 h; finished: Ann timed out.
    g3 = await seated_game(store, 300, [ANN, BOB], clock="move:2h")
    await move(store, clock, g3, 0, HOUR)
    await move(store, clock, g3, 1, HOUR)
    await move(store, clock, g3, 0, 2 * HOUR, computer=True)
    await move(store, clock, g3, 1, HOUR)
    await store.games.finish(g3, status="finished", reason="won", outcome=None, results=[])
    # Game 4, running: Ann 5 h (no clock: on time).
    g4 = await seated_game(store, 400, [BOB, ANN])
    await move(store, clock, g4, 0, HOUR)
    await move(store, clock, g4, 1, 5 * HOUR)

    ann = (await profiles.profile(store, ANN, GUILD)).figures
    # Ann's turns: 1 h, 13 h | 3 h, 30 h | 1 h, missed | 5 h: 7 turns, 4 on time, 1 missed.
    assert (ann.turns, ann.on_time, ann.missed) == (7, 4, 1)
    assert ann.on_time_percent == pytest.approx(400 / 7)
    assert ann.reliability == (100 * (4 + 8)) // (7 + 10) == 70
    assert ann.median == 4 * HOUR  # of 1, 1, 3, 5, 13, 30 hours: between 3 and 5
    assert ann.median_by_game == {"nim": 4 * HOUR}
    assert (ann.finished, ann.abandoned, ann.timed_out, ann.resigned, ann.running) == (1, 1, 1, 0, 1)
    assert ann.pace == "fast"  # 4 hours or less
    bob = (await profiles.profile(store, BOB, GUILD)).figures
    # Bob: 2 h, 1 h | 1 h | 1 h, 1 h | 1 h (first move of game 4): all on time.
    assert (bob.turns, bob.on_time, bob.missed, bob.median) == (6, 6, 0, HOUR)
    assert (bob.finished, bob.abandoned, bob.timed_out) == (2, 1, 0)

    # The stored turns are those the whole log gives afresh, and a game is read again only
    # when it changed.
    stored = sorted(await store.profiles.all_turns(), key=lambda t: (t.session_id, t.number))
    rebuilt = await profiles.rebuild(store)
    assert stored == rebuilt
    for user in (ANN, BOB):  # the sums and medians read from the indexes are those of the turns
        assert await store.profiles.summary(user) == reckon.summarise(
            [t for t in rebuilt if t.user_id == user]
        )
    assert await profiles.refresh(store, [ANN, BOB]) == 0
    await move(store, clock, g4, 0, HOUR)
    assert await profiles.refresh(store, [ANN]) == 1
    assert sorted(await store.profiles.all_turns(), key=lambda t: (t.session_id, t.number)) == (
        await profiles.rebuild(store)
    )


async def test_the_reminder_interval_is_the_allowance_without_a_clock(store, clock):
    await store.people.save_person(PersonRow(ANN, remind_hours=2))
    g = await seated_game(store, 100, [ANN, BOB])
    await move(store, clock, g, 0, 3 * HOUR)  # later than her 2-hour reminders
    ann = (await profiles.profile(store, ANN)).figures
    assert (ann.turns, ann.on_time) == (1, 0)


async def test_time_away_is_not_held_against_a_persons_turns(store, clock):
    """Ann takes two days away, comes back a day early (/me back), and later takes another day:
    each of her turns' time to move leaves out the time away that fell within it, as her clocks
    do, and both times away stay counted after her settings move on to the next one."""
    from bot import notices

    g = await seated_game(store, 100, [ANN, BOB])  # no clock: Ann's reminders, every 12 h
    await move(store, clock, g, 0, HOUR)
    await move(store, clock, g, 1, HOUR)  # Ann's turn starts
    clock.advance(HOUR)
    away = notices.take_away(await store.people.person(ANN), 2, None, clock.time(), 20)
    await store.people.save_person(away)
    clock.advance(DAY)
    await store.people.save_person(notices.come_back(await store.people.person(ANN), clock.time()))
    await move(store, clock, g, 0, 2 * HOUR)  # 1 h + a day away + 2 h: 3 hours of her time
    await move(store, clock, g, 1, HOUR)  # Ann's turn starts
    clock.advance(HOUR)
    again = notices.take_away(await store.people.person(ANN), 1, None, clock.time(), 20)
    await store.people.save_person(again)
    await move(store, clock, g, 0, DAY + 4 * HOUR)  # 1 h + the day away + 4 h: 5 hours of hers

    periods = await store.people.away_periods([ANN, BOB])
    assert list(periods) == [ANN] and len(periods[ANN]) == 2
    (first_since, first_until), second = periods[ANN]
    assert first_until - first_since == DAY  # cut short by /me back
    assert second == (again.away_since, again.away_until)
    ann = (await profiles.profile(store, ANN)).figures
    assert (ann.turns, ann.on_time) == (3, 3)  # 1 h, 3 h and 5 h: each within her 12 hours
    assert ann.median == 3 * HOUR
    assert sorted(await store.profiles.all_turns(), key=lambda t: (t.session_id, t.number)) == (
        await profiles.rebuild(store)
    )


async def test_the_bots_outage_is_not_held_against_anyones_turn(store, clock):
    """The bot is out of service for a day while Ann is to move, within her time away for part of
    it: her time to move leaves out both, the overlap once (bot.storage.outages)."""
    from bot import notices

    g = await seated_game(store, 100, [ANN, BOB])  # no clock: Ann's reminders, every 12 h
    await move(store, clock, g, 0, HOUR)
    await move(store, clock, g, 1, HOUR)  # Ann's turn starts
    clock.advance(HOUR)
    away = notices.take_away(await store.people.person(ANN), 1, None, clock.time(), 20)
    await store.people.save_person(away)  # a day away, from an hour into her turn
    clock.advance(2 * HOUR)
    await store.outages.back(1, [0])  # the bot's last sign of life, 3 hours into her turn
    clock.advance(DAY)
    (down,) = await store.outages.back(1, [0])  # out of service for a day
    assert down[1] - down[0] == DAY
    await move(store, clock, g, 0, 2 * HOUR)  # 29 h, of which away or out of service 26 h: 3 h
    ann = (await profiles.profile(store, ANN)).figures
    assert (ann.turns, ann.on_time) == (2, 2) and ann.median == 2 * HOUR  # 1 h and 3 h
    assert sorted(await store.profiles.all_turns(), key=lambda t: (t.session_id, t.number)) == (
        await profiles.rebuild(store)
    )


async def test_an_undo_entry_is_not_a_turn_of_whoever_asked_for_it(store, clock):
    """Ann moves (1 h), Bob moves (1 h), Ann asks to take back her move and Bob agrees 30 hours
    later: the undo entry is not a turn of Ann's (Bob's slow answer makes her neither late nor
    slow), and the moves taken back are nobody's turns.  Her move played again 1 h after the undo
    is her turn, timed from the undo plus the hour she took over the move taken back: 2 h."""
    from bot.replaying import undo_text

    g = await seated_game(store, 100, [ANN, BOB], clock="move:24h")
    await move(store, clock, g, 0, HOUR)
    await move(store, clock, g, 1, HOUR)
    await move(store, clock, g, 0, 30 * HOUR, text=undo_text(1))
    await move(store, clock, g, 0, HOUR)
    ann = (await profiles.profile(store, ANN)).figures
    assert (ann.turns, ann.on_time, ann.missed, ann.median) == (1, 1, 0, 2 * HOUR)
    assert (await profiles.profile(store, BOB)).figures.turns == 0
    assert sorted(await store.profiles.all_turns(), key=lambda t: (t.session_id, t.number)) == (
        await profiles.rebuild(store)
    )


async def test_a_move_played_again_after_an_undo_of_ones_own_last_move_is_one_turn(store, clock):
    """Ann moves (1 h) and at once asks to take it back; Bob agrees 30 hours later and Ann plays
    again 2 h after the undo.  The move taken back is no turn: were it one, anyone could buy
    reliability (and a fast pace) by playing a computer, which agrees to every undo at once, and
    taking each move back.  The turn played again counts once, timed from the undo plus the hour
    she took over the move taken back (Bob's 30 hours are not hers)."""
    from bot.replaying import undo_text

    g = await seated_game(store, 100, [ANN, BOB], clock="move:24h")
    await move(store, clock, g, 0, HOUR)
    await move(store, clock, g, 0, 30 * HOUR, text=undo_text(1))
    await move(store, clock, g, 0, 2 * HOUR)
    ann = (await profiles.profile(store, ANN)).figures
    assert (ann.turns, ann.on_time, ann.missed, ann.median) == (1, 1, 0, 3 * HOUR)
    assert sorted(await store.profiles.all_turns(), key=lambda t: (t.session_id, t.number)) == (
        await profiles.rebuild(store)
    )


async def test_a_late_move_taken_back_leaves_its_turn_late(store, clock):
    """Without a clock Ann has 12 hours (her reminders).  She moves after 13 hours, takes the
    move back at once against the computer and plays again a minute later: one turn, 13 hours and
    a minute, still late (an undo does not make a late turn on time)."""
    from bot.replaying import undo_text

    g = await seated_game(store, 100, [ANN, BOB])
    await move(store, clock, g, 0, 13 * HOUR)
    await move(store, clock, g, 1, 60, computer=True)
    await move(store, clock, g, 0, 10, text=undo_text(1))
    await move(store, clock, g, 0, 60)
    ann = (await profiles.profile(store, ANN)).figures
    assert (ann.turns, ann.on_time, ann.median) == (1, 0, 13 * HOUR + 60)


async def test_a_step_taken_back_inside_a_turn_leaves_one_turn(store, clock):
    """Ann's turn has two steps (two moves of her seat in a row); she takes the second back and
    plays it again: the undo went back into her own turn, which goes on, so it is one turn, timed
    to its first step."""
    from bot.replaying import undo_text

    g = await seated_game(store, 100, [ANN, BOB])
    await move(store, clock, g, 0, HOUR)
    await move(store, clock, g, 0, 60)
    await move(store, clock, g, 0, 10, text=undo_text(2))
    await move(store, clock, g, 0, 60)
    await move(store, clock, g, 1, HOUR)
    ann = (await profiles.profile(store, ANN)).figures
    assert (ann.turns, ann.on_time, ann.median) == (1, 1, HOUR)


async def test_taking_moves_back_against_a_computer_buys_no_reliability(service, clock):
    """Ann is new (80 %) and a table asks 90 %.  She plays a computer at Nim and takes each of
    her moves back at once (nobody is asked), twelve times in as many minutes: the moves taken
    back are no turns, so the gate still refuses her and she has no pace from them."""
    from bot.history import History
    from bot.undo import Undone, UndoService

    await service.lobby.create("nim", guild_id=GUILD, channel_id=300, host_id=ANN, host_name="ann", seed=7)
    await service.lobby.add_computer(300, ANN)
    await service.lobby.start(300, ANN)
    undo = UndoService(service, History(service, every=3))
    for _ in range(12):
        clock.advance(60)
        legal = await service.play.legal_moves(300, ANN)
        await service.play.play(300, ANN, legal[0])
        clock.advance(10)
        assert isinstance(await undo.ask(300, ANN), Undone)
    ann = await profiles.figures_of(service.store, ANN)
    assert (ann.turns, ann.on_time, ann.pace) == (0, 0, None)
    assert profiles.check_gate(ann, Gate(reliability=90)) is not None


def test_a_new_player_starts_neutral_and_is_told_how_far_a_minimum_is():
    new = reckon.Figures()
    assert new.new and new.reliability == reckon.NEUTRAL == 80 and new.pace is None
    assert profiles.check_gate(new, Gate(reliability=80)) is None
    assert profiles.check_gate(new, Gate(pace="live")) is None  # no turns yet: no pace to hold against
    words = profiles.check_gate(new, Gate(reliability=90))
    assert words is not None
    # (8 + n) / (10 + n) >= 90 % takes n = 10 more turns on time.
    assert reckon.turns_needed(0, 0, 90) == 10
    assert "reliability is 80 % and this table asks for 90 %: 10 more turns on time" in words.in_words()
    assert reckon.turns_needed(0, 0, 100) is None


def test_a_player_whose_every_turn_was_missed_has_no_pace_and_a_pace_gate_refuses_them():
    """Three turns, all played by the computer as their time ran out: not a new player, and no
    median either; a pace gate asks for one turn of their own, in the words of whose gate it is."""
    from languages import language

    missed = reckon.Figures(turns=3, on_time=0, missed=3)
    assert not missed.new and missed.median is None
    words = profiles.check_gate(missed, Gate(pace="live"))
    assert words is not None
    assert words.in_words() == (
        "your turns so far were all missed, so you have no pace yet, and this table asks for the pace "
        "live: a turn you make yourself gives you one (see /me profile)"
    )
    server = profiles.check_gate(missed, Gate(pace="live"), "server")
    assert server is not None and "this server's tables ask for the pace live" in server.in_words()
    assert "las mesas de este servidor piden el ritmo" in server.in_words(language("es"))
    assert profiles.check_gate(missed, Gate(reliability=50)) is None  # (61 %: reliability is met)
    one_made = reckon.Figures(turns=4, on_time=1, missed=3, median=600.0)
    assert profiles.check_gate(one_made, Gate(pace="live")) is None


async def test_a_gated_table_refuses_a_person_below_the_minimum_and_admits_one_above(service, store, clock):
    # Cid was late in 4 turns of 4 (8 / 14: 57 %; (8 + n) / (14 + n) >= 75 % at n = 10); Bob on time.
    for n in range(4):
        g = await seated_game(store, 1000 + n, [CID, BOB])
        await move(store, clock, g, 0, 20 * HOUR)
        await move(store, clock, g, 1, HOUR)
        await store.games.finish(g, status="finished", reason="won", outcome=None, results=[])
    lobby = await service.lobby.create("nim", guild_id=GUILD, channel_id=CH, host_id=ANN, host_name="ann")
    await store.profiles.set_table_gate(lobby.id, Gate(reliability=75))
    with pytest.raises(
        Refusal, match=r"your reliability is 57 % and this table asks for 75 %: 10 more turns"
    ):
        await service.lobby.join(CH, CID, "cid")
    assert [s.user_id for s in (await service.core.require(CH)).seats] == [ANN]
    joined = await service.lobby.join(CH, BOB, "bob")
    assert [s.user_id for s in joined.seats] == [ANN, BOB]


async def test_the_server_default_gate_applies_where_a_table_sets_none(service, store, clock):
    g = await seated_game(store, 900, [CID, BOB])
    await move(store, clock, g, 0, 30 * HOUR)
    await store.profiles.set_server_gates(GUILD, ServerGates(gate=Gate(reliability=80)))
    await service.lobby.create("nim", guild_id=GUILD, channel_id=CH, host_id=ANN, host_name="ann")
    with pytest.raises(Refusal, match="this table asks for 80 %"):
        await service.lobby.join(CH, CID, "cid")  # 8/11: 72 %
    lobby = await service.core.require(CH)
    await store.profiles.set_table_gate(lobby.id, Gate())  # the host lifts it for this table
    await service.lobby.join(CH, CID, "cid")


CH = 555


async def test_the_cap_refuses_a_fourth_running_game_for_a_new_player(service, store):
    for n in range(3):
        await service.lobby.create(
            "nim", guild_id=GUILD, channel_id=CH + n, host_id=ANN + 10 + n, host_name="h"
        )
        await service.lobby.join(CH + n, BOB, "bob")
    await service.lobby.create("nim", guild_id=GUILD, channel_id=CH + 3, host_id=ANN, host_name="ann")
    with pytest.raises(
        Refusal, match=r"you have 3 games running or waiting in this server and the most is 3"
    ):
        await service.lobby.join(CH + 3, BOB, "bob")
    with pytest.raises(Refusal, match="the most is 3"):
        await service.lobby.check_host(GUILD, BOB)
    await service.lobby.check_host(GUILD + 1, BOB)  # another server counts its own games
    await store.profiles.set_server_gates(GUILD, ServerGates(cap=0))  # the server lifts the cap
    await service.lobby.join(CH + 3, BOB, "bob")
    await store.profiles.set_server_gates(GUILD, ServerGates(cap=2))
    with pytest.raises(Refusal, match="this server allows 2 per person"):
        await service.lobby.check_host(GUILD, BOB)


async def test_a_finished_game_raises_the_cap(service, store, clock):
    g = await seated_game(store, 900, [BOB, ANN])
    await move(store, clock, g, 0, HOUR)
    await store.games.finish(g, status="finished", reason="won", outcome=None, results=[])
    for n in range(4):
        await service.lobby.create("nim", guild_id=GUILD, channel_id=CH + n, host_id=BOB, host_name="bob")
    with pytest.raises(Refusal, match="the most is 4"):
        await service.lobby.check_host(GUILD, BOB)


async def nim_league(service, store, rounds: int):
    """The league service and a two-player Swiss Nim league of ``rounds`` rounds, not started."""
    from bot.league.service import LeagueService

    leagues = LeagueService(store, service)
    league = await leagues.create(
        guild_id=GUILD,
        channel_id=50,
        organiser_id=ANN,
        name="Nim spring",
        game="nim",
        format="swiss",
        group_size=2,
        rounds=rounds,
        days=7,
        seed=1,
    )
    return leagues, league


async def cid_late_once(store, clock) -> None:
    """Cid plays one turn late: 8 / 11, a reliability of 72 %."""
    g = await seated_game(store, 900, [CID, BOB])
    await move(store, clock, g, 0, 30 * HOUR)


async def test_a_league_asking_a_minimum_refuses_a_sign_up_below_it(service, store, clock):
    from bot.league.service import LeagueError

    leagues, league = await nim_league(service, store, rounds=1)
    await cid_late_once(store, clock)
    await store.profiles.set_league_gate(league.id, 75)
    with pytest.raises(
        LeagueError, match=r"reliability is 72 % and this league asks for 75 %: 1 more turn on time"
    ):
        await leagues.join(league, CID, "cid")
    assert "signed up" in await leagues.join(league, BOB, "bob")
    await store.profiles.set_league_gate(league.id, None)
    assert "signed up" in await leagues.join(league, CID, "cid")


async def test_a_late_sign_up_meets_the_leagues_minimum_too(service, store, clock):
    """Joining a running Swiss league late passes the same reliability gate as signing up."""
    from bot.league.presence import Attendance
    from bot.league.service import LeagueError

    leagues, league = await nim_league(service, store, rounds=4)
    for uid in (ANN, BOB):
        await leagues.join(league, uid, str(uid))
    league, _ = await leagues.start(league)
    await cid_late_once(store, clock)
    await store.profiles.set_league_gate(league.id, 75)
    desk = Attendance(leagues)
    league = await store.leagues.league(league.id)
    with pytest.raises(LeagueError, match=r"reliability is 72 % and this league asks for 75 %"):
        await desk.late_join(league, CID, "cid")
    assert CID not in {p.user_id for p in await store.leagues.league_players(league.id)}
    await store.profiles.set_league_gate(league.id, None)
    await desk.late_join(league, CID, "cid")
    assert CID in {p.user_id for p in await store.leagues.league_players(league.id)}


def test_the_profile_picture_is_a_png_in_either_language():
    import io

    from PIL import Image

    from renderers import profile as picture

    card = picture.Card(
        "Ana",
        False,
        72,
        57.1,
        7,
        1,
        4 * HOUR,
        "rápido",
        (1, 1, 1, 0),
        1,
        0,
        (picture.GameLine("Nim", 7, 4 * HOUR, 12.3),),
    )
    for language in ("en", "es"):
        image = Image.open(io.BytesIO(picture.render(card, language=language)))
        image.load()
        assert image.format == "PNG" and image.width == picture.WIDTH
    new = picture.Card("Bo", True, 80, None, 0, 0, None, None, (0, 0, 0, 0), 0, 2)
    assert Image.open(io.BytesIO(picture.render(new, contrast=True))).format == "PNG"


@pytest.mark.parametrize("language", ["en", "es"])
def test_each_ending_has_its_own_letter_in_either_language(language):
    """The games-ended bar labels its parts by letter: the four letters differ in each language,
    and the Spanish ones are Spanish (a finished game is "terminada": T, not F)."""
    from renderers import profile as picture
    from renderers.translation import speaking

    with speaking(language):
        letters = picture.letters()
    assert len(set(letters.values())) == 4 and all(len(v) == 1 for v in letters.values())
    if language == "es":
        assert letters["F"] == "T" and letters["T"] != "T"


@pytest.mark.parametrize(
    ("turns", "on_time", "missed", "code", "line"),
    [
        (7, 6, 1, "en", "On time: 86 % of 7 turns. 1 missed: the computer played it."),
        (1, 0, 1, "en", "On time: 0 % of 1 turn. 1 missed: the computer played it."),
        (7, 5, 2, "en", "On time: 71 % of 7 turns. 2 missed: the computer played them."),
        (7, 7, 0, "en", "On time: 100 % of 7 turns. None missed."),
        (7, 6, 1, "es", "A tiempo: 86 % de 7 turnos. 1 perdido: lo jugó la máquina."),
        (7, 7, 0, "es", "A tiempo: 100 % de 7 turnos. Ninguno perdido."),
        (1, 0, 1, "es", "A tiempo: 0 % de 1 turno. 1 perdido: lo jugó la máquina."),
    ],
)
def test_the_missed_turns_agree_with_their_own_count(turns, on_time, missed, code, line):
    """The missed turns are counted in their own words ("1 missed: ... played it"), not in the
    number of all the turns ("1 missed: ... played them" of 7 turns)."""
    from bot.profiles import Profile, words
    from languages import language

    figures = reckon.Figures(turns=turns, on_time=on_time, missed=missed)
    assert line in words.text("Ana", Profile(ANN, figures, {}), language(code)).splitlines()


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_the_time_away_in_settings_before_the_upgrade_is_kept_and_its_games_read_again(
    kind, request, tmp_path
):
    """A person away when their database is upgraded to the history of times away: that time
    away is its first entry, and their games are read again for their turns (Bob's, who was
    never away, are not)."""
    from bot.storage import SCHEMA_VERSION, migrations, open_store
    from tests.table.test_operating import old_database

    (periods,) = [n for n, name, _ in migrations("sqlite") if name == "away_periods"]
    rows = (
        "INSERT INTO people (user_id, away_since, away_until, updated_at) VALUES (1, 100.0, 500.0, 'then')",
        "INSERT INTO people (user_id, updated_at) VALUES (2, 'then')",
        *(
            "INSERT INTO sessions (id, game, channel_id, host_id, status, options, max_players, seed,"
            f" version, created_at, updated_at) VALUES ({sid}, 'nim', {sid}, {user}, 'active', '{{}}', 2, 1,"
            " 3, 'then', 'then')"
            for sid, user in ((10, ANN), (20, BOB))
        ),
        f"INSERT INTO seats (session_id, join_order, seat, user_id, display_name) VALUES (10, 0, 0, {ANN}, 'ann')",
        f"INSERT INTO seats (session_id, join_order, seat, user_id, display_name) VALUES (20, 0, 0, {BOB}, 'bob')",
        "INSERT INTO turns_read (session_id, version) VALUES (10, 3)",
        "INSERT INTO turns_read (session_id, version) VALUES (20, 3)",
    )
    async with old_database(kind, request, tmp_path, periods - 1, rows) as target:
        store = await open_store(target)
        try:
            assert store.upgraded_from == periods - 1 and await store.schema_version() == SCHEMA_VERSION
            assert await store.people.away_periods([ANN, BOB]) == {ANN: [(100.0, 500.0)]}
            assert await store.profiles.stale([ANN, BOB]) == [10]
            assert await store.check_integrity() == []
        finally:
            await store.close()


@pytest.mark.parametrize("after_timeout", [False, True])
async def test_resigning_keeps_the_turns_missed_before_it(store, clock, after_timeout):
    """Ann's time runs out (the computer plays her turn) and she resigns later: that missed turn
    stays in her profile and the game reads as timed out, not resigned; the computer's turns for
    her seat after the resignation are not hers.  ``after_timeout``: the computer had taken her
    seat when her time ran out (she resigns without coming back)."""
    g = await seated_game(store, 100, [ANN, BOB], clock="move:2h")
    await move(store, clock, g, 0, HOUR)
    await move(store, clock, g, 1, HOUR)
    if after_timeout:
        await store.games.set_seat_flags(g, 0, computer=True, resigned=False)
    await move(store, clock, g, 0, 2 * HOUR, computer=True)  # her time ran out
    await move(store, clock, g, 1, HOUR)
    await store.games.set_seat_flags(g, 0, computer=True, resigned=True)
    await store.games.set_seat_flags(g, 0, computer=True, resigned=True)  # set again: kept where it was
    await move(store, clock, g, 0, 60, computer=True)  # the computer's own, after she resigned
    await move(store, clock, g, 1, HOUR)
    await store.games.finish(g, status="finished", reason="won", outcome=None, results=[])

    ann = (await profiles.profile(store, ANN, GUILD)).figures
    assert (ann.turns, ann.on_time, ann.missed) == (2, 1, 1)
    assert (ann.finished, ann.timed_out, ann.resigned) == (0, 1, 0)
    assert sorted(await store.profiles.all_turns(), key=lambda t: (t.session_id, t.number)) == (
        await profiles.rebuild(store)
    )


async def test_a_resignation_without_a_timeout_leaves_no_missed_turn(store, clock):
    """Ann resigns in her turn: the computer's moves for her seat after it are not hers, and the
    game reads as resigned."""
    g = await seated_game(store, 100, [ANN, BOB], clock="move:2h")
    await move(store, clock, g, 0, HOUR)
    await move(store, clock, g, 1, HOUR)
    await store.games.set_seat_flags(g, 0, computer=True, resigned=True)
    await move(store, clock, g, 0, 60, computer=True)
    await move(store, clock, g, 1, HOUR)
    await store.games.finish(g, status="finished", reason="won", outcome=None, results=[])
    ann = (await profiles.profile(store, ANN, GUILD)).figures
    assert (ann.turns, ann.on_time, ann.missed) == (1, 1, 0)
    assert (ann.finished, ann.timed_out, ann.resigned) == (0, 0, 1)


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_a_resignation_stored_before_the_upgrade_keeps_reading_as_it_did(kind, request, tmp_path):
    """A seat that resigned before resignations kept their place in the log: after the upgrade it
    has none, and every computer move of its seat reads as the computer's own, as before."""
    from bot.storage import SCHEMA_VERSION, migrations, open_store
    from tests.table.test_operating import old_database

    (kept,) = [n for n, name, _ in migrations("sqlite") if name == "resigned_after"]
    rows = (
        "INSERT INTO sessions (id, game, channel_id, host_id, status, options, max_players, seed,"
        " version, created_at, updated_at) VALUES (10, 'nim', 10, 1, 'finished', '{}', 2, 1, 3, 'then', 'then')",
        f"INSERT INTO seats (session_id, join_order, seat, user_id, display_name, resigned)"
        f" VALUES (10, 0, 0, {ANN}, 'ann', 1)",
        f"INSERT INTO seats (session_id, join_order, seat, user_id, display_name) VALUES (10, 1, 1, {BOB}, 'bob')",
    )
    async with old_database(kind, request, tmp_path, kept - 1, rows) as target:
        store = await open_store(target)
        try:
            assert store.upgraded_from == kept - 1 and await store.schema_version() == SCHEMA_VERSION
            (log,) = await store.profiles.logs([10])
            assert log.resigned == frozenset({0}) and log.resigned_after == {}
            assert await store.check_integrity() == []
        finally:
            await store.close()


def test_a_pace_gate_refusal_names_the_pace_in_the_readers_language():
    """Someone whose median time to move is 6 hours joins a table asking the pace fast: the
    refusal names the pace as /me profile does, in Spanish too (not the typed key "fast")."""
    from languages import language

    slow = reckon.Figures(turns=10, on_time=10, median=6 * 3600.0)
    words = profiles.check_gate(slow, Gate(pace="fast"))
    assert words is not None
    assert "asks for the pace fast (a median of" in words.in_words(language("en"))
    spanish = words.in_words(language("es"))
    assert "ritmo rápido" in spanish and "fast" not in spanish


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_a_handover_stored_before_the_upgrade_is_placed_in_the_log_by_its_time(kind, request, tmp_path):
    """A league seat handed to a substitute before handovers kept their place in the log: after
    the upgrade the handover is placed by its time, so the moves before it stay the original's
    (Ann's own turn; the computer's move for her seat reads as the computer's own, as an old
    resignation's does) and the substitute (Cid) has only the turn played after it, timed from
    the move before it.  The moves before it are named after her as the league knows her."""
    from datetime import UTC, datetime, timedelta

    from bot.storage import SCHEMA_VERSION, migrations, open_store
    from bot.storage.profiles import Holder
    from tests.table.test_operating import old_database

    (added,) = [n for n, name, _ in migrations("sqlite") if name == "substitution_turns"]
    start = datetime(2026, 3, 1, tzinfo=UTC)

    def stamp(minutes: int) -> str:
        return (start + timedelta(minutes=minutes)).isoformat()

    moves = [(1, 0, 0, 10), (2, 1, 0, 20), (3, 0, 1, 30), (4, 1, 0, 40), (5, 0, 0, 50)]
    handed_at = (start + timedelta(minutes=35)).timestamp()
    rows = (
        "INSERT INTO sessions (id, game, channel_id, host_id, status, options, max_players, seed,"
        f" version, created_at, updated_at) VALUES (10, 'nim', 10, {ANN}, 'active', '{{}}', 2, 1, 6, 'then', 'then')",
        f"INSERT INTO seats (session_id, join_order, seat, user_id, display_name) VALUES (10, 0, 0, {CID}, 'cid')",
        f"INSERT INTO seats (session_id, join_order, seat, user_id, display_name) VALUES (10, 1, 1, {BOB}, 'bob')",
        *(
            f"INSERT INTO moves (session_id, number, seat, move, by_computer, created_at)"
            f" VALUES (10, {n}, {seat}, 'x', {computer}, '{stamp(m)}')"
            for n, seat, computer, m in moves
        ),
        "INSERT INTO leagues (id, guild_id, channel_id, organiser_id, name, game, format, group_size, points,"
        " bye_points, round_seconds, rounds, starts_at, status, seed, created_at) VALUES (1, 1, 1, 1, 'L', 'nim',"
        " 'swiss', 2, '[1, 0]', 1, 86400, 1, 0, 'running', 1, 'then')",
        "INSERT INTO league_games (id, league_id, round, table_no, session_id, status) VALUES (1, 1, 1, 1, 10, 'playing')",
        f"INSERT INTO league_players (league_id, user_id, display_name, joined_at) VALUES (1, {ANN}, 'Ann', 'then')",
        f"INSERT INTO league_substitutions (game_id, original_id, substitute_id, credit, at)"
        f" VALUES (1, {ANN}, {CID}, 'original', {handed_at})",
    )
    async with old_database(kind, request, tmp_path, added - 1, rows) as target:
        store = await open_store(target)
        try:
            assert store.upgraded_from == added - 1 and await store.schema_version() == SCHEMA_VERSION
            (log,) = await store.profiles.logs([10])
            assert log.earlier == (Holder(0, ANN, 3, 0, handed_at, "Ann"),)  # her name in the league
            assert await store.history.handovers(10) == log.earlier  # what the log and history name
            turns = reckon.turns_of(log, {})
            assert [(t.number, t.user_id, t.missed) for t in turns] == [
                (1, ANN, False),
                (2, BOB, False),
                (4, BOB, False),
                (5, CID, False),
            ]
            assert turns[-1].seconds == 600
            assert await store.check_integrity() == []
        finally:
            await store.close()


async def test_a_turn_keeps_the_reminder_interval_it_started_with(store, clock):
    """Ann plays with reminders every 24 hours, then chooses every 2 hours: her turns before the
    change are judged by the 24 hours she had then (a 10-hour turn stays on time), those after it
    by the 2 hours; choosing 24 hours again later changes neither.  Bob never changed his: his
    setting holds for all his turns."""
    start = clock.time()
    await store.people.save_person(PersonRow(ANN, remind_hours=24))
    g = await seated_game(store, 100, [ANN, BOB])  # no clock
    await move(store, clock, g, 0, 10 * HOUR)  # within her 24 hours then
    await move(store, clock, g, 1, HOUR)
    await store.people.save_person(PersonRow(ANN, remind_hours=2))
    await move(store, clock, g, 0, 10 * HOUR)  # started after the change: 10 h > 2 h, late
    await move(store, clock, g, 1, HOUR)
    ann = await profiles.figures_of(store, ANN)
    assert (ann.turns, ann.on_time) == (2, 1)
    # the 12 hours she had before her first choice, then each choice from its time
    assert await store.people.intervals([ANN, BOB]) == {ANN: [(0.0, 12), (start, 24), (start + 11 * HOUR, 2)]}
    await store.people.save_person(PersonRow(ANN, remind_hours=24))
    await move(store, clock, g, 0, HOUR)  # the game moved on: it is read again, with the history
    ann = await profiles.figures_of(store, ANN)
    assert (ann.turns, ann.on_time) == (3, 2)
    stored = sorted(await store.profiles.all_turns(), key=lambda t: (t.session_id, t.number))
    assert stored == await profiles.rebuild(store)
    assert [t.on_time for t in stored if t.user_id == ANN] == [True, False, True]


async def test_a_game_abandoned_when_a_players_time_ran_out_is_a_timed_out_game_of_theirs(
    service, store, clock, monkeypatch
):
    """The first player's bank runs out and the others vote to abandon the game: the turn whose
    time ran out is a missed turn of the late player's and the game is timed out for them (no
    longer an abandoned game like anyone else's, with their reliability untouched); for the
    others it is abandoned, with no turn of theirs missed."""
    from tests.support import nim
    from tests.table.test_clocks import run_out

    monkeypatch.setattr(nim, "TABLE_MOVES", False)  # running out of time asks the others
    session, late, at = await run_out(service, clock)
    voter = next(s for s in session.seats if s.user_id != late.user_id)
    await service.clocks.answer_timeout(session.id, late.seat, at, "abandon", voter.user_id)
    found = await profiles.figures_of(store, late.user_id)
    assert (found.turns, found.on_time, found.missed) == (1, 0, 1)
    assert (found.finished, found.abandoned, found.timed_out, found.resigned) == (0, 0, 1, 0)
    other = await profiles.figures_of(store, voter.user_id)
    assert (other.turns, other.missed, other.abandoned, other.timed_out) == (0, 0, 1, 0)
    assert sorted(await store.profiles.all_turns(), key=lambda t: (t.session_id, t.number)) == (
        await profiles.rebuild(store)
    )
