"""The results card of a finished game, built from its log: the ranking, each seat's score over
the game (replayed from the seed, one point per turn, through ``scores_now`` of the engine), the
rating changes and the key figures (turns, moves, time taken).

Only for finished games.  A game its rules ended has shown everything hidden until the end, so
its chart counts, say, Guanga's secret orders all along and tells nobody anything early; a game
the table ended first (a resignation, a time out, a league's deadline) never showed them, so its
chart follows the scores everyone saw, the public board's (as a running game's web page does).
A move kept secret for good (a Tiwanaku peek) changes no score, and the animated summary draws
the public board only, so neither shows where it was.  No Discord, no SQL.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import datetime

from PIL import Image

import languages
from bot.history import SNAPSHOT_EVERY, start_state
from bot.optionline import board_options
from bot.replaying import taken_back, walk
from bot.sessions import RatingChange, Session, SessionService
from bot.storage import MoveRow
from bot.texts import number, places, signed, tiebreak_line
from engines.core import Engine, Outcome, name_seats
from languages import ENGLISH, N_, Language
from renderers import animation
from renderers import results as card_renderer
from renderers.colours import high_contrast

MAX_POINTS = 400  # chart points at most (a long game is sampled evenly)


def duration(first: str, last: str, language: Language = ENGLISH) -> str:
    """``2 h 05 min``, ``2 h``, ``12 min``, ``40 s``, ``3 days 4 h``, ``3 days`` between two
    stored times (a part that is zero is left out)."""
    try:
        seconds = int((datetime.fromisoformat(last) - datetime.fromisoformat(first)).total_seconds())
    except ValueError:
        return "?"
    if seconds < 60:
        return f"{seconds} s"
    minutes = seconds // 60
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours} h {minutes:02d} min" if minutes else f"{hours} h"
    if hours % 24 == 0:
        return language.ngettext("{n} day", "{n} days", hours // 24)
    return language.ngettext("{n} day {hours} h", "{n} days {hours} h", hours // 24, hours=hours % 24)


def series(
    session: Session, rows: Sequence[MoveRow], snapshots: list[tuple[int, dict[str, object]]] | None = None
) -> tuple[list[list[float]], int]:
    """Each seat's score at the start and after every turn, and the number of turns: counting
    what the end revealed in a game its rules ended, else as the public board showed it (none
    when it shows no score).

    With ``snapshots``, the replay also keeps there the history's snapshots it passes (the state
    after every :data:`~bot.history.SNAPSHOT_EVERY`-th move before the last), so that the game's
    history need not replay the whole log again (see :meth:`bot.history.History.warm`)."""
    module = session.engine
    state = start_state(session)
    seats = len([s for s in session.seats if s.seat is not None])
    revealed = session.status == "finished" and module.outcome(session.state) is not None

    def scores(state: object) -> list[float] | None:
        if revealed:
            return list(module.scores_now(state))
        return public_scores(module, state, seats)

    first = scores(state)
    if first is None:
        return [], 0
    points = [first]
    turn = module.turn_number(state)
    last = rows[-1].number if rows else 0
    for step in walk(module, state, rows):
        if snapshots is not None and step.entry.number % SNAPSHOT_EVERY == 0 and step.entry.number < last:
            snapshots.append((step.entry.number, module.to_dict(step.after)))
        now = module.turn_number(step.after)
        if now != turn or step.entry is rows[-1]:
            found = scores(step.after)
            if found is None:
                return [], 0
            points.append(found)
            turn = now
    if len(points) > MAX_POINTS:
        stride = len(points) / MAX_POINTS
        points = [points[int(i * stride)] for i in range(MAX_POINTS)] + [points[-1]]
    return [[p[s] for p in points] for s in range(seats)], len(points) - 1


def public_scores(module: Engine, state: object, seats: int) -> list[float] | None:
    """Each of ``seats``' score as the public board shows it at ``state`` (``view_for(state,
    None)``: nothing hidden counted), or None when its view has no score for every seat."""
    found = getattr(module.view_for(state, None), "scores", None)
    if not found or len(found) != seats:
        return None
    try:
        return [float(x) for x in found]
    except (TypeError, ValueError):
        return None


def card_rows(
    session: Session, outcome: Outcome, ratings: Sequence[RatingChange] = (), t: Language = ENGLISH
) -> list[card_renderer.Row]:
    """The card's ranking: the places the results and ratings keep (a seat that resigned or ran
    out of time below everyone who stayed), each with its score and rating change, in ``t``."""
    names = session.names()
    by_user = {c.user_id: c for c in ratings}
    notes = {"resigned": t.gettext("resigned"), "ran_out": t.gettext("time ran out")}
    lines = []
    for place, seat, note in places(session, outcome):
        who = session.by_seat(seat)
        change = by_user.get(who.user_id) if who.user_id is not None else None
        rating = (
            f"{number(change.before, t)} → {number(change.after, t)} ({signed(round(change.after - change.before, 1), t)})"
            if change
            else None
        )
        lines.append(
            card_renderer.Row(
                place,
                seat,
                names[seat],
                number(outcome.scores[seat], t),
                rating,
                notes[note] if note else None,
            )
        )
    return lines


async def card(
    service: SessionService,
    session: Session,
    ratings: Sequence[RatingChange] = (),
    language: str | None = None,
    contrast: bool = False,
) -> bytes:
    """The results card of a finished ``session`` as PNG bytes, in ``language`` (default English):
    why the game ended, and the tiebreak that decided if one did, in that language too; in the
    high-contrast palette when ``contrast``."""
    t = languages.language(language)
    if session.row.outcome is None:
        raise ValueError(f"game {session.id} has no result to show")
    rows = await service.store.history.moves(session.id)
    outcome = Outcome.from_dict(session.row.outcome)
    names = session.names()
    lines = card_rows(session, outcome, ratings, t)
    gone = taken_back(rows)
    standing = [r for r in rows if r.number not in gone and not r.move.startswith("!")]
    if rows:
        snapshots: list[tuple[int, dict]] = []
        values, turns = await asyncio.to_thread(series, session, rows, snapshots)
        await service.store.history.save_snapshots(session.id, snapshots)
    else:
        values, turns = [], 0
    figures = [  # labels are messages: the renderer translates them
        (N_("Turns"), str(turns)),
        (N_("Moves"), str(len(standing))),
        (N_("Time taken"), duration(rows[0].created_at, rows[-1].created_at, t) if rows else "0 s"),
        (N_("Players"), t.ngettext("{n} seat", "{n} seats", len(names))),
    ]
    undos = sum(1 for r in rows if r.move.startswith("!"))
    if undos:
        figures.append((N_("Undos"), str(undos)))
    made = card_renderer.Card(
        title=t.gettext("{game}, game #{number}", game=session.info.title, number=session.id),
        reason=t.gettext("Game over: {reason}.", reason=name_seats(outcome.reason_in(t), names)),
        rows=lines,
        series=values,
        figures=figures,
        tiebreak=tiebreak_line(outcome, names, t),
        names=names,
    )
    return await asyncio.to_thread(card_renderer.render, made, language=language, contrast=contrast)


def frames(
    session: Session, rows: Sequence[MoveRow], language: str | None = None, contrast: bool = False
) -> list[Image.Image]:
    """The public board at the start and after every turn of a finished game, drawn in
    ``language`` by the renderer's ``draw_board`` (the image ``render`` encodes), in the
    high-contrast palette when ``contrast``, and scaled to a summary's frame.  Each frame names
    the players who held the seats then (:meth:`Session.names_after`), and its header says the
    game's options as every other board of it does (:func:`bot.optionline.board_options`)."""
    renderer = session.info.load_renderer()
    if renderer is None:
        return []
    module = session.engine
    options = board_options(session.row.game, session.row.options, languages.language(language))

    def board(state: object, number: int) -> Image.Image:
        names = session.names_after(number)
        drawn = renderer.draw_board(
            module.view_for(state, None), names=names, language=language, options=options
        )
        return animation.frame(high_contrast(drawn) if contrast else drawn)

    state = start_state(session)
    out = [board(state, 0)]
    turn = module.turn_number(state)
    for step in walk(module, state, rows):
        now = module.turn_number(step.after)
        if now != turn or step.entry is rows[-1]:
            out.append(board(step.after, step.entry.number))
            turn = now
    return out


async def summary(
    service: SessionService, session: Session, language: str | None = None, contrast: bool = False
) -> bytes | None:
    """A finished game's animated summary (GIF, one frame per turn, under 8 MB) in ``language``
    (in the high-contrast palette when ``contrast``), or None."""
    if session.status != "finished":
        return None
    rows = await service.store.history.moves(session.id)
    session = await service.logbook.with_holders(session)

    def make() -> bytes | None:
        made = frames(session, rows, language, contrast)
        return animation.animate(made) if made else None

    return await asyncio.to_thread(make)
