"""Every game's turn posts read as a person would tell the turn: a few short lines, the name once.

Each game is played through from a fixed seed (every seat moved by the computer player, one seat
at a time), its events stored and read back as the log keeps them, and the post that ends each
turn (:func:`bot.texts.board_text`, as the channel gets it) is checked, in English and Spanish:

- an ordinary turn's post has at most :data:`MOST_LINES` lines, who is next included;
- a post that also tells a round's end or the game's (an announcement: the round's scores, the
  next round, the end coming, the game over) may have :data:`MORE_FOR_ENDS` more lines, each
  announcement on its own; the last post's result (places, ratings, what next) comes on top;
- no line of the told turn is longer than :data:`LONGEST` characters (players named Alice, Bob,
  Carol, Dan);
- no two sentences in a row start with the same player's name;
- every step is still in the history: each move's page holds every line the channel may read of it.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot import movetexts, texts
from bot.public import event_line
from bot.records import MoveRecord
from bot.sessions import Seat, Session
from bot.telling import sentence
from engines.core import Event, config_from_options, name_seats, said
from languages import ENGLISH, Language, language
from tests.table.test_words import session_of

MOST_LINES = 4
MORE_FOR_ENDS = 3
LONGEST = 200
NAMES = ("Alice", "Bob", "Carol", "Dan")

# game: (seats, seed, the kinds of event that announce a round's end or the game's)
GAMES: dict[str, tuple[int, int, frozenset[str]]] = {
    "guacamole": (3, 7, frozenset({"end_triggered"})),
    "tiwanaku": (2, 3, frozenset({"final", "score"})),
    "pachakuna": (2, 3, frozenset()),
    "nowa_gwinea": (3, 5, frozenset({"gwinea", "deadline", "score", "round"})),
    "guanga": (2, 3, frozenset({"trigger"})),
}


@dataclasses.dataclass
class Post:
    text: str  # the post as the channel gets it
    told: list[str]  # the lines telling the turn
    records: list[MoveRecord]
    ends: bool  # it tells a round's end or the game's


def session_for(game: str, seats: int, seed: int) -> tuple[Session, Any]:
    """A started game of ``seats`` named players (the row as :func:`session_of` builds it)."""
    session = session_of(
        game,
        seats=seats,
        max_players=seats,
        status="active",
        id=1,
        guild_id=None,
        channel_id=0,
        host_id=0,
        seed=seed,
        version=0,
    )
    module = session.info.load()
    session.state = module.new_game(config_from_options(module.Config, seats, {}), seats, seed)
    session.seats = [Seat(i, i, 100 + i, NAMES[i], False, False, None) for i in range(seats)]
    return session, module


def played(game: str, t: Language = ENGLISH) -> Iterator[tuple[Session, Post]]:
    """The game played through; each turn's post as it ends (the session as it stands then)."""
    seats, seed, announcing = GAMES[game]
    session, module = session_for(game, seats, seed)
    state = session.state
    rng = random.Random(seed)
    batch: list[MoveRecord] = []
    number = 0
    while module.outcome(state) is None:
        before = module.turn_number(state)
        seat = min(module.to_move(state))
        move = module.computer_move(module.view_for(state, seat), list(module.legal_moves(state, seat)), rng)
        mark = module.move_privacy(state, seat, move)
        state, events = module.apply_move(state, seat, move)
        number += 1
        stored = tuple(Event.from_dict(e.to_dict()) for e in events)  # as the log gives them back
        batch.append(MoveRecord(seat, str(move), False, stored, mark, number))
        session.state = state
        outcome = module.outcome(state)
        if module.turn_number(state) == before and outcome is None:
            continue
        if outcome is not None:
            session.row = dataclasses.replace(session.row, status="finished", outcome=outcome.to_dict())
        finished = outcome is not None
        post = Post(
            texts.board_text(session, batch, t=t),
            texts.turn_lines(session, batch, finished=finished, t=t),
            batch,
            finished or any(e.kind in announcing for r in batch for e in r.events or ()),
        )
        yield session, post
        batch = []


def sentences_of(lines: list[str]) -> list[str]:
    return [s for line in lines for s in re.split(r"(?<=[.!?])\s+(?=[A-ZÁÉÍÓÚÑ¿¡])", line) if s]


def starts_with_name(text: str) -> str | None:
    return next((name for name in NAMES if text.startswith(name + " ")), None)


@pytest.mark.parametrize("code", ["en", "es"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_turn_post_is_a_few_short_lines_naming_the_player_once(game, code):
    t = ENGLISH if code == "en" else language(code)
    posts = 0
    for _session, post in played(game, t):
        posts += 1
        where = f"{game} post {posts}:\n{post.text}"
        lines = post.text.split("\n")
        if not post.ends:
            assert len(lines) <= MOST_LINES, where
        else:
            assert len(post.told) <= MOST_LINES - 1 + MORE_FOR_ENDS, where
        for line in post.told:
            assert len(line) <= LONGEST, where
            assert line in post.text, where
        said = sentences_of(post.told)
        for first, then in zip(said, said[1:], strict=False):
            name = starts_with_name(first)
            assert name is None or starts_with_name(then) != name, where
    assert posts > 5


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_history_keeps_every_step_the_post_sums_up(game):
    """The post merges steps; each move's history page still tells every one of them."""
    steps = 0
    for session, post in played(game):
        for record in post.records:
            page = movetexts.history_text(session, record.number or 0, record.number or 0, record, None)
            for event in record.events or ():
                line = event_line(session.engine, event, None)
                if line:
                    assert sentence(name_seats(line, session.names())) in page, (game, record.move)
                    steps += 1
    assert steps > 20


def test_a_guacamole_turn_told_as_a_player_tells_it():
    """Repeated draws are one clause, the dish's points are said, the name comes once."""
    session, module = session_for("guacamole", 3, 7)
    events = []
    state = session.state
    for move in ("prep 8O", "draw deck", "draw deck", "draw x2", "discard 9A x1"):
        state, more = module.apply_move(state, 0, move)
        events += more
    session.state = state
    record = MoveRecord(0, "moves", False, tuple(events), None, 1)
    (line,) = texts.turn_lines(session, [record])
    assert line == (
        "Alice prepared 8 Onion, drew 2 cards from the draw pile, took 6 Avocaldo from discard pile 2 "
        "and discarded 9 Aji onto discard pile 1."
    )
    (spanish,) = texts.turn_lines(session, [record], t=language("es"))
    assert spanish == (
        "Alice preparó 8 Onion, robó 2 cartas del mazo, tomó 6 Avocaldo de la pila de descarte 2 y "
        "descartó 9 Ají en la pila de descarte 1."
    )


def test_events_the_telling_does_not_know_are_told_as_they_were_said(caplog):
    """An event stored in a shape the game's telling does not know (an older kind of sentence)
    is told as the event said it, with a warning and no traceback; the post is never lost."""
    session, _ = session_for("guacamole", 3, 7)
    old = Event.told(said("{player} freed a card the old way.", player="{p0}"), kind="free")
    record = MoveRecord(0, "free 5T x1", False, (Event.from_dict(old.to_dict()),), None, 1)
    with caplog.at_level("WARNING", logger="bot.telling"):
        assert texts.turn_lines(session, [record]) == ["Alice freed a card the old way."]
    (warning,) = [r for r in caplog.records if r.name == "bot.telling"]
    assert warning.exc_info is None and "as its events said it" in warning.getMessage()


def test_a_guacamole_turn_told_as_its_events_said_it_names_the_cards_in_words():
    """A turn the game cannot tell (an event of an older shape) is told event by event, each
    sentence as the history reads it: Guacamole's cards in words, in English and Spanish."""
    session, _ = session_for("guacamole", 3, 7)
    old = Event.told(said("{player} freed {card} the old way.", player="{p0}", card="9A"), kind="free")
    record = MoveRecord(0, "free 9A x1", False, (Event.from_dict(old.to_dict()),), None, 1)
    assert texts.turn_lines(session, [record]) == ["Alice freed 9 Aji the old way."]
    assert texts.turn_lines(session, [record], t=language("es")) == ["Alice freed 9 Ají the old way."]


@pytest.mark.parametrize("code", ["en", "es"])
def test_a_guacamole_player_s_own_dish_is_theirs_in_their_own_line(code):
    """A card from the top of the mover's own dish is "their" card ("su" carta), not the mover
    named again in their own line; another player's dish keeps its owner's name."""
    t = language(code)
    own = r"their \d \w+ \(top of dish" if code == "en" else r"su \d \w+ \(lo alto del plato"
    other = r"'s \d \w+ \(top of dish" if code == "en" else r"\d \w+ de \w+ \(lo alto del plato"
    seen_own = seen_other = 0
    for _, post in played("guacamole", t):
        for line in post.told:
            mover = line.split(" ", 1)[0]
            if code == "en":
                assert not re.search(rf"{mover}'s \d \w+ \(top of dish", line), line
            else:
                assert not re.search(rf"\d \w+ de {mover} \(lo alto del plato", line), line
            seen_own += bool(re.search(own, line))
            seen_other += bool(re.search(other, line))
    assert seen_own and seen_other  # the seeded game has both kinds of swap


@pytest.mark.parametrize("code", ["en", "es"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_boards_last_action_is_what_the_last_move_did(game, code):
    """The board's header line "Last:" (and so its alt text) is the first line everyone may read
    of the last move, also when the move said several things: never a bare count of lines left out."""
    t = ENGLISH if code == "en" else language(code)
    several = 0
    for session, post in played(game, t):
        lines = [
            line for e in post.records[-1].events or () if (line := event_line(session.engine, e, None, t))
        ]
        if not lines:
            continue
        last = texts.last_action(session, post.records, t)
        assert last == name_seats(lines[0], session.names()), (game, post.records[-1].move, last)
        several += len(lines) > 1
    assert several  # the seeded game has moves that say more than one thing


@pytest.mark.parametrize("code", ["en", "es"])
def test_a_guacamole_player_s_own_preparation_zone_is_theirs_in_their_own_line(code):
    """A card swapped out of the mover's own preparation zone is "their" card from the
    "(preparation zone)" ("su ... (zona de preparación)"), not the mover named again in their own line."""
    t = language(code)
    own = (
        r"swapped their \d \w+ \(preparation zone\)"
        if code == "en"
        else r"cambió su \d \w+ \(zona de preparación\)"
    )
    seen_own = 0
    for _, post in played("guacamole", t):
        for line in post.told:
            mover = line.split(" ", 1)[0]
            named = (
                rf"{mover}'s \d \w+ \(preparation zone"
                if code == "en"
                else rf"de {mover} \(zona de preparación"
            )
            assert not re.search(named, line), line
            seen_own += bool(re.search(own, line))
    assert seen_own  # the seeded game has such a swap
