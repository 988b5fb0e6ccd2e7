"""The terminal shows of each move exactly what :func:`bot.public.seen` allows, the same answer
the Discord table's posts, log and history are built from: a computer's secret move (a hut
built in a simultaneous round, a kept order) is shown as a spectator may read it when it is
made, never by its notation."""

from __future__ import annotations

import io

import pytest

import engines
from bot import export, public
from bot.records import MoveRecord
from bot.terminal import main
from engines.core import config_from_options, name_seats
from languages import ENGLISH


@pytest.mark.parametrize(
    ("game", "options", "seed"),
    [("nowa_gwinea", [], 5), ("guanga", ["--option", "mode=apprentice"], 5)],
)
def test_each_move_is_printed_as_public_seen_allows(tmp_path, game, options, seed):
    out, err = io.StringIO(), io.StringIO()
    argv = [
        game,
        "--players",
        "2",
        "--computer",
        "2",
        "--seed",
        str(seed),
        "--no-images",
        "--out",
        str(tmp_path),
    ]
    code = main([*argv, *options], stdin=io.StringIO(), stdout=out, stderr=err, thinking_after=1e9)
    assert code == 0, err.getvalue()
    # The game's moves, replayed from its export (the seed is in it), each asked of bot.public
    # as the spectator a computer's move is shown to, in the state just after it.
    data = export.load((tmp_path / f"{game}-seed{seed}" / f"{game}-seed{seed}.json").read_bytes())
    module = engines.get(game).load()
    names = [player["name"] for player in data["players"]]
    state = module.new_game(config_from_options(module.Config, 2, data["options"]), 2, int(data["seed"]))
    expected: list[str] = []
    hidden = 0
    for step in export.replay(data):
        mark = module.move_privacy(state, step.seat, module.parse_move(step.move))
        record = MoveRecord(step.seat, step.move, True, tuple(step.events), mark, step.number)
        shown = public.seen(module, step.state, record, None, ENGLISH)
        if shown.notation is not None:
            expected.append(f"{names[step.seat]}: {shown.notation}")
        else:
            hidden += 1
            if not shown.lines:
                expected.append(f"{names[step.seat]}: {shown.mask}")
        expected.extend("  " + name_seats(line, names) for line in shown.lines)
        state = step.state
    assert hidden > 0, "the game had no secret move to keep"
    printed = out.getvalue().splitlines()
    assert printed[1 : 1 + len(expected)] == expected
    assert printed[1 + len(expected)].startswith("Game over: ")
