"""/game computer level: through Discord: the level is offered, stored, shown and played."""

from __future__ import annotations

import engines.guacamole as guac
from cogs.table import GAME_NAMES
from tests.e2e.conftest import png_of


def is_board(message) -> bool:
    return bool(message.files) and not message.ephemeral


async def test_game_computer_level_end_to_end(standin, bot_factory, monkeypatch):
    calls: list[str] = []
    real = guac.computer_move

    def recording(view, legal, rng, level="normal", seconds=None):
        calls.append(level)
        return real(view, legal, rng, level, seconds)

    monkeypatch.setattr(guac, "computer_move", recording)
    extensions = ("cogs.table", "cogs.guacamole")
    assert "guacamole" in GAME_NAMES
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(extensions)) as bot:
        await standin.wait_synced()
        bot.sessions.computer_seconds = 0.02  # keep the strong search short in tests
        command = standin.command("game")
        computer = next(o for o in command["options"] if o["name"] == "computer")
        (level,) = computer["options"]
        assert level["name"] == "level" and not level.get("required")
        assert [c["value"] for c in level["choices"]] == ["easy", "normal", "strong"]

        lobby = await standin.slash(alice, chan, "guacamole new", thread=False)
        assert not lobby.ephemeral
        added = await (await standin.slash(alice, chan, "game computer", level="strong")).original()
        assert added.ephemeral and "(strong)" in added.content
        status = await (await standin.slash(alice, chan, "game status")).original()
        assert "(computer, strong)" in status.content

        session = await bot.sessions.core.in_channel(chan.id)
        rows = await bot.store.games.seats(session.id)
        assert [r.level for r in rows] == [None, "strong"]

        standin.skip_messages(chan)
        await standin.click(alice, lobby.message, "Start")
        png_of(await standin.next_message(chan, is_board))
        for _ in range(40):
            session = await bot.sessions.core.in_channel(chan.id)
            if calls or session.status != "active":
                break
            legal = await bot.sessions.play.legal_moves(chan.id, alice.id)
            r = await standin.slash(alice, chan, "guacamole move", move=legal[-1])
            assert "You played" in (await r.original()).content
        assert calls and set(calls) == {"strong"}
        # the strong computer's turn follows the person's post in a post of its own
        await bot.front.catchup.computers_settled()
        log = await bot.store.history.moves(session.id)
        assert any(m.by_computer for m in log)
        status = await (await standin.slash(alice, chan, "game status")).original()
        assert "(computer, strong)" in status.content
