"""Attendance through the league service on both back ends: a two-player Swiss league paired by
the Dutch system with a bye asked for, a pause, a late sign-up and a missed check-in, and the
refusals players get for bad requests."""

from __future__ import annotations

import pytest

from bot.league.attendance import Settings
from bot.league.presence import Attendance
from bot.league.service import LeagueError, LeagueService
from bot.sessions import refusal
from languages import language
from tests.league.test_service import DAY, counter, new_league, open_games


@pytest.fixture
def leagues(service):
    return LeagueService(service.store, service)


async def test_a_dutch_season_leaves_out_and_scores_who_sat_out(leagues, service, clock):
    store = service.store
    desk = Attendance(leagues)
    league = await new_league(
        leagues, name="Nim swiss", game="nim", format="swiss", group_size=2, rounds=4, days=1, seed=8
    )
    names = {uid: f"n{uid}" for uid in (401, 402, 403, 404, 405, 406)}
    for uid, name in names.items():
        await leagues.join(league, uid, name)
    await desk.configure(league, "first", 2.0, "full")
    assert "bye in round 1" in await desk.ask_bye(league, 401, 1)
    with pytest.raises(LeagueError, match="already"):
        await desk.ask_bye(league, 401, 1)
    league, _ = await leagues.start(league)
    # Round 1 has a check-in: 402 never checks in.
    await store.attendance.open_window(league.id, 1, clock.time() + 3600)
    for uid in (403, 404, 405, 406):
        await desk.check_in(league, uid)
    with pytest.raises(LeagueError, match="not signed up"):
        await desk.check_in(league, 999)
    clock.advance(3600)
    with pytest.raises(LeagueError, match="no check-in open"):
        await desk.check_in(league, 402)
    channels = counter(4000)
    opened = await leagues.open_round(league.id, 1)
    assert opened is not None and opened.byes == []
    assert {u for g in opened.games for u in g.players} == {403, 404, 405, 406}
    await open_games(leagues, opened, names, channels)
    # During round 1: 407 joins late; 404 pauses round 2 (then asking a bye for it is refused).
    league = await store.leagues.league(league.id)
    assert "late" in await desk.late_join(league, 407, "n407")
    assert "round 2" in await desk.pause(league, 404, 1)
    with pytest.raises(LeagueError, match="paused round 2 already"):
        await desk.ask_bye(league, 404, 2)
    with pytest.raises(LeagueError, match="not a coming round"):
        await desk.ask_bye(league, 404, 1)
    clock.advance(DAY)
    await leagues.round_deadline(league.id, 1)
    opened = await leagues.open_round(league.id, 2)
    assert opened is not None
    playing = {u for g in opened.games for u in g.players}
    # Round 2 has no check-in ("first"): 402 plays again; 404 is paused; 407 plays.
    assert playing | set(opened.byes) == {401, 402, 403, 405, 406, 407}
    assert len(playing) == 6 and opened.byes == []
    kinds = await store.attendance.bye_kinds(league.id)
    byes = {(r, u): p for r, u, p in await store.leagues.league_byes(league.id)}
    assert byes == {(1, 401): 1.0, (1, 402): 0.0, (1, 407): 1.0, (2, 404): 0.0}
    assert kinds == {(1, 401): "requested", (1, 402): "absent", (1, 407): "late", (2, 404): "pause"}
    rows = {s.row.player: s.row for s in await leagues.standings(await store.leagues.league(league.id))}
    assert rows["401"].points == 1.0 and rows["407"].points == 1.0 and rows["402"].points == 0.0


async def test_bad_requests_are_refused_with_what_is_allowed(leagues, service):
    desk = Attendance(leagues)
    robin = await new_league(leagues, name="Robin", game="nim", format="round_robin", group_size=2)
    await leagues.join(robin, 501, "a")
    with pytest.raises(LeagueError, match="not a Swiss league"):
        await desk.pause(robin, 501, 1)
    swiss = await new_league(
        leagues, name="Swiss", game="nim", format="swiss", group_size=2, rounds=2, days=1
    )
    with pytest.raises(LeagueError, match="not signed up"):
        await desk.ask_bye(swiss, 501, 1)
    await leagues.join(swiss, 501, "a")
    with pytest.raises(LeagueError, match="ask for one of rounds 1 to 2"):
        await desk.ask_bye(swiss, 501, 3)
    with pytest.raises(LeagueError, match="have not asked for a bye"):
        await desk.ask_bye(swiss, 501, 1, cancel=True)
    with pytest.raises(LeagueError, match="no pause"):
        await desk.resume(swiss, 501)
    with pytest.raises(LeagueError, match="from 10 minutes to a round"):
        await desk.configure(swiss, "every", 48.0, None)
    with pytest.raises(LeagueError, match="check-in is one of"):
        await desk.configure(swiss, "sometimes", None, None)
    assert await service.store.attendance.settings(swiss.id) == Settings()


async def test_answers_and_refusals_read_in_spanish(leagues):
    es = language("es")
    desk = Attendance(leagues)
    league = await new_league(
        leagues, name="Otoño", game="nim", format="swiss", group_size=2, rounds=3, days=2
    )
    await leagues.join(league, 601, "Ana")
    paused = await desk.pause(league, 601, 2, es)
    assert paused == (
        "Estás en pausa en las rondas 1, 2 de Otoño: no juegas en ellas (sin puntos). /liga volver la anula."
    )
    with pytest.raises(LeagueError) as caught:
        await desk.ask_bye(league, 601, 1)
    assert str(caught.value).startswith("you paused round 1 already")
    assert refusal(caught.value, es) == (
        "ya pusiste en pausa la ronda 1 (una pausa no puntúa); /liga volver la anula"
    )
    with pytest.raises(LeagueError) as caught:
        await desk.check_in(league, 601)
    assert refusal(caught.value, es).startswith("Otoño no tiene confirmación de asistencia")
    told = await desk.configure(league, "every", 1.5, "none", es)
    assert told == (
        "Otoño: quienes juegan confirman su asistencia antes de cada ronda, en un plazo de 1,5 horas; "
        "una ronda libre pedida puntúa 0 puntos."
    )


async def test_a_late_sign_up_while_a_round_waits_for_review_has_its_bye_in_that_round(
    leagues, service, clock
):
    """The drafted round was paired without the late joiner, who cannot play it: their bye is in
    that round (the round in play for them), and they are paired from the round after it."""
    from bot.league.controls import Controls

    store = service.store
    desk = Attendance(leagues)
    controls = Controls(leagues)
    league = await new_league(
        leagues, name="Reviewed", game="nim", format="swiss", group_size=2, rounds=4, days=1, review=True
    )
    names = {uid: f"n{uid}" for uid in (501, 502, 503, 504)}
    for uid, name in names.items():
        await leagues.join(league, uid, name)
    league, _ = await leagues.start(league)
    channels = counter(5000)
    await open_games(leagues, await leagues.open_round(league.id, 1), names, channels)
    clock.advance(DAY)
    await leagues.round_deadline(league.id, 1)
    league = await store.leagues.league(league.id)
    assert await controls.draft_round(league, 2) is not None  # round 2 waits for the review
    said = await desk.late_join(league, 505, "n505")
    assert "with a bye in round 2 of 4 (1 point), and is paired from the next round" in said, said
    opened = await controls.publish(await store.leagues.league(league.id))
    assert 505 not in {u for g in opened.games for u in g.players}
    assert (2, 505, 1.0) in await store.leagues.league_byes(league.id)
    assert (1, 505, 1.0) not in await store.leagues.league_byes(league.id)
    await open_games(leagues, opened, names | {505: "n505"}, channels)
    clock.advance(DAY)
    await leagues.round_deadline(league.id, 2)
    opened = await leagues.open_round(league.id, 3)  # review or not, the service pairs round 3
    assert 505 in {u for g in opened.games for u in g.players} | set(opened.byes)
    rows = {r.player: r for r in await leagues.draw.table_rows(await store.leagues.league(league.id))}
    assert rows["505"].points >= 1.0  # the late bye counted once


async def checking_in(leagues, name, players, *, rounds, hours):
    """A two-player Nim Swiss league of ``players`` (named ``n<id>``), with a check-in of ``hours``
    before every round, in sign-up."""
    league = await new_league(
        leagues, name=name, game="nim", format="swiss", group_size=2, rounds=rounds, days=2
    )
    names = {uid: f"n{uid}" for uid in players}
    for uid, shown in names.items():
        await leagues.join(league, uid, shown)
    await Attendance(leagues).configure(league, "every", hours, None)
    return league, names


async def all_in_round_one(leagues, league, players, clock):
    """Start ``league``, check every one of ``players`` in for round 1 in an hour's window, and
    open the round."""
    league, _ = await leagues.start(league)
    await leagues.store.attendance.open_window(league.id, 1, clock.time() + 3600)
    for uid in players:
        await Attendance(leagues).check_in(league, uid)
    clock.advance(3600)
    return await leagues.open_round(league.id, 1)


async def test_a_late_sign_up_while_the_next_rounds_check_in_is_open_is_checked_in(leagues, service, clock):
    """Signing up late is saying one will play: with the next round's check-in window open (its
    call was posted before they joined), the late joiner is checked in for it and paired in it,
    as their answer says, rather than left out as not having checked in."""
    store = service.store
    desk = Attendance(leagues)
    league, names = await checking_in(leagues, "Window", (601, 602, 603, 604), rounds=4, hours=24.0)
    opened = await all_in_round_one(leagues, league, names, clock)
    await open_games(leagues, opened, names, counter(6000))
    clock.advance(DAY)
    league = await store.leagues.league(league.id)
    await store.attendance.open_window(league.id, 2, clock.time() + DAY)  # round 2's window opens
    for uid in (601, 602, 603):
        await desk.check_in(league, uid)
    said = await desk.late_join(league, 605, "n605")
    assert "with a bye in round 1 of 4 (1 point), and is paired from the next round" in said
    assert said.endswith("; n605 is checked in for round 2 of 4, whose check-in is open"), said
    assert "You were already checked in for round 2 of 4" in await desk.check_in(league, 605)
    clock.advance(DAY)
    await leagues.round_deadline(league.id, 1)
    opened = await leagues.open_round(league.id, 2)
    assert 605 in {u for g in opened.games for u in g.players} | set(opened.byes)
    kinds = await store.attendance.bye_kinds(league.id)
    assert kinds.get((2, 604)) == "absent" and (2, 605) not in kinds


async def test_taking_back_a_bye_or_a_pause_while_the_check_in_is_open_checks_the_player_in(
    leagues, service, clock
):
    """The check-in's call leaves out those with a bye or a pause for the round; taking it back is
    saying one will play, so the player is checked in and paired, as the answer says ("you are
    paired again"), rather than sitting the round out with nothing for not having checked in."""
    store = service.store
    desk = Attendance(leagues)
    league, _ = await checking_in(leagues, "Back", (701, 702, 703, 704), rounds=3, hours=2.0)
    await desk.ask_bye(league, 701, 1)
    await desk.pause(league, 702, 2)
    league, _ = await leagues.start(league)
    await store.attendance.open_window(league.id, 1, clock.time() + 3600)
    for uid in (703, 704):
        await desk.check_in(league, uid)
    said = await desk.ask_bye(league, 701, 1, cancel=True)
    assert said == "Your bye in round 1 of Back is taken back. You are checked in for round 1 of 3 of Back."
    said = await desk.resume(league, 702)
    assert said == (
        "Your pause of rounds 1, 2 of Back is taken back: you are paired again."
        " You are checked in for round 1 of 3 of Back."
    )
    clock.advance(3600)
    opened = await leagues.open_round(league.id, 1)
    assert sorted(u for g in opened.games for u in g.players) == [701, 702, 703, 704]
    assert await store.attendance.bye_kinds(league.id) == {}
    # With no window open, taking back a bye of a coming round says nothing of a check-in.
    await desk.ask_bye(league, 703, 3)
    assert await desk.ask_bye(league, 703, 3, cancel=True) == "Your bye in round 3 of Back is taken back."


async def test_a_check_in_between_windows_is_told_when_the_next_one_opens(leagues, service, clock):
    """Between two rounds' check-ins, /league checkin says when the next round's opens (two hours
    before the round in play ends), in the reader's language, not only that none is open."""
    store = service.store
    desk = Attendance(leagues)
    league, names = await checking_in(leagues, "Next", (801, 802, 803, 804), rounds=3, hours=2.0)
    opened = await all_in_round_one(leagues, league, names, clock)
    league = await store.leagues.league(league.id)
    with pytest.raises(LeagueError) as caught:
        await desk.check_in(league, 801)
    opens = int(opened.deadline_at - 2 * 3600)
    assert (
        str(caught.value)
        == f"there is no check-in open for Next now; the one for round 2 opens <t:{opens}:f>"
    )
    assert refusal(caught.value, language("es")) == (
        f"ahora no hay confirmación de asistencia abierta en Next; la de la ronda 2 se abre el <t:{opens}:f>"
    )
    clock.advance(2 * DAY)  # past its time (its job not yet fired): no time to give
    with pytest.raises(LeagueError) as caught:
        await desk.check_in(league, 801)
    assert str(caught.value) == "there is no check-in open for Next now"
