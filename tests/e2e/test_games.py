"""Each game through Discord: open, seat a computer, start, play key turns by commands and buttons."""

from __future__ import annotations

import importlib.util

import pytest

from bot.app import EXTENSIONS
from tests.e2e.conftest import pick_from_menu, png_of

GAMES = {
    # game: (options for /<game> new, a game-specific command and its option name)
    "guanga": ({"players": 2}, ("guanga place", "patch")),
    "tiwanaku": ({"players": 2}, ("tiwanaku explore", "step")),
    "pachakuna": ({}, ("pachakuna rotate", "rotation")),
    "guacamole": ({"players": 2}, ("guacamole prepare", "card")),
    "nowa_gwinea": ({"players": 2}, ("nowa_gwinea place", "hut")),
}


def is_board(message) -> bool:
    return bool(message.files) and not message.ephemeral


SIMULTANEOUS = {"nowa_gwinea"}  # building is private: the channel hears of calls and round ends


async def board_after_move(standin, chan, game):
    """Turn-based games post the board after every move; simultaneous building is private."""
    if game in SIMULTANEOUS:
        standin.skip_messages(chan)
    else:
        await standin.next_message(chan, is_board)


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_game_through_discord(standin, bot_factory, game):
    """A person and a computer play the opening turns through slash commands, autocomplete and buttons."""
    if f"cogs.{game}" not in EXTENSIONS or importlib.util.find_spec(f"cogs.{game}") is None:
        pytest.fail(f"cogs.{game} is not loaded by the bot")
    options, special = GAMES[game]
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        rules = await standin.slash(alice, chan, f"{game} rules")
        assert rules.ephemeral and len(rules.content) > 200

        lobby = await standin.slash(alice, chan, f"{game} new", **options)
        assert not lobby.ephemeral
        await standin.click(alice, lobby.message, "Add computer")
        standin.skip_messages(chan)
        await standin.click(alice, lobby.message, "Start")
        board = await standin.next_message(chan, is_board)
        first = png_of(board)
        assert first.width >= 600, "boards must be large enough to read on a phone"

        hand = await (await standin.slash(alice, chan, "game hand")).original()
        assert hand.ephemeral and hand.visible_to == frozenset({alice.id})
        png_of(hand)

        played = 0
        used_special = used_menu = False
        for _ in range(12):
            session = await bot.sessions.in_channel(chan.id)
            if session is None or session.status != "active":
                break
            me = session.seat_of(alice.id).seat
            if me not in session.to_move():
                break
            if special and not used_special:
                path, option = special
                choices = await standin.autocomplete(alice, chan, path, option)
                if choices:
                    used_special = True
                    r = await standin.slash(alice, chan, path, **{option: choices[0]["value"]})
                    answer = await r.original()
                    assert "You played" in answer.content, answer.content
                    await board_after_move(standin, chan, game)
                    played += 1
                    continue
            if not used_menu:
                used_menu = True
                latest = [m for m in standin.messages(chan) if is_board(m)][-1]
                menu = await (await standin.click(alice, latest, "Play")).original()
                assert menu.ephemeral and (menu.selects or menu.buttons), menu.content
                picked, _ = await pick_from_menu(standin, alice, menu)
                await picked.original(lambda m: "You played" in m.content)
                await board_after_move(standin, chan, game)
                played += 1
                continue
            choices = await standin.autocomplete(alice, chan, f"{game} move", "move")
            assert choices, "autocomplete offered no legal move on my turn"
            legal = set(await bot.sessions.legal_moves(chan.id, alice.id))
            assert {c["value"] for c in choices} <= legal
            r = await standin.slash(alice, chan, f"{game} move", move=choices[-1]["value"])
            answer = await r.original()
            assert "You played" in answer.content, answer.content
            await board_after_move(standin, chan, game)
            played += 1
        assert played >= 2, f"only {played} moves were played through Discord"

        # Nothing private reached the channel: no move notation of a private move, no hand.
        session = await bot.sessions.in_channel(chan.id)
        private = [m.move for m in await bot.store.moves(session.id)] if session else []
        public = "\n".join(m.content for m in standin.messages(chan) if not m.ephemeral)
        if game in SIMULTANEOUS:
            assert not [mv for mv in private if mv not in ("done", "gwinea") and f"`{mv}`" in public]

        # /game board posts the current board for everyone.
        if (await bot.sessions.in_channel(chan.id)) is not None:
            await (await standin.slash(alice, chan, "game board")).original()
            png_of(await standin.next_message(chan, is_board))

        # A bad move is refused privately and changes nothing.
        session = await bot.sessions.in_channel(chan.id)
        if session is not None:
            version = session.version
            answer = await (await standin.slash(alice, chan, f"{game} move", move="zz-not-a-move")).original()
            assert answer.ephemeral and answer.content.startswith("⚠️")
            assert (await bot.sessions.in_channel(chan.id)).version == version


async def test_nowa_gwinea_lobby_takes_the_hard_side_options(standin, bot_factory):
    """/nowa_gwinea new passes side, hard_seats and hard_reroll through to the lobby's options."""
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        lobby = await standin.slash(
            alice, chan, "nowa_gwinea new", players=2, side="hard", hard_seats="1", hard_reroll=False
        )
        assert not lobby.ephemeral
        session = await bot.sessions.in_channel(chan.id)
        assert session.row.options["side"] == "hard"
        assert session.row.options["hard_seats"] == "1"
        assert session.row.options["hard_reroll"] is False
