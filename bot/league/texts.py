"""What leagues say, in words: sign-ups, standings, rounds, clocks and the final stage.

Discord-free texts and parsers for the league cog and the rounds (:mod:`bot.league.season`);
each takes the language to speak.  Imports the league's storage rows and service values,
the game registry, the clock's words and :mod:`languages`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import TypedDict

import engines
from bot.league import controls, names, pairing, tiebreaks
from bot.league.service import LeagueError, Standing
from bot.storage.leagues import LeagueRow
from bot.texts import MESSAGE_LIMIT, clip, game_options_text
from bot.time import gameclock as gc
from engines.core import SetupError, echo, given_twice, parse_option_text
from languages import ENGLISH, N_, Language, option_key
from renderers import league as pictures

# A league of each format, as its sign-up message names it (messages: translated where shown).
LEAGUE_KINDS = {
    "swiss": N_("a Swiss league"),
    "round_robin": N_("a round robin league"),
    "elimination": N_("a single elimination league"),
}


def and_list(items: list[str], t: Language = ENGLISH) -> str:
    if len(items) == 1:
        return items[0]
    return t.gettext("{items} and {last}", items=", ".join(items[:-1]), last=items[-1])


def when(seconds: float) -> str:
    """A time Discord shows in each reader's own time zone."""
    return f"<t:{int(seconds)}:f>"


def parse_start(text: str | None, now: float) -> float | None:
    """``2026-12-01 18:00`` (UTC) as seconds since the epoch; None for none."""
    if not text:
        return None
    try:
        moment = datetime.strptime(text.strip(), "%Y-%m-%d %H:%M").replace(tzinfo=UTC)
    except ValueError:
        try:
            moment = datetime.strptime(text.strip(), "%Y-%m-%d").replace(tzinfo=UTC)
        except ValueError:
            raise LeagueError(
                "{text} is not a start date; write it as YYYY-MM-DD or YYYY-MM-DD HH:MM (UTC)",
                text=echo(text),
            ) from None
    if moment.timestamp() < now - 60:
        raise LeagueError("the start date has passed; leave it out to start when the organiser says so")
    return moment.timestamp()


def parse_options(text: str | None) -> dict[str, str]:
    """``mode=apprentice stoppers=true`` (spaces or commas between; ``hard_seats=1,2`` keeps its
    comma) as a dict, see :func:`engines.core.parse_option_text`; an option's name in English or
    as a Spanish client shows it (``modo=apprentice``)."""
    try:
        out: dict[str, str] = {}
        for name, value in parse_option_text(text).items():
            key = option_key(name)  # (modo=... and mode=... name one option)
            if out.get(key, value) != value:
                raise given_twice(key, out[key], value)
            out[key] = value
        return out
    except SetupError as exc:
        raise LeagueError(exc.said) from None


def parse_points(text: str | None) -> list[float] | None:
    if not text:
        return None
    try:
        return [float(x) for x in re.split(r"[,\s]+", text.strip()) if x]
    except ValueError:
        raise LeagueError(
            "{text} is not a list of points; write them best place first, e.g. 3,2,1,0", text=echo(text)
        ) from None


def form(x: float) -> int:
    """The count that picks a message's plural form for ``x``, which may be fractional (0.5 days
    and 2.5 points read as plurals)."""
    return int(x) if float(x).is_integer() else 2


def clock_text(league: LeagueRow, t: Language = ENGLISH) -> str:
    """The league's clock in words (shown with its settings and its rounds), in language ``t``."""
    spec = league.game_clock
    if spec is not None:
        try:
            words = gc.parse_clock(spec).describe(t)
        except gc.ClockError:
            words = ""  # checked when the league was created; never worse than the spec itself
        if words:
            return t.gettext(
                "Clock: `{clock}`, {words}; at the round's deadline the computer finishes every game still running.",
                clock=spec,
                words=words,
            )
        return t.gettext(
            "Clock: `{clock}`; at the round's deadline the computer finishes every game still running.",
            clock=spec,
        )
    if league.legacy_timer:
        hours = league.legacy_timer / 3600
        return t.ngettext(
            "Turn timer: {n} hour a turn; at the round's deadline the computer finishes every game still running.",
            "Turn timer: {n} hours a turn; at the round's deadline the computer finishes every game still running.",
            form(hours),
            n=t.number(hours),
        )
    return t.gettext("No clock; at the round's deadline the computer finishes every game still running.")


def options_line(league: LeagueRow, t: Language = ENGLISH) -> str:
    """The options every game of the league is played with, in the game's words (or "standard
    rules"), in language ``t``: shown with its settings and its rounds."""
    return t.gettext("Options: {options}", options=game_options_text(league.game, league.options, t))


def signup_text(league: LeagueRow, people: list[str], t: Language = ENGLISH) -> str:
    """The sign-up message (a public post: the server's language ``t``), ``people``: the names
    signed up, as they wrote them (the message escapes their markdown)."""
    info = engines.get(league.game)
    days = league.round_seconds / 86400
    values = {
        "league": league.shown,
        "kind": t.gettext(LEAGUE_KINDS[league.format]),
        "game": info.title,
        "players": t.ngettext("{n} player", "{n} players", league.group_size),
        "days": t.ngettext("{n} day", "{n} days", form(days), n=t.number(days)),
    }
    if league.format == "swiss":
        head = t.gettext(
            "🏆 **{league}**: {kind} of {game}, {players} a game, {rounds}, {days} a round.",
            rounds=t.ngettext("{n} round", "{n} rounds", league.rounds),
            **values,
        )
    else:
        head = t.gettext("🏆 **{league}**: {kind} of {game}, {players} a game, {days} a round.", **values)
    lines = [
        head,
        options_line(league, t),
        t.gettext(
            "Points per place: {points}; a bye scores {bye}.",
            points=t.numbers(league.points),
            bye=t.number(league.bye_points),
        ),
        clock_text(league, t),
    ]
    if league.status == "signup":
        lines.append(
            t.gettext(
                "Sign up with the buttons below or {/league join} (first round from {when}).",
                when=when(league.starts_at),
            )
        )
    else:
        lines.append(t.gettext("Sign-ups are closed."))
    above = "\n".join(lines)
    return clip(
        above + "\n" + signed_line([names.shown(p) for p in people], MESSAGE_LIMIT - len(above) - 1, t)
    )


def signed_line(people: Sequence[str], room: int, t: Language = ENGLISH) -> str:
    """The sign-up message's last line, "Signed up (3): Ana, Beto, Cusi", in ``room`` characters:
    when the names are too many for it, the first of them that fit (in sign-up order) and how many
    more there are, and where everyone is listed, so the line ends whole."""
    count = len(people)
    whole = t.gettext(
        "Signed up ({n}): {names}", n=count, names=", ".join(people) if people else t.gettext("nobody yet")
    )
    if len(whole) <= room:
        return whole
    kept, used = 0, 0
    while kept < count and used + len(people[kept]) + 2 <= room:  # those that could fit at most
        used += len(people[kept]) + 2
        kept += 1
    while True:
        more = t.ngettext(
            "{names}, … and {n} more ({/league standings} lists everyone)",
            "{names}, … and {n} more ({/league standings} lists everyone)",
            count - kept,
            names=", ".join(people[:kept]),
        )
        line = t.gettext("Signed up ({n}): {names}", n=count, names=more)
        if len(line) <= room or kept == 0:
            return clip(line, room)
        kept -= 1


def standings_text(
    league: LeagueRow,
    rows: list[Standing],
    heading: str,
    t: Language = ENGLISH,
    ratings: Mapping[int, float] | None = None,
    notes: Sequence[str] = (),
) -> str:
    """The standings in words, for screen readers (and every row, when the picture is cut): each
    row's tiebreak values in the league's order, and below them what each short name stands for
    (with ``ratings``, the players rated: another's rating is a dash, as on the picture); a row
    counts its games played, then beside them the games it scored but never played and the
    pairing's byes, and a line below says what each of those is; then
    ``notes``.  A table too long for one message loses rows from its bottom, never those lines
    (:func:`fit_rows`)."""
    order = tiebreaks.stored_order(league.tiebreaks)
    lines = []
    for s in rows:
        r = s.row
        values = {
            "rank": r.rank,
            "name": t.gettext("{name} (dropped)", name=names.shown(s.name))
            if s.dropped
            else names.shown(s.name),
            "points": t.ngettext("{n} point", "{n} points", form(r.points), n=t.number(r.points)),
            "games": t.ngettext("{n} game played", "{n} games played", r.games)
            + (t.ngettext(", {n} not played", ", {n} not played", r.unplayed) if r.unplayed else "")
            + (t.ngettext(", {n} bye", ", {n} byes", s.byes) if s.byes else ""),
            "wins": t.ngettext("{n} win", "{n} wins", r.wins),
            "tiebreaks": controls.values_text(
                r.tiebreaks, order, t, rated=ratings is None or int(r.player) in ratings
            ),
        }
        if s.movement is not None and s.movement > 0:
            line = t.gettext(
                "{rank}. {name}: {points}, {games}, {wins}; {tiebreaks}; up {up}", up=s.movement, **values
            )
        elif s.movement is not None and s.movement < 0:
            line = t.gettext(
                "{rank}. {name}: {points}, {games}, {wins}; {tiebreaks}; down {down}",
                down=-s.movement,
                **values,
            )
        else:
            line = t.gettext("{rank}. {name}: {points}, {games}, {wins}; {tiebreaks}", **values)
        if s.no_shows:
            line += t.ngettext(", {n} no-show", ", {n} no-shows", s.no_shows)
        lines.append(line)
    below = [t.gettext("Tiebreaks, in order: {legend}", legend=controls.legend(order, t))]
    if any(s.row.unplayed for s in rows):
        below.append(t.gettext(UNPLAYED_LEGEND))
    if any(s.byes for s in rows):
        below.append(byes_legend(league, t))
    return fit_rows(heading, lines, [*below, *notes], t)


def fit_rows(heading: str, rows: Sequence[str], below: Sequence[str], t: Language = ENGLISH) -> str:
    """``heading``, ``rows`` and the lines ``below`` them in one message: when they are too long for
    it, the last rows give way to a line saying how many are left out and where the whole table
    is, so that what explains the rows (the legends) is never the part cut."""
    whole = "\n".join([heading, *rows, *below])
    if len(whole) <= MESSAGE_LIMIT or not rows:
        return clip(whole)
    room = MESSAGE_LIMIT - len("\n".join([heading, *below]))
    kept = len(rows)
    while True:
        kept -= 1
        more = t.ngettext(
            "… and {n} more player: {/league export} has the whole table",
            "… and {n} more players: {/league export} has the whole table",
            len(rows) - kept,
        )
        if kept == 0 or sum(len(r) + 1 for r in rows[:kept]) + len(more) + 1 <= room:
            return clip("\n".join([heading, *rows[:kept], more, *below]))


def round_lines(
    number: int, matches: Sequence[str], t: Language = ENGLISH, limit: int = MESSAGE_LIMIT
) -> list[str]:
    """A bracket round's ``matches`` in words, "Round 1: Ana v Beto; Cusi v bye", on one line; or,
    when that line would be longer than a message (the first round of 64 players with long
    names), on as few lines as keep each within one, every one naming the round."""

    def line(group: Sequence[str]) -> str:
        return t.gettext("Round {round}: {matches}", round=number, matches="; ".join(group))

    groups: list[list[str]] = [[]]
    for match in matches:
        if groups[-1] and len(line([*groups[-1], match])) > limit:
            groups.append([])
        groups[-1].append(match)
    return [line(group) for group in groups]


UNPLAYED_LEGEND = N_(
    "Not played: a game whose table never opened (a forfeit); it scores its league points, but is"
    " not one of the games played."
)
"""What a game "not played" in the standings is (the text's, the web page's legend)."""


def byes_legend(league: LeagueRow, t: Language = ENGLISH) -> str:
    """What a bye in the standings is: a round the pairing had no table for the player (the field
    did not divide into tables), worth the league's bye points; not a round sat out for attendance
    (those are listed apart, with why).  In a bracket: a match with no opponent."""
    if league.format == "elimination":
        return t.ngettext(
            "Bye into the next round: the bracket had no opponent for the player that round; it scores"
            " {n} point.",
            "Bye into the next round: the bracket had no opponent for the player that round; it scores"
            " {n} points.",
            form(league.bye_points),
            n=t.number(league.bye_points),
        )
    return t.ngettext(
        "Bye: a round the pairing had no table for the player (the field did not divide into tables);"
        " it scores {n} point.",
        "Bye: a round the pairing had no table for the player (the field did not divide into tables);"
        " it scores {n} points.",
        form(league.bye_points),
        n=t.number(league.bye_points),
    )


def picture_lines(
    rows: list[Standing],
    ratings: dict[int, float],
    order: Sequence[str] = tiebreaks.DEFAULT_ORDER,
    t: Language = ENGLISH,
) -> list[pictures.StandingLine]:
    """The picture's rows, each tiebreak's value drawn in ``order`` (the rating as the rating
    column shows it: a dash for a player with none)."""

    def drawn(s: Standing, name: str) -> str:
        if name == tiebreaks.RATING:
            rating = ratings.get(int(s.row.player))
            return "–" if rating is None else t.number(rating, 1)
        return t.number(s.row.tiebreaks.get(name, 0.0))

    return [
        pictures.StandingLine(
            s.row.rank,
            s.name,
            s.row.points,
            s.row.games,
            s.row.wins,
            s.row.buchholz,
            ratings.get(int(s.row.player)),
            s.movement,
            s.dropped,
            s.no_shows,
            tuple(drawn(s, n) for n in order),
            s.byes,
            s.row.unplayed,
        )
        for s in rows
    ]


class Columns(TypedDict):
    """The standings picture's columns (keywords of :func:`renderers.league.standings`)."""

    tiebreaks: list[str]
    wins: bool
    rating: bool


def picture_columns(order: Sequence[str]) -> Columns:
    """The standings picture's columns for a tiebreak ``order`` (keywords of
    :func:`renderers.league.standings`)."""
    return {
        "tiebreaks": [controls.SHORT[n] for n in order],
        "wins": tiebreaks.WINS not in order,
        "rating": tiebreaks.RATING not in order,
    }


def bye_line(league: LeagueRow, players: list[str], t: Language = ENGLISH, *, each: bool = False) -> str:
    """The round's byes from the pairing, with what each scores: in a single elimination league a
    bye takes its seed into the next round (Spanish: a "pase directo", as the bracket names it, not
    a Swiss "ronda libre"); ``each`` when the line sums up a round already under way."""
    values = {"n": t.number(league.bye_points), "players": ", ".join(players)}
    count = form(league.bye_points)
    if league.format == "elimination":
        if each:
            return t.ngettext(
                "Bye into the next round ({n} point each): {players}",
                "Bye into the next round ({n} points each): {players}",
                count,
                **values,
            )
        return t.ngettext(
            "Bye into the next round ({n} point): {players}",
            "Bye into the next round ({n} points): {players}",
            count,
            **values,
        )
    if each:
        return t.ngettext(
            "Bye ({n} point each): {players}", "Bye ({n} points each): {players}", count, **values
        )
    return t.ngettext("Bye ({n} point): {players}", "Bye ({n} points): {players}", count, **values)


def round_heading(league: LeagueRow, t: Language = ENGLISH) -> str:
    swiss = league.swiss_rounds
    if league.status == "finished":
        return t.ngettext(
            "final standings after {n} round",
            "final standings after {n} rounds",
            min(league.current_round, swiss),
        )
    if league.status == "cancelled":
        return t.ngettext(
            "standings when the league was cancelled, after {n} round",
            "standings when the league was cancelled, after {n} rounds",
            min(league.current_round, swiss),
        )
    if league.current_round == 0:
        return t.gettext("before the first round")
    if league.in_final:
        return t.ngettext(
            "standings after {n} round; the top {top} play the final stage",
            "standings after {n} rounds; the top {top} play the final stage",
            swiss,
            top=league.final_top,
        )
    return t.gettext("standings in round {round} of {rounds}", round=league.current_round, rounds=swiss)


def round_name(league: LeagueRow, number: int, t: Language = ENGLISH) -> str:
    """``round 2 of 5``, or ``round 1 of 2 of the final stage``."""
    if league.final_round and number >= league.final_round:
        return t.gettext(
            "round {round} of {rounds} of the final stage",
            round=number - league.final_round + 1,
            rounds=league.rounds - league.final_round + 1,
        )
    return t.gettext("round {round} of {rounds}", round=number, rounds=league.swiss_rounds)


AT_DEADLINE = {  # the line opening a round, by what its no-show rule does at the deadline
    "computer": N_(
        "🏆 **{league}**: {round} is open until {when}. Games still running then are finished by the computer."
    ),
    "forfeit": N_(
        "🏆 **{league}**: {round} is open until {when}. Whoever's turn it is then forfeits the game (a "
        "no-show), and the computer finishes it."
    ),
    "score": N_(
        "🏆 **{league}**: {round} is open until {when}. Games still running then are scored as they stand "
        "(a no-show for whoever's turn it is)."
    ),
}


def opening_line(league: LeagueRow, number: int, deadline: float, action: str, t: Language = ENGLISH) -> str:
    """The first line of round ``number``'s opening post: open until ``deadline``, and what
    becomes of the games still running then (the no-show rule's ``action``)."""
    return t.gettext(
        AT_DEADLINE.get(action, AT_DEADLINE["computer"]),
        league=league.shown,
        round=round_name(league, number, t),
        when=when(deadline),
    )


def thread_name(league: LeagueRow, number: int, final_stage: bool, table: int, t: Language = ENGLISH) -> str:
    """The name of the thread of table ``table`` in round ``number`` (at most 100 characters)."""
    values = {"league": league.name[:60], "table": table}
    if final_stage:
        name = t.gettext(
            "{league} · final round {round} · table {table}",
            round=number - (league.final_round or 0) + 1,
            **values,
        )
    else:
        name = t.gettext("{league} · round {round} · table {table}", round=number, **values)
    return name[:100]


def table_line(table: int, players: str, thread: int, t: Language = ENGLISH) -> str:
    """A table's line in a round's opening post: who plays, and in which thread."""
    return t.gettext(
        "Table {table}: {players} in {thread}", table=table, players=players, thread=f"<#{thread}>"
    )


def final_text(league: LeagueRow, top: int, t: Language = ENGLISH) -> str:
    """What ``/league final`` set: no final stage, or the top ``top`` playing a knockout final."""
    if not league.final_top:
        return t.ngettext(
            "{league} has no final stage now: {n} round, and the top of the standings is the champion.",
            "{league} has no final stage now: {n} rounds, and the top of the standings is the champion.",
            league.rounds,
            league=league.shown,
        )
    byes = pairing.bracket_size(top) - top
    values = {"round": league.swiss_rounds, "top": top, "league": league.shown, "byes": byes}
    final_rounds = league.rounds - league.swiss_rounds
    if byes == 1:
        text = t.ngettext(
            "After round {round}, the top {top} of {league}'s standings play a knockout final over {n}"
            " round, seeded by the standings, the top seed starting with a bye. Its winner is the champion.",
            "After round {round}, the top {top} of {league}'s standings play a knockout final over {n}"
            " rounds, seeded by the standings, the top seed starting with a bye. Its winner is the champion.",
            final_rounds,
            **values,
        )
    elif byes:
        text = t.ngettext(
            "After round {round}, the top {top} of {league}'s standings play a knockout final over {n}"
            " round, seeded by the standings, the top {byes} seeds starting with a bye. Its winner is the"
            " champion.",
            "After round {round}, the top {top} of {league}'s standings play a knockout final over {n}"
            " rounds, seeded by the standings, the top {byes} seeds starting with a bye. Its winner is the"
            " champion.",
            final_rounds,
            **values,
        )
    else:
        text = t.ngettext(
            "After round {round}, the top {top} of {league}'s standings play a knockout final over {n}"
            " round, seeded by the standings. Its winner is the champion.",
            "After round {round}, the top {top} of {league}'s standings play a knockout final over {n}"
            " rounds, seeded by the standings. Its winner is the champion.",
            final_rounds,
            **values,
        )
    return text
