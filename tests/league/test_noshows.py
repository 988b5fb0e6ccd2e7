"""The pure no-show rules: settings, reminder and warning times, who holds a game up, drops,
substitutes, credit, scoring as it stands and the overdue list."""

from __future__ import annotations

import pytest

import engines
from bot.league import noshows as ns
from bot.sessions.seats import ranked_by_score
from languages import ENGLISH

H = 3600.0
DAY = 24 * H


def test_the_defaults_are_the_computer_two_no_shows_and_the_original_player():
    assert ns.check("guanga", "computer", 2, "original") == ns.Rules()
    assert ns.Rules() == ns.Rules("computer", 2, "original")


@pytest.mark.parametrize(
    ("game", "action", "drop_after", "credit", "says"),
    [
        ("guacamole", "wait", 2, "original", "computer, forfeit, score"),
        ("guanga", "score", 2, "original", "scoring as it stands is for Tiwanaku, Nowa Gwinea, Guacamole"),
        ("pachakuna", "score", 2, "original", "cannot be scored before its end"),
        ("tiwanaku", "forfeit", -1, "original", "1 to {most} no-shows (0: never)"),
        ("tiwanaku", "forfeit", 31, "original", "1 to {most} no-shows (0: never)"),
        ("tiwanaku", "forfeit", 2, "everyone", "original, substitute, nobody"),
    ],
)
def test_bad_settings_are_refused_with_what_is_allowed(game, action, drop_after, credit, says):
    with pytest.raises(ns.NoShowError) as refused:
        ns.check(game, action, drop_after, credit)
    words = ENGLISH.gettext(refused.value.msg, **refused.value.values)
    assert says.format(most=ns.MAX_DROP_AFTER) in words or says in refused.value.msg


@pytest.mark.parametrize("game", ["tiwanaku", "nowa_gwinea", "guacamole"])
def test_games_with_a_public_growing_score_may_be_scored_as_they_stand(game):
    assert ns.check(game, "score", 0, "nobody") == ns.Rules("score", 0, "nobody")
    assert game in engines.GAMES


def test_every_scored_game_exists():
    five = {"guanga", "tiwanaku", "pachakuna", "nowa_gwinea", "guacamole"}
    assert set(ns.SCORED_AS_IT_STANDS) <= five <= set(engines.GAMES)
    assert five - set(ns.SCORED_AS_IT_STANDS) == {"guanga", "pachakuna"}


def test_a_week_long_round_reminds_a_day_before_and_warns_six_hours_before():
    times = ns.nudge_times(1000.0, 1000.0 + 7 * DAY)
    assert times == {"remind": 1000.0 + 6 * DAY, "warn": 1000.0 + 7 * DAY - 6 * H}


def test_a_short_round_reminds_at_half_time_and_warns_an_eighth_before():
    times = ns.nudge_times(0.0, 8 * H)
    assert times == {"remind": 4 * H, "warn": 7 * H}
    assert times["remind"] < times["warn"] < 8 * H


def test_a_turn_holds_a_game_up_after_a_day_or_a_quarter_of_the_round():
    assert ns.late_after(7 * DAY) == DAY
    assert ns.late_after(8 * H) == 2 * H


def test_only_people_to_move_in_their_own_seats_hold_a_game_up():
    seats = [
        ns.SeatNow(1, computer=False, resigned=False, to_move=True),
        ns.SeatNow(2, computer=False, resigned=False, to_move=False),
        ns.SeatNow(3, computer=True, resigned=False, to_move=True),  # the computer took it
        ns.SeatNow(4, computer=True, resigned=True, to_move=True),
        ns.SeatNow(None, computer=True, resigned=False, to_move=True),  # a computer from the start
        ns.SeatNow(6, computer=False, resigned=False, to_move=True),  # players acting at once
    ]
    assert ns.late_people(seats) == [1, 6]


@pytest.mark.parametrize(
    ("count", "after", "dropped"),
    [(0, 2, False), (1, 2, False), (2, 2, True), (3, 2, True), (9, 0, False), (1, 1, True)],
)
def test_a_player_is_dropped_at_the_threshold_and_never_with_zero(count, after, dropped):
    assert ns.should_drop(count, after) is dropped


def test_the_next_substitute_is_the_first_on_the_list_not_already_playing():
    assert ns.next_substitute([7, 8, 9], in_game=[7, 1], active=[8]) == 9
    assert ns.next_substitute([7, 8], in_game=[7], active=[8]) is None
    assert ns.next_substitute([], in_game=[1]) is None


def test_the_substitutes_result_counts_as_the_organiser_chose():
    assert ns.credited("original", 1, 2) == 1
    assert ns.credited("substitute", 1, 2) == 2
    assert ns.credited("nobody", 1, 2) is None


def test_a_game_scored_as_it_stands_ranks_by_score_and_shares_ties():
    assert ranked_by_score([3.0, 7.0, 3.0, 1.0]) == [(1,), (0, 2), (3,)]


def game(gid, table, *, started=True, finished=False, holders=(1,), since=0.0):
    return ns.GameNow(gid, table, started, finished, tuple(holders), since)


def test_the_overdue_list_holds_games_not_started_and_turns_waiting_too_long_longest_first():
    now = 10 * DAY
    games = [
        game(1, 1, since=now - 2 * H),  # on time
        game(2, 2, since=now - 3 * DAY, holders=(5,)),  # late three days
        game(3, 3, started=False, since=now - 1 * DAY, holders=(6, 7)),  # not started
        game(4, 4, finished=True, since=0.0),  # over
        game(5, 5, since=now - 2 * DAY, holders=()),  # nobody to move (the computer's turn)
        game(6, 6, since=now - DAY),  # exactly the limit
    ]
    found = ns.overdue(games, now, 7 * DAY)
    assert [(o.table_no, o.state, o.holders, o.waited) for o in found] == [
        (2, "late", (5,), 3 * DAY),
        (3, "not started", (6, 7), DAY),
        (6, "late", (1,), DAY),
    ]


def test_no_shows_are_counted_per_player():
    assert ns.counts([3, 1, 3, 3]) == {3: 3, 1: 1}


def test_a_seats_first_holder_is_found_back_through_every_handover():
    gave = {30: 10, 40: 30}  # Sub (30) took Ann's (10) seat, then Tom (40) took Sub's
    assert [ns.first_holder(gave, u) for u in (40, 30, 10, 20)] == [10, 10, 10, 20]
    assert ns.first_holder({1: 2, 2: 1}, 1) in {1, 2}  # a loop in damaged rows ends
