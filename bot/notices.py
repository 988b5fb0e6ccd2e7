"""Who is told what, and where: turn notices, reminders and quiet hours.

Pure decisions and texts, no Discord and no SQL: :mod:`bot.surface.direct` sends what
this module decides.  A person's settings (:class:`bot.storage.PersonRow`) say
where notices go (a mention in the game's thread, a direct message, both, or
none), how often to remind them while it is their turn, and their quiet hours
(no direct messages then), read in their own time zone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.replaying import taken_back
from bot.sessions import Session
from bot.storage import NOTIFY_PLACES, MoveRow, PersonRow
from bot.texts import MESSAGE_LIMIT, clip, event_lines, outcome_lines
from bot.time.source import seconds_of
from engines.core import Outcome, echo
from languages import ENGLISH, N_, Language

MAX_REMIND_HOURS = 168  # a week
PLACE_WORDS = {  # messages: translated where they are shown
    "thread": N_("a mention in the game's thread"),
    "dm": N_("a direct message"),
    "both": N_("a mention in the game's thread and a direct message"),
    "none": N_("nowhere (no notices)"),
}
_QUIET = re.compile(r"^\s*(\d{1,2})(?::00)?\s*-\s*(\d{1,2})(?::00)?\s*$")


class SettingError(ValueError):
    """A setting given in words a person can fix: a message with named placeholders and their
    values, so it can be said in the person's language (``str()`` is the English)."""

    def __init__(self, message: str, **values: object) -> None:
        super().__init__(ENGLISH.gettext(message, **values))
        self.message = message
        self.values = values

    def said(self, language: Language = ENGLISH) -> str:
        return language.gettext(self.message, **self.values)


ZONE_LIMIT = 64
"""The longest time zone name looked up (the longest IANA name has about 30 characters)."""


def zone(name: str) -> ZoneInfo:
    """The time zone called ``name`` (an IANA name such as ``America/Lima``), or a clear refusal."""
    try:
        if not isinstance(name, str) or len(name) > ZONE_LIMIT or ("/" not in name and name != "UTC"):
            raise ZoneInfoNotFoundError(name)
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a name the file system refuses
        shown = name if not isinstance(name, str) or len(name) <= ZONE_LIMIT else name[:ZONE_LIMIT] + "…"
        raise SettingError(
            N_(
                "{name} is not a time zone I know; use a name such as Europe/Madrid, America/Lima or UTC "
                "(start typing to see them)"
            ),
            name=echo(shown),
        ) from None


def zone_choices(current: str, limit: int = 25) -> list[str]:
    """Time zone names containing what was typed, for autocomplete."""
    typed = current.strip().lower()
    names = sorted(available_timezones() | {"UTC"})
    return [n for n in names if typed in n.lower()][:limit]


def parse_quiet(text: str) -> tuple[int | None, int | None]:
    """Quiet hours as typed: ``22-7`` (from 22:00 to 07:00, local time) or ``off`` (a blank text
    is refused, as every setting's: it says nothing, so it changes nothing)."""
    if not text.strip():
        raise SettingError(N_("quiet hours are written start-end in whole hours, e.g. 22-7, or off"))
    if text.strip().lower() in ("off", "none", "no"):
        return None, None
    m = _QUIET.match(text)
    if not m or not (0 <= int(m.group(1)) <= 23 and 0 <= int(m.group(2)) <= 23):
        raise SettingError(
            N_("{text} is not a span of hours; write it as start-end in whole hours, e.g. 22-7, or off"),
            text=echo(text),
        )
    start, end = int(m.group(1)), int(m.group(2))
    if start == end:
        raise SettingError(N_("quiet hours must start and end at different hours (or use off)"))
    return start, end


def check_place(place: str) -> str:
    if place not in NOTIFY_PLACES:
        raise SettingError(
            N_("notices go to one of {places}, not {place}"),
            places=", ".join(NOTIFY_PLACES),
            place=echo(place),
        )
    return place


def check_remind(hours: int) -> int:
    if type(hours) is not int or not 0 <= hours <= MAX_REMIND_HOURS:
        raise SettingError(
            N_("reminders come every 1 to {most} hours, or 0 for none; not {hours}"),
            most=MAX_REMIND_HOURS,
            hours=hours,
        )
    return hours


def local(person: PersonRow, now: float) -> datetime:
    return datetime.fromtimestamp(now, UTC).astimezone(zone(person.time_zone))


def is_quiet(person: PersonRow, now: float) -> bool:
    """Whether ``now`` falls in the person's quiet hours (local time)."""
    if person.quiet_start is None or person.quiet_end is None:
        return False
    hour = local(person, now).hour
    start, end = person.quiet_start, person.quiet_end
    return start <= hour < end if start < end else hour >= start or hour < end


def reach(person: PersonRow, now: float) -> tuple[bool, bool]:
    """How news for ``person`` reaches them at ``now``: (a mention where it is posted, a direct
    message).  Their ``/me notify`` choice decides; quiet hours hold the direct message back;
    "none" gets neither (a post still names them, without a ping).  A refused direct message
    falls back to a mention (the sender's part)."""
    return person.wants_mention, person.wants_dm and not is_quiet(person, now)


def held(person: PersonRow, now: float) -> bool:
    """Whether news for ``person`` waits for their quiet hours to end: they want it only as a
    direct message, and ``now`` is in their quiet hours (someone who also wants a mention has it
    from the post itself)."""
    return person.wants_dm and not person.wants_mention and is_quiet(person, now)


def quiet_ends(person: PersonRow, now: float) -> float:
    """When the quiet hours that hold at ``now`` end (``now`` itself when they do not hold)."""
    if not is_quiet(person, now) or person.quiet_end is None:
        return now
    here = local(person, now)
    end = here.replace(hour=person.quiet_end, minute=0, second=0, microsecond=0)
    if end <= here:
        end += timedelta(days=1)
    return end.timestamp()


def settings_text(
    person: PersonRow, t: Language = ENGLISH, *, digest_hour: int | None = None, now: float | None = None
) -> str:
    """``/me show``: the person's settings in words, in language ``t``: with ``digest_hour``
    (``/me digest``), reminders come once a day at that hour; at ``now``, their time away if any."""
    if person.quiet_start is not None and person.quiet_end is not None:
        quiet = t.gettext(
            "{start}:00 to {end}:00 ({zone}): no direct messages then",
            start=f"{person.quiet_start:02d}",
            end=f"{person.quiet_end:02d}",
            zone=person.time_zone,
        )
    else:
        quiet = t.pgettext("no quiet hours", "none")  # Spanish: feminine, as "horas"
    if person.remind_hours and digest_hour is not None:
        remind = t.gettext(
            "once a day at {hour}:00 ({zone}) while it is your turn, listing every game waiting on you "
            "(change it with {/me digest})",
            hour=f"{digest_hour:02d}",
            zone=person.time_zone,
        )
    elif person.remind_hours:
        remind = t.ngettext(
            "every hour while it is your turn", "every {n} hours while it is your turn", person.remind_hours
        )
    else:
        remind = t.gettext("off")
    text = t.gettext(
        "**Your settings** (the same in every server):\n"
        "Turn notices: {notices}\n"
        "Reminders: {reminders}\n"
        "Time zone: {zone}\n"
        "Quiet hours: {quiet}\n"
        "Change them with {/me notify}.",
        notices=t.gettext(PLACE_WORDS[person.notify]),
        reminders=remind,
        zone=person.time_zone,
        quiet=quiet,
    )
    if now is not None and person.away_at(now):
        text += "\n" + t.gettext("Time away: until {date}; {/me back} ends it early.", date=away_date(person))
    return text


def waited(seconds: float, t: Language = ENGLISH) -> str:
    """A wait in words, in language ``t``: minutes, hours, then days and hours (whole days alone)."""
    minutes = max(0, int(seconds // 60))
    if minutes < 1:  # not "0 minutes left", "waiting 0 minutes"
        return t.gettext("less than a minute")
    if minutes < 60:
        return t.ngettext("{n} minute", "{n} minutes", minutes)
    hours = minutes // 60
    if hours < 48:
        return t.ngettext("{n} hour", "{n} hours", hours)
    days = t.ngettext("{n} day", "{n} days", hours // 24)
    if not hours % 24:  # whole days: "2 days", not "2 days 0 hours"
        return days
    return t.gettext("{days} {hours}", days=days, hours=t.ngettext("{n} hour", "{n} hours", hours % 24))


def waited_count(seconds: float) -> int:
    """The number :func:`waited` begins with: a verb before the wait agrees with it (Spanish
    "queda 1 hora", "quedan 2 horas"; a wait of days always begins at 2 days)."""
    minutes = max(1, int(seconds // 60))  # less than a minute: "queda menos de un minuto"
    return minutes if minutes < 60 else minutes // 60 if minutes < 48 * 60 else minutes // (24 * 60)


def turn_began(rows: Sequence[MoveRow], seat: int, turn: int | None, start: float | None) -> float | None:
    """When ``seat``'s current turn began, from the end of its game's log (``rows``, oldest first)
    and the engine's turn number now (``turn``): at the seat's own last move, or at the move that
    brought the turn now being played, whichever came later; others acting in the same turn (a
    round everyone plays at once, orders picked together) do not restart it, nor do moves taken
    back.  An undo entry is a move of the seat that asked for it, and brings a turn when it takes
    the game back to an earlier one (its turn number is the one it was agreed in); a row without
    its turn number starts a new turn (``turn`` ``None``: every row does).  When no row says (the
    seat has waited since before them all), ``start``; ``None`` when that is not known either (a
    longer window of the log may tell)."""
    gone = taken_back(rows)
    for row in reversed(rows):
        if row.number in gone:
            continue
        if row.seat == seat or turn is None or row.turn != turn:
            return seconds_of(row.created_at)
    return start


def jump_link(guild_id: int | None, channel_id: int, message_id: int | None = None) -> str:
    """A Discord link that opens the channel (or the message) in the client."""
    link = f"https://discord.com/channels/{guild_id}/{channel_id}"
    return f"{link}/{message_id}" if message_id else link


@dataclass(frozen=True)
class Waiting:
    """One game where it is someone's turn, for a reminder or ``/game mine``."""

    session: Session
    guild_name: str
    seconds: float  # how long it has waited: on the person, since their turn began; else since it changed
    left: float | None = None  # the time left on the person's clock there (None: no clock runs)


def turn_notice(
    session: Session,
    seat: int,
    records: Sequence,
    guild_name: str,
    link: str,
    *,
    t: Language = ENGLISH,
) -> str:
    """The direct message telling ``seat`` it is their turn, in language ``t``: which game and
    server, what happened since they last moved (as that seat may read it), and the jump link
    (reminders list every game waiting: :func:`digest`)."""
    where = {"game": session.info.title, "number": session.id, "server": guild_name}
    lines = [t.gettext("It is your turn in **{game}** #{number} on **{server}**.", **where)]
    since = event_lines(session, records, seat, channel=True, limit=10, newest=True, t=t)
    if since:
        lines.append(t.gettext("Since your last move:"))
        lines.extend(f"- {line}" for line in since)
    lines.append(t.gettext("Play it there: {link}", link=link))
    lines.append(t.gettext("Moves are made in the server; the button below shows your own view."))
    return clip("\n".join(lines), MESSAGE_LIMIT)


def end_notice(session: Session, guild_name: str, link: str, t: Language = ENGLISH) -> str:
    """The direct message telling a player that a game of theirs ended, in language ``t``: which
    game and server, the result (why it ended, each place and score), and the jump link to the
    last board, where Rematch is offered."""
    where = {"game": session.info.title, "number": session.id, "server": guild_name}
    lines = [t.gettext("**{game}** #{number} on **{server}** is over.", **where)]
    if session.row.outcome:
        lines.extend(outcome_lines(session, Outcome.from_dict(session.row.outcome), t))
    lines.append(t.gettext("See it there, and press {button Rematch} to play again: {link}", link=link))
    return clip("\n".join(lines), MESSAGE_LIMIT)


def digest(games: Sequence[Waiting], link_of, t: Language = ENGLISH) -> str:
    """One reminder listing every game where it is the person's turn, in language ``t``, in the
    order given (the table gives the least time left first: :func:`bot.waits.by_time_left`)."""
    head = t.ngettext(
        "Reminder: it is your turn in {n} game:", "Reminder: it is your turn in {n} games:", len(games)
    )
    tail = t.gettext("Change or stop reminders with {/me notify}.")
    lines: list[str] = []
    room = MESSAGE_LIMIT - len(head) - len(tail) - 60  # keeps space for the "more" line
    for i, w in enumerate(games):
        values = {"game": w.session.info.title, "number": w.session.id, "server": w.guild_name}
        if w.left is None:
            line = t.gettext(
                "- **{game}** #{number} on {server}, waiting {time}: {link}",
                time=waited(w.seconds, t),
                link=link_of(w.session),
                **values,
            )
        else:
            line = t.ngettext(
                "- **{game}** #{number} on {server}, {left} left, waiting {time}: {link}",
                "- **{game}** #{number} on {server}, {left} left, waiting {time}: {link}",
                waited_count(w.left),
                left=waited(w.left, t),
                time=waited(w.seconds, t),
                link=link_of(w.session),
                **values,
            )
        if sum(len(x) + 1 for x in lines) + len(line) > room:
            lines.append(
                t.ngettext(
                    "- ... and {n} more game (see {/game mine})",
                    "- ... and {n} more games (see {/game mine})",
                    len(games) - i,
                )
            )
            break
        lines.append(line)
    return clip("\n".join([head, *lines, tail]), MESSAGE_LIMIT)


def mine_line(w: Waiting, user_id: int, link: str, clock: str | None = None, t: Language = ENGLISH) -> str:
    """One game of ``/game mine``: game, server, link, whose turn and for how long, the timer."""
    session = w.session
    head = t.gettext(
        "**{game}** #{number} on {server}: {link}",
        game=session.info.title,
        number=session.id,
        server=w.guild_name,
        link=link,
    )
    if session.status == "lobby":
        state = t.ngettext(
            "lobby, {n} seat of {most} taken",
            "lobby, {n} seats of {most} taken",
            len(session.seats),
            most=session.row.max_players,
        )
        return f"{head}\n  {state}"
    if session.damaged and session.league:
        return f"{head}\n  " + t.gettext(
            "damaged: ask the league's organiser or an admin to {/game abandon} it"
        )
    if session.damaged:
        return f"{head}\n  " + t.gettext("damaged: ask the host or an admin to {/game abandon} it")
    waiting = session.waiting_on()
    mine = any(s.user_id == user_id for s in waiting)
    if mine and len(waiting) > 1:
        who = t.gettext(
            "your turn (with {players})", players=", ".join(s.name for s in waiting if s.user_id != user_id)
        )
    elif mine:
        who = t.gettext("your turn")
    elif waiting:
        who = t.gettext("{players} to play", players=", ".join(s.name for s in waiting))
    else:
        who = t.gettext("nobody to play")
    line = t.gettext("{who}, waiting {time}", who=who, time=waited(w.seconds, t))
    timer = clock or t.gettext("no turn timer")
    return f"{head}\n  {line}; {timer}"


def mine_text(
    games: Sequence[Waiting],
    user_id: int,
    link_of,
    clocks: dict[int, str | None] | None = None,
    t: Language = ENGLISH,
) -> str:
    """``/game mine``: the person's games in every server, those where it is their turn first."""
    if not games:
        return t.gettext(
            "You are not sitting in any game or lobby. Open one with {/<game> new}, or join one with {/game join}."
        )

    def order(w: Waiting) -> tuple:
        session = w.session
        turn = any(s.user_id == user_id for s in session.waiting_on())
        return (0 if turn else 1 if session.status == "active" else 2, -w.seconds)

    ordered = sorted(games, key=order)
    turns = sum(1 for w in ordered if order(w)[0] == 0)
    games_n = t.ngettext("{n} game", "{n} games", len(ordered))  # "your turn in 0" read as a time
    head = (
        t.ngettext(
            "**Your games** ({games}, {n} waiting on you):",
            "**Your games** ({games}, {n} waiting on you):",
            turns,
            games=games_n,
        )
        if turns
        else t.gettext("**Your games** ({games}, none waiting on you):", games=games_n)
    )
    lines: list[str] = []
    for i, w in enumerate(ordered):
        line = mine_line(w, user_id, link_of(w.session), (clocks or {}).get(w.session.id), t)
        if len(head) + sum(len(x) + 1 for x in lines) + len(line) > MESSAGE_LIMIT - 60:
            lines.append(t.ngettext("... and {n} more game", "... and {n} more games", len(ordered) - i))
            break
        lines.append(line)
    return clip("\n".join([head, *lines]), MESSAGE_LIMIT)


# ------------------------------------------------------------------ time away

DAY = 86400.0


def away_days_left(person: PersonRow, now: float, allowance: int) -> int:
    year = datetime.fromtimestamp(now, UTC).year
    used = person.away_days_used if person.away_year == year else 0
    return max(0, allowance - used)


def take_away(person: PersonRow, days: int, reason: str | None, now: float, allowance: int) -> PersonRow:
    """``/me away``: the person's new settings, or a refusal saying what is allowed."""
    if person.away_at(now):
        raise SettingError(
            N_("you are already away until {date}; use {/me back} first to change it"), date=away_date(person)
        )
    left = away_days_left(person, now, allowance)
    if not 1 <= days <= left:
        if left:
            raise SettingError(
                N_(
                    "days of time away you can still take this year: 1 to {left} ({allowance} a year), not {days}"
                ),
                left=left,
                allowance=allowance,
                days=days,
            )
        raise SettingError(
            N_("you have used all {allowance} days of time away this year"), allowance=allowance
        )
    year = datetime.fromtimestamp(now, UTC).year
    return replace(
        person,
        away_since=now,
        away_until=now + days * DAY,
        away_reason=(reason or "").strip()[:100] or None,
        away_year=year,
        away_days_used=allowance - left + days,
    )


def come_back(person: PersonRow, now: float) -> PersonRow:
    """``/me back``: time away ends now; whole days not used are given back."""
    if not person.away_at(now):
        raise SettingError(N_("you are not away"))
    unused = int(((person.away_until or now) - now) // DAY)
    return replace(person, away_until=now, away_days_used=max(0, person.away_days_used - unused))


def away_date(person: PersonRow) -> str:
    """When time away ends, in the person's time zone."""
    moment = datetime.fromtimestamp(person.away_until or 0, UTC).astimezone(zone(person.time_zone))
    return moment.strftime("%Y-%m-%d %H:%M") + f" ({person.time_zone})"


def away_labels(people: dict[int, PersonRow], now: float, t: Language = ENGLISH) -> dict[int, str]:
    """``user id -> "away until ..."`` for those away now (for the board's text and /game status)."""
    return {
        uid: t.gettext("away until {date}", date=away_date(p)) for uid, p in people.items() if p.away_at(now)
    }
