"""Nowa Gwinea's board in words (``describe``): every square, totem, count and hut a view shows is
named, as the notation names it; nothing the view hides is; every line is a kept sentence with
its Spanish."""

from __future__ import annotations

import random
from functools import partial

import pytest

import engines.nowa_gwinea as ng
from engines.core import TABLE, UNKNOWN, Section
from engines.nowa_gwinea.data import ANIMALS, FRUIT_BONUS
from engines.nowa_gwinea.geometry import cell_name, placement_from_text
from engines.nowa_gwinea.rules import copy_state
from tests.nowa_gwinea.conftest import FULL, PARTIAL, rig
from tests.nowa_gwinea.util import build, play
from tests.support import sentences

check_said = partial(sentences.check_said, wordless_ok=True)

MODES = {
    "standard-shared": {},
    "hard-each": {"side": ng.Side.HARD, "boards": ng.Deal.EACH},
    "variants": {"water_target": 3, "fruit_for_all": True, "hard_seats": "1", "boards": ng.Deal.EACH},
}


def _positions(config: ng.Config, seed: int) -> list[ng.State]:
    """Positions of a seeded game with computer players: mid-round with huts built, just after a
    round ended, and the end of the game."""
    rng = random.Random(seed)
    s = ng.new_game(config, config.players, seed)
    out = [s]
    while not s.over:
        for _step in range(3):
            for seat in sorted(ng.to_move(s)):
                if s.over or seat not in ng.to_move(s):
                    continue
                move = ng.computer_move(ng.view_for(s, seat), ng.legal_moves(s, seat), rng)
                s, _ = ng.apply_move(s, seat, move)
        out.append(s)
        if not s.over and s.round == len(s.history) + 1 and rng.random() < 0.5:
            s, _ = ng.apply_move(s, TABLE, ng.Timeout())
            out.append(s)
    return out


def _text(sections: list[Section]) -> str:
    return "\n".join(line.in_words() for sec in sections for line in (sec.heading, *sec.lines))


def _lines(sections: list[Section], private: bool) -> list[str]:
    return [x.in_words() for sec in sections if sec.private is private for x in (sec.heading, *sec.lines)]


def _seat(s: int) -> str:
    return f"{{p{s}}}"


def _check_names_every_piece(view: ng.View) -> None:
    sections = ng.describe(view)
    public = "\n".join(_lines(sections, False))
    for seat, score in enumerate(view.scores):
        assert any(line.startswith(f"{_seat(seat)}: {score} point") for line in _lines(sections, False)), seat
    if not view.over:
        assert f"Round {view.round} of 9" in public
        assert f"covering {view.water_target} water hole" in public
        for info in view.boards:
            assert f"board {info.board}, " in public
            assert ("hard side (B)" if info.side == "B" else "standard side (A)") in public
            rolled = f"The die shows the {ANIMALS[view.totem]}: the village starts on its totem, "
            assert f"{rolled}{info.totems[view.totem]}" in public
            for k, cell in enumerate(info.totems):
                if k != view.totem:
                    assert f"Totem of the {ANIMALS[k]}: {cell}, not to be covered" in public
            for kind, cells in (("Water holes", info.water), ("Fruit bushes", info.fruit)):
                listed = [line for line in public.splitlines() if line.startswith(f"{kind}: ")]
                assert any(set(line.split(": ")[1].split()) == set(cells) for line in listed), (kind, cells)
        for seat, huts in enumerate(view.huts):
            hut_words = f"{huts} hut" + ("" if huts == 1 else "s")
            assert f"{_seat(seat)}: {hut_words} built, " in public
    else:
        assert "The game is over after 9 rounds" in public
    last = view.last_round
    if last:
        assert f"Round {last['round']} ended: every village revealed" in public
        for seat, village in enumerate(last["villages"]):
            line = next(
                x
                for x in public.splitlines()
                if x.startswith(f"{_seat(seat)}: {last['rows'][seat]['points']} point")
                and ("(" in x or "no huts" in x)
            )
            assert line.endswith(" ".join(village)) if village else line.endswith("no huts")
            for text in village:  # and each hut with the squares it covers
                pl = placement_from_text(text)
                cells = " ".join(sorted((cell_name(c) for c in pl.cells), key=lambda n: (n[0], int(n[1:]))))
                assert f"{_seat(seat)}'s hut {pl.piece}: {text} on {cells}" in public.splitlines()
        if last["caller"] is not None:
            assert _seat(last["caller"]) + (" called Gwinea" if last["how"] == "gwinea" else "") in public
    private = _lines(sections, True)
    if view.seat is None or view.over:
        assert private == []
        return
    assert private[0] == "Your village, hidden from the others until the round ends"
    mine = view.villages[view.seat]
    info = view.boards[view.seat]
    covered: set[str] = set()
    for text in mine:
        pl = placement_from_text(text)
        cells = [cell_name(c) for c in pl.cells]
        covered |= set(cells)
        assert f"Hut {pl.piece}: {text} on {' '.join(cells)}" in private
    water = [c for c in info.water if c in covered]
    assert view.water == len(water)
    if water:
        assert f"Water holes covered ({len(water)} of {view.water_target}): " in "\n".join(private)
    fruit = [c for c in info.fruit if c in covered]
    if fruit and view.fruit_for_all:  # the variant also says what a village short of the water scores
        assert f"(caller bonus {FRUIT_BONUS[len(fruit)]}, or {2 * len(fruit)} if short of" in "\n".join(
            private
        )
    elif fruit:
        assert f"(caller bonus {FRUIT_BONUS[len(fruit)]})" in "\n".join(private)
    for cell in water + fruit:
        assert any(cell in line.split() or f" {cell}" in line for line in private), cell
    if not mine:
        assert f"No huts yet: the first hut must cover {info.totems[view.totem]}" in private


@pytest.mark.parametrize("mode", sorted(MODES))
def test_every_piece_a_view_shows_is_named(mode):
    """Seeded games with computer players, 1-4 seats, at several points: for the spectator and for
    every seat, the text names the round, each board's side, totems (the rolled one first), water
    holes and fruit bushes by their squares, each seat's score and hut count, the last round's
    revealed villages and its caller; a seat still building also reads its own huts with their
    squares, the water and fruit they cover; a spectator reads no private section."""
    for seed in range(3):
        config = ng.Config(players=1 + seed % 4 + (mode == "variants"), **MODES[mode])
        for state in _positions(config, seed):
            for seat in [None, *range(config.players)]:
                _check_names_every_piece(ng.view_for(state, seat))


def test_a_village_in_words_on_the_hand_made_board(board99):
    """Board 99 with two of the three huts of a full village: the exact lines a player hears."""
    s = build(rig(players=2), 0, PARTIAL)
    s, _ = ng.apply_move(s, 1, ng.Done())
    sections = ng.describe(ng.view_for(s, 0))
    assert [sec.private for sec in sections] == [False, False, False, True]
    assert [line.in_words() for line in sections[0].lines] == [
        "Gwinea may be called by a legal village covering 5 water holes",
        "Boards left in the stack: 31",
        "{p0}: 0 points",
        "{p1}: 0 points",
    ]
    assert sections[1].heading.in_words() == "The task: board 99, standard side (A)"
    assert [line.in_words() for line in sections[1].lines] == [
        "The die shows the parrot: the village starts on its totem, C3",
        "Totem of the cassowary: A8, not to be covered",
        "Totem of the tree kangaroo: H1, not to be covered",
        "Totem of the crocodile: H8, not to be covered",
        "Totem of the lizard: F6, not to be covered",
        "Totem of the butterfly: A1, not to be covered",
        "Water holes: C2 D3 E2 E5 G5",
        "Fruit bushes: A3 B6 C4 H3 H5",
    ]
    assert [line.in_words() for line in sections[2].lines] == [
        "{p0}: 2 huts built, still building",
        "{p1}: 0 huts built, finished building",
    ]
    assert [line.in_words() for line in sections[3].lines] == [
        "Hut X: X0B3 on B3 C2 C3 C4 D3",
        "Hut I: I0D5 on D5 E5 F5 G5 H5",
        "Water holes covered (4 of 5): C2 D3 E5 G5",
        "Water holes still open: E2",
        "Fruit bushes covered: C4 H5 (caller bonus 3)",
        "Huts left: F L N P T U V W Y Z",
    ]
    variant = build(rig(players=2, fruit_for_all=True), 0, PARTIAL)
    assert ng.describe(ng.view_for(variant, 0))[-1].lines[4].in_words() == (
        "Fruit bushes covered: C4 H5 (caller bonus 3, or 4 if short of the water holes)"
    )
    full = play(s, 0, "L0E2")
    own = ng.describe(ng.view_for(full, 0))[-1]
    assert own.lines[-2].in_words() == "You may call 'gwinea'."
    assert "Water holes still open: " not in _text([own])
    finished = ng.describe(ng.view_for(ng.apply_move(rig(players=2), 0, ng.Done())[0], 0))[-1]
    assert [line.in_words() for line in finished.lines] == [
        "No huts yet: the first hut must cover C3",
        "Water holes covered: none (0 of 5)",
        "Water holes still open: C2 D3 E2 E5 G5",
        "Fruit bushes covered: none",
        "You have finished building this round.",
        "Huts left: F I L N P T U V W X Y Z",
    ]


def test_the_finished_round_names_the_caller_and_every_village(board99):
    """After a call, every village of the round is public: the caller, each seat's points, water,
    fruit and huts in notation, then each hut with the squares it covers, as the picture shows
    them (the notation alone, 'X0B3 I0D5', left a screen-reader user to work out the squares);
    a broken village says why it scored 0."""
    s = build(rig(players=3), 0, FULL)
    s = build(s, 1, ["I0A3"])
    s.villages[2] = ["X0B3", "I0D7"]  # split: saved under older rules
    s, _ = ng.apply_move(s, 0, ng.Gwinea())
    last = ng.describe(ng.view_for(s, None))[-1]
    assert not last.private and last.heading.in_words() == "Round 1 ended: every village revealed"
    assert [line.in_words() for line in last.lines] == [
        "{p0} called Gwinea",
        "{p0}: 11 points (5 water holes, 3 fruit bushes): X0B3 I0D5 L0E2",
        "{p0}'s hut X: X0B3 on B3 C2 C3 C4 D3",
        "{p0}'s hut I: I0D5 on D5 E5 F5 G5 H5",
        "{p0}'s hut L: L0E2 on E2 F2 G2 H2 H3",
        "{p1}: 1 point (1 water hole, 1 fruit bush): I0A3",
        "{p1}'s hut I: I0A3 on A3 B3 C3 D3 E3",
        "{p2}: 0 points, the village breaks the rules ("
        + str(ng.view_for(_split_state(), 2).broken)
        + "): X0B3 I0D7",
        "{p2}'s hut X: X0B3 on B3 C2 C3 C4 D3",
        "{p2}'s hut I: I0D7 on D7 E7 F7 G7 H7",
    ]
    spanish = [line.in_words(sentences.ES) for line in last.lines]
    assert "Choza X de {p0}: X0B3 en B3 C2 C3 C4 D3" in spanish, spanish
    timed = ng.apply_move(rig(players=2), TABLE, ng.Timeout())[0]
    lines = [line.in_words() for line in ng.describe(ng.view_for(timed, 1))[-2].lines]
    assert lines == [
        "Nobody called Gwinea, and nobody got the fruit bonus",
        "{p0}: 0 points, no huts",
        "{p1}: 0 points, no huts",
    ]
    later = ng.apply_move(play(rig(players=2), 1, "I0A3"), TABLE, ng.Timeout())[0]
    assert ng.describe(ng.view_for(later, 0))[-2].lines[0].in_words() == (
        "Nobody called Gwinea; the fruit bonus went to {p1}"
    )


def _split_state() -> ng.State:
    s = rig(players=3)
    s.villages[2] = ["X0B3", "I0D7"]
    return s


def test_the_end_of_the_game_shows_no_private_part(board99):
    """When the game is over the last round's villages are public and nobody has a private part;
    the winners are named with their points."""
    s = rig(players=2)
    for _ in range(9):
        s.boards, s.sides, s.totem = [99, 99], ["A", "A"], 0
        s = build(s, 1, ["I0A3"])
        s, _ = ng.apply_move(s, TABLE, ng.Timeout())
    for seat in (None, 0, 1):
        sections = ng.describe(ng.view_for(s, seat))
        assert not any(sec.private for sec in sections)
        assert [sec.heading.in_words() for sec in sections] == [
            "The game is over after 9 rounds",
            "Round 9 ended: every village revealed",
        ]
        assert [line.in_words() for line in sections[0].lines] == ["{p0}: 0 points", "{p1}: 18 points, wins"]


def _hidden_variant(state: ng.State, seat: int) -> ng.State:
    """``state`` with ``seat``'s village replaced by another legal one of the same size, and the
    boards left in the stack in another order: only hidden things differ."""
    other = copy_state(state)
    size = len(state.villages[seat])
    rng = random.Random(size)
    for _attempt in range(200):
        trial = copy_state(state)
        trial.villages[seat] = []
        ok = True
        for _ in range(size):
            legal = [m for m in ng.legal_moves(trial, seat) if isinstance(m, ng.Place)]
            if not legal:
                ok = False
                break
            trial, _ = ng.apply_move(trial, seat, rng.choice(legal))
        if ok and trial.villages[seat] != state.villages[seat]:
            other.villages[seat] = trial.villages[seat]
            break
    else:
        raise AssertionError("no other village of the same size")
    rest = other.deck[other.drawn :]
    random.Random(3).shuffle(rest)
    other.deck[other.drawn :] = rest
    return other


def test_nothing_hidden_is_told():
    """Two positions that differ only in a seat's hidden village (same number of huts) and in the
    order of the boards left in the stack read the same to a spectator and to every other seat;
    the seat itself reads its own village.  No other seat's hut is named before the reveal."""
    config = ng.Config(players=3, boards=ng.Deal.EACH)
    rng = random.Random(4)
    s = ng.new_game(config, 3, 4)
    s, _ = ng.apply_move(s, TABLE, ng.Timeout())
    for _ in range(3):
        for seat in range(3):
            move = ng.computer_move(ng.view_for(s, seat), ng.legal_moves(s, seat), rng)
            if isinstance(move, ng.Place):
                s, _ = ng.apply_move(s, seat, move)
    assert all(s.villages) and s.history
    for hidden in range(3):
        other = _hidden_variant(s, hidden)
        assert other.villages[hidden] != s.villages[hidden]
        for reader in [None, *range(3)]:
            a = ng.describe(ng.view_for(s, reader))
            b = ng.describe(ng.view_for(other, reader))
            if reader == hidden:
                assert a != b
                assert all(t in _text(a) for t in s.villages[hidden])
            else:
                assert a == b, (hidden, reader)
                public = "\n".join(_lines(a, False))
                for text in s.villages[hidden]:
                    assert text not in public
                assert ng.view_for(s, reader).villages[hidden] == UNKNOWN


def test_determinized_positions_read_the_same():
    """A position sampled from a view (``determinize``) reads the same as the real one, for that
    view's seat."""
    config = ng.Config(players=2)
    rng = random.Random(8)
    s = ng.new_game(config, 2, 8)
    for seat in (0, 1, 0, 1):
        move = ng.computer_move(ng.view_for(s, seat), ng.legal_moves(s, seat), rng)
        if isinstance(move, ng.Place):
            s, _ = ng.apply_move(s, seat, move)
    for seat in (0, 1):
        view = ng.view_for(s, seat)
        sampled = ng.determinize(view, random.Random(seat))
        assert ng.describe(ng.view_for(sampled, seat)) == ng.describe(view)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_every_line_is_a_kept_sentence_in_spanish(mode):
    """Every heading and line of every description in seeded games is a kept sentence: sound
    values, every message in the Spanish catalogue, the Spanish whole."""
    seen: set[str] = set()
    for seed in range(2):
        config = ng.Config(players=2 + seed, **MODES[mode])
        for state in _positions(config, seed):
            for seat in [None, *range(config.players)]:
                for sec in ng.describe(ng.view_for(state, seat)):
                    for said in (sec.heading, *sec.lines):
                        check_said(said, said.in_words())
                        seen.add(said.msg)
    assert "Hut {hut}: {place} on {cells}" in seen and "Round {round} ended: every village revealed" in seen


def test_spanish_reads_the_game_terms(board99):
    """The Spanish uses the game's words: tótem with the animal, pozas de agua, chozas."""
    s = build(rig(players=1), 0, PARTIAL)
    es = [
        x.in_words(sentences.ES) for sec in ng.describe(ng.view_for(s, 0)) for x in (sec.heading, *sec.lines)
    ]
    assert "En el dado sale el tótem loro: la aldea empieza en su tótem, C3" in es
    assert "Pozas de agua: C2 D3 E2 E5 G5" in es
    assert "Choza X: X0B3 en B3 C2 C3 C4 D3" in es
    assert "Tu aldea, oculta al resto de la mesa hasta que termine la ronda" in es


def test_fruit_for_all_is_told_as_it_scores(board99):
    """The fruit variant in words says who scores fruit as the scoring does: a player who covered
    the water holes needed but did not call scores none (not "everyone but the caller")."""
    s = build(rig(players=3, fruit_for_all=True), 0, PARTIAL)
    s = build(build(s, 1, FULL), 2, FULL)
    s = play(s, 1, "gwinea")
    rows = s.history[-1]["rows"]
    assert rows[2]["water"] == 5 and rows[2]["fruit"] == 3 and rows[2]["points"] == 5  # no fruit
    rule = "fruit for all: 2 per fruit bush for whoever neither calls nor covers the water holes needed"
    # said by the table's line of options (``bot.describe.options_lines``), once
    assert ng.WORDS["option.fruit_for_all.True"] == rule
    assert rule not in _text(ng.describe(ng.view_for(s, None)))


def test_the_boards_left_in_the_stack_are_told_as_the_picture_shows_them():
    """The picture prints "Boards left in the stack: N"; the words say the same, in both languages,
    and the number goes down as boards are drawn."""
    config = ng.Config(players=2)
    seen = []
    for s in _positions(config, seed=5):
        view = ng.view_for(s, 0)
        if view.over:
            continue
        lines = _text(ng.describe(view)).splitlines()
        assert f"Boards left in the stack: {view.stack_left}" in lines
        seen.append(view.stack_left)
        spanish = [line.in_words(sentences.ES) for section in ng.describe(view) for line in section.lines]
        assert f"Tableros restantes en la pila: {view.stack_left}" in spanish
    assert len(set(seen)) > 1  # boards were drawn between the positions
