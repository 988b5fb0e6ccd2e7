"""Exports: the five games round trip (export, read back, replay to the same states and result),
and damaged, edited, forged or unfinished files are refused with a reason."""

from __future__ import annotations

import json

import pytest

from bot import export
from bot.terminal import main
from engines.core import jsonable
from tests.table.test_history import GAMES, played

GUILD = 1


async def finished(service, game: str, channel: int, seed: int = 5):
    session = await played(service, game, channel, moves=10**6, seed=seed)
    assert session.status == "finished", f"{game} did not finish"
    return session


@pytest.mark.parametrize("game", GAMES)
async def test_every_game_round_trips(service, game, tmp_path):
    """A finished game's export replays to the stored final state and the engine's result,
    from the file alone (read back from disk), and through ``python -m bot.terminal --replay``."""
    session = await finished(service, game, 200)
    data = await export.export_session(service, session)
    path = tmp_path / "game.json"
    path.write_bytes(export.dump(data))
    loaded = export.load(path.read_bytes())
    steps = list(export.replay(loaded))
    module = session.engine
    assert len(steps) == await service.store.history.move_count(session.id) == len(loaded["moves"])
    if any(step.secret for step in steps):  # Tiwanaku's peeks: one way the game could have gone
        assert game == "tiwanaku" and any(m.get("secret") == "peek" for m in loaded["moves"])
        assert jsonable(module.view_for(steps[-1].state, None)) == jsonable(
            module.view_for(session.state, None)
        )
    else:
        assert module.to_dict(steps[-1].state) == module.to_dict(session.state)
    assert module.outcome(steps[-1].state).to_dict() == loaded["rules_outcome"] == session.row.outcome
    assert loaded["seed"] == session.row.seed and loaded["options"] == session.row.options
    assert [p["name"] for p in loaded["players"]] == session.names()
    assert not any("user_id" in p for p in loaded["players"])
    assert all(m["time"] and (m["move"] or m["secret"] == "peek") for m in loaded["moves"])

    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    with out.open("w") as o, err.open("w") as e:
        code = main(["--replay", str(path), "--out", str(tmp_path / "boards")], stdout=o, stderr=e)
    assert code == 0, err.read_text()
    text = out.read_text()
    assert "Game over" in text and "agrees with the export" in text
    assert ("kept secret for good" in text) == any(step.secret for step in steps)
    boards = list((tmp_path / "boards").rglob("*.png"))
    assert len(boards) >= 2


async def test_edited_damaged_and_forged_files_are_refused(service, tmp_path):
    session = await finished(service, "guacamole", 201)
    data = await export.export_session(service, session)
    raw = export.dump(data)
    cases = {
        "cut short": (raw[: len(raw) // 2], "not valid JSON"),
        "not text": (b"\xff\xfe\x00", "not text"),
        "something else": (b'{"hello": 1}', "not a Pukllay game export"),
        "edited": (raw.replace(b'"computer": false', b'"computer": true', 1), "damaged or edited"),
        "newer": (json.dumps(export.seal({**data, "version": 99})).encode(), "format version 99"),
        # JSON that Python will not read as it reads the rest: a number past 4300 digits, deep nesting.
        "huge number": (b'{"format": "pukllay-game", "seed": ' + b"7" * 5000 + b"}", "thousands of digits"),
        "nested": (b"[" * 100_000 + b"]" * 100_000, "nests its values too deeply"),
        # Sealed again after the edit, so only the checks of the content can catch them.
        "players": (export.dump(export.seal({**data, "players": ["ann", 2]})), "not each a player"),
        "seed": (export.dump(export.seal({**data, "seed": "twelve"})), "seed 'twelve' is not a whole number"),
    }
    for name, (content, expect) in cases.items():
        with pytest.raises(export.ExportError, match=expect):
            export.load(content)
        path = tmp_path / f"{name}.json"
        path.write_bytes(content)
        err = tmp_path / "err.txt"
        with err.open("w") as e, (tmp_path / "out.txt").open("w") as o:
            assert main(["--replay", str(path), "--no-images"], stdout=o, stderr=e) == 2
        assert expect in err.read_text() and "\n" == err.read_text()[-1] and err.read_text().count("\n") == 1

    # A forger who recomputes the digest is caught by the replay: at the move changed.
    moves = data["moves"]
    k = next(i for i, m in enumerate(moves) if m["seat"] == moves[0]["seat"] and i > 3)
    swapped = [dict(m) for m in moves]
    swapped[k]["after"] = "0" * 16
    forged = export.load(export.dump(export.seal({**data, "moves": swapped})))
    with pytest.raises(export.ExportError, match=f"disagrees with the export at move {k + 1}"):
        list(export.replay(forged))
    wrong = export.load(export.dump(export.seal({**data, "moves": moves[:-3]})))
    with pytest.raises(export.ExportError, match="different result"):
        list(export.replay(wrong))
    illegal = [dict(m) for m in moves]
    illegal[2]["move"] = "nonsense!"
    bad = export.load(export.dump(export.seal({**data, "moves": illegal})))
    with pytest.raises(export.ExportError, match="move 3"):
        list(export.replay(bad))
    # The recorded result is read back as the table's result, and one that is not a result is
    # refused as such (not a TypeError from deep inside).
    assert export.final_outcome(export.load(raw)).to_dict() == session.row.outcome
    assert export.final_outcome(export.load(export.dump(export.seal({**data, "result": None})))) is None
    for result in ("first", [1, 2], {"scores": [1, 2]}, {"scores": 5, "ranking": 7, "reason": "x"}):
        content = export.dump(export.seal({**data, "result": result}))
        with pytest.raises(export.ExportError, match="is not a result"):
            export.final_outcome(export.load(content))
        # and the terminal's replay refuses the file in one line, before replaying a move
        path = tmp_path / "odd-result.json"
        path.write_bytes(content)
        with (tmp_path / "err.txt").open("w") as e, (tmp_path / "out.txt").open("w") as o:
            assert main(["--replay", str(path), "--no-images"], stdout=o, stderr=e) == 2
        said = (tmp_path / "err.txt").read_text()
        assert "is not a result" in said and said.count("\n") == 1, said
        assert (tmp_path / "out.txt").read_text() == ""


async def test_a_running_games_export_has_no_hidden_information(service):
    """While Guanga runs, its export has no seed and no kept order, and cannot be replayed."""
    await service.lobby.create(
        "guanga", guild_id=GUILD, channel_id=202, host_id=1, host_name="ann", options={"mode": "apprentice"}
    )
    await service.lobby.join(202, 2, "bob")
    session = (await service.lobby.start(202, 1)).session
    orders = {}
    for uid in (1, 2):
        seat = session.seat_of(uid).seat
        orders[uid] = session.state.orders_dealt[seat][1]
        session = (await service.play.play(202, uid, f"keep {orders[uid]}")).session
    await service.store.games.set_board_message(session.id, 1, 2)
    session = await service.core.get(session.id)
    data = await export.export_session(service, session, with_ids=True)
    text = json.dumps(data)
    assert "seed" not in data and "rules_outcome" not in data
    assert len(data["moves"]) == 2 and all(m["move"] is None for m in data["moves"])
    assert not any(order in text for order in orders.values())
    assert "kept a secret order" in text
    assert sorted(p["user_id"] for p in data["players"]) == ["1", "2"]
    with pytest.raises(export.ExportError, match="while the game was running"):
        list(export.replay(export.load(export.dump(data))))


@pytest.mark.parametrize("game", ["guacamole", "tiwanaku"])
async def test_an_exported_line_keeps_a_lower_case_name_as_written(service, game):
    """A player named "ann" reads "ann drew ..." in the export's event lines (the sentence's
    capital is never put on a name), as on the board and in the game's thread."""
    session = await finished(service, game, 203)
    data = await export.export_session(service, session)
    ann = session.seat_of(1).seat
    lines = [line for m in data["moves"] if m["seat"] == ann for line in m["lines"]]
    assert any(line.startswith("ann ") for line in lines), lines
    assert not any(line.startswith("Ann ") for line in lines), lines
