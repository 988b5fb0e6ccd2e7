"""Through the stand-in: a Guacamole game allowing two new dishes a turn says so on every surface
of its board, as the lobby does: the posted board's header, its alt text, a player's own view,
a history page and ``/game describe``.  They all looked like the standard game's."""

from __future__ import annotations

from renderers import typeset
from tests.e2e.players import is_board
from tests.e2e.test_languages import EXTENSIONS

SAID = "up to 2 new dishes per turn"


async def test_a_guacamole_of_two_dishes_a_turn_says_so_wherever_its_board_is(standin, bot_factory):
    chan = standin.channel("games")
    ana = standin.add_user("ana")
    async with standin.run_client(bot_factory(EXTENSIONS)):
        await standin.wait_synced()
        lobby = await standin.slash(ana, chan, "guacamole new", thread=False, players=2, dishes_per_turn=2)
        assert f"Options: {SAID}" in lobby.message.content
        await standin.click(ana, lobby.message, "Add computer")
        standin.skip_messages(chan)
        with typeset.fit_log() as log:
            await standin.click(ana, lobby.message, "Start")
            board = await standin.next_message(chan, is_board)
            await standin.settle()
        assert f"Options: {SAID}" in [f.text for f in log if f.header]
        (described,) = [f.description for f in board.files]
        assert f"Options: {SAID}." in described

        for command in ("game hand", "game history"):
            with typeset.fit_log() as log:
                answer = await (await standin.slash(ana, chan, command)).original()
            assert answer.files, command
            assert f"Options: {SAID}" in [f.text for f in log if f.header], command
            assert all(SAID in (f.description or "") for f in answer.files), command

        words = await (await standin.slash(ana, chan, "game describe")).original()
        assert words.content.startswith(f"Options: {SAID}\n\n"), words.content[:200]
