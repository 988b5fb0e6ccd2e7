"""A post tells each turn apart, even when one seat plays several turns in a row: a solo
player's turns (Guanga alone) are told as separate turns, not merged into one run whose repeated
steps read as one turn's."""

from __future__ import annotations

import dataclasses
import random

from bot import movetexts, telling, texts
from bot.records import MoveRecord
from bot.sessions import Session, SessionService
from bot.sessions.model import apply, stored
from bot.telling import told_turns
from engines.core import said
from languages import language
from tests.table.test_turn_posts import session_for

GUILD, CH = 10, 300


def _solo_turns(turns: int) -> tuple[object, list[list[MoveRecord]]]:
    """A solo Guanga game played ``turns`` turns by the computer player through the table's
    :func:`apply` (real events, as the log stores them): the session and each turn's records."""
    session, module = session_for("guanga", 1, 3)
    state = session.state
    rng = random.Random(3)
    out: list[list[MoveRecord]] = []
    number = 0
    while len(out) < turns:
        before = module.turn_number(state)
        moves: list[MoveRecord] = []
        while module.turn_number(state) == before:
            move = module.computer_move(module.view_for(state, 0), list(module.legal_moves(state, 0)), rng)
            state, played = apply(module, state, 0, move, by_computer=False)
            number += 1
            moves.append(dataclasses.replace(played, number=number))
        out.append(moves)
    session.state = state
    return session, out


def test_the_table_records_each_moves_turn():
    """A move applied by the table carries the engine's turn number from before it."""
    _, turns = _solo_turns(3)
    numbers = [{r.turn for r in turn} for turn in turns]
    assert all(len(n) == 1 for n in numbers) and len({n.pop() for n in numbers}) == 3


def test_a_solo_players_turns_are_told_apart():
    """Three turns of the one seat in one post: three turns told, each as it is told alone
    (its own name, its own merged steps), in English and Spanish; the same moves without turn
    numbers (as old log rows come) are still one seat's run."""
    session, turns = _solo_turns(3)
    assert all(len(turn) >= 2 for turn in turns[:2]), turns  # turns of several steps each
    every = [r for turn in turns for r in turn]
    for t in (language("en"), language("es")):
        told = told_turns(session, every, t=t)
        assert told == [told_turns(session, turn, t=t)[0] for turn in turns], told
        assert len(told) == 3
    unknown = [dataclasses.replace(r, turn=None) for r in every]
    assert len(told_turns(session, unknown)) == 1


async def _solo_game(service) -> tuple[Session, list[int]]:
    """A solo Guanga game played through the table (the computer player choosing the moves of the
    one person) until its third turn: the session, and the turn number before each move."""
    await service.lobby.create("guanga", guild_id=GUILD, channel_id=CH, host_id=1, host_name="ann", seed=3)
    session = (await service.lobby.start(CH, 1)).session
    module = session.engine
    rng = random.Random(5)
    turn_of: list[int] = []
    while module.turn_number(session.state) < 3 and session.status == "active":
        turn_of.append(module.turn_number(session.state))
        move = module.computer_move(
            module.view_for(session.state, 0), list(module.legal_moves(session.state, 0)), rng
        )
        session = (await service.play.play(CH, 1, str(move))).session
    assert turn_of.count(1) >= 2 and turn_of.count(2) >= 1
    return session, turn_of


def _told_apart(session: Session, records: list[MoveRecord]) -> None:
    """``records`` (a solo game's turns 1 and 2) are told as two turns, each as it is told alone."""
    told = told_turns(session, records)
    assert len(told) == 2
    by_turn = [[r for r in records if r.turn == n] for n in (1, 2)]
    assert told == [told_turns(session, turn)[0] for turn in by_turn]
    post = texts.board_text(session, records)
    assert all(line in post for turn in told for line in turn)


async def test_the_channel_is_told_a_solo_players_turns_apart_from_the_log(service):
    """The log keeps each move's turn number: a post telling two turns of a solo game (a post was
    missed) reads them with the untold moves and tells the turns apart, as two turns."""
    session, turn_of = await _solo_game(service)
    assert [r.turn for r in await service.store.history.moves(session.id)] == turn_of
    records = await service.logbook.untold(session)
    assert [r.turn for r in records] == turn_of
    _told_apart(session, records)


async def test_the_turns_are_read_back_after_a_restart(database, clock):
    """Moves committed, the bot restarted: the new process's table reads the untold moves with
    their turn numbers from the log, and tells the turns apart."""
    store = await database.open(clock)
    try:
        session, turn_of = await _solo_game(SessionService(store))
    finally:
        await store.close()
    store = await database.open(clock)
    try:
        service = SessionService(store)
        again = await service.core.get(session.id)
        assert again is not None and again.row.told_through == session.row.told_through
        records = await service.logbook.untold(again)
        assert [r.turn for r in records] == turn_of
        _told_apart(again, records)
    finally:
        await store.close()


async def test_moves_logged_without_turns_are_told_as_before(service):
    """Log rows from before turn numbers were kept (NULL) come without them, and a seat's moves in
    a row are told as one run, as they were."""
    await service.lobby.create("guanga", guild_id=GUILD, channel_id=CH, host_id=1, host_name="ann", seed=3)
    session = (await service.lobby.start(CH, 1)).session
    module = session.engine
    state, rng, rows, turns = session.state, random.Random(5), [], set()
    while module.turn_number(state) < 3:
        move = module.computer_move(module.view_for(state, 0), list(module.legal_moves(state, 0)), rng)
        state, played = apply(module, state, 0, move, by_computer=False)
        turns.add(played.turn)
        rows.append(dataclasses.replace(stored(played), turn=None))  # as a row of an older log
    assert turns == {1, 2}
    await service.store.games.record_moves(session.id, session.version, rows, module.to_dict(state))
    session = await service.core.reread(session.id)
    records = await service.logbook.untold(session)
    assert len(records) == len(rows) and all(r.turn is None for r in records)
    told = told_turns(session, records)
    assert len(told) == 1
    assert told == told_turns(session, [dataclasses.replace(r, turn=1) for r in records])


def test_a_line_that_starts_with_a_name_keeps_the_name_as_written():
    """A player called ``ñandú`` or ``dj bo`` (lower case, as they wrote it) is not given a capital
    where a told line, a history page or the table's note starts with their name; a line that
    starts with anything else still gets its capital."""
    session, module = session_for("guanga", 2, 3)
    session.seats = [
        dataclasses.replace(s, name=n) for s, n in zip(session.seats, ("ñandú", "dj bo"), strict=True)
    ]
    state, rng, records = session.state, random.Random(3), []
    while len({r.seat for r in records}) < 2:
        (seat,) = module.to_move(state)
        move = module.computer_move(module.view_for(state, seat), list(module.legal_moves(state, seat)), rng)
        state, played = apply(module, state, seat, move, by_computer=False)
        records.append(dataclasses.replace(played, number=len(records) + 1))
    session.state = state
    for t in (language("en"), language("es")):
        told = "\n".join(texts.turn_lines(session, records, t=t))
        assert "ñandú" in told and "dj bo" in told, told
        assert "Ñandú" not in told and "Dj bo" not in told, told
        page = movetexts.history_text(session, 1, len(records), records[0], None, t)
        assert "\nñandú" in page or "\ndj bo" in page, page
        assert "Ñandú" not in page and "Dj bo" not in page, page
        note = texts.board_text(session, [], notes=(said("{name} resigned", name="dj bo"),), t=t)
        assert note.startswith("dj bo"), note
    assert telling.sentence("the table played.", ["dj bo"]) == "The table played."


def test_a_name_is_kept_only_where_it_is_the_lines_first_word():
    """A player named "t" or "the" reads "The deck ran out.", not "the deck ran out."; a line
    that starts with their name keeps it ("t drew a card.", "the's dish")."""
    assert telling.sentence("the deck ran out", ["t", "ann"]) == "The deck ran out."
    assert telling.sentence("there is no card left", ["the"]) == "There is no card left."
    assert telling.sentence("t drew a card", ["t"]) == "t drew a card."
    assert telling.sentence("the's dish is valid again", ["the"]) == "the's dish is valid again."
    assert telling.sentence("ann.", ["ann"]) == "ann."
    assert telling.sentence("dj bo. took a card", ["dj bo."]) == "dj bo. took a card."
