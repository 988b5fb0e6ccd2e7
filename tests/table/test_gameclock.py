"""Clock specs and bank arithmetic (bot/time/gameclock.py, pure)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.time import gameclock as gc
from bot.time.gameclock import BANK, DAY, HOUR, MOVE, ClockError, ClockSpec, parse_clock
from languages import language


@pytest.mark.parametrize(
    ("text", "spec"),
    [
        ("move:24h", ClockSpec(MOVE, 24 * HOUR)),
        ("MOVE: 90m", ClockSpec(MOVE, 90 * 60)),
        ("bank:3d+12h", ClockSpec(BANK, 3 * DAY, 12 * HOUR)),
        ("bank:3d", ClockSpec(BANK, 3 * DAY)),
        (" bank:2d12h+1h30m ", ClockSpec(BANK, 2.5 * DAY, 1.5 * HOUR)),
        ("bank:30d+30d", ClockSpec(BANK, 30 * DAY, 30 * DAY)),
        ("move:1m", ClockSpec(MOVE, 60)),
    ],
)
def test_specs_that_parse(text, spec):
    assert parse_clock(text) == spec


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "not a clock"),
        ("24h", "not a clock"),
        ("blitz:5m", "not a clock"),
        ("move:", "not a time"),
        ("move:24", "not a time"),
        ("move:-1h", "not a time"),
        ("move:1.5h", "not a time"),
        ("move:24h+1h", '"move:24h+1h": a per-move clock has no increment'),
        ("move:31d", "out of range"),
        ("move:0m", "out of range"),
        ("bank:0d", "out of range"),
        ("bank:1d+2d", "more than the starting bank"),
        ("bank:1h1d", "in that order"),
        ("bank:1h1h", "in that order"),
        ("bank:3d+", "not a time"),
        ("bank:3d+1h+1h", "not a time"),
        ("move:99999h", 'the turn time "99999h" is out of range: times go from 1m to 30d'),
        ("bank:" + "1d" * 30, "too long"),
    ],
)
def test_bad_specs_are_refused_with_what_is_allowed(text, words):
    with pytest.raises(ClockError) as err:
        parse_clock(text)
    assert words in str(err.value)
    assert isinstance(err.value, ValueError)


def test_off_and_non_text():
    assert gc.parse_clock_or_off(" OFF ") is None
    with pytest.raises(ClockError, match="a clock is text"):
        parse_clock(3)  # type: ignore[arg-type]  # a wrong type on purpose


minutes = st.integers(min_value=1, max_value=30 * 24 * 60)


@given(minutes, minutes)
def test_text_round_trips(start, inc):
    bank = ClockSpec(BANK, start * 60.0, min(start, inc) * 60.0)
    assert parse_clock(bank.text) == bank
    move = ClockSpec(MOVE, start * 60.0)
    assert parse_clock(move.text) == move
    assert bank.describe() and move.describe()


def test_describe_and_spoken():
    assert ClockSpec(BANK, 3 * DAY, 12 * HOUR).describe() == (
        "a time bank of 3 d each, plus 12 h after each turn (never above 3 d)"
    )
    assert ClockSpec(MOVE, 24 * HOUR).describe() == "1 d for each turn"
    assert gc.spoken(2 * DAY + 4 * HOUR + 59) == "2 d 4 h"
    assert gc.spoken(5 * HOUR + 600) == "5 h 10 min"
    assert gc.spoken(-5) == "0 min"


BANK3 = ClockSpec(BANK, 3 * DAY, 12 * HOUR)


def test_a_bank_runs_down_while_to_move_and_gets_the_increment_capped():
    t = 1000.0
    b = gc.begin(BANK3, [0, 1], [0], t)
    assert gc.left(BANK3, b, 0, t + DAY) == 2 * DAY
    assert gc.left(BANK3, b, 1, t + DAY) == 3 * DAY  # not to move: not running
    b = gc.advance(BANK3, b, [0], [1], t + DAY)  # seat 0 used a day, gets 12 h back
    assert b.banks[0] == 2.5 * DAY and 0 not in b.since and b.since[1] == t + DAY
    b = gc.advance(BANK3, b, [1], [0], t + DAY + 60)  # seat 1 moved at once: capped at the start
    assert b.banks[1] == 3 * DAY
    assert gc.deadline(BANK3, b, t + DAY + 60) == t + DAY + 60 + 2.5 * DAY


def test_time_away_does_not_run_the_bank_and_the_game_waits():
    t = 0.0
    b = gc.begin(BANK3, [0, 1], [0, 1], t)
    away = {0: [(t + HOUR, t + 10 * DAY)], 1: []}
    assert gc.used(t, t + 5 * DAY, away[0]) == HOUR
    # seat 1 runs out first; seat 0 would only after coming back
    assert gc.deadline(BANK3, b, t + 2 * HOUR, lambda s: away[s]) == t + 3 * DAY
    everyone_away = {0: [(t, t + 10 * DAY)], 1: [(t, t + 5 * DAY)]}
    assert gc.deadline(BANK3, b, t + HOUR, lambda s: everyone_away[s]) == t + 5 * DAY + 3 * DAY
    assert gc.timed_out(BANK3, b, t + 4 * DAY, lambda s: everyone_away[s]) == []


def test_every_time_away_within_the_turn_stays_uncounted():
    """Seat 0's turn began at 0; its person was away from 2 h to 5 h, then again from 8 h to 20 h:
    both leave the clock alone (the history of times away holds both)."""
    b = gc.begin(BANK3, [0, 1], [0], 0.0)
    first, second = (2 * HOUR, 5 * HOUR), (8 * HOUR, 20 * HOUR)
    assert gc.left(BANK3, b, 0, 24 * HOUR, [first, second]) == 3 * DAY - (24 - 12 - 3) * HOUR
    no_increment = ClockSpec(BANK3.kind, BANK3.start)
    b = gc.advance(no_increment, b, [0], [1], 24 * HOUR, lambda s: [first, second] if s == 0 else [])
    assert b.banks[0] == 3 * DAY - 9 * HOUR  # 24 h less 12 h and 3 h away


def test_a_credit_of_earlier_time_away_in_stored_clocks_still_counts_until_the_turn_ends():
    """Clocks stored before the history of times away carry the earlier time away of a running
    turn as ``paused``: it is still left out, and dropped when the turn ends."""
    b = gc.Banks.from_dict(
        {
            "banks": {"0": 3 * DAY, "1": 3 * DAY},
            "since": {"0": 0.0},
            "pending": {},
            "taken": {},
            "paused": {"0": 3 * HOUR},
        }
    )
    assert b.paused == {0: 3 * HOUR} and gc.Banks.from_dict(b.to_dict()) == b
    second = (8 * HOUR, 20 * HOUR)  # the time away the history holds
    assert gc.left(BANK3, b, 0, 24 * HOUR, [second]) == 3 * DAY - (24 - 12 - 3) * HOUR
    no_increment = ClockSpec(BANK3.kind, BANK3.start)
    b = gc.advance(no_increment, b, [0], [1], 24 * HOUR, lambda s: [second] if s == 0 else [])
    assert b.banks[0] == 3 * DAY - 9 * HOUR and b.paused == {}
    assert "paused" not in b.to_dict()  # the stored form of clocks without it is unchanged


def test_per_move_clock_starts_full_each_turn():
    spec = ClockSpec(MOVE, 24 * HOUR)
    b = gc.begin(spec, [0, 1], [0], 0.0)
    b = gc.advance(spec, b, [0], [1], 20 * HOUR)
    b = gc.advance(spec, b, [1], [0], 21 * HOUR)
    assert gc.left(spec, b, 0, 21 * HOUR) == 24 * HOUR
    assert gc.deadline(spec, b, 21 * HOUR) == 45 * HOUR


def test_run_out_vote_outcomes_and_return():
    b = gc.begin(BANK3, [0, 1, 2], [1], 0.0)
    assert gc.timed_out(BANK3, b, 3 * DAY) == [1]
    b = gc.run_out(b, [1], 3 * DAY)
    assert gc.running(b) == [] and gc.deadline(BANK3, b, 3 * DAY) is None
    more = gc.more_time(BANK3, b, 1, 4 * DAY)
    assert gc.running(more) == [1] and gc.left(BANK3, more, 1, 4 * DAY) == 3 * DAY
    taken = gc.take(b, 1)
    assert gc.may_return(taken, 1) and gc.ranks_last(taken) == {1}
    back = gc.give_back(BANK3, taken, 1, [1], 5 * DAY)
    assert not gc.may_return(back, 1) and gc.ranks_last(back) == {1}
    assert back.since[1] == 5 * DAY and back.banks[1] == 3 * DAY
    assert gc.Banks.from_dict(back.to_dict()) == back
    assert gc.Banks.from_dict(None) == gc.Banks()


def test_moving_after_running_out_ends_the_pending_timeout():
    b = gc.run_out(gc.begin(BANK3, [0, 1], [0], 0.0), [0], 3 * DAY)
    b = gc.advance(BANK3, b, [0], [1], 3 * DAY + HOUR)
    assert b.pending == {} and b.banks[0] == 12 * HOUR


def test_an_undo_takes_back_what_the_moves_taken_back_gave_and_nothing_more():
    """Seat 0 uses 2 d 20 h and moves (move 1: 4 h left, 12 h back), seat 1 uses 2 h and moves
    (move 2: 2 h back, capped at the start).  Taking both back an hour later: seat 0 has its 4 h
    less the hour its clock ran since, seat 1 keeps the 2 h it used; nothing is given for the undo."""
    b = gc.begin(BANK3, [0, 1], [0], 0.0, moves=0)
    b = gc.advance(BANK3, b, [0], [1], 2 * DAY + 20 * HOUR, moves=1)
    b = gc.advance(BANK3, b, [1], [0], 2 * DAY + 22 * HOUR, moves=2)
    assert b.banks == {0: 16 * HOUR, 1: 3 * DAY} and b.earned == {1: {0: 12 * HOUR}, 2: {1: 2 * HOUR}}
    assert gc.Banks.from_dict(b.to_dict()) == b
    undone = gc.take_back(BANK3, b, 1, [0], 2 * DAY + 23 * HOUR, logged=2)
    assert undone.banks == {0: 3 * HOUR, 1: 3 * DAY - 2 * HOUR}
    assert undone.since == {0: 2 * DAY + 23 * HOUR} and undone.earned == {} and undone.moves == 3
    # only the last move taken back: seat 0's increment stays, seat 1 pays the hour it ran
    one = gc.take_back(
        BANK3, gc.advance(BANK3, b, [0], [1], 3 * DAY, moves=3), 3, [0], 3 * DAY + HOUR, logged=3
    )
    assert one.banks == {0: 16 * HOUR - 2 * HOUR, 1: 3 * DAY - HOUR} and set(one.earned) == {1, 2}
    # clocks that counted other moves than the log holds know nothing given back: nothing is taken
    blind = gc.take_back(BANK3, b, 1, [0], 2 * DAY + 23 * HOUR, logged=5)
    assert blind.banks == {0: 15 * HOUR, 1: 3 * DAY} and blind.moves == 6


def test_a_per_move_clock_notes_its_fresh_turns_and_an_undo_goes_on_with_the_turn_left():
    spec = ClockSpec(MOVE, 2 * HOUR)
    b = gc.begin(spec, [0, 1], [0], 0.0, moves=0)
    b = gc.advance(spec, b, [0], [1], 90 * 60, moves=1)
    b = gc.advance(spec, b, [1], [0], 100 * 60, moves=2)
    undone = gc.take_back(spec, b, 1, [0], 110 * 60, logged=2)
    assert undone.banks[0] == 20 * 60 and gc.deadline(spec, undone, 110 * 60) == 130 * 60


def test_the_notes_of_time_given_back_keep_to_the_latest_moves():
    b = gc.begin(BANK3, [0, 1], [0], 0.0, moves=0)
    for n in range(1, gc.EARNED_KEPT + 20):
        b = gc.advance(BANK3, b, [(n - 1) % 2], [n % 2], n * HOUR, moves=n)
    assert b.moves == gc.EARNED_KEPT + 19 and sorted(b.earned) == list(range(20, gc.EARNED_KEPT + 20))


def test_round_floor():
    assert gc.round_deadline(10.0, 0.0) == HOUR
    assert gc.round_deadline(2 * HOUR, 0.0) == 2 * HOUR


turns = st.lists(
    st.tuples(st.integers(0, 3), st.integers(0, 5 * DAY)),
    min_size=1,
    max_size=40,
)


@given(turns, st.integers(1, 10 * 24), st.integers(0, 10 * 24))
def test_a_bank_never_goes_below_zero_nor_above_its_start(plays, start_h, inc_h):
    spec = ClockSpec(BANK, start_h * HOUR, min(start_h, inc_h) * HOUR)
    now = 0.0
    to_move = [0]
    b = gc.begin(spec, range(4), to_move, now)
    for nxt, wait in plays:
        now += wait
        b = gc.advance(spec, b, to_move, [nxt] if nxt != to_move[0] else [], now)
        to_move = [nxt] if nxt != to_move[0] else []
        if not to_move:
            b = gc.advance(spec, b, [], [nxt], now)
            to_move = [nxt]
        for seat in range(4):
            assert 0 <= gc.left(spec, b, seat, now) <= spec.start
        due = gc.deadline(spec, b, now)
        assert due is not None and now <= due <= now + spec.start


@given(turns, st.integers(1, 10 * 24), st.integers(0, 10 * 24), st.integers(0, 39), st.integers(0, DAY))
def test_an_undo_never_leaves_a_clock_more_than_it_had_before_the_move_taken_back(
    plays, start_h, inc_h, back, later
):
    """Whatever was played, taking back every move from one of them on leaves no seat more time
    than it had left just before that move (a seat to move then: as of that moment)."""
    spec = ClockSpec(BANK, start_h * HOUR, min(start_h, inc_h) * HOUR)
    now, seat = 0.0, 0
    b = gc.begin(spec, range(4), [0], now, moves=0)
    before: list[
        tuple[gc.Banks, float, int]
    ] = []  # the clocks, the time and the seat to move before each move
    for number, (nxt, wait) in enumerate(plays, start=1):
        now += wait
        before.append((b, now, seat))
        b = gc.advance(spec, b, [seat], [nxt] if nxt != seat else [], now, moves=number)
        if nxt == seat:
            b = gc.advance(spec, b, [], [nxt], now, moves=number)
        seat = nxt
    target = min(back, len(plays) - 1) + 1
    then, at, to_move = before[target - 1]
    undone = gc.take_back(spec, b, target, [to_move], now + later, logged=len(plays))
    for s in range(4):
        assert 0 <= undone.banks.get(s, spec.start) <= gc.left(spec, then, s, at)
    assert undone.since == {to_move: now + later}


def test_clock_line_shows_each_persons_time():
    b = gc.begin(BANK3, [0, 1, 2], [0], 0.0)
    b = gc.run_out(gc.advance(BANK3, b, [0], [1], DAY), [1], 4 * DAY)
    line = gc.clock_line(BANK3, b, {0: "Ana", 1: "Bo", 2: "Cy"}, 4 * DAY)
    assert line == "⏱ bank:3d+12h: Ana 2 d 12 h, Bo out of time (the others are asked), Cy 3 d"
    names = {0: "Ana", 1: "Bo", 2: "Cy"}  # Bo made a step of the turn: the question closed
    line = gc.clock_line(BANK3, b, names, 4 * DAY, finishing={1: 21 * HOUR + 30 * 60})
    assert (
        line == "⏱ bank:3d+12h: Ana 2 d 12 h, Bo out of time (to finish the turn: 21 h 30 min left), Cy 3 d"
    )
    per_move = ClockSpec(MOVE, 24 * HOUR)
    b = gc.begin(per_move, [0, 1], [1], 0.0)
    assert gc.clock_line(per_move, b, {0: "Ana", 1: "Bo"}, 5 * HOUR) == "⏱ move:1d: Bo 19 h (to move)"
    assert gc.clock_line(per_move, gc.take(b, 1), {0: "Ana", 1: "Bo"}, 0.0).endswith(
        "Bo played by the computer (out of time)"
    )


def test_the_clock_speaks_the_readers_language():
    es = language("es")
    assert ClockSpec(BANK, 3 * DAY, 12 * HOUR).describe(es) == (
        "una bolsa de tiempo de 3 d por persona, más 12 h tras cada turno (nunca por encima de 3 d)"
    )
    assert ClockSpec(MOVE, 24 * HOUR).describe(es) == "1 d por turno"
    b = gc.begin(BANK3, [0, 1, 2], [0], 0.0)
    b = gc.run_out(gc.advance(BANK3, b, [0], [1], DAY), [1], 4 * DAY)
    line = gc.clock_line(BANK3, b, {0: "Ana", 1: "Bo", 2: "Cy"}, 4 * DAY, t=es)
    assert line == "⏱ bank:3d+12h: Ana 2 d 12 h, Bo sin tiempo (se pregunta al resto de la mesa), Cy 3 d"
    per_move = ClockSpec(MOVE, 24 * HOUR)
    b = gc.begin(per_move, [0, 1], [1], 0.0)
    assert gc.clock_line(per_move, b, {0: "Ana", 1: "Bo"}, 5 * HOUR, t=es) == "⏱ move:1d: Bo 19 h (le toca)"
    assert gc.clock_line(per_move, gc.take(b, 1), {0: "Ana", 1: "Bo"}, 0.0, t=es).endswith(
        "Bo: juega la máquina (sin tiempo)"
    )
    assert gc.clock_line(per_move, gc.begin(per_move, [0], [], 0.0), {0: "Ana"}, 0.0, t=es).endswith(
        "no le toca a nadie"
    )


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(3600, "timer:1h"), (5400, "timer:1h30m"), (90, "timer:1m30s"), (3.6, "timer:4s"), (0.2, "timer:1s")],
)
def test_the_turn_timer_is_a_clock_whose_text_holds_its_seconds(seconds, text):
    """/game timer's hours become a turn timer in whole seconds (at least one), which reads back
    from its text and restarts in full each turn, as a per-move clock does."""
    timer = gc.turn_timer(seconds)
    assert timer.text == text and parse_clock(text) == timer and timer.kind == gc.TIMER
    banks = gc.advance(timer, gc.Banks({0: 1.0}), [], [0], 100.0)
    assert gc.left(timer, banks, 0, 100.0) == timer.start
    assert "the computer moves for whoever is late" in timer.describe()


@pytest.mark.parametrize("text", ["move:90s", "bank:1h30s", "timer:0s", "timer:31d", "timer:1h+1m"])
def test_seconds_are_for_the_turn_timer_only(text):
    with pytest.raises(ClockError):
        parse_clock(text)
