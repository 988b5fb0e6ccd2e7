"""A game's web page, as data: what a spectator may see of it at one step, built only from
:mod:`bot.public` (the move list), :mod:`bot.alt` (the board's alt text), :mod:`bot.describe`
(the board in words) and ``view_for(state, None)`` (the board, the scores).

A running game shows the moves the channel has been told of (:func:`bot.history.browsable`),
each as everyone may read it; a finished game shows what became public at its end, and a move
kept secret for good only as its public lines.  The score chart is the results card's series
(:func:`bot.results.series`): the scores the public view shows, until the game's rules end it
and it counts what the end revealed.  No Discord, no SQL.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from bot import alt, texts
from bot.describe import lines_of, sections_for
from bot.history import History, browsable
from bot.optionline import board_options
from bot.public import MoveRecord, seen
from bot.replaying import undo_target
from bot.results import series
from bot.sessions import Session, SessionService, damage_words
from bot.texts import number, ordinal
from engines.core import Engine, Outcome, name_seats
from languages import Language
from languages.bidi import isolated
from renderers.colours import SEAT_COLOURS

CHART_COLOURS = tuple("#{:02x}{:02x}{:02x}".format(*colour) for colour in SEAT_COLOURS)
"""Each seat's line and end label in the seat's colour on the boards and the results card (dark
colours, each far more than 4.5:1 from the chart's white, as its 14 px labels need); each line
also has its own dash pattern and a letter at its end, so that no one needs the colours."""
PAGES_KEPT = 256
"""Game pages kept built, by game, version, moves shown, step and language."""
CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 600.0, 240.0, 24.0
"""The score chart's size in its own units (a wide screen draws it 600 px wide at most)."""
PHONE_FONT = 26.0
"""The end labels' size in the chart's units on a phone (``web.css``), where the chart is drawn
about 330 px wide: 14 px there, as on a wide screen (14 units at 600 px), not 8."""
LABEL_GAP = 1.2 * PHONE_FONT
"""The least distance between the middles of two line-end labels, in the chart's units: room
for the phone's larger labels, which then never sit on one another."""
LABEL_EM = 0.75
"""A bold letter's or digit's width at most, in ems: the room kept right of the lines for the
longest label, at the phone's size."""
CHART_DASHES = ("", "8 4", "2 4", "10 4 2 4", "4 2", "12 6")


@dataclass(frozen=True)
class MoveLine:
    """One entry of the page's move list: the move in words as everyone may read it (its public
    event sentences, as ``/game history`` gives a reader who is not seated), and beside them its
    notation, when everyone may read that."""

    number: int
    player: str
    text: str
    notation: str | None = None
    computer: bool = False  # the computer played it (a computer seat, or one whose time ran out)
    taken_back: bool = False  # a later undo took it back (the game went on from the move before)


def move_line(
    engine: Engine, state: object, names: Sequence[str], record: MoveRecord, t: Language
) -> MoveLine:
    """``record`` as the page's move list says it, in ``t``, to a spectator (what
    :func:`bot.public.seen` lets the channel read of it while the game is at ``state``), the seats
    named ``names`` (whoever held them then, as they wrote their names).  An undo entry says
    what it took back and has no notation of its own; a move with no public line says who
    played it; a move a later undo took back says so."""
    public = seen(engine, state, record, None, t)
    undo = undo_target(record.move) is not None
    who = texts.mover_in(names, record.seat, t)
    if public.lines:
        words = plain("\n".join(name_seats(line, names) for line in public.lines), names)
    elif public.notation is not None and not undo:
        words = plain(t.gettext("{player} played", player=who), names)
    else:
        words = plain(name_seats(public.summary(t), names), names)
    return MoveLine(
        record.number or 0,
        who,
        words,
        None if undo else public.notation,
        record.by_computer and not undo,
        record.taken_back,
    )


@dataclass(frozen=True)
class Player:
    name: str
    computer: bool
    resigned: bool
    place: str | None = None
    score: str | None = None
    ran_out: bool = False  # the computer played the seat after its time ran out


@dataclass(frozen=True)
class Line:
    """One seat's line in the score chart: SVG points, its colour, dash and label."""

    name: str
    points: str
    colour: str
    dash: str
    label_x: float
    label_y: float
    letter: str
    last: str


@dataclass(frozen=True)
class WordsPart:
    """A part of the board in words: its heading ("The map") and its lines, one thing each."""

    heading: str
    lines: list[str]


def words_parts(lines: Sequence[str], names: Sequence[str]) -> list[WordsPart]:
    """The board in words (:func:`bot.describe.lines_of`: a ``**heading**`` line, then its
    ``- item`` lines, a blank line between parts) as parts, plain text (the page shows each
    heading as a heading and its lines as a list, for a screen reader to move through)."""
    parts: list[WordsPart] = []
    for line in lines:
        if not line:
            continue
        if line.startswith("- ") and parts:
            parts[-1].lines.append(plain(line[2:], names))
        else:
            heading = plain(line, names)
            parts.append(WordsPart(heading[:-1] if heading.endswith(".") else heading, []))
    return parts


@dataclass
class GamePage:
    title: str
    number: int
    status: str  # lobby, active, finished, abandoned, damaged, unplayed (a lobby closed unstarted)
    step: int = 0
    shown: int = 0
    moves: list[MoveLine] = field(default_factory=list)
    players: list[Player] = field(default_factory=list)
    result: list[str] = field(default_factory=list)
    alt: str = ""
    words: list[WordsPart] = field(default_factory=list)
    chart: list[Line] = field(default_factory=list)
    chart_label: str = ""
    version: int = 0
    options: str = ""  # "Options: assembly plan B; stop after 40 turns", as /game status says
    damage: str = ""  # why a damaged game cannot be read, as /game status says


def distinct_letters(names: list[str]) -> list[str]:
    """A letter (or digit) for each name to mark its line's end: its first one not taken by an
    earlier name (``p1``, ``p2``: ``P``, ``2``), else the seat's number."""
    taken: set[str] = set()
    out = []
    for seat, name in enumerate(names):
        found = next((c for c in (c.upper() for c in name if c.isalnum()) if c not in taken), None)
        if found is None:
            found = next(str(n) for n in range(seat + 1, seat + 100) if str(n) not in taken)
        taken.add(found)
        out.append(found)
    return out


def apart(ys: list[float], height: float, gap: float = LABEL_GAP) -> list[float]:
    """The labels' middles ``ys`` moved apart to at least ``gap`` from one another (in their
    order down the chart), each kept half a ``gap`` inside its ``height``.  Labels crowded at the
    bottom move up only as far as they must, and only those in the crowd: a label far above
    them stays beside its line's end (it was moved up with them, out of the chart)."""
    order = sorted(range(len(ys)), key=lambda i: (ys[i], i))
    placed = [max(y, gap / 2) for y in ys]
    for before, now in zip(order, order[1:], strict=False):  # down: each a gap below the one above
        placed[now] = max(placed[now], placed[before] + gap)
    below = height - gap / 2
    for now in reversed(order):  # up: each inside the chart, a gap above the one below it
        placed[now] = min(placed[now], below)
        below = placed[now] - gap
    return placed


def result_words(session: Session, t: Language) -> str:
    """How an ended game ended, in ``t``, under the page's heading "Result": who won, or that
    nobody did and why (:func:`bot.texts.result_line` without its own "Result: ")."""
    if session.status == "finished" and session.row.outcome:
        outcome = Outcome.from_dict(session.row.outcome)
        ranking = session.final_ranking(outcome)
        winners = [session.by_seat(s).name for s in (ranking[0] if ranking else ())]
        reason = name_seats(outcome.reason_in(t), session.names())
        if len(winners) == 1:
            return t.gettext("{player} wins ({reason}).", player=winners[0], reason=reason)
        if winners:
            return t.gettext(
                "{players} and {last} win ({reason}).",
                players=", ".join(winners[:-1]),
                last=winners[-1],
                reason=reason,
            )
    return t.gettext("Nobody wins ({reason}).", reason=texts.end_reason(session, t))


def names_isolated(session: Session) -> Session:
    """``session`` with its players' names, and those of the seats' earlier holders, as a page
    writes them (:func:`languages.bidi.isolated`): every line the page builds from it (a move, the
    result, the board's alt text and words, the players, the chart) has them isolated."""
    return replace(
        session,
        seats=[replace(s, name=isolated(s.name)) for s in session.seats],
        earlier=tuple(replace(h, name=isolated(h.name)) for h in session.earlier),
    )


def plain(text: str, names: Sequence[str]) -> str:
    """A line of the table's (Discord markdown, mentions) as plain text, the players' ``names``
    in it as they are written (a name may hold ``__`` or ``**``)."""
    return alt.plain(text, names)


class Games:
    """Builds game pages and their boards from the session service and the history."""

    def __init__(self, service: SessionService, history: History):
        self.service = service
        self.history = history
        self._series: dict[tuple[int, int, int], list[list[float]]] = {}
        self._pages: OrderedDict[tuple[int, int, int, int, str], GamePage] = OrderedDict()

    def forget(self) -> None:
        """Drop the pages built (the bench measures building them)."""
        self._pages.clear()

    async def shown(self, session: Session) -> int:
        return browsable(session, await self.service.store.history.move_count(session.id))

    async def records(self, session: Session, shown: int) -> list[MoveRecord]:
        return [
            r for r in await self.service.logbook.log(session) if r.number is not None and r.number <= shown
        ]

    async def state_at(self, session: Session, step: int) -> object:
        state, _ = await self.history.state_at(session, step)
        return state

    @staticmethod
    def last_action(session: Session, record: MoveRecord | None, t: Language) -> str | None:
        """The board's header line for ``record``: the one the channel's board had (its first line
        everyone may read, which says what the player did; the header has room for one)."""
        return None if record is None else texts.last_action(session, [record], t)

    async def page(self, session: Session, step: int | None, t: Language) -> GamePage:
        """The page of ``session`` at ``step`` (None: the latest one may see); a step out of range
        is the caller's to refuse (see :meth:`shown`)."""
        page = GamePage(session.info.title, session.id, session.status, version=session.version)
        if session.damaged:  # its options too may be unreadable (a game not installed: raw names)
            page.status = "damaged"
            page.damage = t.gettext("Why: {problem}.", problem=damage_words(session.damaged).in_words(t))
            return page
        page.options = t.gettext("Options: {options}", options=texts.options_text(session, t))
        if session.status == "lobby" or session.state is None:
            session = names_isolated(session)
            page.status = "lobby" if session.status == "lobby" else "unplayed"
            page.players = [Player(s.name, s.computer, False) for s in session.seats]
            if page.status == "unplayed":
                page.result = [plain(result_words(session, t), session.names())]
            return page
        shown = await self.shown(session)
        step = shown if step is None else step
        key = (session.id, session.version, shown, step, t.code)  # a page changes with these only
        if key in self._pages:
            self._pages.move_to_end(key)
            return self._pages[key]
        page.step, page.shown = step, shown
        records = await self.records(session, shown)
        # each move named after whoever held its seat then (a league seat handed to a substitute)
        session = names_isolated(await self.service.logbook.with_holders(session))
        engine, now = session.engine, session.state
        page.moves = [move_line(engine, now, session.names_at(r.number), r, t) for r in records]
        state = await self.state_at(session, step)
        at = next((r for r in records if r.number == step), None)
        page.alt = alt.board(
            session, None, self.last_action(session, at, t), t, state=state, move=step, shown=shown
        )
        ended = step == shown and texts.ended_early(session, t) is not None  # nobody to play then
        names = session.names_after(step)
        page.words = words_parts(
            lines_of(
                sections_for(session.engine, state, None, ended=ended), t, names, None, session.names_at(step)
            ),
            names,
        )
        page.players = self.players(session, t)
        page.result = self.result(session, t)
        page.chart, page.chart_label = await self.chart(session, shown, t)
        self._pages[key] = page
        while len(self._pages) > PAGES_KEPT:
            self._pages.popitem(last=False)
        return page

    def players(self, session: Session, t: Language) -> list[Player]:
        """The seats' players now; a seat handed to a league's substitute names whom they play for
        (its first holder, after whom its earlier moves are named), as ``/league round`` does."""
        seated = sorted((s for s in session.seats if s.seat is not None), key=lambda s: s.seat or 0)
        first: dict[int, str] = {}
        for held in sorted(session.earlier, key=lambda h: h.until):
            first.setdefault(held.seat, held.name)
        places: dict[int, str] = {}
        scores: dict[int, str] = {}
        if session.status == "finished" and session.row.outcome:
            outcome = Outcome.from_dict(session.row.outcome)
            for place, seat, _ in texts.places(session, outcome):  # as the results rank them
                places[seat] = ordinal(place, t)
                scores[seat] = number(outcome.scores[seat], t)
        ran_out = session.ran_out()
        return [
            Player(
                t.gettext("{substitute} (for {original})", substitute=s.name, original=first[s.seat])
                if s.seat is not None and first.get(s.seat)
                else s.name,
                s.computer,
                s.resigned,
                places.get(s.seat) if s.seat is not None else None,
                scores.get(s.seat) if s.seat is not None else None,
                s.seat in ran_out,
            )
            for s in seated
        ]

    def result(self, session: Session, t: Language) -> list[str]:
        """The lines under the page's result heading: whom a running game waits on, or how an
        ended one ended (:func:`result_words`) and the tiebreak that decided, if one did."""
        if session.status == "active":
            waiting = [s.name for s in session.waiting_on()]
            if not waiting:
                return []
            return [t.gettext("Waiting on: {players}", players=", ".join(waiting))]
        if session.status == "finished" and session.row.outcome:
            outcome = Outcome.from_dict(session.row.outcome)
            lines = [plain(result_words(session, t), session.names())]
            tiebreak = texts.tiebreak_line(outcome, session.names(), t)
            if tiebreak:
                lines.append(tiebreak)
            return lines
        return [plain(result_words(session, t), session.names())]

    async def scores(self, session: Session, shown: int) -> list[list[float]]:
        """Each seat's score at the start and after every turn of the first ``shown`` moves."""
        key = (session.id, session.version, shown)
        if key in self._series:
            return self._series[key]
        rows = await self.service.store.history.moves_between(session.id, 0, shown)

        def compute() -> list[list[float]]:
            return series(session, rows)[0]  # the public board's scores until the rules end the game

        found = await asyncio.to_thread(compute)
        while len(self._series) >= 64:
            self._series.pop(next(iter(self._series)))
        self._series[key] = found
        return found

    async def chart(self, session: Session, shown: int, t: Language) -> tuple[list[Line], str]:
        lines = await self.scores(session, shown)
        if not lines or len(lines[0]) < 2:
            return [], ""
        names = session.names()
        width, height, pad = CHART_WIDTH, CHART_HEIGHT, CHART_PAD
        top = max(max(line) for line in lines)
        bottom = min(0.0, min(min(line) for line in lines))
        span = (top - bottom) or 1.0
        steps = len(lines[0]) - 1
        out = []
        letters = distinct_letters([names[seat] if seat < len(names) else "?" for seat in range(len(lines))])
        lasts = [number(values[-1], t) for values in lines]
        longest = max(len(f"{letter} {last}") for letter, last in zip(letters, lasts, strict=True))
        right = width - max(pad + 40, 6 + LABEL_EM * PHONE_FONT * longest + 4)  # the lines end here
        ends: list[float] = []
        for seat, values in enumerate(lines):
            xy = [
                (
                    pad + (right - pad) * i / steps,
                    height - pad - (height - 2 * pad) * (v - bottom) / span,
                )
                for i, v in enumerate(values)
            ]
            name = names[seat] if seat < len(names) else "?"
            ends.append(xy[-1][1])
            out.append(
                Line(
                    name,
                    " ".join(f"{x:.1f},{y:.1f}" for x, y in xy),
                    CHART_COLOURS[seat % len(CHART_COLOURS)],
                    CHART_DASHES[seat % len(CHART_DASHES)],
                    round(right + 6, 1),
                    0.0,
                    isolated(letters[seat]),  # a right-to-left letter keeps its score to its right
                    lasts[seat],
                )
            )
        placed = apart(ends, height)
        out = [replace(line, label_y=round(y, 1)) for line, y in zip(out, placed, strict=True)]
        label = t.ngettext(
            "Scores over {n} turn: {scores}.",
            "Scores over {n} turns: {scores}.",
            steps,
            scores=", ".join(f"{line.name} ({line.letter}) {line.last}" for line in out),
        )
        return out, label

    async def board(self, session: Session, step: int, t: Language) -> bytes | None:
        """The public board after move ``step`` as PNG bytes (None: the game has no renderer)."""
        renderer = session.info.load_renderer()
        if renderer is None:
            return None
        state = await self.state_at(session, step)
        view = session.engine.view_for(state, None)
        record = None
        if step:
            record = next((r for r in await self.records(session, step) if r.number == step), None)
        session = await self.service.logbook.with_holders(session)
        ended = texts.ended_early(session, t)  # read the log's length only for a game that ended early
        if ended is not None and step != await self.shown(session):
            ended = None  # an earlier step: the game still ran then
        png: bytes = await asyncio.to_thread(
            renderer.render,
            view,
            names=session.names_after(step),
            last_action=self.last_action(session, record, t),
            language=t.code,
            ended=ended,
            options=board_options(session.row.game, session.row.options, t),
        )
        return png
