"""The board in words: a game's :class:`~engines.core.Section` list as text a screen reader
can walk, for ``/game describe`` and the terminal's ``describe``.

Each section is its heading in bold, then one line per item starting with ``- ``; the
sections only the reader's seat may read come after the public ones, under a heading that
says so.  The text is in the reader's language, seats named, and split into messages of at
most :data:`~bot.texts.MESSAGE_LIMIT` characters where a line ends (:func:`bot.texts.pieces`: a
line longer than a message goes on in the next, read whole).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import engines
from bot.sessions import Session
from bot.texts import ended_early, game_option_words, pieces, tiebreak_line
from engines.core import Engine, Said, Section, name_seats
from languages import ENGLISH, N_, Language

PRIVATE_HEADING = N_("Only you can see this")
LAST_ACTION = N_("Last action: {action}")  # the alt text's words too
LAST_MOVE = "Last move: "
"""How the engines' lines about the last move begin (``Last move: {player} played {move}``): their
seat is named after whoever made that move (a seat handed to a substitute since: its earlier holder)."""


def lines_of(
    sections: Sequence[Section],
    t: Language = ENGLISH,
    names: Sequence[str] | None = None,
    last_action: str | None = None,
    last_names: Sequence[str] | None = None,
) -> list[str]:
    """The sections as lines in ``t``: public ones first, then the private ones under their own
    heading; a blank line between sections; seats written ``{pN}`` named from ``names``, but in
    a line about the last move from ``last_names`` (the seats' names when it was made), when given.
    ``last_action``: the last move in words, as the board's header says it (the engines' own
    lines give its notation), first in the first section."""

    def words(said: Said) -> str:
        past = last_names is not None and said.msg.startswith(LAST_MOVE)
        return name_seats(said.in_words(t), last_names if past else names)

    public = [s for s in sections if not s.private]
    private = [s for s in sections if s.private]
    lines: list[str] = []
    for index, section in enumerate([*public, *private]):
        if lines:
            lines.append("")
        if section.private and index == len(public):
            lines.append(f"**{t.gettext(PRIVATE_HEADING)}**")
        lines.append(f"**{words(section.heading)}**")
        if index == 0 and last_action:
            lines.append(f"- {t.gettext(LAST_ACTION, action=last_action)}")
        lines.extend(f"- {words(line)}" for line in section.lines)
    return lines


def options_lines(game: str, options: Mapping[str, object], t: Language = ENGLISH) -> list[str]:
    """The game's options that differ from its defaults (and those always said), as the lobby and
    the alt text say them, on a line before the board in words, then a blank line; none when the
    game is played by its standard rules.  The options the engine's own lines state already (its
    ``OPTIONS_SAID``: Guanga's mode, say) are left out, so that none is said twice."""
    try:
        said: frozenset[str] = getattr(engines.get(game).load(), "OPTIONS_SAID", frozenset())
    except (ImportError, KeyError, ValueError):  # a game that is not installed (a damaged session)
        said = frozenset()
    chosen = game_option_words(game, {k: v for k, v in options.items() if k not in said}, t)
    return [t.gettext("Options: {options}", options="; ".join(chosen)), ""] if chosen else []


def sections_for(engine: Engine, state: object, reader: int | None, *, ended: bool = False) -> list[Section]:
    """What ``engine`` says of ``state`` to ``reader`` (a seat, or ``None`` for a spectator),
    asked with the reader's view; a spectator gets no private section.  ``ended``: the table
    ended the game at ``state`` before its rules did (nobody is to play; see
    :func:`bot.texts.ended_early`)."""
    sections = engine.describe(engine.view_for(state, reader), ended=ended)
    if reader is None:  # a spectator's view holds nothing private; never show one as such
        sections = [s for s in sections if not s.private]
    return list(sections)


def described(
    session: Session,
    reader: int | None,
    t: Language = ENGLISH,
    last_action: str | None = None,
    last_move: int | None = None,
) -> list[str]:
    """``session``'s board in words for ``reader``, split into messages, in ``t``
    (``last_action``: see :func:`lines_of`; ``last_move``: its number, whose player it names); a
    game the table ended before its rules did says so first (see :func:`bot.texts.ended_early`), a
    game its rules ended says why, and the tiebreak that decided if one did; then the options the
    game is played with (:func:`options_lines`)."""
    ended = ended_early(session, t)
    sections = sections_for(session.engine, session.state, reader, ended=ended is not None)
    lines = [
        *options_lines(session.row.game, session.row.options, t),
        *lines_of(sections, t, session.names(), last_action, session.names_at(last_move)),
    ]
    if ended:
        return pieces("\n".join([f"**{ended}**", "", *lines]))
    over = session.engine.outcome(session.state) if session.status == "finished" else None
    if over is None:
        return pieces("\n".join(lines))
    names = session.names()
    why = t.gettext("Game over: {reason}.", reason=name_seats(over.reason_in(t), names))
    tiebreak = tiebreak_line(over, names, t)
    return pieces("\n".join([f"**{why}**", *([tiebreak] if tiebreak else []), "", *lines]))
