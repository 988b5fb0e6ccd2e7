"""Exports stay replayable when a game's rules or states change: the editions of the rules.

``editions/`` holds an export of every edition of each game (``<game>-edition<N>.json``): the
current edition's is replayed state by state, so a change that alters a game's states or result
fails here until ``EDITION`` is raised (see :mod:`engines.core`) and that edition's file is added
(``examples/make.py`` writes one: copy ``examples/<game>.json``); an earlier edition's is replayed
by its moves and result, as ``--replay`` replays a file a player kept from before an upgrade.
"""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import pytest

import engines
from bot import export
from bot.terminal import main
from engines import guanga
from engines.core import config_from_options

HERE = Path(__file__).resolve().parent / "editions"
GAMES = sorted(
    g for g in engines.available() if engines.get(g).engine.startswith("engines.")
)  # not the suite's own


def read(name: str) -> dict:
    return export.load((HERE / name).read_bytes())


def resealed(data: dict, **changes) -> dict:
    return export.seal({**{k: v for k, v in data.items() if k != "digest"}, **changes})


def files() -> list[tuple[str, int]]:
    found = []
    for path in sorted(HERE.glob("*.json")):
        game, edition = re.fullmatch(r"(\w+)-edition(\d+)\.json", path.name).groups()
        found.append((game, int(edition)))
    return found


@pytest.mark.parametrize("game", GAMES)
def test_the_current_edition_replays_state_by_state(game):
    """The current edition's file replays with every state's digest compared, to its result."""
    module = engines.get(game).load()
    name = f"{game}-edition{module.EDITION}.json"
    assert (HERE / name).is_file(), f"{name} is missing: copy examples/{game}.json there"
    data = read(name)
    assert data["edition"] == module.EDITION and not export.earlier(data)
    try:
        steps = list(export.replay(data))
    except export.ExportError as exc:
        pytest.fail(
            f"{name} no longer replays ({exc}): a change altered {game}'s states or result, so raise "
            f"engines/{game}.EDITION to {module.EDITION + 1} and add that edition's file"
        )
    assert len(steps) == len(data["moves"])
    assert sum(1 for e in data["moves"] if "after" in e or "view" in e) == len(data["moves"])


@pytest.mark.parametrize(("game", "edition"), [f for f in files() if f[1] < engines.get(f[0]).load().EDITION])
def test_every_earlier_edition_still_replays_by_its_moves_and_result(game, edition):
    data = read(f"{game}-edition{edition}.json")
    assert export.edition(data) == edition and export.earlier(data)
    steps = list(export.replay(data))
    assert len(steps) == len(data["moves"])
    reached = engines.get(game).load().outcome(steps[-1].state)
    assert reached is not None and export.untold(reached.to_dict()) == export.untold(data["rules_outcome"])


def test_every_file_is_of_an_edition_the_game_has():
    assert files(), "no export in editions/"
    for game, edition in files():
        assert game in GAMES and 1 <= edition <= engines.get(game).load().EDITION, (game, edition)
    assert {g for g, _ in files()} == set(GAMES)


def test_a_file_without_an_edition_is_of_edition_one_and_is_not_compared_state_by_state():
    """Guanga's first file (written before exports named their edition) no longer matches the
    states' digests of today's engine, and replays all the same, by its moves and result."""
    data = read("guanga-edition1.json")
    assert "edition" not in data and export.edition(data) == 1
    as_current = resealed(data, edition=guanga.EDITION)
    with pytest.raises(export.ExportError, match="disagrees with the export at move 1"):
        list(export.replay(as_current))
    assert len(list(export.replay(data))) == len(data["moves"])


def test_an_earlier_edition_still_refuses_an_illegal_move_and_another_result():
    data = read("guanga-edition1.json")
    moves = [dict(m) for m in data["moves"]]
    moves[0]["move"] = "P9Z9"
    with pytest.raises(export.ExportError, match=r"move 1 \('P9Z9'\) is refused.*edition 1 of Guanga"):
        list(export.replay(resealed(data, moves=moves)))
    outcome = dict(data["rules_outcome"], scores=[0.0, 0.0])
    with pytest.raises(export.ExportError, match=r"different result.*this Pukllay plays edition 4\)"):
        list(export.replay(resealed(data, rules_outcome=outcome)))


def test_an_earlier_editions_result_told_in_other_words_still_replays():
    """Edition 3 tells Guanga's results in other words (the player whose turn could not start
    named, a tiebreak's negative points given): a file of edition 2 whose result reads as it
    did then replays, its scores and ranking agreeing; a file of the current edition is held
    to its words too."""
    data = read("guanga-edition2.json")
    said = {
        "msg": "at the start of player {number}'s turn the basket patches could not be placed",
        "args": {"number": 2},
    }
    told = dict(
        data["rules_outcome"],
        reason=said["msg"].format(number=2),
        reason_said=said,
        tiebreak="fewer negative points",
    )
    assert len(list(export.replay(resealed(data, rules_outcome=told)))) == len(data["moves"])
    current = read(f"guanga-edition{guanga.EDITION}.json")
    told = dict(current["rules_outcome"], reason="the workshop ended")
    with pytest.raises(export.ExportError, match="different result"):
        list(export.replay(resealed(current, rules_outcome=told)))


@pytest.mark.parametrize("edition", [99, 0, -1, "2", True, 1.5])
def test_an_edition_this_pukllay_cannot_replay_is_refused_when_read(edition):
    data = resealed(read("guanga-edition2.json"), edition=edition)
    expected = "a newer Pukllay replays it" if edition == 99 else "is not a whole number from 1 up"
    with pytest.raises(export.ExportError, match=expected):
        export.load(json.dumps(data))


def _stuck_game(seed: int) -> tuple[list[tuple[int, str]], dict]:
    """A three-player apprentice game of random moves (places and claims first) played with the
    end of edition 1 (a player who cannot place ends it at once): its moves and outcome."""
    config = config_from_options(guanga.Config, 3, {"mode": "apprentice", "cannot_place": "end_now"})
    state, rng, moves = guanga.new_game(config, 3, seed), random.Random(seed), []
    while guanga.outcome(state) is None:
        seat = min(guanga.to_move(state))
        legal = list(guanga.legal_moves(state, seat))
        liked = [m for m in legal if type(m).__name__ in ("Place", "Claim", "Return", "Keep")]
        move = rng.choice(liked or legal)
        moves.append((seat, str(move)))
        state, _ = guanga.apply_move(state, seat, move)
    return moves, guanga.outcome(state).to_dict()


def test_an_edition_one_guanga_game_is_replayed_with_the_end_it_was_played_with():
    """Edition 2 changed Guanga's default: a player who cannot place no longer ends a game of
    2-4 at once.  A file of edition 1 (its options without ``cannot_place``) is replayed with
    the old end (``guanga.earlier_options``) and reaches its result; read as today's edition,
    the same moves reach another."""
    moves, outcome = _stuck_game(1)
    assert "could not be placed" in outcome["reason"]
    data = export.seal(
        {
            "format": export.FORMAT,
            "version": export.VERSION,
            "game": "guanga",
            "options": {"mode": "apprentice", "stoppers": False},
            "players": [{"seat": i, "name": f"P{i + 1}"} for i in range(3)],
            "moves": [{"number": i, "seat": s, "move": m} for i, (s, m) in enumerate(moves, 1)],
            "seed": 1,
            "rules_outcome": outcome,
        }
    )
    steps = list(export.replay(export.load(json.dumps(data))))
    assert guanga.outcome(steps[-1].state).to_dict() == outcome
    with pytest.raises(export.ExportError, match="different result"):  # read as today's edition
        list(export.replay(resealed(data, edition=guanga.EDITION)))
    assert guanga.earlier_options(1, 1, {"mode": "beginner"}) == {"mode": "beginner"}  # solo: no option
    assert guanga.earlier_options(2, 3, {}) == {}


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_terminal_says_what_it_checked_of_an_earlier_edition(language):
    out, err = io.StringIO(), io.StringIO()
    path = HERE / "guanga-edition1.json"
    code = main(["--replay", str(path), "--no-images", "--language", language], io.StringIO(), out, err)
    assert code == 0, err.getvalue()
    text = out.getvalue()
    if language == "en":
        assert "made with edition 1 of the rules; this Pukllay plays edition 4" in text
        assert "Every move of the export is legal and the replay reaches its result (68 moves)." in text
        assert "move by move" not in text
    else:
        assert "edición 1" in text and "edición 4" in text
    current = io.StringIO()
    assert (
        main(
            ["--replay", str(HERE / f"guanga-edition{guanga.EDITION}.json"), "--no-images"],
            io.StringIO(),
            current,
            err,
        )
        == 0
    )
    assert "edition" not in current.getvalue() and "move by move" in current.getvalue()
