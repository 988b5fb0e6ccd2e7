"""Computers keep the people's pace in a simultaneous round (Nowa Gwinea's race to call Gwinea):
one computer move per move a person makes, also when the table plays the computers' turns later
(a strong computer's turn after the person's move was posted, or at the bot's next start)."""

from __future__ import annotations

from bot.history import History
from bot.sessions import SessionService
from bot.undo import Undone, UndoService

GUILD, CH = 10, 200


async def nowa_gwinea(service: SessionService, *levels: str) -> int:
    """A started Nowa Gwinea game of ann (user 1) and computers at ``levels``; its id."""
    service.computers_wait = True  # as the bot plays: a person's move is posted before searches
    await service.lobby.create(
        "nowa_gwinea", guild_id=GUILD, channel_id=CH, host_id=1, host_name="ann", seed=5
    )
    for level in levels:
        await service.lobby.add_computer(CH, 1, level)
    return (await service.lobby.start(CH, 1)).session.id


async def test_a_restart_gives_no_computer_a_move_the_person_has_not_matched(service):
    """After ann's move every computer has made its one move: at the bot's next start no game
    waits for a computer, and asking the computers to play moves nobody."""
    session_id = await nowa_gwinea(service, "normal", "normal")
    legal = await service.play.legal_moves(CH, 1)
    result = await service.play.play(CH, 1, legal[0])
    assert not result.computers_next and result.session.status == "active"
    moves = len(await service.store.history.moves(session_id))
    await service.store.games.set_board_message(session_id, 1, moves)  # the channel was told it all
    assert await service.play.computers_waiting([GUILD]) == []
    assert await service.play.computers_play(session_id) is None
    assert len(await service.store.history.moves(session_id)) == moves


async def test_a_seat_left_mid_round_moves_and_the_other_computer_waits_for_a_person(service):
    """ann resigns mid-round: the computer that takes her seat makes its move, and the computer
    that already moved after bob's last move waits for bob's next."""
    await service.lobby.create(
        "nowa_gwinea", guild_id=GUILD, channel_id=CH, host_id=1, host_name="ann", seed=5
    )
    await service.lobby.join(CH, 2, "bob")
    await service.lobby.add_computer(CH, 1, "normal")
    session = (await service.lobby.start(CH, 1)).session
    for user in (1, 2):
        legal = await service.play.legal_moves(CH, user)
        session = (await service.play.play(CH, user, legal[0])).session
    ann, cpu = session.seat_of(1).seat, next(s.seat for s in session.seats if s.computer)
    before = len(await service.store.history.moves(session.id))
    result = await service.seats.resign(CH, 1)
    assert result.session.status == "active"
    assert [p.seat for p in result.played] == [ann]
    assert [r.seat for r in (await service.store.history.moves(session.id))[before:]] == [ann]
    assert cpu in result.session.to_move()  # it moves again after bob's next move


async def test_an_undo_mid_round_gives_the_computer_no_extra_hut(service):
    """ann takes back her hut: the computer's hut after it goes back too, and the computer, which
    had already matched ann's moves before it, waits for her next move (its village is as it was)."""
    session_id = await nowa_gwinea(service, "normal")
    for _ in range(2):
        session = await service.core.require(CH)
        legal = await service.play.legal_moves(CH, 1)
        await service.play.play(CH, 1, legal[0])
    cpu = next(s.seat for s in session.seats if s.computer)
    huts = session.engine.view_for(session.state, None).huts[cpu]  # before ann's second hut
    undo = UndoService(service, History(service))
    done = await undo.ask(CH, 1)
    assert isinstance(done, Undone) and done.result.session.status == "active"
    after = await service.core.require(CH)
    assert after.engine.view_for(after.state, None).huts[cpu] == huts
    assert [r.seat for r in (await service.store.history.moves(session_id))][-1] != cpu
