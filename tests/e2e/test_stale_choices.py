"""A choice picked from an autocomplete list made before the board changed: played only if the
move still does what the list said (its words); otherwise refused, naming both, with the board as
it is now (a Guanga basket refreshed from the menu, a Guacamole pile's new top card...).

The test game's words are made to name what a take leaves (``take 1 of 4``), so that the same
notation comes to say something else once the pile shrinks.
"""

from __future__ import annotations

import pytest

from engines.core import MoveWords
from tests.e2e.test_undo import ALL, nim_game
from tests.support import nim


@pytest.fixture
def words_that_change(monkeypatch):
    def move_words(state, seat, move):
        if isinstance(move, nim.Skip):
            return MoveWords("skip", "move.skip")
        pile = "ABCDE"[move.pile]
        values = {"count": move.count, "pile": pile, "left": state.piles[move.pile]}
        return MoveWords("take", "move.take", values, group=pile, group_args={"pile": pile})

    monkeypatch.setattr(nim, "move_words", move_words)
    monkeypatch.setitem(nim.WORDS, "move.take", "take {count} of {left}")


async def listed_then_moved(standin, bot, chan, alice, bob):
    """The player to move lists `A1` by autocomplete, then plays `B1` (typed: not on the list), and
    the other player takes from pile A: the game, that player, and the list (value -> name)."""
    session, first, other = await nim_game(standin, bot, chan, alice, bob, piles=3)
    offered = await standin.autocomplete(first, chan, "nim move", "move", move="A1")
    await (await standin.slash(first, chan, "nim move", move="B1")).original()
    await (await standin.slash(other, chan, "nim move", move="A1")).original()
    return session, first, {c["value"]: c["name"] for c in offered}


async def test_a_choice_whose_words_changed_since_its_list_is_refused_then_played_when_sent_again(
    standin, bot_factory, words_that_change
):
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        session, first, listed = await listed_then_moved(standin, bot, chan, alice, bob)
        assert listed["A1"].startswith("A1 — Pile A: take 1 of "), listed
        before = await bot.sessions.core.get(session.id)
        refused = await (await standin.slash(first, chan, "nim move", move="A1")).original()
        assert "The board changed since that list was shown" in refused.text, refused.text
        assert "send it again to play it as it is now" in refused.text
        assert f"“{listed['A1']}” there" in refused.text
        assert (await bot.sessions.core.get(session.id)).version == before.version  # nothing played
        # told what it does now, the same choice sent again is played
        again = await (await standin.slash(first, chan, "nim move", move="A1")).original()
        assert again.content.startswith("You played `A1`"), again.content
        assert (await bot.sessions.core.get(session.id)).version == before.version + 1


async def test_a_choice_that_still_says_the_same_is_played_though_the_board_moved(standin, bot_factory):
    """Without words that change (the test game as it is), an old list's choice is played."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        _, first, _ = await listed_then_moved(standin, bot, chan, alice, bob)
        played = await (await standin.slash(first, chan, "nim move", move="A1")).original()
        assert played.content.startswith("You played `A1`"), played.content
