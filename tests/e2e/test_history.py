"""The history browser end to end: /game history through the Discord stand-in.

A Guanga game in progress (a kept order is each keeper's secret) and a
finished Nim game browsed from another channel by its number; buttons,
the jump select, and forged or stale ids.
"""

from __future__ import annotations

import re

from bot.app import EXTENSIONS
from tests.e2e.conftest import nim_to_the_end, png_of
from tests.e2e.forge import forged_click, forged_select
from tests.e2e.players import is_board
from tests.standin.model import VIEW_CHANNEL

ALL = (*EXTENSIONS, "tests.support.nim_cog")


def names(order: str, text: str) -> bool:
    """Whether ``text`` names the order ``order`` (O1 is not named by O10)."""
    return re.search(rf"\b{re.escape(order)}\b", text) is not None


def page_move(message) -> int:
    """The move number a history page shows (``move N of M``)."""
    text = message.content
    return int(text.split("move ", 1)[1].split(" ", 1)[0])


async def test_history_of_a_game_in_progress_shows_no_other_seats_secret(standin, bot_factory):
    alice, bob, carol = standin.add_users("alice", "bob", "carol")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        bot.sessions.new_seed = lambda: 4  # the orders kept are O1 and O10: one name begins the other
        lobby = await standin.slash(alice, chan, "guanga new", thread=False, mode="apprentice", players=2)
        await standin.click(bob, lobby.message, "Join")
        await standin.click(alice, lobby.message, "Start")
        await standin.next_message(chan, is_board)  # the start is done: the first board is posted
        session = await bot.sessions.core.in_channel(chan.id)
        orders = {}
        for user in (alice, bob):
            order = session.state.orders_dealt[session.seat_of(user.id).seat][1]
            orders[user.id] = order
            await (await standin.slash(user, chan, "guanga move", move=f"keep {order}")).original()
        await standin.settle()
        session = await bot.sessions.core.in_channel(chan.id)
        total = await bot.sessions.store.history.move_count(session.id)
        assert total == 2

        # Each reader browses from the latest page back to the start.
        seen: dict[int, dict[int, str]] = {}
        for user in (alice, bob, carol):
            page = await (await standin.slash(user, chan, "game history")).original()
            assert page.ephemeral and page.visible_to == frozenset({user.id})
            assert page_move(page) == total and f"game #{session.id}" in page.content
            png_of(page)
            labels = {b["label"]: b for b in page.buttons}
            assert labels["Last ⏭"].get("disabled") and labels["Forward ▶"].get("disabled")
            assert not labels["⏮ First"].get("disabled")
            seen[user.id] = {total: page.content}
            for expected in range(total - 1, -1, -1):
                result = await standin.click(user, page, "◀ Back 1")
                assert result.type == 6  # the same private message, edited
                page = await result.original(lambda m, e=expected: page_move(m) == e)
                png_of(page)
                seen[user.id][expected] = page.content
            assert "before the first move" in seen[user.id][0]
        for user in (alice, bob):
            other = bob if user is alice else alice
            texts = " ".join(seen[user.id].values())
            assert names(orders[user.id], texts), "a keeper reads their own order"
            assert not names(orders[other.id], texts), "nobody reads another seat's kept order"
        assert not any(names(o, " ".join(seen[carol.id].values())) for o in orders.values())
        assert "kept a secret order" in " ".join(seen[carol.id].values())

        # Forward and the jump select.
        page = await (await standin.slash(carol, chan, "game history", move=0)).original()
        assert page_move(page) == 0
        page = await (await standin.click(carol, page, "Forward ▶")).original(lambda m: page_move(m) == 1)
        selects = {s["placeholder"]: s for s in page.selects}
        assert [o["value"] for o in selects["Jump to a move"]["options"]] == ["0", "1", "2"]
        jumped = await standin.select(carol, page, selects["Jump to a move"]["custom_id"], ["2"])
        page = await jumped.original(lambda m: page_move(m) == 2)
        # The choice of orders is one round: the second turn starts after both orders were kept.
        turns = {s["placeholder"]: s for s in page.selects}["Jump to a turn"]
        assert [(o["label"], o["value"]) for o in turns["options"]] == [
            ("Turn 1 (the start)", "0"),
            ("Turn 2 (from move 2)", "2"),
        ]
        jumped = await standin.select(carol, page, turns["custom_id"], ["0"])
        page = await jumped.original(lambda m: page_move(m) == 0)

        # Forged and stale ids get plain answers.
        for custom_id, expect in (
            (f"pk:hist:{session.id}:99:next", "no move 99"),
            (f"pk:hist:{session.id + 50}:1:next", f"no game #{session.id + 50}"),
        ):
            r = await forged_click(standin, carol, chan, custom_id, page)
            answer = await r.original(lambda m, e=expect: e in m.content)
            assert answer.ephemeral
        for value in ("x1", "²"):  # (str.isdigit takes "²", which int refuses)
            r = await forged_select(standin, carol, chan, f"pk:histgo:{session.id}", [value], page)
            assert "Choose one move number" in (await r.original(lambda m: "Choose" in m.content)).content
        too_far = await (await standin.slash(carol, chan, "game history", move=40)).original()
        assert "no move 40" in too_far.content


async def test_history_of_a_finished_game_from_another_channel(standin, bot_factory):
    alice, bob, dave = standin.add_users("alice", "bob", "dave")
    chan, elsewhere = standin.channel("games"), standin.channel("general")
    standin.set_permissions(chan, dave, deny=VIEW_CHANNEL)
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        session = await nim_to_the_end(standin, bot, chan, alice, bob)
        await standin.settle()
        total = await bot.sessions.store.history.move_count(session.id)
        # The finished game was snapshotted when it ended (here every K moves; Nim is short).
        page = await (await standin.slash(bob, elsewhere, "game history", game=session.id)).original()
        assert page_move(page) == total and f"of {total}" in page.content
        assert "goes on" not in page.content
        first = await (await standin.click(bob, page, "⏮ First")).original(lambda m: page_move(m) == 0)
        png_of(first)
        back10 = await standin.slash(bob, elsewhere, "game history", game=session.id, move=total)
        page = await back10.original()
        page = await (await standin.click(bob, page, "⏪ Back 10")).original(
            lambda m: page_move(m) == max(0, total - 10)
        )
        # Someone who cannot view the game's channel cannot browse it from elsewhere either.
        hidden = await standin.slash(dave, elsewhere, "game history", game=session.id)
        assert "that you can view" in (await hidden.original()).content
        hidden = await standin.slash(dave, elsewhere, "game export", game=session.id)
        assert "that you can view" in (await hidden.original()).content
        missing = await standin.slash(bob, elsewhere, "game history", game=session.id + 7)
        assert f"no game #{session.id + 7}" in (await missing.original()).content
