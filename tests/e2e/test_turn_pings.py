"""Who a board pings, read from the allowed mentions the stand-in records: a person who wants
mentions is pinged once a turn, when the turn begins (the first board, a board telling a move that
ended a turn or a round, an undo that brings back an earlier turn); a board posted inside a turn (a
hut taken back inside a Nowa Gwinea round, a league seat handed to a substitute) names those still
to move without pinging them again."""

from __future__ import annotations

from tests.e2e.conftest import BASE_EXTENSIONS
from tests.e2e.leagues import HOUR, guacamole_with_substitute, posts_with
from tests.e2e.players import start
from tests.e2e.test_notices import is_board
from tests.e2e.test_shared_round_notices import move, take_back_a_hut
from tests.e2e.test_undo import nim_game
from tests.support import nim

EXTENSIONS = (*BASE_EXTENSIONS, "cogs.nowa_gwinea", "cogs.guacamole", "cogs.league")


def boards(standin, chan) -> list:
    return [m for m in standin.messages(chan) if is_board(m)]


async def test_a_hut_taken_back_inside_a_round_pings_nobody_and_the_next_round_pings_everyone(
    standin, bot_factory
):
    """Three builders who want mentions (the default): the first board pings all three; Alice's
    hut taken back with everyone's agreement posts a board inside the round, which pings nobody
    and says who is still to move by name; the board that begins round 2 pings all three again."""
    alice, bob, carol = people = standin.add_users("alice", "bob", "carol")
    everyone = frozenset(u.id for u in people)
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await start(standin, bot, chan, "nowa_gwinea", people, seed=3)
        await standin.settle()
        await bot.front.catchup.drain()
        (first,) = boards(standin, chan)
        assert first.pinged == everyone

        await take_back_a_hut(standin, bot, chan, alice, (bob, carol))
        undone = boards(standin, chan)[-1]
        assert "took back" in undone.content and undone.pinged == frozenset(), undone.content
        line = undone.content.splitlines()[-1]
        assert line == "**Still to move:** Alice, Bob, Carol", undone.content
        assert "**Next:**" not in undone.content and "<@" not in line

        for user in people:
            await move(standin, bot, chan, user, "done")
        assert (await bot.sessions.core.in_channel(chan.id)).state.round == 2
        second = boards(standin, chan)[-1]
        assert second.pinged == everyone, second.content
        assert "**Next:** " in second.content and all(f"<@{u.id}>" in second.content for u in people)


async def test_an_undo_that_brings_back_an_earlier_turn_pings_whose_turn_it_is(standin, bot_factory):
    """Nim: the first player's move ends their turn; they take it back with the other's agreement,
    so the board after the undo begins their turn again: it pings them, and only them."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        session, first, other = await nim_game(standin, bot, chan, alice, bob)
        taken = min(nim.legal_moves(session.state, session.seat_of(first.id).seat), key=lambda m: m.count)
        await (await standin.slash(first, chan, "nim move", move=str(taken))).original()
        await standin.settle()
        assert boards(standin, chan)[-1].pinged == {other.id}

        await (await standin.slash(first, chan, "game undo")).original()
        request = await standin.next_message(chan, lambda m: "asks to take back" in m.content and m.buttons)
        await (await standin.click(other, request, "Agree")).original()
        board = await standin.next_message(chan, lambda m: is_board(m) and "took back" in m.content)
        assert board.pinged == {first.id}, board.content
        assert board.content.splitlines()[-1] == f"**Next:** <@{first.id}>", board.content


async def test_the_board_after_a_handover_pings_nobody_again(standin, bot_factory, table_clock):
    """A league game held up by its first player: the organiser hands the seat to a substitute.
    The handover's post pings the substitute (who wants mentions), and the board after it, posted
    inside the turn, pings nobody: it names the substitute as still to move."""
    games = standin.channel("games")
    *players, sub = standin.add_users("ana", "beto", "cusi", "sub")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        _, session = await guacamole_with_substitute(standin, bot, games, players, sub, 1)
        thread = standin.channel(session.row.channel_id)
        (late_seat,) = session.waiting_on()
        assert boards(standin, thread)[-1].pinged == {late_seat.user_id}
        late = next(u for u in players if u.id == late_seat.user_id)

        table_clock.advance(7 * HOUR)  # the game is late: the organiser hands the seat over
        shown = await (await standin.slash(standin.owner, games, "league overdue")).original()
        await (await standin.click(standin.owner, shown, "Substitute at table 1")).original()
        await standin.settle()
        await bot.front.catchup.drain()
        (handed,) = posts_with(standin, thread, "takes " + late.name.title() + "'s seat")
        assert handed.pinged == {sub.id}
        (board,) = posts_with(standin, thread, "the board now")
        assert is_board(board) and board.pinged == frozenset(), board.content
        assert board.content.splitlines()[-1] == "**Still to move:** Sub", board.content
