"""Undo by consent through the session service: taken back at once against computers, asked of
the other people otherwise, refused after chance or a reveal, and recorded as a log entry."""

from __future__ import annotations

import pytest

from bot import export, movetexts
from bot.history import History
from bot.replaying import standing, undo_target
from bot.sessions import NotSeated, Refusal, StaleMove
from bot.undo import Asked, Undone, UndoService
from engines.core import rng_for
from languages import language
from tests.support import nim

GUILD = 1


def services(service):
    history = History(service, every=3)
    return history, UndoService(service, history)


async def nim_pair(service, channel, *, computer=False, seed=7):
    await service.lobby.create(
        "nim", guild_id=GUILD, channel_id=channel, host_id=1, host_name="ann", seed=seed
    )
    if computer:
        await service.lobby.add_computer(channel, 1)
    else:
        await service.lobby.join(channel, 2, "bob")
    return (await service.lobby.start(channel, 1)).session


def mover(session):
    (seat,) = session.to_move()
    return session.by_seat(seat).user_id


async def test_against_a_computer_the_undo_is_immediate_and_logged(service):
    session = await nim_pair(service, 300, computer=True)
    history, undo = services(service)
    if mover(session) != 1:  # the computer opened: ann's turn now
        pass
    for _ in range(2):
        legal = await service.play.legal_moves(300, 1)
        session = (await service.play.play(300, 1, legal[0])).session
    before_rows = await service.store.history.moves(session.id)
    my_last = max(r.number for r in before_rows if r.seat == session.seat_of(1).seat)
    expected, _ = await history.state_at(session, my_last - 1)
    turn_asked = nim.turn_number((await service.core.get(session.id)).state)
    asked = await undo.ask(300, 1)
    assert isinstance(asked, Undone) and asked.target == my_last
    session = await service.core.get(session.id)
    assert nim.to_dict(session.state) == nim.to_dict(expected)
    rows = await service.store.history.moves(session.id)
    assert rows[: len(before_rows)] == before_rows  # nothing deleted
    assert undo_target(rows[-1].move) == my_last and len(rows) >= len(before_rows) + 1
    assert rows[-1].turn == turn_asked  # the entry's turn: the one it was agreed in
    assert nim.to_dict(await service.logbook.replay(session.id)) == nim.to_dict(session.state)
    # The history shows every entry, and a page after the undo entry is the state it restored.
    page = await history.page(session, rows[-1].number) if session.row.told_through else None
    assert page is None or nim.to_dict(page.state) == nim.to_dict(session.state)
    state_after_entry, _ = await History(service, every=2).state_at(session, len(before_rows) + 1)
    assert nim.to_dict(state_after_entry) == nim.to_dict(expected)


async def test_the_other_player_refuses_then_agrees(service):
    session = await nim_pair(service, 301)
    _, undo = services(service)
    first = mover(session)
    other = 3 - first
    with pytest.raises(Refusal, match="no move in this game"):
        await undo.ask(301, first)
    legal = await service.play.legal_moves(301, first)
    session = (await service.play.play(301, first, legal[0])).session
    state = nim.to_dict(session.state)
    asked = await undo.ask(301, first)
    assert isinstance(asked, Asked) and asked.request.waiting == {session.seat_of(other).seat}
    with pytest.raises(Refusal, match="you asked"):
        await undo.answer(session.id, asked.request.version, first, True)
    with pytest.raises(NotSeated, match="you are not playing in this game"):
        await undo.answer(session.id, asked.request.version, 99, True)
    refused = await undo.answer(session.id, asked.request.version, other, False)
    assert not refused.agreed and refused.result is None
    assert nim.to_dict((await service.core.get(session.id)).state) == state
    with pytest.raises(Refusal, match="no longer open"):
        await undo.answer(session.id, asked.request.version, other, True)
    asked = await undo.ask(301, first)
    done = await undo.answer(session.id, asked.request.version, other, True)
    assert done.result is not None
    session = await service.core.get(session.id)
    assert mover(session) == first  # back before the move
    assert nim.to_dict(await service.logbook.replay(session.id)) == nim.to_dict(session.state)


async def test_a_move_meanwhile_voids_the_request(service):
    session = await nim_pair(service, 302)
    _, undo = services(service)
    first = mover(session)
    other = 3 - first
    session = (await service.play.play(302, first, (await service.play.legal_moves(302, first))[0])).session
    asked = await undo.ask(302, first)
    await service.play.play(302, other, (await service.play.legal_moves(302, other))[0])
    with pytest.raises(Refusal, match="no longer open"):
        await undo.answer(session.id, asked.request.version, other, True)


async def test_a_card_drawn_forbids_the_undo(service):
    """Guacamole: a turn ends by drawing cards, so once it is over it cannot be taken back;
    a step that only moves visible cards (passing an ability) can."""
    await service.lobby.create(
        "guacamole", guild_id=GUILD, channel_id=303, host_id=1, host_name="ann", seed=4
    )
    await service.lobby.add_computer(303, 1)
    session = (await service.lobby.start(303, 1)).session
    _, undo = services(service)
    module = session.engine
    seat = session.seat_of(1).seat
    i, drew, took_back = 0, False, False
    while not drew:  # ann's turn, up to its first draw
        legal = list(module.legal_moves(session.state, seat))
        move = module.computer_move(module.view_for(session.state, seat), legal, rng_for(4, i))
        if str(move) == "pass" and not took_back:
            took_back = True
            session = (await service.play.play(303, 1, "pass")).session
            asked = await undo.ask(303, 1)  # passing an ability moves nothing hidden: taken back
            assert isinstance(asked, Undone)
            session = await service.core.get(session.id)
            continue
        drew = str(move).startswith("draw")
        session = (await service.play.play(303, 1, str(move))).session
        i += 1
    with pytest.raises(Refusal, match="involved chance"):
        await undo.ask(303, 1)
    data = await export.export_session(service, session)
    assert "seed" not in data


async def test_an_undo_entry_replays_in_exports(service):
    session = await nim_pair(service, 304, computer=True, seed=3)
    _, undo = services(service)
    legal = await service.play.legal_moves(304, 1)
    await service.play.play(304, 1, legal[0])
    await undo.ask(304, 1)
    session = await service.core.get(session.id)
    while session.status == "active":
        legal = await service.play.legal_moves(304, 1)
        session = (await service.play.play(304, 1, legal[-1])).session
    data = export.load(export.dump(await export.export_session(service, session)))
    assert any("undo" in m for m in data["moves"])
    final = list(export.replay(data))[-1].state
    assert nim.to_dict(final) == nim.to_dict(session.state)


def test_standing_counts_moves_that_stand_and_were_told():
    """The count /game status shows: undo entries and the moves they took back leave it, and so
    do steps after what the channel was told of."""
    from types import SimpleNamespace as E

    log = [E(number=1, seat=0, move="a"), E(number=2, seat=1, move="b"), E(number=3, seat=1, move="!undo 2")]
    log += [E(number=4, seat=1, move="c"), E(number=5, seat=0, move="d"), E(number=6, seat=0, move="e")]
    assert standing(log) == 4  # a, c, d, e
    assert standing(log, through=4) == 2  # d and e: a turn not yet told
    assert standing(log[:3]) == 1
    assert standing([]) == 0


async def test_the_moves_played_are_those_the_channel_was_told_of(service):
    """/game status's count in a running game: moves after the channel's last board (a turn still
    being played) are not counted yet; the whole log counts once the game is over."""
    session = await nim_pair(service, 310)
    for _ in range(3):
        mine = mover(session)
        legal = await service.play.legal_moves(310, mine)
        session = (await service.play.play(310, mine, legal[0])).session
    assert len(await service.store.history.moves(session.id)) == 3
    await service.store.games.set_board_message(session.id, 99, told_through=2)
    session = await service.core.get(session.id)
    assert session.row.told_through == 2 and await service.logbook.moves_played(session) == 2
    ended = await service.seats.abandon(310, 1, can_manage=True)
    assert ended.status == "abandoned" and await service.logbook.moves_played(ended) == 3


async def test_a_menu_stamp_made_before_an_undo_never_matches_after_it(service):
    """Bob's menu is stamped on his turn; Ann's move before it is taken back and she plays
    another, so his turn comes round again at the same turn number with as many moves of his:
    the menu's stamp is stale, and a move carrying it is refused and changes nothing."""
    session = await nim_pair(service, 303)
    _, undo = services(service)
    first = mover(session)
    other = 3 - first
    legal = await service.play.legal_moves(303, first)
    session = (await service.play.play(303, first, legal[0])).session
    seat = session.seat_of(other).seat
    stamp = await service.play.stamp(session, seat)
    asked = await undo.ask(303, first)
    await undo.answer(session.id, asked.request.version, other, True)
    session = (await service.play.play(303, first, legal[-1])).session
    assert nim.turn_number(session.state) == int(stamp.split(".")[0])  # the same turn again
    assert await service.play.stamp(session, seat) != stamp
    offered = await service.play.legal_moves(303, other)
    with pytest.raises(StaleMove, match="since that menu was made"):
        await service.play.play_in(session.id, other, offered[0], expected_stamp=stamp)
    assert (await service.core.get(session.id)).version == session.version


async def test_an_undo_entry_is_not_a_move_when_asking_whether_a_seat_moved(service, clock):
    """``moved_since`` with the undo entries' prefix left out: a time-out question closed by an
    undo past it says the game changed, not that the late player moved (both back ends)."""
    from bot.history import History
    from bot.replaying import UNDO
    from bot.time.source import stamp_of
    from bot.undo import Asked, UndoService

    await service.lobby.create("nowa_gwinea", guild_id=1, channel_id=321, host_id=1, host_name="ann", seed=5)
    await service.lobby.join(321, 2, "bob")
    session = (await service.lobby.start(321, 1)).session
    undo = UndoService(service, History(service, every=3))
    builds = [m for m in await service.play.legal_moves(321, 1) if m != "done"]
    await service.play.play(321, 1, builds[0])
    clock.advance(60)
    since = stamp_of(clock.time())
    asked = await undo.ask(321, 1)
    assert isinstance(asked, Asked)
    await undo.answer(asked.request.session_id, asked.request.version, 2, True)
    history = service.store.history
    assert await history.moved_since(session.id, 0, since)  # the undo entry is Ann's
    assert not await history.moved_since(session.id, 0, since, besides=UNDO)
    await service.play.play(321, 1, builds[-1])
    assert await history.moved_since(session.id, 0, since, besides=UNDO)


@pytest.mark.parametrize(
    ("code", "line"),
    [
        ("en", "ann took back 2 moves, from move 1, with nobody else to ask"),
        ("es", "ann deshizo 2 jugadas, desde la jugada 1, sin nadie más a quien preguntar"),
    ],
    ids=["en", "es"],
)
async def test_an_undo_against_a_computer_claims_no_agreement(service, code, line):
    """Taken back at once (ann's move and the computer's answer), with nobody else to ask, the
    undo's line claims nobody's agreement."""
    session = await nim_pair(service, 302, computer=True)
    _, undo = services(service)
    legal = await service.play.legal_moves(302, 1)
    await service.play.play(302, 1, legal[0])
    asked = await undo.ask(302, 1)
    assert isinstance(asked, Undone) and asked.target == 1 and len(asked.moves) == 2
    session = await service.core.get(session.id)
    records = await service.logbook.log(session)
    logged = movetexts.log_text(session, records, None, language(code)).splitlines()[-1]
    assert logged == f"3. {line}", logged
