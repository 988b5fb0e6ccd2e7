"""Whole games as people play them: one channel post per turn, a menu that stays open, the pings.

People play through the stand-in with the Play menu, with the game's own
commands and autocomplete, or by typing ``/<game> move`` (see
:mod:`tests.e2e.players`, which checks after every action that a board was
posted exactly when a turn or a round ended, that it pinged whoever acts next,
and that only the latest board has buttons).
"""

from __future__ import annotations

import re

from bot.app import EXTENSIONS
from tests.e2e.conftest import click_choice, menu_moves
from tests.e2e.players import Driver, is_board, start


def cards_drawn(post: str) -> int:
    """The cards a Guacamole post says were drawn: "drew 2 cards from the draw pile", "took 5
    Tomathor and 7 Lima from discard pile 2"."""
    deck = sum(int(n) for n in re.findall(r"drew (\d+) cards? from the draw pile", post, re.I))
    piles = re.findall(r"took ([^.]*?) from discard pile", post, re.I)
    card = r"\b\d (?:Avocaldo|Lima|Onion|Tomathor|Aji)\b"
    return deck + sum(len(re.findall(card, cards)) for cards in piles)


PLURALS = re.compile(r"(?<![\d.])1 (points|games|wins|moves|cards|seats|players|turns|huts|cubes)\b")


async def test_guacamole_three_people_one_post_per_turn(standin, bot_factory):
    """3 people play a whole Guacamole game: one post per turn (the start's board before, the last
    turn's post carrying the result); on the menu one select a step, of at most 25 choices, and
    at most three choices a move (own card, whose card, the card) plus Play."""
    alice, bob, carol = standin.add_users("alice", "bob", "carol")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await start(standin, bot, chan, "guacamole", [alice, bob, carol], seed=2026)
        driver = Driver(standin, bot, chan, {alice: "menu", bob: "commands", carol: "typed"}, seed=7)
        record = await driver.play()

        turns = sorted({number for number, _ in record.turns})
        assert len(turns) > 10 and record.posts == dict.fromkeys(turns, 1)
        for turn in record.of("menu"):
            assert turn.clicks <= 3 * turn.moves + 1 and turn.selects <= 1 and turn.largest <= 25, turn
        assert record.mean("menu", "moves") > 3  # several steps a turn
        assert record.mean("menu", "clicks") < 1.5 * record.mean("menu", "moves") + 1  # most moves one choice
        for turn in record.of("commands"):
            assert turn.autocompletes <= 3 * turn.moves, turn
        for turn in record.of("commands") + record.of("typed"):
            assert turn.answers == 1, turn  # one private message a turn, edited at each step
        assert record.mean("commands", "moves") > 2  # several steps a turn by commands

        final = driver.boards()[-1]
        assert final.content.count("Game over") == 1 and "The game is over. Scores" not in final.content
        assert "**Ratings**" in final.content and "→" in final.content and "Play again" in final.content
        assert not any(PLURALS.search(text) for text in record.texts)

        # The finished game stays visible in its channel.
        status = await (await standin.slash(bob, chan, "game status")).original()
        assert "Game over" in status.content
        log = await (await standin.slash(carol, chan, "game log")).original()
        assert "draw" in log.content
        league = await (await standin.slash(carol, chan, "game ratings", game="guacamole")).original()
        assert "everyone starts at 0" in league.content and "(1 game, " in league.content
        await (await standin.slash(alice, chan, "game board")).original()
        again = await standin.next_message(chan, lambda m: is_board(m) and "as it ended" in m.content)
        assert not again.components and "Game over" in again.content


async def test_tiwanaku_two_people_one_post_per_turn(standin, bot_factory):
    """2 people play a whole Tiwanaku game (menu and commands): one post per turn."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await start(standin, bot, chan, "tiwanaku", [alice, bob], seed=2026)
        record = await Driver(standin, bot, chan, {alice: "menu", bob: "commands"}, seed=3).play()
        turns = sorted({number for number, _ in record.turns})
        assert len(turns) > 10 and record.posts == dict.fromkeys(turns, 1)
        for turn in record.of("menu"):  # kind, row, cell, crop at most; one select of at most 25 a step
            assert turn.clicks <= 4 * turn.moves + 1 and turn.selects <= 1 and turn.largest <= 25, turn
        assert not any(PLURALS.search(text) for text in record.texts)


async def test_nowa_gwinea_pings_everyone_at_each_round_start(standin, bot_factory):
    """2 people build at once for 9 rounds: one post per round, pinging both players each time; a
    player whose building a call cut off is told so; building at once never makes a menu stale,
    and each hut is at most three choices (the hut, the row of its highest square, the place)."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await start(standin, bot, chan, "nowa_gwinea", [alice, bob], seed=2026)
        record = await Driver(standin, bot, chan, {alice: "menu", bob: "commands"}, seed=5).play()
        assert record.posts == dict.fromkeys(range(1, 10), 1)
        for number in range(1, 9):
            assert record.pings[number] == frozenset({alice.id, bob.id}), number
        assert any("was still building when" in text for text in record.texts)
        for turn in record.of("menu"):  # Play, then the hut, its row, its place
            assert turn.clicks <= 3 * turn.moves + 1 and turn.selects <= 1 and turn.largest <= 25, turn
        assert not any("Caller:" in text for text in record.texts)


async def test_a_turn_half_played_before_a_restart_is_told_in_full(standin, bot_factory):
    """A step made before the bot restarts is told in the turn's post after it; the private menu
    opened before the restart still plays."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    make = bot_factory(EXTENSIONS)
    async with standin.run_client(make) as bot:
        await standin.wait_synced()
        await start(standin, bot, chan, "guacamole", [alice, bob], seed=11)
        session = await bot.sessions.core.in_channel(chan.id)
        (seat,) = session.to_move()
        mover = alice if session.by_seat(seat).user_id == alice.id else bob
        board = [m for m in standin.messages(chan) if is_board(m)][-1]
        menu = await (await standin.click(mover, board, "Play")).original()
        prep = next(m for m in menu_moves(menu) if m.startswith("prep"))
        custom_id, value = menu_moves(menu)[prep]
        edits = menu.edits
        answer = await (await click_choice(standin, mover, menu, custom_id, value)).original(
            lambda m: m.edits > edits
        )
        assert f"You played `{prep}`" in answer.text and menu_moves(answer)  # the menu stays open
        assert [m for m in standin.messages(chan) if is_board(m)][-1] is board  # no post for a step
    async with standin.run_client(make) as bot:
        menu = standin.message(answer.id)
        for _ in range(6):  # pass the ability if it asks, then draw twice: the turn ends
            moves = menu_moves(menu)
            move = "pass" if "pass" in moves else next(m for m in moves if m.startswith("draw"))
            custom_id, value = moves[move]
            menu = await (await click_choice(standin, mover, menu, custom_id, value)).original(
                lambda m, edits=menu.edits: m.edits > edits
            )
            assert "⚠️" not in menu.text, menu.text
            if not menu_moves(menu):
                break
        assert "Your turn is over" in menu.text
        post = [m for m in standin.messages(chan) if is_board(m)][-1]
        assert post is not board and "prepared" in post.content and cards_drawn(post.content) >= 2
        assert not standin.message(board.id).components  # the old board lost its buttons


async def test_computer_turns_are_told_in_the_post_of_the_persons_turn(standin, bot_factory):
    """With a computer seated, a person's turn and the computer's turn after it make one post, which
    tells the computer's turn too and pings the person again; the person's private menu goes on into
    the next turn, saying what the computer did."""
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        bot.sessions.new_seed = lambda: 5
        lobby = await standin.slash(alice, chan, "guacamole new", thread=False, players=2)
        await standin.click(alice, lobby.message, "Add computer")
        standin.skip_messages(chan)
        await standin.click(alice, lobby.message, "Start")
        board = await standin.next_message(chan, is_board)
        menu = await (await standin.click(alice, board, "Play")).original()
        for _ in range(3):
            session = await bot.sessions.core.in_channel(chan.id)
            before = session.engine.turn_number(session.state)
            boards = len([m for m in standin.messages(chan) if is_board(m)])
            while True:
                moves = menu_moves(menu)
                move = next((m for m in moves if m.startswith("draw")), None) or "pass"
                custom_id, value = moves[move]
                menu = await (await click_choice(standin, alice, menu, custom_id, value)).original(
                    lambda m, edits=menu.edits: m.edits > edits
                )
                if "It is your turn again" in menu.text:
                    break
            assert "Cpu Ada" in menu.text and menu_moves(menu)
            posts = [m for m in standin.messages(chan) if is_board(m)]
            assert len(posts) == boards + 1  # one post for the person's turn and the computer's
            assert "Cpu Ada" in posts[-1].content and posts[-1].pinged == frozenset({alice.id})
            session = await bot.sessions.core.in_channel(chan.id)
            assert session.engine.turn_number(session.state) == before + 2
