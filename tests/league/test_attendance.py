"""The attendance rules of Swiss leagues, pure: who sits a round out and why, check-in windows,
byes asked for, pauses and late sign-ups (bot.league.attendance)."""

from __future__ import annotations

from bot.league import attendance, pairing
from bot.league.attendance import ABSENT, PAUSE, REQUESTED, Settings, SitOut


def out(players, **values):
    base = dict(requests={}, checkin=False, checked_in=(), away=(), bye_points=1.0, requested_bye="half")
    return attendance.sitting_out(players, **{**base, **values})


def test_a_bye_asked_for_comes_first_then_a_pause_then_time_away_then_no_check_in():
    playing, sat = out(
        [1, 2, 3, 4, 5, 6, 7],
        requests={1: "bye", 2: "pause"},
        checkin=True,
        checked_in={1, 2, 4, 5, 6},
        away={1, 4, 5, 7},
    )
    # 1 asked a bye (half of 1 point); 2 paused; 3 did not check in; 4 and 5 are away but checked
    # in (the later word), so they play; 6 plays; 7 is away and did not check in: a pause, not an
    # absence.
    assert playing == [4, 5, 6]
    assert sat == [
        SitOut(1, REQUESTED, 0.5),
        SitOut(2, PAUSE, 0.0),
        SitOut(3, ABSENT, 0.0),
        SitOut(7, PAUSE, 0.0),
    ]


def test_time_away_over_a_round_without_check_in_is_a_pause():
    playing, sat = out([1, 2, 3], away={2})
    assert playing == [1, 3] and sat == [SitOut(2, PAUSE, 0.0)]


def test_a_requested_bye_scores_none_half_or_all_of_the_league_bye():
    assert [attendance.requested_points(c, 1.0) for c in attendance.BYE_CHOICES] == [0.0, 0.5, 1.0]
    assert attendance.requested_points("half", 1.5) == 0.75  # half of a 4-player league's bye
    _, sat = out([7], requests={7: "bye"}, requested_bye="full", bye_points=2.0)
    assert sat == [SitOut(7, REQUESTED, 2.0)]


def test_check_in_before_every_round_or_only_the_first_and_never_in_a_final_stage():
    every, first, off = Settings("every"), Settings("first"), Settings("off")
    assert [attendance.needs_checkin(every, n, 4) for n in range(0, 6)] == [
        False,
        True,
        True,
        True,
        True,
        False,
    ]
    assert [attendance.needs_checkin(first, n, 4) for n in range(1, 5)] == [True, False, False, False]
    assert not any(attendance.needs_checkin(off, n, 4) for n in range(1, 5))


def test_a_window_closes_when_the_round_is_due_but_is_always_open_its_full_length():
    day = Settings("every", 86400.0)
    assert attendance.window_opens(1000.0 + 86400, day) == 1000.0
    assert attendance.window_closes(100_000.0, 100_000.0 - 86400, day) == 100_000.0  # opened in time
    assert attendance.window_closes(100_000.0, 100_000.0 - 3600, day) == 100_000.0 - 3600 + 86400  # late


def test_late_sign_ups_close_at_half_the_rounds_and_only_swiss_takes_them():
    assert [attendance.late_join_open("swiss", played, 4) for played in range(4)] == [
        True,
        True,
        False,
        False,
    ]
    assert [attendance.late_join_open("swiss", played, 5) for played in range(4)] == [True, True, True, False]
    assert not attendance.late_join_open("round_robin", 0, 4)
    assert not attendance.late_join_open("elimination", 0, 4)


def test_a_pause_covers_the_next_rounds_not_paired_yet():
    assert attendance.pause_rounds(1, 2, 5) == [2, 3]
    assert attendance.pause_rounds(4, 3, 5) == [5]
    assert attendance.pause_rounds(5, 1, 5) == []
    assert attendance.pause_rounds(0, 0, 5) == []
    assert list(attendance.coming_rounds(2, 4)) == [3, 4]


def test_too_few_to_seat_a_game():
    assert attendance.too_few([1, 2], 3) and not attendance.too_few([1, 2, 3], 3)
    assert attendance.too_few([1], 2) and not attendance.too_few([1, 2], 2)


def test_standings_count_each_bye_at_its_own_points():
    results = [pairing.GameResult(1, {"a": 1, "b": 2})]
    rows = pairing.standings(
        ["a", "b", "c", "d"],
        results,
        byes=[(1, "c"), (2, "d", 0.5), (2, "a", 0.0)],
        table=(1.0, 0.0),
        bye_score=1.0,
    )
    got = {r.player: (r.points, r.byes) for r in rows}
    assert got == {"a": (1.0, 1), "b": (0.0, 0), "c": (1.0, 1), "d": (0.5, 1)}
