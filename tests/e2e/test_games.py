"""Each game through Discord: open, seat a computer, start, play key turns by commands and buttons."""

from __future__ import annotations

import dataclasses
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


async def turn_of(bot, chan):
    session = await bot.sessions.core.in_channel(chan.id)
    return None if session is None else session.engine.turn_number(session.state)


async def typed_move(standin, user, chan, path, option, legal) -> str | None:
    """What a person types with autocomplete: the start of a group offered, until moves are offered.

    Every value offered is a legal move or the start of several (a group to keep typing).
    """
    typed = ""
    while True:
        choices = await standin.autocomplete(user, chan, path, option, **{option: typed})
        if not choices:
            return None
        values = [c["value"] for c in choices]
        for value in values:
            assert value in legal or sum(m.startswith(value) for m in legal) >= 2, value
        moves = [v for v in values if v in legal]
        if moves:
            return moves[-1]
        typed = values[-1]


def boards(standin, chan) -> int:
    return len([m for m in standin.messages(chan) if is_board(m)])


async def board_after_move(standin, bot, chan, before):
    """The channel gets a board when the turn ends (or the game does), and none for a step inside it."""
    turn, count = before
    if await turn_of(bot, chan) != turn:
        await standin.next_message(chan, is_board)
    else:
        await standin.settle()
        assert boards(standin, chan) == count, "a step inside a turn posted a board"


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

        lobby = await standin.slash(alice, chan, f"{game} new", thread=False, **options)
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
            session = await bot.sessions.core.in_channel(chan.id)
            if session is None or session.status != "active":
                break
            me = session.seat_of(alice.id).seat
            if me not in session.to_move():
                break
            before = (session.engine.turn_number(session.state), boards(standin, chan))
            if special and not used_special:
                path, option = special
                legal = set(await bot.sessions.play.legal_moves(chan.id, alice.id))
                typed = await typed_move(standin, alice, chan, path, option, legal)
                if typed is not None:
                    used_special = True
                    r = await standin.slash(alice, chan, path, **{option: typed})
                    answer = await r.original()
                    assert "You played" in answer.text, answer.text
                    await board_after_move(standin, bot, chan, before)
                    played += 1
                    continue
            if not used_menu:
                used_menu = True
                latest = [m for m in standin.messages(chan) if is_board(m)][-1]
                menu = await (await standin.click(alice, latest, "Play")).original()
                assert menu.ephemeral and (menu.selects or menu.buttons), menu.text
                picked, _ = await pick_from_menu(standin, alice, menu)
                await picked.original(lambda m: "You played" in m.text)
                await board_after_move(standin, bot, chan, before)
                played += 1
                continue
            legal = set(await bot.sessions.play.legal_moves(chan.id, alice.id))
            move = await typed_move(standin, alice, chan, f"{game} move", "move", legal)
            assert move is not None, "autocomplete offered no legal move on my turn"
            r = await standin.slash(alice, chan, f"{game} move", move=move)
            answer = await r.original()
            assert "You played" in answer.text, answer.text
            await board_after_move(standin, bot, chan, before)
            played += 1
        assert played >= 2, f"only {played} moves were played through Discord"

        # Nothing private reached the channel: no move notation of a private move, no hand.
        session = await bot.sessions.core.in_channel(chan.id)
        private = [m.move for m in await bot.store.history.moves(session.id)] if session else []
        public = "\n".join(m.content for m in standin.messages(chan) if not m.ephemeral)
        if game in SIMULTANEOUS:
            assert not [mv for mv in private if mv not in ("done", "gwinea") and f"`{mv}`" in public]

        # /game board posts the current board for everyone.
        if (await bot.sessions.core.in_channel(chan.id)) is not None:
            await (await standin.slash(alice, chan, "game board")).original()
            png_of(await standin.next_message(chan, is_board))

        # A bad move is refused privately and changes nothing.
        session = await bot.sessions.core.in_channel(chan.id)
        if session is not None:
            version = session.version
            answer = await (await standin.slash(alice, chan, f"{game} move", move="zz-not-a-move")).original()
            assert answer.ephemeral and answer.content.startswith("⚠️")
            assert (await bot.sessions.core.in_channel(chan.id)).version == version


async def test_nowa_gwinea_lobby_takes_the_hard_side_options(standin, bot_factory):
    """/nowa_gwinea new passes side, hard_seats and hard_reroll through to the lobby's options (the
    hard side for seat 1 alone: with side hard every seat plays it already, and hard_seats is refused
    beside it, see tests/e2e/test_variants.py)."""
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        lobby = await standin.slash(
            alice,
            chan,
            "nowa_gwinea new",
            thread=False,
            players=2,
            side="standard",
            hard_seats="1",
            hard_reroll=False,
        )
        assert not lobby.ephemeral
        session = await bot.sessions.core.in_channel(chan.id)
        assert session.row.options["side"] == "standard"
        assert session.row.options["hard_seats"] == "1"
        assert session.row.options["hard_reroll"] is False


async def test_nowa_gwinea_huts_chart_and_a_table_without_pictures(standin, bot_factory):
    """/nowa_gwinea huts sends the hut chart privately; where the game has no renderer (a registry
    entry may leave it out), the same command answers in words instead of failing."""
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        chart = await standin.slash(alice, chan, "nowa_gwinea huts")
        assert chart.ephemeral
        assert png_of(chart).size[0] > 0
        cog = next(c for c in bot.cogs.values() if getattr(c, "game", None) == "nowa_gwinea")
        cog.info = dataclasses.replace(cog.info, renderer=None)
        words = await standin.slash(alice, chan, "nowa_gwinea huts")
        assert words.ephemeral and not words.files
        assert "no hut chart" in words.content and "F3C4" in words.content
