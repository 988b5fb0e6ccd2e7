"""Game clocks at the session service, on both back ends: banks running down with moves, time
away, time running out, the answers, /game return, and the timed-out seat ranking last."""

from __future__ import annotations

import pytest

from bot.history import History
from bot.sessions import MoveResult, NotSeated, Refusal, StaleMove, TimeOut
from bot.storage import DEADLINE, PersonRow
from bot.time.gameclock import DAY, HOUR, VOTE_SECONDS, ranks_last
from bot.time.jobs import TIMEOUT
from bot.undo import UndoService
from engines.core import name_seats
from tests.support import nim

CH = 78


@pytest.fixture
def no_table_moves(monkeypatch):
    """Nim without its table move, so that running out of time asks the others."""
    monkeypatch.setattr(nim, "TABLE_MOVES", False)


async def started(service, clock="bank:3d+12h", people=2):
    await service.lobby.create(
        "nim", guild_id=1, channel_id=CH, host_id=1, host_name="p1", seed=3, clock=clock
    )
    for uid in range(2, people + 1):
        await service.lobby.join(CH, uid, f"p{uid}")
    return (await service.lobby.start(CH, 1)).session


def user_to_move(session) -> int:
    (seat,) = session.waiting_on()
    return seat.user_id


async def move(service, session):
    """The person to move takes one stone from the first pile that has some."""
    seat = session.waiting_on()[0]
    first = next(m for m in session.engine.legal_moves(session.state, seat.seat))
    return (await service.play.play(CH, seat.user_id, str(first))).session


async def fire(service, session) -> MoveResult | TimeOut | None:
    (job,) = await service.store.jobs.claim_jobs("test", lease=60)  # as the scheduler does
    assert job.kind == DEADLINE and job.key == str(session.id)
    return await service.clocks.fire_clock(session.id, job)


async def test_bad_clocks_are_refused_before_anything_is_opened(service):
    with pytest.raises(Refusal, match=r"not a clock; a clock is `move:<time>`"):
        await service.lobby.create(
            "nim", guild_id=1, channel_id=CH, host_id=1, host_name="p1", clock="3 days"
        )
    assert await service.store.games.live_session(CH) is None
    with pytest.raises(Refusal, match="more than the starting bank"):
        await service.lobby.create(
            "nim", guild_id=1, channel_id=CH, host_id=1, host_name="p1", clock="bank:1h+2h"
        )


async def test_the_bank_runs_down_gets_its_increment_and_sets_the_deadline(service, clock):
    session = await started(service)
    first = session.waiting_on()[0].seat
    job = await service.store.jobs.job(DEADLINE, str(session.id))
    assert job.due_at == clock.time() + 3 * DAY
    clock.advance(DAY)
    session = await move(service, session)
    banks = session.banks
    assert banks.banks[first] == 2.5 * DAY and first not in banks.since  # a day used, 12 h back
    other = session.waiting_on()[0].seat
    assert banks.since[other] == clock.time()
    assert (await service.store.jobs.job(DEADLINE, str(session.id))).due_at == clock.time() + 3 * DAY
    clock.advance(HOUR)
    session = await move(service, session)
    assert session.banks.banks[other] == 3 * DAY  # capped at the start
    assert (await service.store.jobs.job(DEADLINE, str(session.id))).due_at == clock.time() + 2.5 * DAY
    # a deadline that comes early (set before a move) only moves on
    clock.advance(DAY)
    job = await service.store.jobs.job(DEADLINE, str(session.id))
    assert await service.clocks.fire_clock(session.id, job) is None  # not due yet: it only moves on
    assert (await service.store.jobs.job(DEADLINE, str(session.id))).due_at == clock.time() + 1.5 * DAY


async def test_clock_is_set_by_the_host_or_a_manager_and_starts_afresh(service, clock):
    session = await started(service)
    with pytest.raises(Refusal, match="only the host or someone with Manage Channels"):
        await service.clocks.set_clock(CH, 2, "move:1h", can_manage=False)
    with pytest.raises(Refusal, match="not a time like"):
        await service.clocks.set_clock(CH, 1, "move:soon", can_manage=False)
    session = await service.clocks.set_clock(CH, 2, "move:2h", can_manage=True)
    assert session.row.clock == "move:2h"
    assert (await service.store.jobs.job(DEADLINE, str(session.id))).due_at == clock.time() + 2 * HOUR
    with pytest.raises(Refusal, match="has a clock"):
        await service.clocks.set_timer(CH, 1, HOUR, can_manage=False)
    session = await service.clocks.set_clock(CH, 1, "off", can_manage=False)
    assert session.row.clock is None and await service.store.jobs.job(DEADLINE, str(session.id)) is None


async def test_time_away_holds_the_bank_and_a_game_of_people_away_waits(service, clock, no_table_moves):
    session = await started(service, "bank:1d")
    late = session.waiting_on()[0]
    now = clock.time()
    await service.store.people.save_person(
        PersonRow(late.user_id, away_since=now + HOUR, away_until=now + 5 * DAY)
    )
    clock.advance(DAY)
    assert await fire(service, session) is None  # away: an hour used, the game waits
    job = await service.store.jobs.job(DEADLINE, str(session.id))
    assert job.due_at == now + 5 * DAY + 23 * HOUR
    clock.set(job.due_at)
    out = await fire(service, session)
    assert isinstance(out, TimeOut) and [s.seat for s in out.seats] == [late.seat]


async def run_out(service, clock, people=3):
    session = await started(service, "bank:1d+1h", people=people)
    late = session.waiting_on()[0]
    clock.advance(DAY)
    out = await fire(service, session)
    assert isinstance(out, TimeOut) and out.seats == [late]
    assert await service.store.jobs.job(DEADLINE, str(session.id)) is None  # nobody else's clock runs
    return out.session, late, int(out.at)


async def test_more_time_restarts_the_late_clock(service, clock, no_table_moves):
    session, late, at = await run_out(service, clock)
    with pytest.raises(Refusal, match="the others decide"):
        await service.clocks.answer_timeout(session.id, late.seat, at, "more", late.user_id)
    with pytest.raises(NotSeated):
        await service.clocks.answer_timeout(session.id, late.seat, at, "more", 999)
    with pytest.raises(StaleMove):
        await service.clocks.answer_timeout(session.id, late.seat, at + 1, "more", 2)
    voter = next(s for s in session.seats if s.user_id != late.user_id)
    session, result = await service.clocks.answer_timeout(session.id, late.seat, at, "more", voter.user_id)
    assert result is None and session.banks.pending == {}
    assert session.clock is not None and session.banks.banks[late.seat] == session.clock.start  # again
    assert (await service.store.jobs.job(DEADLINE, str(session.id))).due_at == clock.time() + DAY
    with pytest.raises(StaleMove, match="closed"):  # the first answer decided
        await service.clocks.answer_timeout(session.id, late.seat, at, "abandon", voter.user_id)


async def test_abandon_ends_the_game_without_a_result(service, clock, no_table_moves):
    session, late, at = await run_out(service, clock)
    voter = next(s for s in session.seats if s.user_id != late.user_id)
    session, _ = await service.clocks.answer_timeout(session.id, late.seat, at, "abandon", voter.user_id)
    assert session.status == "abandoned" and "time ran out" in session.row.end_reason


async def test_moving_late_closes_the_question(service, clock, no_table_moves):
    session, late, at = await run_out(service, clock)
    session = await move(service, session)
    assert session.banks.pending == {} and session.banks.banks[late.seat] == HOUR
    with pytest.raises(StaleMove):
        await service.clocks.answer_timeout(session.id, late.seat, at, "computer", None)


async def test_the_computer_takes_the_seat_the_person_returns_once_and_ranks_last(
    service, clock, no_table_moves
):
    session, late, at = await run_out(service, clock, people=2)
    session, result = await service.clocks.answer_timeout(session.id, late.seat, at, "computer", None)
    assert result is not None and result.played  # it moved for the seat
    assert (
        name_seats(str(result.note), session.names())
        == f"⏰ {late.name}'s time ran out; the computer plays that seat from now on"
    )
    assert session.by_seat(late.seat).computer
    with pytest.raises(Refusal, match="/game return takes it back"):
        await service.play.play(CH, late.user_id, "A1")
    with pytest.raises(Refusal, match=r"^your time ran out .*/game return takes it back"):
        await UndoService(service, History(service)).ask(CH, late.user_id)  # not "you resigned"
    with pytest.raises(Refusal, match="the computer took no seat of yours"):
        other = next(s for s in session.seats if s.user_id != late.user_id)
        await service.seats.return_seat(CH, other.user_id)
    session = await service.seats.return_seat(CH, late.user_id)
    assert not session.by_seat(late.seat).computer and session.banks.taken == {late.seat: True}
    with pytest.raises(Refusal, match="your seat is yours"):
        await service.seats.return_seat(CH, late.user_id)
    while session.status == "active":  # play it out: whoever wins, the late seat ranks last
        session = await move(service, session)
    results = await service.store.ratings.results(session.id)
    places = {r.seat: r.place for r in results}
    assert places[late.seat] == 2 and places[1 - late.seat] == 1
    assert next(r for r in results if r.seat == late.seat).resigned
    # Every telling of the result says why that seat is last: the last post, the card, its alt
    # text and the game's web page.
    from bot import alt
    from bot import results as told
    from bot.texts import number, outcome_lines
    from bot.web.game import Games
    from engines.core import Outcome
    from languages import ENGLISH, language

    session = await service.core.get(session.id)
    outcome = Outcome.from_dict(session.row.outcome)
    score = number(outcome.scores[late.seat])
    assert outcome_lines(session, outcome)[-1] == f"2nd: <@{late.user_id}>: {score} (time ran out)"
    assert outcome_lines(session, outcome, language("es"))[-1] == (
        f"2.º: <@{late.user_id}>: {score} (se le acabó el tiempo)"
    )
    assert [r.note for r in told.card_rows(session, outcome)] == [None, "time ran out"]
    assert f"2nd: {late.name}: {score} (time ran out)." in alt.results_card(session)
    players = Games(service, History(service)).players(session, ENGLISH)
    assert [p.ran_out for p in players] == [
        s.seat == late.seat for s in sorted(session.seats, key=lambda s: s.seat)
    ]


async def test_a_round_the_table_ends_follows_the_clock(service, clock):
    """Nim has a table move (like Nowa Gwinea's round end): when the clock runs out, it is played."""
    session = await started(service, "move:2h")
    late = session.waiting_on()[0]
    clock.advance(2 * HOUR)
    result = await fire(service, session)
    assert isinstance(result, MoveResult) and str(result.note) == "⏰ Time is up."
    session = result.session
    assert session.waiting_on()[0].seat != late.seat and session.banks.pending == {}
    assert (await service.store.jobs.job(DEADLINE, str(session.id))).due_at == clock.time() + 2 * HOUR


async def test_a_nowa_gwinea_round_ends_when_the_last_builders_clock_runs_out(service, clock):
    """Everyone builds at once: the round waits for the last clock of those still building, then
    the table ends it; the next round's clocks start afresh from the banks left."""
    await service.lobby.create(
        "nowa_gwinea", guild_id=1, channel_id=CH, host_id=1, host_name="p1", seed=5, clock="bank:1d+2h"
    )
    await service.lobby.join(CH, 2, "p2")
    session = (await service.lobby.start(CH, 1)).session
    assert session.to_move() == {0, 1}
    assert (await service.store.jobs.job(DEADLINE, str(session.id))).due_at == clock.time() + DAY
    clock.advance(HOUR)
    quick = session.by_seat(0)
    session = (await service.play.play(CH, quick.user_id, "done")).session
    assert session.to_move() == {1} and session.banks.banks[0] == DAY  # 1 h used, 2 h back, capped
    clock.advance(23 * HOUR)
    result = await fire(service, session)
    assert isinstance(result, MoveResult) and str(result.note) == "⏰ Time is up."
    session = result.session
    assert session.engine.turn_number(session.state) == 2 and session.to_move() == {0, 1}
    banks = session.banks
    assert banks.banks == {0: DAY, 1: 2 * HOUR} and set(banks.since) == {0, 1}
    # the round lasts until the last clock runs out: seat 0's full day
    assert (await service.store.jobs.job(DEADLINE, str(session.id))).due_at == clock.time() + DAY


async def test_resigning_stops_the_clock_and_ends_the_question(service, clock, no_table_moves):
    session, late, at = await run_out(service, clock)  # three people
    session = (await service.seats.resign(CH, late.user_id)).session
    assert late.seat not in session.banks.since and session.banks.pending == {}
    with pytest.raises(StaleMove):
        await service.clocks.answer_timeout(session.id, late.seat, at, "computer", None)
    assert session.to_move() and session.to_move() != {late.seat}  # the computer moved for it
    (nxt,) = session.waiting_on()
    assert session.banks.since == {nxt.seat: clock.time()}


async def test_an_undo_restarts_the_clock_of_the_seat_to_move_again(service, clock):
    from bot.history import History
    from bot.undo import Undone, UndoService

    await service.lobby.create(
        "nim", guild_id=1, channel_id=CH, host_id=1, host_name="p1", seed=7, clock="bank:1d"
    )
    await service.lobby.add_computer(CH, 1)
    session = (await service.lobby.start(CH, 1)).session
    clock.advance(HOUR)
    session = await move(service, session)  # p1 moves, the computer answers at once
    assert session.banks.banks[session.seat_of(1).seat] == DAY - HOUR
    clock.advance(HOUR)
    asked = await UndoService(service, History(service)).ask(CH, 1)
    assert isinstance(asked, Undone)
    session = await service.core.get(session.id)
    mine = session.seat_of(1).seat
    assert session.to_move() == {mine} and session.banks.since == {mine: clock.time()}
    assert session.banks.banks[mine] == DAY - 2 * HOUR  # the hour spent thinking about the undo counts
    assert (await service.store.jobs.job(DEADLINE, str(session.id))).due_at == clock.time() + DAY - 2 * HOUR


async def test_a_step_of_the_late_players_turn_closes_the_question(service, clock):
    """Guacamole: the first player's bank runs out and the other is asked; the late player
    comes back and makes a step of the turn (a preparation, which does not end it).  That
    closes the question: the other's answer and the unanswered job are refused as closed, the
    seat stays the person's, and no new question comes while they finish the turn.  Should
    they not finish it, the job's answer once the question's 24 hours are over gives the seat
    to the computer, which finishes the turn (the game waited on nobody for ever)."""
    await service.lobby.create(
        "guacamole", guild_id=1, channel_id=CH, host_id=1, host_name="p1", seed=3, clock="bank:1d+1h"
    )
    await service.lobby.join(CH, 2, "p2")
    session = (await service.lobby.start(CH, 1)).session
    late = session.waiting_on()[0]
    other = 3 - late.user_id
    clock.advance(DAY)
    out = await fire(service, session)
    assert isinstance(out, TimeOut) and out.seats == [late]
    at = int(out.at)
    clock.advance(HOUR)
    step = next(m for m in await service.play.legal_moves(CH, late.user_id) if m.startswith("prep "))
    result = await service.play.play(CH, late.user_id, step)
    assert not result.turn_ended and result.session.waiting_on() == [late]
    for voter in (other, None):  # a person's answer, then the job's
        with pytest.raises(StaleMove, match="that question is closed"):
            await service.clocks.answer_timeout(session.id, late.seat, at, "computer", voter)
    session = await service.core.get(session.id)
    assert not session.by_seat(late.seat).computer
    assert await service.store.jobs.job(DEADLINE, str(session.id)) is None  # no new question
    clock.set(at + VOTE_SECONDS)  # the question's time is over, the turn still unfinished
    with pytest.raises(StaleMove, match="that question is closed"):  # closed to a person still
        await service.clocks.answer_timeout(session.id, late.seat, at, "computer", other)
    session, result = await service.clocks.answer_timeout(session.id, late.seat, at, "computer", None)
    assert session.by_seat(late.seat).computer and result is not None
    assert late not in session.waiting_on() and session.status == "active"
    assert ranks_last(session.banks) == {late.seat}  # ranks last, as any seat taken on time
    # the question's job keeps that the turn was left unfinished, for the line told after a restart
    kept = await service.store.jobs.job(TIMEOUT, f"{session.id}:{late.seat}")
    assert kept is not None and kept.payload["unanswered"] and kept.payload["unfinished"]
