"""The table's texts about a game, built from what each reader may see (:mod:`bot.public`).

The channel's post at the end of a turn (:func:`board_text`: each turn in a few short lines
told by :mod:`bot.telling`, the result, who acts next) and its header's last action, the mover's private confirmation
(:func:`own_lines`), a move in one line (:func:`describe`), ``/game status``, ``/game list``,
the lobby and its thread, and the small wording helpers they share (places, scores, sentences,
clipping to Discord's message limit, a long text in several: :func:`pieces`); ``/game log`` and
the history pages are :mod:`bot.movetexts`'.  Every move shown is first asked of
:func:`bot.public.seen`; no text here decides privacy.  Counts meet their nouns through the
catalogue's plural forms only.

Imports :mod:`bot.markup`, :mod:`bot.public`, :mod:`bot.records`, :mod:`bot.replaying`, :mod:`bot.telling`,
:mod:`engines.core` and :mod:`languages` (and :mod:`bot.sessions`, for types and the new-game
hint); no Discord (texts use Discord's markdown and mentions, nothing more).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import engines
from bot.markup import cuts
from bot.public import Reader, notation, seen
from bot.records import MoveRecord
from bot.replaying import undo_target
from bot.seatwords import seat_lines
from bot.telling import sentence, told_turns
from engines.core import TABLE, Engine, Outcome, Said, in_words, listing, name_seats, say
from languages import ENGLISH, N_, Language

if TYPE_CHECKING:
    from bot.sessions import MoveResult, RatingChange, Session

MESSAGE_LIMIT = 2000


def clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def pieces(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """``text`` in as few messages of at most ``limit`` characters as it needs, each cut where a
    line ends, so that a long text (a bracket of 64, a round of 40 tables, the board in words, a
    rules guide) is read whole over several messages rather than losing its tail; a single line
    longer than a message goes on in the next.  A blank line (between a text's parts) never
    starts or ends a message.  Its markdown is kept whole: no cut breaks a mention or a link, and
    a span cut in two (a bold name, a code block) is closed in one message and opened again in
    the next, so each message reads as the whole would (see :func:`bot.markup.cuts`)."""
    out = [piece.opened + text[piece.start : piece.end] + piece.closed for piece in cuts(text, limit)]
    return out or [text[:limit]]


def ordinal(n: int, t: Language = ENGLISH) -> str:
    """A place in words: ``1st``, ``2nd``, ``11th`` (``1.º`` in Spanish)."""
    if t.code != ENGLISH.code:
        return t.gettext("{n}th", n=n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def number(value: float, t: Language = ENGLISH) -> str:
    """A score as people write it in ``t``: ``12``, not ``12.0``; ``2.5``, or ``2,5`` in Spanish."""
    return t.number(value)


# ------------------------------------------------------------------ the channel and the mover


def event_lines(
    session: Session,
    records: Iterable[MoveRecord],
    reader: Reader = None,
    *,
    channel: bool = True,
    limit: int = 12,
    newest: bool = False,
    t: Language = ENGLISH,
) -> list[str]:
    """Lines for ``reader`` on what ``records`` did, in ``t``, names put in.

    Past ``limit`` lines, the oldest are kept and a last line counts the rest; with ``newest``
    (a turn notice, whose reader wants what came just before their turn), the newest are kept
    and a first line counts the older ones left out.

    With ``channel`` (the public message after a move), quiet moves (a hut
    built in a simultaneous round) are left out, and a move with no line the
    reader may read adds nothing; otherwise every move gives at least its
    one-line summary.
    """
    named: list[str] = []
    for record in records:
        s = seen(session.engine, session.state, record, reader, t)
        if channel and s.quiet:
            continue
        if s.lines:
            lines = list(s.lines)
        elif not channel or (not record.events and s.notation is not None):
            # a move the engine said nothing about is shown by its notation
            lines = [s.summary(t)]
        else:
            continue
        names = session.names_at(record.number)  # whoever held each seat then
        named.extend(name_seats(line, names) for line in lines)
    return capped(named, limit, t, newest=newest)


def capped(lines: list[str], limit: int, t: Language = ENGLISH, *, newest: bool = False) -> list[str]:
    """``lines`` in at most ``limit`` lines, in ``t``: past it, the oldest are kept and a last line
    counts the rest; with ``newest``, the newest are kept and a first line counts those before."""
    if len(lines) <= limit:
        return lines
    more = len(lines) - limit + 1
    if newest:
        earlier = t.ngettext(
            "… {n} earlier line left out (see {/game log})",
            "… {n} earlier lines left out (see {/game log})",
            more,
        )
        return [earlier] + lines[len(lines) - limit + 1 :]
    return lines[: limit - 1] + [
        t.ngettext("… and {n} more line (see {/game log})", "… and {n} more lines (see {/game log})", more)
    ]


def last_action(session: Session, records: Sequence[MoveRecord], t: Language = ENGLISH) -> str | None:
    """The board header's "last action", in ``t``: the first line everyone may read of the
    last of ``records`` that has one (quiet moves included: their public line
    says only that something happened).  A move that said several things gives its first
    line, which says what the player did (the header has room for one line)."""
    for record in reversed(records):
        s = seen(session.engine, session.state, record, None, t)
        return name_seats(s.lines[0] if s.lines else s.summary(t), session.names_at(record.number))
    return None


def own_lines(
    session: Session, records: Iterable[MoveRecord], seat: int, limit: int = 8, t: Language = ENGLISH
) -> list[str]:
    """What ``seat`` made happen with its own moves, as it may read it, in ``t`` (for its private
    reply): told as the channel tells a turn (sentences, seats named as they were then), the
    engine's end summary left out once the game is over (the table's ranking, in the channel, may
    differ from it: a seat that resigned ranks last); past ``limit`` lines, a last line counts the
    rest and points to ``/game log``."""
    mine = [r for r in records if r.seat == seat and not r.by_computer]
    finished = session.status != "active"
    return capped(turn_lines(session, mine, finished=finished, reader=seat, t=t), limit, t)


def next_line(
    session: Session,
    already: Collection[int] = frozenset(),
    away: Mapping[int, str] | None = None,
    t: Language = ENGLISH,
) -> str:
    """Who acts next, in ``t``.  Those newly called on (their turn begins) are mentioned; those in
    ``already`` (seats whose turn began before, and goes on) are named without a mention, and a
    line where every one of them is already acting says they are still to move ("**Still to
    move:** Ana, Bob"); ``away``: user id -> "away until ..." for those taking time away, said on
    a line of its own under them, as ``/game status`` says it ("Ana, away until 2026-12-05 18:00
    (America/Lima)"): the date ends in its zone in brackets, so it is not put in brackets itself."""
    if session.status != "active" or session.damaged:
        return ""
    waiting = session.waiting_on()
    if not waiting:
        return ""
    away = away or {}
    who = ", ".join(s.name if s.seat in already else s.mention for s in waiting)
    if all(s.seat in already for s in waiting):
        lines = [t.gettext("**Still to move:** {players}", players=who)]
    else:
        lines = [t.gettext("**Next:** {players}", players=who)]
    lines.extend(
        f"{s.name}, {away[s.user_id]}" for s in waiting if s.user_id is not None and s.user_id in away
    )
    return "\n".join(lines)


def turn_lines(
    session: Session,
    records: Sequence[MoveRecord],
    *,
    finished: bool = False,
    reader: Reader = None,
    t: Language = ENGLISH,
) -> list[str]:
    """What the channel may read of ``records``, in ``t``: each turn (a run of one seat's moves)
    told in a few short lines (:func:`bot.telling.told_turns`).  ``reader``: a seat reading them
    privately (what that seat may read), else the channel."""
    turns = told_turns(session, records, finished=finished, reader=reader, t=t)
    return [line for turn in turns for line in turn]


def places(session: Session, outcome: Outcome) -> list[tuple[int, int, str | None]]:
    """Each seat of the final ranking (the places the results and ratings keep), in order: its
    place, the seat, and ``"resigned"`` or ``"ran_out"`` for a seat that did not play to the end
    (a seat whose time ran out was played by the computer), else None."""
    resigned = {s.seat for s in session.seats if s.resigned}
    ran_out = session.ran_out()
    out: list[tuple[int, int, str | None]] = []
    place = 1
    for group in session.final_ranking(outcome):
        for seat in group:
            note = "resigned" if seat in resigned else "ran_out" if seat in ran_out else None
            out.append((place, seat, note))
        place += len(group)
    return out


def place_line(place: int, player: str, score: str, note: str | None, t: Language) -> str:
    """One line of a ranking in ``t``: "2nd: Ana: 31", with why the seat did not play to the end."""
    values = {"place": ordinal(place, t), "player": player, "score": score}
    if note == "resigned":
        return t.gettext("{place}: {player}: {score} (resigned)", **values)
    if note == "ran_out":
        return t.gettext("{place}: {player}: {score} (time ran out)", **values)
    return t.gettext("{place}: {player}: {score}", **values)


def ended_early(session: Session, t: Language = ENGLISH) -> str | None:
    """What the header of a game's last board says instead of whose turn it is, in ``t``, when
    the table ended the game before its rules did (a resignation or forfeit: "Game over: ...";
    an abandon); None for a game running, or ended by its rules (the board says who won)."""
    if session.status == "abandoned":
        return abandon_words(session.row.end_reason, t)
    if session.status != "finished" or session.state is None or not session.row.outcome:
        return None
    if session.engine.outcome(session.state) is not None:
        return None
    outcome = Outcome.from_dict(session.row.outcome)
    names = session.names()
    first = session.final_ranking(outcome)[0]
    return t.ngettext(
        "Game over: {names} wins ({reason})",
        "Game over: {names} share the win ({reason})",
        len(first),
        names=in_words(listing([names[s] for s in first]), t),
        reason=name_seats(outcome.reason_in(t), names),
    )


def outcome_lines(session: Session, outcome: Outcome | None, t: Language = ENGLISH) -> list[str]:
    """The result, once, in ``t``: why the game ended, then each seat's place and score."""
    if outcome is None:
        return []
    names = session.names()
    lines = [t.gettext("**Game over**: {reason}.", reason=name_seats(outcome.reason_in(t), names))]
    for place, seat, note in places(session, outcome):
        who = session.by_seat(seat).mention
        lines.append(place_line(place, who, number(outcome.scores[seat], t), note, t))
    tiebreak = tiebreak_line(outcome, names, t)
    if tiebreak:
        lines.append(tiebreak)
    return lines


def tiebreak_line(outcome: Outcome, names: Sequence[str], t: Language = ENGLISH) -> str | None:
    """Why seats tied on points were ranked apart, in ``t`` (the tiebreak that decided, seats
    named from ``names``), or None when no tiebreak was needed."""
    tiebreak = outcome.tiebreak_in(t)
    return t.gettext("Tie broken by: {rule}.", rule=name_seats(tiebreak, names)) if tiebreak else None


RATING_MEANING = N_(
    "a cautious estimate of skill: everyone starts at 0, wins raise it, losses can take it "
    "below 0, and it settles as the table grows sure of a player"
)


def signed(value: float, t: Language = ENGLISH) -> str:
    return f"+{number(value, t)}" if value >= 0 else f"-{number(-value, t)}"


def rating_lines(changes: Sequence[RatingChange], t: Language = ENGLISH) -> list[str]:
    """How each person's rating moved, and what the number means, in ``t``."""
    if not changes:
        return []
    moved = ", ".join(
        f"{c.name} {number(c.before, t)} → {number(c.after, t)} ({signed(round(c.after - c.before, 1), t)})"
        for c in changes
    )
    return [
        t.gettext(
            "**Ratings**: {changes}. (The rating is {meaning}.)",
            changes=moved,
            meaning=t.gettext(RATING_MEANING),
        )
    ]


def next_steps(session: Session, t: Language = ENGLISH) -> str:
    """What to do after a game, in ``t``."""
    return t.gettext(
        "Play again with `/{game} new`; `{/game log}` shows the moves and `{/game ratings}` the league table.",
        game=session.info.name,
    )


def note_text(session: Session, note: Said, t: Language = ENGLISH) -> str:
    """The table's own line about ``session`` (a resignation, a timeout), in ``t``: its seats
    written {p0}, named as every sentence names them (escaped in a Discord message)."""
    return sentence(name_seats(note.in_words(t), session.names()), session.names())


def board_text(
    session: Session,
    records: Sequence[MoveRecord],
    *,
    header: str | None = None,
    notes: Sequence[Said] = (),
    outcome: Outcome | None = None,
    ratings: Sequence[RatingChange] = (),
    ping: bool = True,
    already: Collection[int] = (),
    away: Mapping[int, str] | None = None,
    clock: str | None = None,
    t: Language = ENGLISH,
) -> str:
    """The channel's post with the board: what happened since the last post (each turn in a few
    short lines), the result if the game is over, and who acts next, in ``t``, the server's
    language (the moves in the engine's kept sentences, translated).  Those to move are mentioned
    when ``ping``, but for the seats in ``already``, whose turn began before this board and goes
    on (:func:`next_line`)."""
    finished = session.status == "finished"
    lines = [header] if header else []
    # the table's own lines (a resignation, a timeout), in the board's language
    lines.extend(note_text(session, note, t) for note in notes)
    turns = told_turns(session, records, finished=finished, t=t)
    if len(turns) > 15:
        more = t.ngettext(
            "… and {n} more turn (see {/game log})", "… and {n} more turns (see {/game log})", len(turns) - 14
        )
        turns = [*turns[:14], [more]]
    lines.extend(line for turn in turns for line in turn)
    if finished:
        if outcome is None and session.row.outcome:
            outcome = Outcome.from_dict(session.row.outcome)
        lines.extend(outcome_lines(session, outcome, t))
        lines.extend(rating_lines(ratings, t))
        lines.append(next_steps(session, t))
    elif session.status == "abandoned":
        lines.append(abandoned_text(session, t))  # (by its stored reason, as its end was told)
    named = frozenset(already) if ping else frozenset(session.to_move())
    nxt = next_line(session, named, away, t)
    if nxt and clock:
        nxt = f"{nxt}\n{clock}"
    body = "\n".join(lines)
    room = MESSAGE_LIMIT - len(nxt) - 1  # the mention must survive clipping
    return (clip(body, room) + ("\n" + nxt if nxt else "")).strip() or session.info.title


def channel_text(
    session: Session, result: MoveResult | None, header: str | None = None, t: Language = ENGLISH
) -> str:
    """The public message for ``result`` alone (its moves as records), for callers without the
    log, in ``t``."""
    records = list(result.played) if result is not None else []
    return board_text(
        session,
        records,
        header=header,
        notes=(result.note,) if result is not None and result.note is not None else (),
        outcome=result.outcome if result is not None else None,
        ratings=result.ratings if result is not None else (),
        ping=result is None or result.turn_ended,
        t=t,
    )


# ------------------------------------------------------------------ /game log, status, list


def mover(session: Session, seat: int, t: Language = ENGLISH, number: int | None = None) -> str:
    """Who made move ``number`` (None: a move now): the seat's name (whoever held it then, see
    :meth:`Session.names_at`), "the table", or "?" for a seat the game does not have."""
    return mover_in(session.names_at(number), seat, t)


def mover_in(names: Sequence[str], seat: int, t: Language) -> str:  # mover, from the names then
    if seat == TABLE:
        return t.gettext("the table")
    return names[seat] if 0 <= seat < len(names) else "?"


def describe(session: Session, record: MoveRecord, reader: Reader, t: Language = ENGLISH) -> str:
    """One move in one line for ``reader``, in ``t``: who and the notation, or its public lines."""
    return describe_in(session.engine, session.state, session.names_at(record.number), record, reader, t)


def describe_in(
    engine: Engine, state: object, names: Sequence[str], record: MoveRecord, reader: Reader, t: Language
) -> str:
    """:func:`describe` with the session's engine, state and names looked up once (a log asks for
    many lines); the move's event lines are put in words only when the line shows them: when the
    reader may not read the notation, and for a game whose notation holds codes a player reads in
    words (an engine with ``worded``: Guacamole's cards), before the notation."""
    undo = undo_target(record.move) is not None  # an undo entry: its line says what it took back
    move = None if undo else notation(engine, state, record, reader)
    if move is not None and getattr(engine, "worded", None) is not None:
        # a game whose notation holds codes (Guacamole's cards): the move in words, its notation beside
        s = seen(engine, state, record, reader, t)
        if s.lines:
            line = t.gettext("{words} `{move}`", words=name_seats(s.summary(t), names), move=move)
            return t.gettext("{move} (played by the computer)", move=line) if record.by_computer else line
    if move is not None:
        who = mover_in(names, record.seat, t)
        if record.by_computer:
            return t.gettext("{player} (computer): `{move}`", player=who, move=move)
        return t.gettext("{player}: `{move}`", player=who, move=move)
    summary = name_seats(seen(engine, state, record, reader, t).summary(t), names)
    if record.by_computer and not undo:
        return t.gettext("{move} (played by the computer)", move=summary)
    return summary


def option_words(session: Session, t: Language = ENGLISH) -> list[str]:
    """The options of ``session`` in words (:func:`game_option_words`)."""
    return game_option_words(session.row.game, session.row.options, t)


def game_option_words(game: str, options: Mapping[str, object], t: Language = ENGLISH) -> list[str]:
    """The ``options`` of a ``game`` that differ from its defaults (and those always said, such as
    Guanga's mode), in the game's words translated into ``t`` (``option.<name>.<value>``, else
    ``option.<name>`` with the value put in)."""
    try:
        info = engines.get(game)
        words: Mapping[str, str] = info.load().WORDS
        known = {o.name: o for o in info.options()}
    except (ImportError, KeyError, ValueError):  # a game that is not installed (a damaged session)
        words, known = {}, {}
    out = []
    for name, value in options.items():
        option = known.get(name)
        if option is not None and value == option.default and not option.always_said:
            continue
        specific = f"option.{name}.{value}"
        if specific in words:
            out.append(say(words, specific, None, t))
        elif f"option.{name}" in words:
            out.append(say(words, f"option.{name}", {"value": value}, t))
        else:
            out.append(f"{name.replace('_', ' ')}: {value}")
    return out


def options_text(session: Session, t: Language = ENGLISH) -> str:
    """The options in the game's own words, or "standard rules", in ``t``."""
    return game_options_text(session.row.game, session.row.options, t)


def game_options_text(game: str, options: Mapping[str, object], t: Language = ENGLISH) -> str:
    """:func:`game_option_words` in one line, or "standard rules", in ``t``."""
    return "; ".join(game_option_words(game, options, t)) or t.gettext("standard rules")


# The computer levels in words: translated where shown (the level option's choices read the same).
LEVEL_WORDS = (N_("easy"), N_("normal"), N_("strong"))


def seat_line(session: Session, index: int, t: Language = ENGLISH) -> str:
    """The lobby's line for the seat at ``index``: its number, its name, and who hosts or which
    computer level plays it (the level in ``t``'s words, as the level option's choices read)."""
    seat = session.seats[index]
    if seat.computer:
        return t.gettext(
            "{number}. {name} (computer, {level})",
            number=index + 1,
            name=seat.name,
            level=t.gettext(seat.computer_level),
        )
    if seat.user_id == session.row.host_id:
        return t.gettext("{number}. {name} (host)", number=index + 1, name=seat.name)
    return t.gettext("{number}. {name}", number=index + 1, name=seat.name)


def lobby_text(session: Session, t: Language = ENGLISH) -> str:
    """The lobby message in ``t`` (the server's language): the game (and the game a rematch plays
    again), options in words, the seats, and what happens next."""
    seats = "\n".join(seat_line(session, i, t) for i in range(len(session.seats)))
    info = session.info
    taken, most, least = len(session.seats), session.row.max_players, info.min_players
    if session.status == "lobby":
        if taken >= most:
            state = t.ngettext(
                "The table is full ({n} seat): anyone seated can press {button Start}.",
                "The table is full ({n} seats): anyone seated can press {button Start}.",
                most,
            )
        elif taken >= least:
            state = t.ngettext(
                "{n} seat of {most} taken: ready to start (anyone seated can press {button Start}), or wait for more players.",
                "{n} seats of {most} taken: ready to start (anyone seated can press {button Start}), or wait for more players.",
                taken,
                most=most,
            )
        else:  # two counts, two sentences: each has its own plural
            state = " ".join(
                (
                    t.ngettext("{n} seat of {most} taken.", "{n} seats of {most} taken.", taken, most=most),
                    t.ngettext(
                        "{game} needs at least {n} player ({button Join}, or {button Add computer}).",
                        "{game} needs at least {n} players ({button Join}, or {button Add computer}).",
                        least,
                        game=info.title,
                    ),
                )
            )
    elif session.status == "active":
        state = t.gettext("The game has started.")
    elif session.status == "finished" and session.row.lobby_channel_id:
        state = result_line(session, t)
    else:
        state = t.gettext("This lobby is closed ({reason}).", reason=end_reason(session, t))
    if session.row.lobby_channel_id:
        state = f"{state}\n{thread_line(session, t)}"
    spec = session.clock
    if session.row.rematch_of is not None:  # for the lobby's whole life, restarts included
        title = t.gettext(
            "**{game}**: rematch of game #{number}", game=info.title, number=session.row.rematch_of
        )
    else:
        title = t.gettext("**{game}**: new game", game=info.title)
    lines = [
        title,
        t.gettext("Options: {options}", options=options_text(session, t)),
    ]
    if spec is not None:
        lines.append(t.gettext("Clock: `{clock}`, {meaning}", clock=spec.text, meaning=spec.describe(t)))
    return clip("\n".join([*lines, seats, state]))


THREAD_NAME_LIMIT = 100


def thread_name(title: str, number: int, host: str) -> str:
    """A game's thread: its title, number and host, within Discord's 100 characters."""
    return f"{title} #{number} · {host}"[:THREAD_NAME_LIMIT]


def thread_line(session: Session, t: Language = ENGLISH) -> str:
    """The lobby message's line about the game's thread (the lobby message is in the parent channel)."""
    where = f"<#{session.row.channel_id}>"
    if session.status == "lobby":
        return t.gettext(
            "Join with the buttons below; the game is played in its thread {thread}, where {/game join} "
            "works too.",
            thread=where,
        )
    if session.status == "active":
        return t.gettext("The game is being played in {thread}.", thread=where)
    if session.row.state is None:  # a lobby closed before its start
        return t.gettext("Nothing was played in its thread {thread}.", thread=where)
    return t.gettext("The game was played in {thread}.", thread=where)


def opening_text(title: str, host: str, t: Language = ENGLISH) -> str:
    """The lobby message while its thread is being opened, in ``t``."""
    return t.gettext("**{game}**: {host} is opening a new game...", game=title, host=host)


def thread_welcome(session: Session, t: Language = ENGLISH) -> str:
    """The first message in a game's thread, in ``t``."""
    return clip(
        t.gettext(
            "This thread holds **{game}** game #{number}, opened by {host}. Join with the lobby's "
            "buttons in {lobby} or with {/game join} here; anyone seated starts it with {/game start}. "
            "Boards, turns and results are posted here.",
            game=session.info.title,
            number=session.id,
            host=host_name(session, t),
            lobby=f"<#{session.row.lobby_channel_id}>",
        )
    )


def host_name(session: Session, t: Language = ENGLISH) -> str:
    return next((s.name for s in session.seats if s.user_id == session.row.host_id), t.gettext("its host"))


# Why a game ended, as the table stores it (``end_reason``) when the words have no values, and the
# states that stand for a reason when none was stored (messages: translated where shown).
END_REASONS = frozenset(
    {
        N_("everyone left the lobby"),
        N_("its thread could not be opened"),
        N_("its lobby message could not be posted"),  # a rematch's
        N_("a player could not be seated"),  # a queue's table (bot/queue)
        N_("a player left the queue"),
        N_("not everyone confirmed the queue's table"),
        N_("abandoned"),
        N_("abandoned (damaged)"),
        N_("abandoned after a player's time ran out"),
        N_("abandoned: its channel or thread was deleted"),
        N_("abandoned: the bot was removed from its server"),
    }
)
ABANDONED = {  # /game status's words for an abandoned game, by its stored reason
    "abandoned": N_("This game was abandoned. {next}"),
    "abandoned (damaged)": N_("This game was abandoned, being damaged. {next}"),
    "abandoned after a player's time ran out": N_(
        "This game was abandoned when a player's time ran out. {next}"
    ),
    "abandoned: its channel or thread was deleted": N_(
        "This game was abandoned when its channel or thread was deleted. {next}"
    ),
    "abandoned: the bot was removed from its server": N_(
        "This game was abandoned when Pukllay was removed from its server. {next}"
    ),
}
ABANDONED_BY = N_("The {game} game was abandoned by {player}.")
"""``/game abandon``'s own line (``game``: its title, ``player``: who), the first of the message
telling the abandon, whose last line then says only what to do next (:func:`abandoned_text`)."""
STATES = {
    "lobby": N_("lobby"),
    "active": N_("running"),
    "finished": N_("finished"),
    "abandoned": N_("abandoned"),
}


def end_reason(session: Session, t: Language = ENGLISH) -> str:
    """Why ``session`` ended, in ``t``: its outcome's kept reason, a stored reason of the table's
    own, or its state (a reason stored in other words reads as it was stored)."""
    if session.status == "finished" and session.row.outcome:
        return name_seats(Outcome.from_dict(session.row.outcome).reason_in(t), session.names())
    reason = session.row.end_reason
    if not reason:
        return t.gettext(STATES[session.status]) if session.status in STATES else session.status
    return t.gettext(reason) if reason in END_REASONS else reason


def result_line(session: Session, t: Language = ENGLISH) -> str:
    """One line for the lobby message once the game is over, in ``t``: who won, or why it ended."""
    if session.status == "finished" and session.row.outcome:
        outcome = Outcome.from_dict(session.row.outcome)
        ranking = session.final_ranking(outcome)
        first = ranking[0] if ranking else ()
        winners = [session.by_seat(s).name for s in first]
        if winners:
            reason = name_seats(outcome.reason_in(t), session.names())
            if len(winners) == 1:
                return t.gettext("Result: {player} wins ({reason}).", player=winners[0], reason=reason)
            return t.gettext(
                "Result: {players} and {last} win ({reason}).",
                players=", ".join(winners[:-1]),
                last=winners[-1],
                reason=reason,
            )
    return t.gettext("Result: none ({reason}).", reason=end_reason(session, t))


def full_table_text(session: Session, t: Language = ENGLISH) -> str:
    """The ping for the host when the last seat is taken, in ``t``."""
    return t.ngettext(
        "{host}, your {game} table is full ({n} seat): press {button Start} on the lobby message, or use {/game start}.",
        "{host}, your {game} table is full ({n} seats): press {button Start} on the lobby message, or use {/game start}.",
        session.row.max_players,
        host=f"<@{session.row.host_id}>",
        game=session.info.title,
    )


def status_text(
    session: Session,
    moves_played: int,
    last: MoveRecord | None = None,
    reader: Reader = None,
    away: Mapping[int, str] | None = None,
    clock: str | None = None,
    t: Language = ENGLISH,
) -> str:
    """``/game status`` for a running game, or one that ended here (lobbies show their lobby text),
    in ``t`` (the asker's language); ``away``: user id -> "away until ..." for those taking time
    away."""
    away = away or {}
    lines = [
        t.ngettext(
            "**{game}** (game #{number}): {n} move played",
            "**{game}** (game #{number}): {n} moves played",
            moves_played,
            game=session.info.title,
            number=session.id,
        ),
        t.gettext("Options: {options}", options=options_text(session, t)),
        "\n".join(seat_lines(session, away, t)),
    ]
    if session.damaged and session.status != "abandoned":  # once abandoned, there is nothing to do
        from bot.sessions import damage_words  # bot.sessions imports this module

        problem = damage_words(session.damaged).in_words(t)
        lines.append(
            t.gettext(
                "⚠️ This league game is damaged ({problem}); its league's organiser or an admin can "
                "{/game abandon} it.",
                problem=problem,
            )
            if session.league
            else t.gettext(
                "⚠️ This game is damaged ({problem}); the host or an admin can {/game abandon} it.",
                problem=problem,
            )
        )
    elif session.status == "finished":
        outcome = Outcome.from_dict(session.row.outcome) if session.row.outcome else None
        lines.extend(
            outcome_lines(session, outcome, t)
            or [t.gettext("**Game over**: {reason}.", reason=end_reason(session, t))]
        )
        lines.append(next_steps(session, t))
    elif session.status == "abandoned":
        lines.append(abandoned_text(session, t))
    else:
        waiting = [s.name for s in session.waiting_on()]
        lines.append(
            t.gettext("Waiting on: {players}", players=", ".join(waiting))
            if waiting
            else t.gettext("Waiting on: nobody")
        )
        if clock:
            lines.append(clock)
    if last is not None and not session.damaged:
        lines.append(t.gettext("Last: {move}", move=describe(session, last, reader, t)))
    return clip("\n".join(lines))


def abandoned_text(session: Session, t: Language = ENGLISH, above: Sequence[Said] = ()) -> str:
    """An abandoned game's end, by its stored reason, and what to do next, in ``t``; only what to
    do next when a line ``above`` it in the same message says who abandoned it (:data:`ABANDONED_BY`)
    and the reason is no more than that."""
    if (session.row.end_reason or "abandoned") == "abandoned" and any(
        line.msg == ABANDONED_BY for line in above
    ):
        return next_steps(session, t)
    return abandon_words(session.row.end_reason, t, next_steps(session, t))


def abandon_words(reason: str | None, t: Language = ENGLISH, then: str = "") -> str:
    """An abandoned game's end by its stored ``reason`` (None: none stored), in ``t``, followed by
    ``then`` (what to do next), as the message telling it and, without ``then``, the header of the
    game's last board say it."""
    key = reason or "abandoned"
    said = ABANDONED.get(key, N_("This game was abandoned ({reason}). {next}"))
    shown = t.gettext(key) if key in END_REASONS else key
    return t.gettext(said, reason=shown, next=then).rstrip()


def list_line(session: Session, t: Language = ENGLISH) -> str:
    """One game of ``/game list``, in ``t``."""
    values = {
        "channel": f"<#{session.row.channel_id}>",
        "game": session.info.title,
        "players": ", ".join(seat.name for seat in session.seats),
    }
    if session.damaged and session.league:
        return t.gettext(
            "{channel} · {game} (damaged: ask the league's organiser or an admin to {/game abandon} it):"
            " {players}",
            **values,
        )
    if session.damaged:
        return t.gettext(
            "{channel} · {game} (damaged: ask the host or an admin to {/game abandon} it): {players}",
            **values,
        )
    if session.status == "active":
        waiting = ", ".join(x.name for x in session.waiting_on())
        if not waiting:
            return t.gettext("{channel} · {game} (waiting on nobody): {players}", **values)
        return t.gettext("{channel} · {game} (waiting on {waiting}): {players}", waiting=waiting, **values)
    return t.ngettext(
        "{channel} · {game} (lobby, {n} seat of {most} taken): {players}",
        "{channel} · {game} (lobby, {n} seats of {most} taken): {players}",
        len(session.seats),
        most=session.row.max_players,
        **values,
    )


def list_text(sessions: Sequence[Session], t: Language = ENGLISH) -> str:
    """``/game list`` in ``t``: the games given (already filtered to what the asker may see)."""
    if not sessions:
        from bot.sessions import new_game_hint

        return t.gettext("No games you can see right now; {hint}.", hint=new_game_hint().in_words(t))
    return clip("\n".join(list_line(s, t) for s in sessions))
