"""Buttons on messages posted before an upgrade keep working: their custom_ids, written here as
the bot has always written them, are built byte for byte the same, are read back into the same
fields, and act when clicked on a message that carries them."""

from __future__ import annotations

import pytest

from bot.surface.clockvote import TimeoutButton
from bot.surface.direct import PrivateViewButton
from bot.surface.front import DYNAMIC_ITEMS
from bot.surface.history import HistoryButton, HistorySelect
from bot.surface.lobby import LobbyButton
from bot.surface.menus import HandButton, MoveButton, MoveSelect, NavButton, TurnButton
from bot.surface.results import RematchButton
from bot.surface.undo import UndoButton
from tests.e2e.forge import forged_click
from tests.e2e.players import to_move
from tests.e2e.test_table import is_board, nim_session
from tests.support import nim

BUILT = [
    (LobbyButton(7, "join"), "pk:lobby:join:7", {"session_id": 7, "action": "join"}),
    (LobbyButton(7, "cpu"), "pk:lobby:cpu:7", {"session_id": 7, "action": "cpu"}),
    (TurnButton(7), "pk:turn:7", {"session_id": 7}),
    (HandButton(7), "pk:hand:7", {"session_id": 7}),
    (MoveButton(7, "3.2", "A1"), "pk:mv:7:3.2:A1", {"session_id": 7, "token": "3.2", "move": "A1"}),
    (MoveButton(7, 12, "B 2"), "pk:mv:7:12:B 2", {"session_id": 7, "token": "12", "move": "B 2"}),
    (NavButton(7, "3.2"), "pk:nav:7:3.2", {"session_id": 7, "token": "3.2"}),
    (MoveSelect(7, "3.2", index=1), "pk:pick:7:3.2:1", {"session_id": 7, "token": "3.2", "index": 1}),
    (HistoryButton(7, 4, "back10"), "pk:hist:7:4:back10", {"session_id": 7, "number": 4}),
    (HistorySelect(7), "pk:histgo:7", {"session_id": 7, "index": 0}),
    (HistorySelect(7, index=1), "pk:histgo:7:1", {"session_id": 7, "index": 1}),
    (UndoButton(7, 9, True), "pk:undo:7:9:yes", {"session_id": 7, "version": 9, "agree": True}),
    (UndoButton(7, 9, False), "pk:undo:7:9:no", {"session_id": 7, "version": 9, "agree": False}),
    (RematchButton(7), "pk:rematch:7", {"session_id": 7}),
    (PrivateViewButton(7), "pk:dmv:7", {"session_id": 7}),
    (
        TimeoutButton(7, 1, 100, "more"),
        "pk:tmo:7:1:100:more",
        {"session_id": 7, "seat": 1, "at": 100, "choice": "more"},
    ),
]


def test_every_persistent_component_is_covered():
    assert {type(item) for item, _, _ in BUILT} == set(DYNAMIC_ITEMS)


@pytest.mark.parametrize(("item", "custom_id", "fields"), BUILT, ids=[c for _, c, _ in BUILT])
async def test_custom_ids_are_built_and_read_as_before(item, custom_id, fields):
    assert item.custom_id == custom_id
    # Old menus' selects without an index, and old stamps (a version), still parse.
    match = type(item).__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    read = await type(item).from_custom_id(None, item.item, match)
    assert {name: getattr(read, name) for name in fields} == fields
    assert read.custom_id == custom_id


async def test_clicks_on_old_custom_ids_act(standin, bot_factory):
    """Join, Start, My view, Play and a move button (its token a version, as before menu stamps),
    each clicked with the custom_id written out as old messages carry it."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        lobby = await standin.slash(alice, chan, "nim new", thread=False, piles=2)
        session = await nim_session(bot, chan)
        joined = await forged_click(standin, bob, chan, f"pk:lobby:join:{session.id}", lobby.message)
        # answered by its part alone, not also as unknown (Discord refuses a second answer)
        assert "bob" in joined.content.lower() and "does not know" not in joined.content
        standin.skip_messages(chan)
        started = await forged_click(standin, alice, chan, f"pk:lobby:start:{session.id}", lobby.message)
        assert "started" in started.content
        board = await standin.next_message(chan, is_board)
        mover, session = await to_move(bot, chan, (alice, bob))
        hand = await (await forged_click(standin, bob, chan, f"pk:hand:{session.id}", board)).original()
        assert hand.ephemeral and "Your view of" in hand.content
        menu = await (await forged_click(standin, mover, chan, f"pk:turn:{session.id}", board)).original()
        assert menu.ephemeral and (menu.selects or menu.buttons)
        move = str(nim.legal_moves(session.state, session.seat_of(mover.id).seat)[0])
        played = await forged_click(
            standin, mover, chan, f"pk:mv:{session.id}:{session.version}:{move}", board
        )
        assert f"`{move}`" in (await played.original()).content
        after = await nim_session(bot, chan)
        assert [m.move for m in await bot.store.history.moves(after.id)] == [move]


@pytest.mark.parametrize(
    "custom_id", ["pk:turn:abc", "pk:turn:", "pk:mv:1:x.y:A1", "pk:zzz", "other-bot:7", "pk:lg:in:1"]
)
async def test_a_component_no_part_of_the_bot_knows_is_answered_privately(standin, bot_factory, custom_id):
    """A click whose custom_id matches no persistent component's template (a modified client, a
    message of an older version) is answered privately, in the person's language, that nothing
    was done; discord.py alone would drop it and Discord would say "This interaction failed".
    ``pk:lg:in:1`` is a league check-in cut short (its template wants the round too)."""
    alice = standin.add_users("alice")[0]
    alice.locale = "es-ES"
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()):
        await standin.wait_synced()
        here = await standin.say(alice, chan, "hola")
        answer = await (await forged_click(standin, alice, chan, custom_id, here)).original()
        assert answer.ephemeral and answer.content.startswith("El bot no reconoce este botón"), answer.content
