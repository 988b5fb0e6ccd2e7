"""A Guacamole move read back names its cards in words, as the turn post and the menus do ("3
Avocaldo", not "3P"), through the real bot and the Discord stand-in: the mover's private answer
after a step and ``/game log``, in English and Spanish; only the notation the player typed, in
its backticks, keeps the codes."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import pytest

from bot.app import EXTENSIONS
from engines.guacamole.data import card_code, describe
from languages import language
from tests.e2e.test_guacamole_commands import legal, tomathor_game
from tests.table.test_guacamole_told_cards import CODE

LANGUAGES = {"en-US": "en", "es-ES": "es"}


def words_of(text: str) -> str:
    """``text`` without the notation quoted in backticks."""
    return re.sub(r"`[^`]*`", "", text)


def card_at(state, place: str) -> str:
    """The code of the visible card at ``place`` (``p2z9O``, ``p2d1``, ``x1``)."""
    if place.startswith("x"):
        return card_code(state.discards[int(place[1]) - 1][-1])
    if place[2] == "z":
        return place[3:]
    return card_code(state.dishes[int(place[1]) - 1][int(place[3:]) - 1][-1])


@dataclass(frozen=True)
class Swapped:
    chan: object
    other: object  # a player who did not swap
    swap: str  # the move as typed
    given: str  # the card given, in words
    taken: str  # the card taken, in words
    answer: str  # the mover's private answer


@asynccontextmanager
async def swapped(standin, bot_factory, locale: str) -> AsyncIterator[Swapped]:
    """A game of three speaking ``locale`` where the player to move prepared a Tomathor and
    swapped a card of their hand (typed, ``/guacamole move``), with the bot still running."""
    alice, bob, cy = standin.add_users("alice", "bob", "cy")
    for user in (alice, bob, cy):
        user.locale = locale
    t = language(LANGUAGES[locale])
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        mover, seat, card = await tomathor_game(standin, bot, chan, (alice, bob, cy))
        await (await standin.slash(mover, chan, "guacamole move", move=f"prep {card}")).original()
        session = await bot.sessions.core.in_channel(chan.id)
        swaps = [m for m in legal(session, seat) if str(m).startswith("swap") and m.source[0] != "p"]
        swap = min(swaps, key=lambda m: (not m.target.startswith("p"), str(m)))  # another's card, if any
        given = describe(swap.source).in_words(t)
        taken = describe(card_at(session.state, swap.target)).in_words(t)
        answer = await (await standin.slash(mover, chan, "guacamole move", move=str(swap))).original()
        other = next(u for u in (alice, bob, cy) if u is not mover)
        yield Swapped(chan, other, str(swap), given, taken, answer.text)


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_the_private_answer_after_a_swap_names_its_cards_in_words(standin, bot_factory, locale):
    async with swapped(standin, bot_factory, locale) as s:
        assert f"`{s.swap}`" in s.answer, s.answer  # what the player typed, as they typed it
        assert s.given in s.answer and s.taken in s.answer, s.answer
        assert not CODE.search(words_of(s.answer)), s.answer


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_the_game_log_names_a_swaps_cards_in_words(standin, bot_factory, locale):
    """Each line of ``/game log`` tells the move in words, its notation after them."""
    async with swapped(standin, bot_factory, locale) as s:
        log = (await (await standin.slash(s.other, s.chan, "game log")).original()).content
        line = log.splitlines()[-1]
        assert s.given in line and s.taken in line and line.endswith(f"`{s.swap}`"), log
        assert not CODE.search(words_of(log)), log
