"""/guacamole's own commands, played by the real bot through the Discord stand-in."""

from __future__ import annotations

import random
import re

import pytest

from bot.app import EXTENSIONS
from engines.guacamole.data import card_code
from tests.e2e.conftest import menu_moves
from tests.e2e.players import is_board, start


async def test_the_card_commands_take_a_card_alone(standin, bot_factory):
    """/guacamole dish and /guacamole prepare take what their option asks for, a card alone
    (`4T`, `z5O`), as /guacamole draw takes `x1`; a whole move (`cancel`, `prep 5T`) still goes
    as it is."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await start(standin, bot, chan, "guacamole", [alice, bob], seed=11)
        session = await bot.sessions.core.in_channel(chan.id)
        (seat,) = session.to_move()
        mover = alice if session.by_seat(seat).user_id == alice.id else bob
        hand = sorted({card_code(c) for c in session.state.hands[seat]})
        zone = card_code(session.state.prep[seat][0])

        answer = await (await standin.slash(mover, chan, "guacamole dish", card=f"z{zone}")).original()
        assert f"`dish z{zone}`" in answer.text, answer.text
        session = await bot.sessions.core.in_channel(chan.id)
        assert [card_code(c) for c in session.state.building] == [zone]

        answer = await (await standin.slash(mover, chan, "guacamole dish", card="cancel")).original()
        assert "`cancel`" in answer.text, answer.text
        session = await bot.sessions.core.in_channel(chan.id)
        assert session.state.building == [] and card_code(session.state.prep[seat][0]) == zone

        answer = await (await standin.slash(mover, chan, "guacamole prepare", card=hand[0])).original()
        assert f"`prep {hand[0]}`" in answer.text, answer.text
        session = await bot.sessions.core.in_channel(chan.id)
        assert [card_code(c) for c in session.state.prep[seat]] == [zone, hand[0]]


async def tomathor_to_prepare(bot, chan, users):
    """The seeded game in ``chan`` played on (as the computer plays) up to a turn's start where the
    player to move holds a Tomathor they may prepare; that player, their seat and the card."""
    session = await bot.sessions.core.in_channel(chan.id)
    rng = random.Random(3)
    for _ in range(400):
        (seat,) = session.to_move()
        state = session.state
        tomathors = sorted({card_code(c) for c in state.hands[seat] if card_code(c).endswith("T")})
        if state.phase == "main" and tomathors and f"prep {tomathors[0]}" in map(str, legal(session, seat)):
            if len(legal(session, seat)) > 8 and sum(len(d) > 0 for d in state.dishes[seat]) > 0:
                user = next(u for u in users if u.id == session.by_seat(seat).user_id)
                return user, seat, tomathors[0]
        move = session.engine.computer_move(session.engine.view_for(state, seat), legal(session, seat), rng)
        session = (
            await bot.sessions.play.play_in(session.id, session.by_seat(seat).user_id, str(move))
        ).session
    raise AssertionError("no Tomathor to prepare")


async def tomathor_game(standin, bot, chan, users):
    """A game of ``users`` (seed 11) started in ``chan`` and played on to a Tomathor its player to
    move may prepare (:func:`tomathor_to_prepare`), its posts all made."""
    await standin.wait_synced()
    await start(standin, bot, chan, "guacamole", list(users), seed=11)
    found = await tomathor_to_prepare(bot, chan, users)
    await bot.front.catchup.drain()
    return found


def legal(session, seat):
    return list(session.engine.legal_moves(session.state, seat))


CODE = re.compile(r"\b(?:p\d[zd]\w*|x[12]|z?\d[PLOTA])\b")


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_every_tomathor_swap_is_offered_in_words_through_discord(standin, bot_factory, locale):
    """Tomathor prepared from the Play menu: every step of the swap menu, walked through Discord,
    offers at most 25 choices, each in words with no notation, each move naming the card given
    and the card taken ("Swap your 4 Lima (top of dish 1) for 9 Onion (Alice's zone)", in Spanish
    "Cambiar tu ... por ..."); every legal swap is offered once, and one plays; autocomplete names
    a group of swaps by whose cards it holds, and finds swaps by a player's name."""
    alice, bob, cy = standin.add_users("alice", "bob", "cy")
    for user in (alice, bob, cy):
        user.locale = locale
    swap, give, skip = (
        ("Swap your ", " for ", "Don't use") if locale == "en-US" else ("Cambiar tu ", " por ", "No usar")
    )
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        mover, seat, card = await tomathor_game(standin, bot, chan, (alice, bob, cy))
        board = [m for m in standin.messages(chan) if is_board(m) and not m.deleted][-1]
        menu = await (await standin.click(mover, board, "Play")).original()
        custom_id, value = menu_moves(menu)[f"prep {card}"]
        edits = menu.edits
        menu = await (await standin.select(mover, menu, custom_id, [value])).original(
            lambda m: m.edits > edits
        )
        session = await bot.sessions.core.in_channel(chan.id)
        swaps = {str(m) for m in legal(session, seat)} - {"pass"}
        assert session.state.phase == "tomathor" and len(swaps) > 25, len(swaps)

        offered: dict[str, str] = {}

        async def walk(step) -> None:
            """Every choice of this step of the menu, and of the steps it opens (back each time)."""
            (select,) = step.selects
            assert len(select["options"]) <= 25
            for option in list(select["options"]):
                assert len(option["label"]) <= 100 and not CODE.search(option["label"]), option
                assert option["label"].startswith(swap), option
                if option["value"].startswith("m:"):
                    assert option["value"][2:] not in offered, option
                    offered[option["value"][2:]] = option["label"]
                    continue
                inner = await choose(step, select["custom_id"], option["value"])
                await walk(inner)
                nav = next(b for b in inner.buttons if b["custom_id"].startswith("pk:nav:"))
                edits = inner.edits
                await (await standin.click(mover, inner, nav["custom_id"])).original(
                    lambda m, before=edits: m.edits > before
                )
                assert [o["value"] for o in step.selects[0]["options"]] == [
                    o["value"] for o in select["options"]
                ]

        async def choose(step, custom_id: str, value: str):
            edits = step.edits
            r = await standin.select(mover, step, custom_id, [value])
            return await r.original(lambda m: m.edits > edits)

        assert any(b.get("label", "").startswith(skip) for b in menu.buttons), menu.buttons
        await walk(menu)
        assert set(offered) == swaps
        for move, label in offered.items():
            target = move.split()[2]
            assert give in label.removeprefix(swap), label
            if target.startswith("p") and int(target[1]) - 1 != seat:
                assert session.names()[int(target[1]) - 1] in label, (move, label)

        other = session.names()[(seat + 1) % 3]
        typed = await standin.autocomplete(mover, chan, "guacamole move", "move", move=other)
        assert typed and all(other in c["name"] for c in typed), typed
        top = await standin.autocomplete(mover, chan, "guacamole move", "move", move="")
        assert all(not CODE.search(c["name"].split("—")[-1].split("…")[-1]) for c in top), top

        group = next(o["value"] for o in menu.selects[0]["options"] if o["value"].startswith("g:"))
        step = await choose(menu, menu.selects[0]["custom_id"], group)
        option = step.selects[0]["options"][0]
        answer = await choose(step, step.selects[0]["custom_id"], option["value"])
        assert f"`{option['value'][2:]}`" in answer.text, answer.text
        session = await bot.sessions.core.in_channel(chan.id)
        assert session.state.phase != "tomathor"
