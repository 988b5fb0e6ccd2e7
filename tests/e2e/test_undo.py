"""/game undo end to end: accepted and refused by the other player's buttons, refused after a
card was drawn, and a stale request's button answered plainly."""

from __future__ import annotations

from bot.app import EXTENSIONS
from engines.core import rng_for
from tests.support import nim

ALL = (*EXTENSIONS, "tests.support.nim_cog")


def is_board(message) -> bool:
    return bool(message.files) and not message.ephemeral


async def nim_game(standin, bot, chan, alice, bob):
    lobby = await standin.slash(alice, chan, "nim new", thread=False, piles=3)
    await standin.click(bob, lobby.message, "Join")
    await standin.click(alice, lobby.message, "Start")
    await standin.next_message(chan, is_board)
    session = await bot.sessions.core.in_channel(chan.id)
    (seat,) = session.to_move()
    first = alice if session.by_seat(seat).user_id == alice.id else bob
    return session, first, (bob if first is alice else alice)


async def test_undo_agreed_and_refused_by_buttons(standin, bot_factory):
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        session, first, other = await nim_game(standin, bot, chan, alice, bob)
        legal = await bot.sessions.play.legal_moves(chan.id, first.id)
        start = nim.to_dict(session.state)
        await (await standin.slash(first, chan, "nim move", move=legal[0])).original()

        # Refused by the other player's button: nothing changes.
        asked = await (await standin.slash(first, chan, "game undo")).original()
        assert asked.ephemeral and "Asked" in asked.content
        request = await standin.next_message(chan, lambda m: "asks to take back" in m.content)
        assert other.id in request.pinged and first.id not in request.pinged
        mine = await standin.click(first, request, "Agree")
        assert "You asked" in (await mine.original()).content
        refused = await standin.click(other, request, "Refuse")
        assert refused.type == 7 and "refused" in refused.content
        after = await bot.sessions.core.get(session.id)
        assert nim.to_dict(after.state) != start and after.status == "active"

        # Agreed: the game goes back before the move, and a new board says so.
        await (await standin.slash(first, chan, "game undo")).original()
        request = await standin.next_message(chan, lambda m: "asks to take back" in m.content and m.buttons)
        agreed = await standin.click(other, request, "Agree")
        assert agreed.type == 7 and "taken back" in agreed.content
        board = await standin.next_message(chan, lambda m: is_board(m) and "took back" in m.content)
        assert first.id in board.pinged
        after = await bot.sessions.core.get(session.id)
        assert nim.to_dict(after.state) == start
        rows = await bot.sessions.store.history.moves(session.id)
        assert len(rows) == 2 and rows[1].move == "!undo 1"  # the log keeps the move and the undo
        log = await (await standin.slash(other, chan, "game log")).original()
        assert "took back" in log.content

        # A request voided by a move: its button says so.
        legal = await bot.sessions.play.legal_moves(chan.id, first.id)
        await (await standin.slash(first, chan, "nim move", move=legal[0])).original()
        await (await standin.slash(first, chan, "game undo")).original()
        request = await standin.next_message(chan, lambda m: "asks to take back" in m.content and m.buttons)
        legal = await bot.sessions.play.legal_moves(chan.id, other.id)
        await (await standin.slash(other, chan, "nim move", move=legal[0])).original()
        late = await standin.click(other, request, "Agree")
        assert "no longer open" in (await late.original()).content


async def test_undo_refused_after_a_card_was_drawn(standin, bot_factory):
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        lobby = await standin.slash(alice, chan, "guacamole new", thread=False, players=2)
        await standin.click(alice, lobby.message, "Add computer")
        await standin.click(alice, lobby.message, "Start")
        await standin.next_message(chan, is_board)
        session = await bot.sessions.core.in_channel(chan.id)
        module, seat, i = session.engine, session.seat_of(alice.id).seat, 0
        while True:
            legal = list(module.legal_moves(session.state, seat))
            move = str(module.computer_move(module.view_for(session.state, seat), legal, rng_for(2, i)))
            await (await standin.slash(alice, chan, "guacamole move", move=move)).original()
            session = await bot.sessions.core.get(session.id)
            i += 1
            if move.startswith("draw"):
                break
        version = session.version
        refused = await (await standin.slash(alice, chan, "game undo")).original()
        assert refused.ephemeral and "involved chance" in refused.content
        assert (await bot.sessions.core.get(session.id)).version == version
