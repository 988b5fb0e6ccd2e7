"""The pure rules of notices: quiet hours, time away, paused clocks, the reminder digest's length."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot import notices
from bot.notices import DAY, SettingError
from bot.storage import PersonRow
from bot.time import gameclock

NOON_UTC = datetime(2027, 1, 15, 12, 0, tzinfo=UTC).timestamp()  # 07:00 in Lima (UTC-5)


def test_quiet_hours_are_read_in_the_persons_time_zone_and_may_cross_midnight():
    lima = PersonRow(1, time_zone="America/Lima", quiet_start=22, quiet_end=8)
    assert notices.is_quiet(lima, NOON_UTC)  # 07:00 local
    assert notices.quiet_ends(lima, NOON_UTC) == NOON_UTC + 3600  # 08:00 local
    assert not notices.is_quiet(lima, NOON_UTC + 3600)
    day = PersonRow(1, time_zone="UTC", quiet_start=9, quiet_end=17)
    assert notices.is_quiet(day, NOON_UTC) and not notices.is_quiet(day, NOON_UTC + 5 * 3600)
    assert not notices.is_quiet(PersonRow(1), NOON_UTC)


def test_quiet_spans_and_zones_are_checked():
    assert notices.parse_quiet("22-7") == (22, 7) and notices.parse_quiet("off") == (None, None)
    for bad in ("24-3", "7", "a-b", "3-3", "", " \t"):
        with pytest.raises(SettingError):
            notices.parse_quiet(bad)
    for bad in ("Mars/Base", "EST5EDT-ish", "lima"):
        with pytest.raises(SettingError):
            notices.zone(bad)


def test_time_away_counts_against_a_yearly_allowance_and_unused_days_come_back():
    person = notices.take_away(PersonRow(1), 10, "trip", NOON_UTC, 30)
    assert person.away_at(NOON_UTC) and person.away_until == NOON_UTC + 10 * DAY
    assert notices.away_days_left(person, NOON_UTC, 30) == 20
    with pytest.raises(SettingError, match="already away"):
        notices.take_away(person, 1, None, NOON_UTC + DAY, 30)
    back = notices.come_back(person, NOON_UTC + 2.5 * DAY)
    assert not back.away_at(NOON_UTC + 2.5 * DAY) and notices.away_days_left(back, NOON_UTC, 30) == 27
    with pytest.raises(SettingError, match="1 to 27"):
        notices.take_away(back, 28, None, NOON_UTC + 3 * DAY, 30)
    next_year = datetime(2028, 1, 2, tzinfo=UTC).timestamp()
    assert notices.away_days_left(back, next_year, 30) == 30
    with pytest.raises(SettingError, match="not away"):
        notices.come_back(back, NOON_UTC + 3 * DAY)


def test_a_paused_clock_leaves_time_away_out():
    timer = gameclock.turn_timer(24 * 3600.0)
    start = NOON_UTC
    banks = gameclock.begin(timer, [0], [0], start)
    away = [(start + 3600, start + 3600 + 2 * DAY)]
    # Due now, but away for 23 of those hours: 23 hours remain after the time away.
    assert gameclock.deadline(timer, banks, start + timer.start, lambda seat: away) == away[0][1] + 23 * 3600
    # Never away: the deadline stands.
    assert gameclock.deadline(timer, banks, start + timer.start) == start + timer.start
    assert gameclock.timed_out(timer, banks, start + timer.start) == [0]
    # Back early: the clock runs from now with what was left.
    back = [(start + 3600, start + 25 * 3600)]
    assert gameclock.deadline(timer, banks, start + 25 * 3600, lambda seat: back) == start + 48 * 3600


def test_time_away_straddling_a_turn_is_counted_once_for_turn_timers_and_game_clocks():
    """Turn timers and the other game clocks share one sum (gameclock): time used minus the part
    of the time away that falls inside the turn, for away periods that began before the turn and
    for ones still running."""
    hour, start = 3600.0, NOON_UTC

    def away(person: PersonRow) -> list[tuple[float, float]]:
        assert person.away_since is not None and person.away_until is not None
        return [(person.away_since, person.away_until)]  # as the history of times away holds it

    before = PersonRow(1, away_since=start - 5 * hour, away_until=start + 2 * hour)  # began earlier
    still = PersonRow(2, away_since=start + 6 * hour, away_until=start + 30 * hour)  # not over yet
    now = start + 10 * hour
    assert away(before) == [(start - 5 * hour, start + 2 * hour)]
    assert gameclock.used(start, now, away(before)) == 8 * hour
    assert gameclock.used(start, now, away(still)) == 6 * hour
    assert gameclock.used(start, now, away(before) + away(still)) == 4 * hour
    # A 9-hour turn timer: 1 hour left for the first, who is back: it runs from now.
    timer = gameclock.turn_timer(9 * hour)
    banks = gameclock.begin(timer, [0], [0], start)
    assert gameclock.deadline(timer, banks, now, lambda seat: away(before)) == now + hour
    # 3 hours left for the second, after their time away ends.
    assert gameclock.deadline(timer, banks, now, lambda seat: away(still)) == start + 33 * hour


def test_a_digest_of_thirty_games_fits_one_message():
    class Info:
        title = "Guacamole"

    class FakeSession:
        info = Info()

        def __init__(self, n):
            self.id = n

    games = [notices.Waiting(FakeSession(n), "A server with a long name", 3600 * n) for n in range(30)]
    text = notices.digest(
        games, lambda s: f"https://discord.com/channels/123456789012345678/{s.id:018d}/{s.id:018d}"
    )
    assert len(text) <= 2000 and "your turn in 30 games" in text and "more games (see /game mine)" in text


def test_odd_zone_names_and_reminder_values_are_refused_in_words():
    """A 10,000-character zone, one with a NUL, a path, and reminders that are not whole numbers:
    each a SettingError (no OSError, ValueError or TypeError), whose words stay short."""
    for bad in ("x" * 10_000, "Europe/" + "x" * 10_000, "a/\x00b", "../../etc/passwd", "/etc/passwd"):
        with pytest.raises(SettingError) as caught:
            notices.zone(bad)
        assert len(caught.value.said()) < 300
    for bad in ("3", 2.5, True, None, 2**70):
        with pytest.raises(SettingError):
            notices.check_remind(bad)
