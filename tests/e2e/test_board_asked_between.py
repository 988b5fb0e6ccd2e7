"""A ``/game board`` asked between a move's commit and that move's own post: the move's post still
goes out and does what follows a board (a pass declared ahead played, the watchers told), though
the board asked for told its move first.  (The second board can read "Still to move: ..." alone;
skipping it lost these, so it stays.)"""

from __future__ import annotations

from tests.e2e.players import to_move
from tests.e2e.test_notices import EXTENSIONS as NOTICE_EXTENSIONS
from tests.e2e.test_notices import start_game
from tests.e2e.test_waits import EXTENSIONS as WAIT_EXTENSIONS
from tests.e2e.test_waits import ok, tiwanaku_final_round


async def _begun(standin, bot, alice, bob, piles=3):
    await standin.wait_synced()
    thread, _ = await start_game(standin, bot, standin.channel("games"), alice, bob, piles=piles)
    seen = len(standin.messages(thread))
    user, now = await to_move(bot, thread, (alice, bob))
    return thread, seen, user, now


async def test_a_pass_declared_ahead_is_played_when_a_game_board_told_the_move_that_brought_the_turn(
    standin, bot_factory, table_clock
):
    """Tiwanaku's final round: Y declared a pass ahead.  X passes; before X's move is posted,
    someone types /game board (its board tells X's move and calls on nobody).  X's own post still
    follows, and with it what follows a board that ended a turn (``Waits.posted``): Y's pass
    declared ahead is played, where a post skipped for having nothing new to tell left Y to move,
    their clock running."""
    alice, bob, carol = users = standin.add_users("alice", "bob", "carol")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory((*WAIT_EXTENSIONS, "cogs.tiwanaku"))) as bot:
        await standin.wait_synced()
        thread, session, result = await tiwanaku_final_round(standin, bot, chan, users)
        await bot.front.boards.announce(result)
        await bot.front.catchup.drain()
        engine = session.engine
        (first,) = session.to_move()
        after_first, _ = engine.apply_move(session.state, first, engine.parse_move("pass"))
        (second,) = engine.to_move(after_first)
        x, y = (next(u for u in users if u.id == session.by_seat(s).user_id) for s in (first, second))
        declared = await ok(standin, y, thread, "play pass-ahead")
        assert declared.content.startswith("Declared")
        played = await bot.sessions.play.play_in(session.id, x.id, "pass")  # stored; its post comes next
        await (await standin.slash(y, thread, "game board")).original()  # told first
        await bot.front.boards.announce(played)  # X's own post
        await bot.front.catchup.drain()
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        moves = [(m.seat, m.move) for m in await bot.store.history.moves(session.id)]
        assert moves[-2:] == [(first, "pass"), (second, "pass")], (
            f"Y's pass declared ahead was not played; last moves {moves[-2:]}, "
            f"declared passes still stored: {await bot.store.waits.passes(session.id)}"
        )


async def test_a_watcher_hears_of_a_move_whose_board_a_game_board_posted_first(standin, bot_factory):
    """Carol watches Alice and Bob's game.  Alice's move is stored; before its board is posted, Bob
    types /game board (a board asked for again, which is never sent to watchers).  Alice's own
    post still goes out and reaches Carol (a post skipped for having nothing new to tell sent her
    nothing at all for Alice's move)."""
    alice, bob, carol = standin.add_users("alice", "bob", "carol")
    async with standin.run_client(bot_factory(NOTICE_EXTENSIONS)) as bot:
        thread, seen, user, _ = await _begun(standin, bot, alice, bob)
        other = bob if user is alice else alice
        session = await bot.sessions.core.in_channel(thread.id)
        await bot.store.waits.watch(session.id, carol.id, True)
        before = len(standin.messages(standin.dm(carol)))
        played = await bot.sessions.play.play(thread.id, user.id, "A1")
        await (await standin.slash(other, thread, "game board")).original()
        await bot.front.boards.announce(played)
        await bot.front.catchup.drain()
        await standin.settle()
        sent = [m.content for m in standin.messages(standin.dm(carol))[before:]]
        assert any("You watch this game" in c for c in sent), f"the watcher got nothing: {sent}"
