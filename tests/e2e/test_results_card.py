"""A finished game's results card is never lost: refused by Discord, it is tried again by the
game's ``board`` job until the channel takes it, and posted once, also with two processes trying
at once (the second one a second :class:`Boards` on the same database, as in
``test_unposted_races``)."""

from __future__ import annotations

import discord
import pytest

from bot import results as card_maker
from tests.e2e.conftest import nim_played_out, nim_to_the_end
from tests.e2e.players import settled
from tests.e2e.test_results import ALL
from tests.e2e.test_undo import nim_game
from tests.e2e.test_unposted import dms
from tests.e2e.test_unposted_races import another_process, is_card
from tests.e2e.test_unposted_told import BOARD, RETRY, try_again
from tests.standin.model import ATTACH_FILES


def cards(standin, chan) -> list:
    return [m for m in standin.messages(chan) if is_card(m)]


def inside_the_card(monkeypatch, *acts) -> None:
    """Run each of ``acts`` in turn inside the next results cards drawn (one a card), after the
    post read the game and before the card is posted."""
    real, left = card_maker.card, list(acts)

    async def card(*args, **kwargs):
        if left:
            await left.pop(0)()
        return await real(*args, **kwargs)

    monkeypatch.setattr(card_maker, "card", card)


async def test_a_results_card_the_channel_refuses_is_posted_once_by_the_board_job(
    standin, bot_factory, table_clock, monkeypatch
):
    """The game's last board is posted; the bot then loses Attach Files in the channel, and the
    results card is refused.  Once the permission is back, the ``board`` job's try posts the card,
    once, with its Rematch button; the job is gone, and a later try posts nothing more."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()

        async def refuse() -> None:
            standin.set_permissions(chan, standin.bot_user, deny=ATTACH_FILES)
            await settled(standin)

        inside_the_card(monkeypatch, refuse)
        session = await nim_to_the_end(standin, bot, chan, alice, bob)
        await bot.front.catchup.drain()
        await settled(standin)
        assert any("**Game over**" in m.content for m in standin.messages(chan))
        assert not cards(standin, chan)
        assert not (await bot.sessions.core.get(session.id)).row.card_told
        assert await bot.store.jobs.job(BOARD, str(session.id)) is not None
        # the host hears what was refused: the results card, not the board (posted)
        (to_alice,) = dms(standin, alice)
        assert to_alice.startswith(
            f"⚠️ I could not post the results card of **Nim** #{session.id} in <#{chan.id}> on "
            f"**{standin.guild.name}**: I am missing Attach Files there."
        ), to_alice
        assert not dms(standin, bob)  # nobody is waiting to move

        standin.set_permissions(chan, standin.bot_user)
        await settled(standin)
        await try_again(standin, bot, table_clock)
        (card,) = cards(standin, chan)
        assert [b["label"] for b in card.buttons] == ["Rematch"]
        assert (await bot.sessions.core.get(session.id)).row.card_told
        assert await bot.store.jobs.job(BOARD, str(session.id)) is None
        await try_again(standin, bot, table_clock)
        assert len(cards(standin, chan)) == 1


async def test_a_results_card_refused_in_one_process_and_tried_in_two_is_posted_once(
    standin, bot_factory, table_clock, monkeypatch
):
    """Two processes: as this one posts the results card, the other's start catches the game up
    (its card not posted yet) and finds the card being posted; then the channel refuses the card.
    Once it takes it again, the other process fires the ``board`` job, and as it posts the card
    this process's catch-up finds it being posted too.  The channel gets one card, and the job,
    fired again when due, posts nothing more."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        front = bot.front
        here, (there, up_there) = front.boards, another_process(front)
        there.finished, there.controls = here.finished, here.controls  # (as its own front sets them)
        lobby = await standin.slash(alice, chan, "nim new", thread=False, piles=2)
        await standin.click(bob, lobby.message, "Join")
        await standin.click(alice, lobby.message, "Start")
        session_id = (await bot.sessions.core.in_channel(chan.id)).id

        async def caught_up_there_then_refused() -> None:
            await up_there._catch_up(session_id)
            standin.set_permissions(chan, standin.bot_user, deny=ATTACH_FILES)
            await settled(standin)

        async def caught_up_here() -> None:
            await front.catchup._catch_up(session_id)

        inside_the_card(monkeypatch, caught_up_there_then_refused, caught_up_here)
        await nim_played_out(standin, bot, chan, alice, bob)
        await front.catchup.drain()
        await up_there.drain()
        await settled(standin)
        assert not cards(standin, chan)

        standin.set_permissions(chan, standin.bot_user)
        await settled(standin)
        table_clock.advance(RETRY)
        (job,) = await bot.store.jobs.claim_jobs("there", lease=120)
        assert job.kind == BOARD and job.key == str(session_id)
        await up_there.retry(job)
        await front.catchup.drain()
        await up_there.drain()
        await settled(standin)
        assert len(cards(standin, chan)) == 1
        await try_again(standin, bot, table_clock)
        assert len(cards(standin, chan)) == 1
        assert await bot.store.jobs.job(BOARD, str(session_id)) is None


async def test_a_results_card_asked_for_before_its_last_board_leaves_that_board_to_its_try(
    standin, bot_factory, table_clock
):
    """The channel refuses the game's last board (the bot lost Attach Files as it drew it); the
    results card, asked for then (by another process, say), posts nothing and leaves the board's
    ``board`` job alone.  Once the permission is back, the job's try posts the last board and the
    card, once each."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        session, first, _ = await nim_game(standin, bot, chan, alice, bob, piles=1)
        legal = await bot.sessions.play.legal_moves(chan.id, first.id)
        result = await bot.sessions.play.play(chan.id, first.id, legal[-1])
        standin.set_permissions(chan, standin.bot_user, deny=ATTACH_FILES)
        await settled(standin)
        with pytest.raises(discord.Forbidden):
            await bot.front.boards.announce(result)
        await bot.front.boards.card(session)
        assert await bot.store.jobs.job(BOARD, str(session.id)) is not None
        assert not [m for m in standin.messages(chan) if "**Game over**" in m.content or is_card(m)]

        standin.set_permissions(chan, standin.bot_user)
        await settled(standin)
        await try_again(standin, bot, table_clock)
        assert len([m for m in standin.messages(chan) if "**Game over**" in m.content]) == 1
        assert len(cards(standin, chan)) == 1
        await try_again(standin, bot, table_clock)
        assert len(cards(standin, chan)) == 1
