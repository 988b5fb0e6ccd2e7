"""Alt text: what a sighted player takes from each picture first, in words, for every picture the
table sends (Discord shows and speaks an attachment's ``description``, 1,024 characters at most).

One function per kind of picture: a game's board (posted, private, a history page), the results
card, the animated summary, Nowa Gwinea's hut chart, and a league's standings and bracket.  Each
says the game, whose turn, the scores and the last action, and for a private picture what only
its reader holds, in the reader's language: the language the picture itself is drawn in (the
server's for what is posted, the asker's for a private picture).

A board's text is built from the view of the picture's reader only (``view_for(state, None)``
for a public picture, ``view_for(state, seat)`` for a seat's): who is to move, the scores the
view shows, the engine's ``summary`` of the view and the last action as everyone may read it.
So a public picture's alt text holds nothing a spectator may not see.

Every text is plain (no Discord markdown) and cut at a sentence to fit :data:`LIMIT`.
No Discord here.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from bot.league.names import shown
from bot.texts import ended_early, number, option_words, place_line, places, sentence, tiebreak_line
from engines.core import Outcome, in_words, listing, name_seats
from languages import ENGLISH, Language

if TYPE_CHECKING:
    from bot.sessions import Session

LIMIT = 1024
"""Discord's limit on an attachment's (and a media gallery item's) description."""

_MARKDOWN = re.compile(r"\*\*|__|`|~~|\|\|")
_MENTION = re.compile(r"<[@#][!&]?\d+>")


_SENTENCE_END = re.compile(r"(?<=[^\d\s][.!?…])\s+")  # not after "1." of a numbered line


_STAND_IN = 0xE000
"""The first of the private-use characters that stand in for the names while the markdown goes."""


def sentences(text: str, names: Sequence[str] = ()) -> list[str]:
    """``text`` without Discord's markdown and mentions, as sentences: one or more per line.

    The ``names`` in it (the players', which may hold ``__`` or ``**`` or backticks, or an
    initial's full stop), also where the text has them escaped as a message writes them
    (:func:`bot.league.names.shown`), are kept as written: nothing is taken out of them, no sentence ends
    inside one and none is given a capital."""
    kept = [n for n in sorted(set(names), key=len, reverse=True) if any(c.isalnum() for c in n)][:256]
    if any(chr(_STAND_IN + i) in text for i in range(len(kept))):
        kept = []  # the text holds a stand-in already: nothing is put back that was not taken
    for i, name in enumerate(kept):  # a name as a message writes it (escaped), or as written
        escaped, written = _name_patterns(name)
        text = escaped.sub(chr(_STAND_IN + i), text)
        text = written.sub(chr(_STAND_IN + i), text)
    text = _MENTION.sub("", _MARKDOWN.sub("", text))
    found = [
        sentence(part) for line in text.splitlines() for part in _SENTENCE_END.split(line) if part.strip()
    ]
    for i, name in enumerate(kept):
        found = [part.replace(chr(_STAND_IN + i), name) for part in found]
    return found


@functools.lru_cache(maxsize=1024)
def _name_patterns(name: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Where ``name`` stands whole as a message writes it (escaped), and as written (a page's
    move list asks for each of its lines: built once a name)."""
    return _whole(shown(name)), _whole(name)


def _whole(name: str) -> re.Pattern[str]:
    """``name`` where it stands whole: not the start or end of a longer word ("t" in "the")."""
    before = r"(?<!\w)" if name[:1].isalnum() else ""
    after = r"(?!\w)" if name[-1:].isalnum() else ""
    return re.compile(before + re.escape(name) + after)


def plain(text: str, names: Sequence[str] = ()) -> str:
    """``text`` without Discord's markdown and mentions, its lines made sentences, on one line;
    the ``names`` in it kept as written (see :func:`sentences`)."""
    return " ".join(sentences(text, names))


def fit(parts: Iterable[str], limit: int = LIMIT) -> str:
    """``parts`` (sentences) joined, as many whole ones as fit in ``limit`` characters; a first
    sentence longer than that alone is cut at a word, with an ellipsis."""
    out = ""
    for part in parts:
        part = part.strip()
        if not part:
            continue
        joined = f"{out} {part}" if out else part
        if len(joined) > limit:
            if not out:
                cut = part[: limit - 1]
                out = (cut.rsplit(" ", 1)[0] if " " in cut else cut) + "…"
            break
        out = joined
    return out


def _scores(view: object, names: Sequence[str], t: Language) -> str | None:
    """The scores the view shows (``scores``, or ``final_scores`` once known), else None."""
    scores = getattr(view, "scores", None) or getattr(view, "final_scores", None)
    if not scores or len(scores) != len(names):
        return None
    listed = ", ".join(f"{name} {number(score, t)}" for name, score in zip(names, scores, strict=True))
    return t.gettext("Scores: {scores}.", scores=listed)


def _ranking(session: Session, outcome: Outcome, t: Language) -> list[str]:
    """The final places and scores, one sentence each; then the tiebreak that decided, if any."""
    names = session.names()
    solo = getattr(session.engine, "solo_result", None)  # a solo game's result: no places to give
    result = solo(outcome) if solo is not None and len(outcome.scores) == 1 and names else None
    if result is not None:
        return [sentence(t.gettext("{player}: {result}", player=names[0], result=result.in_words(t)))]
    tiebreak = tiebreak_line(outcome, names, t)
    return [
        sentence(
            place_line(
                place,
                names[seat] if 0 <= seat < len(names) else "?",
                number(outcome.scores[seat], t),
                note,
                t,
            )
        )
        for place, seat, note in places(session, outcome)
    ] + ([tiebreak] if tiebreak else [])


def _game_over(session: Session, outcome: Outcome, t: Language) -> str:
    return t.gettext("Game over: {reason}.", reason=name_seats(outcome.reason_in(t), session.names()))


def board(
    session: Session,
    seat: int | None,
    last_action: str | None,
    t: Language = ENGLISH,
    *,
    state: object = None,
    move: int | None = None,
    shown: int | None = None,
) -> str:
    """The alt text of a board picture drawn from ``view_for(state, seat)`` (``state``: the
    session's current one unless given, as for a history page at ``move`` of ``shown``)."""
    engine = session.engine
    state = session.state if state is None else state
    names = session.names_after(move)  # a past board: the seats' holders then
    values = {"game": session.info.title, "number": session.id}
    if move == 0:
        parts = [t.gettext("{game}, game #{number}: the board before the first move.", **values)]
    elif move is not None:
        parts = [
            t.gettext(
                "{game}, game #{number}: the board after move {move} of {shown}.",
                move=move,
                shown=shown if shown is not None else move,
                **values,
            )
        ]
    elif seat is None:
        parts = [t.gettext("{game}, game #{number}: the board as everyone sees it.", **values)]
    else:
        parts = [
            t.gettext("{game}, game #{number}: your own view of the board, only you can see it.", **values)
        ]
    chosen = option_words(session, t)
    if chosen:  # the variant the picture's header shows (Guanga's mode, P'achakuna's plan, ...)
        parts.append(t.gettext("Options: {options}", options="; ".join(chosen)) + ".")
    if state is None:
        return fit(parts)
    view = engine.view_for(state, seat)
    # The board now, or the last of a game that ended: how it ended, even if its rules did not
    # end it (a resignation, a game abandoned), rather than whose turn it would be.
    at_end = move is None or move == shown
    # A game the table ended (a resignation, an abandon) is told in the words the picture's
    # header says it in: one text, :func:`bot.texts.ended_early`, for both.
    ended = ended_early(session, t) if at_end else None
    if at_end and session.status == "finished" and session.row.outcome:
        outcome: Outcome | None = Outcome.from_dict(session.row.outcome)  # a resignation's too
    else:
        outcome = engine.outcome(state) if session.status != "abandoned" else None
    if ended is not None:
        parts.append(plain(ended, names))
        if outcome is not None:
            parts.extend(_ranking(session, outcome, t))
    elif outcome is not None:
        parts.append(_game_over(session, outcome, t))
        parts.extend(_ranking(session, outcome, t))
    else:
        acting = sorted(engine.to_move(state)) if session.status == "active" or move is not None else []
        acting = [s for s in acting if 0 <= s < len(names)]
        if acting:
            who = in_words(listing([names[s] for s in acting]), t) or ""
            # the count agrees the verb with the players ("Le toca a Ana", "Les toca a Ana y Beto")
            if seat is not None and seat in acting:
                parts.append(
                    t.ngettext(
                        "It is your turn ({players} to play).",
                        "It is your turn ({players} to play).",
                        len(acting),
                        players=who,
                    )
                )
            else:
                parts.append(
                    t.ngettext("To play: {players}.", "To play: {players}.", len(acting), players=who)
                )
        scores = _scores(view, names, t)
        if scores:
            parts.append(scores)
    if last_action:
        parts.append(t.gettext("Last action: {action}", action=plain(name_seats(last_action, names), names)))
    if seat is not None:
        own = in_words(engine.summary(view), t)
        if own:
            parts.append(plain(name_seats(own, names), names))
    return fit(parts)


def results_card(session: Session, t: Language = ENGLISH) -> str:
    """The alt text of a finished game's results card: the reason, the places and scores, and what
    the chart shows."""
    parts = [
        t.gettext("{game}, game #{number}: the results card.", game=session.info.title, number=session.id)
    ]
    if session.row.outcome:
        outcome = Outcome.from_dict(session.row.outcome)
        parts.append(_game_over(session, outcome, t))
        parts.extend(_ranking(session, outcome, t))
    parts.append(
        t.gettext(
            "Below the ranking, a chart of each player's score turn by turn, and the number of turns, "
            "moves and the time the game took."
        )
    )
    return fit(parts)


def summary_animation(session: Session, t: Language = ENGLISH) -> str:
    """The alt text of a finished game's animated summary."""
    parts = [
        t.gettext(
            "{game}, game #{number}: an animation of the board as everyone saw it, one picture per turn, "
            "from the start to the end.",
            game=session.info.title,
            number=session.id,
        )
    ]
    if session.row.outcome:
        outcome = Outcome.from_dict(session.row.outcome)
        parts.append(_game_over(session, outcome, t))
        parts.extend(_ranking(session, outcome, t))
    return fit(parts)


def hut_chart(t: Language = ENGLISH) -> str:
    """The alt text of Nowa Gwinea's hut chart."""
    return fit(
        [
            t.gettext(
                "Nowa Gwinea: the 12 huts, F I L N P T U V W X Y Z, each drawn once in every orientation "
                "that looks different (8 for F L N P Y, 4 for T U V W Z, 2 for I, 1 for X), labelled with "
                "the orientation numbers 0 to 7 that give it, with a dot on the anchor square (the cell a "
                "move names)."
            )
        ]
    )


def from_text(text: str, limit: int = LIMIT, names: Sequence[str] = ()) -> str:
    """The alt text of a picture whose words the table already writes beside it (a league's
    standings or bracket): that text, plain (the players' ``names`` in it kept as written), cut
    at a sentence."""
    return fit(sentences(text, names), limit)
