"""/game export end to end: each of the five games played to its end through the Discord
stand-in, exported, and replayed by ``python -m bot.terminal --replay`` to the same result."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from bot import export
from bot.app import EXTENSIONS
from bot.terminal import main
from engines.core import jsonable, rng_for
from tests.e2e.test_games import GAMES


def is_board(message) -> bool:
    return bool(message.files) and not message.ephemeral


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_export_of_a_whole_game_replays_to_its_result(standin, bot_factory, game, tmp_path):
    options, _ = GAMES[game]
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        bot.sessions.new_seed = lambda: 11  # the same games on every run
        await standin.wait_synced()
        lobby = await standin.slash(alice, chan, f"{game} new", thread=False, **options)
        await standin.click(alice, lobby.message, "Add computer")
        await standin.click(alice, lobby.message, "Start")
        await standin.next_message(chan, is_board)
        session = await bot.sessions.core.in_channel(chan.id)
        module, i, running_export = session.engine, 0, None
        while session.status == "active":
            seat = session.seat_of(alice.id).seat
            assert seat in session.to_move(), "the game waits on nobody"
            legal = list(module.legal_moves(session.state, seat))
            move = module.computer_move(module.view_for(session.state, seat), legal, rng_for(4, game, i))
            answer = await (await standin.slash(alice, chan, f"{game} move", move=str(move))).original()
            assert "You played" in answer.text, answer.text
            i += 1
            session = await bot.sessions.core.get(session.id)
            if i == 6 and session.status == "active":
                r = await (await standin.slash(alice, chan, "game export")).original()
                assert r.ephemeral and r.files and "only you" in r.content
                running_export = json.loads(bytes(r.files[0]))
        assert running_export is not None and "seed" not in running_export
        with pytest.raises(export.ExportError, match="while the game was running"):
            list(export.replay(export.load(json.dumps(running_export))))

        # Drawing a board per turn for the animation takes seconds: the answer was deferred.
        done = await (await standin.slash(alice, chan, "game export")).original(timeout=90)
        assert done.ephemeral and "posted" in done.content
        post = await standin.next_message(chan, lambda m: m.files and "exported by" in m.content, timeout=30)
        assert not post.ephemeral and post.files[0].filename.endswith(".json")
        assert len(post.files) == 2 and post.files[1].filename.endswith(".gif")
        gif = Image.open(io.BytesIO(bytes(post.files[1])))
        assert gif.format == "GIF" and gif.n_frames >= 2 and len(post.files[1]) <= 8 * 1024 * 1024
        path = tmp_path / post.files[0].filename
        path.write_bytes(bytes(post.files[0]))
        out, err = tmp_path / "out.txt", tmp_path / "err.txt"
        with out.open("w") as o, err.open("w") as e:  # its boards: tests/table/test_export.py
            code = main(["--replay", str(path), "--no-images"], stdout=o, stderr=e)
        assert code == 0, err.read_text()
        data = export.load(path.read_bytes())
        steps = list(export.replay(data))
        final = steps[-1].state
        assert module.outcome(final).to_dict() == session.row.outcome
        if any(step.secret for step in steps):  # a Tiwanaku peek: the file says only that it happened
            assert jsonable(module.view_for(final, None)) == jsonable(module.view_for(session.state, None))
        else:
            assert module.to_dict(final) == module.to_dict(session.state)
        assert "Game over" in out.read_text()
