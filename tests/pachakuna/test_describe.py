"""P'achakuna's board in words (``describe``): over positions of seeded games, for the spectator
and each seat, the text names every llama with its field, load, reachable fields and the tiles
around it (with their mountain edges and whether they may be turned), every tile's mountain edges
row by row,
every village with its demand, each player's pieces, the rocks and the bag; it hides nothing because it shows nothing
hidden (the bag's order changes nothing); and every sentence is kept for translation."""

from __future__ import annotations

import random
import re
from functools import cache, partial

import pytest

import engines.pachakuna as P
from engines.core import Said, Section
from engines.pachakuna import data as D
from engines.pachakuna.rules import reachable
from tests.support import sentences
from tests.support.sentences import ES

from .helpers import fresh, give, play, put, set_demand

check_kept = partial(sentences.check_said, differs=True)


@cache
def positions(board: str, seed: int, max_turns: int = 0, every: int = 5) -> list[P.State]:
    """Every ``every``-th state of a seeded game played by computer moves (some random), to its end."""
    s = P.new_game(P.Config(board=P.Board(board), max_turns=max_turns), 2, seed)
    rng = random.Random(seed)
    out = [s]
    for step in range(3000):
        if P.outcome(s) is not None:
            break
        seat = s.turn
        legal = P.legal_moves(s, seat)
        move = rng.choice(legal) if rng.random() < 0.3 else P.computer_move(P.view_for(s, seat), legal, rng)
        s, _ = P.apply_move(s, seat, move)
        if step % every == 0:
            out.append(s)
    out.append(s)
    assert P.outcome(s) is not None
    return out


GAMES = [("A", 31, 0), ("B", 32, 0), ("random", 33, 30)]


def words(sections: list[Section]) -> list[tuple[str, list[str]]]:
    return [(sec.heading.in_words(), [line.in_words() for line in sec.lines]) for sec in sections]


def llama_section(told: list[tuple[str, list[str]]], seat: int, ident: int) -> list[str]:
    heads = [lines for head, lines in told if head.startswith(f"{{p{seat}}}'s llama {ident} ")]
    assert len(heads) == 1, (seat, ident, [h for h, _ in told])
    return heads[0]


STILL_OPEN = {
    "it may still sell its load here, then buy a llama": {"Sell", "Buy"},
    "it may still sell its load here": {"Sell"},
    "it may still buy a llama here": {"Buy"},
    "it may do nothing more this turn": set(),
}


def still_open(lines: list[str]) -> set[str]:
    """The kinds of move the text says the llama acting now may still make, after it says it
    cannot move again."""
    done = [x for x in lines if x.endswith("this turn; it cannot move again")]
    said = [STILL_OPEN[x] for x in lines if x in STILL_OPEN]
    assert len(done) == 1 and len(said) == 1, lines
    return said[0]


def edges(code: str) -> str:
    mask = D.mountain_mask(code)
    return ", ".join(D.DIR_NAMES[d] for d in range(6) if (mask >> d) & 1)


def check_names_everything(state: P.State, seat: int | None) -> None:
    view = P.view_for(state, seat)
    sections = P.describe(view)
    assert all(isinstance(sec, Section) and not sec.private for sec in sections)
    told = words(sections)
    flat = "\n".join(line for _, lines in told for line in lines)
    heads = [head for head, _ in told]
    assert heads[0] == "The turn" and heads[-4:] == [
        "Every tile's mountain edges, row by row",
        "Villages and demands",
        "Players",
        "Demand bag",
    ]
    first = told[0][1]

    # the turn, the step, each side's colours, the seat's side
    assert first[0] == (
        f"turn {state.turn_number} of {state.config.max_turns}"
        if state.config.max_turns
        else f"turn {state.turn_number}"
    )
    if state.phase == "over":
        assert first[1].startswith("game over: ")
    else:
        assert first[1].startswith(f"{{p{state.turn}}}, {D.SEAT_NAMES[state.turn]}, to play: ")
    mine = [line for line in first if line.startswith("you play ")]
    assert mine == (
        []
        if seat is None
        else [f"you play {D.SEAT_NAMES[seat]}: your llamas walk " + ("the valleys", "the mountains")[seat]]
    )
    for s in range(2):
        assert f"{{p{s}}}, {D.SEAT_NAMES[s]}: {P.rules.colours_held(state.supply[s])} of 7 colours" in first
    if state.rocks and state.phase != "over":
        rocks = "a rock on tile " if len(state.rocks) == 1 else "rocks on tiles "
        assert any(line.startswith(rocks + ", ".join(map(str, state.rocks)) + ":") for line in first)
    else:
        assert not any(line.startswith(("rocks", "a rock")) for line in first)

    # every llama: field, load, reach, the six fields around it
    assert len(told) == 5 + len(state.llamas)
    legal = P.legal_moves(state, state.turn)
    turnable = {m.cell for m in legal if isinstance(m, P.Rotate)}
    for lm in state.llamas:
        head = next(h for h, _ in told if h.startswith(f"{{p{lm.seat}}}'s llama {lm.id} "))
        where = "village" if lm.cell in D.VILLAGES else "tile"
        assert f"({D.SEAT_NAMES[lm.seat]}) on {where} {lm.cell}" in head
        lines = llama_section(told, lm.seat, lm.id)
        assert lines[0] == (
            f"carries {lm.load}" if lm.load else "carries nothing; it is loaded at the end of the turn"
        )
        assert ("bought this turn; it acts from the next turn" in lines) == lm.new
        finished = lm.stage == 3 and not lm.new and state.phase != "over"
        assert ("it has finished its actions this turn" in lines) == finished
        reach = sorted(reachable(state.tiles, lm.cell, lm.seat == 1))
        if lm.stage in (1, 2) and state.phase != "over":  # acting now: what it may still do, as played
            assert not any(x.startswith(("it can reach", "no open road")) for x in lines)
            assert still_open(lines) == {type(m).__name__ for m in legal if getattr(m, "llama", 0) == lm.id}
        elif reach:
            line = next(x for x in lines if x.startswith("it can reach"))
            assert line.endswith(": " + ", ".join(map(str, reach))) and f" {len(reach)} field" in line
        else:
            assert any(x.startswith("no open road") for x in lines)
        if lm.cell not in D.VILLAGES:
            assert f"its tile's mountain edges: {edges(state.tiles[lm.cell])}" in lines
        # a move the seat may type is one the text names
        for m in legal:
            if isinstance(m, P.MoveLlama) and lm.seat == state.turn and m.llama == lm.id:
                assert str(m.to) in next(x for x in lines if x.startswith("it can reach")).split(": ")[
                    -1
                ].split(", ")
        around = [x for x in lines if re.match(r"^(E|SE|SW|W|NW|NE): ", x)]
        assert len(around) == len(D.NEIGHBOURS[lm.cell])
        for (d, cell), line in zip(D.NEIGHBOURS[lm.cell], around, strict=True):
            if cell in D.VILLAGES:
                assert line == f"{D.DIR_NAMES[d]}: village {cell} ({D.VILLAGES[cell]})"
                continue
            # "may be turned" exactly where the seat to move has a rotation of that tile
            if state.phase == "over":
                note = ""
            elif cell in {x.cell for x in state.llamas}:
                note = "; a llama stands on it"
            elif cell in state.rocks and state.phase == "rotate":
                note = "; it has a rock"
            elif cell in state.rotated:
                note = "; turned this turn"
            elif cell in turnable:
                note = "; it may be turned"
            else:
                note = ""
            assert line == f"{D.DIR_NAMES[d]}: tile {cell}, mountain edges {edges(state.tiles[cell])}{note}"

    # every tile's mountain edges, one line a row, far from the llamas too
    by_row: dict[int, list[str]] = {}
    for cell in sorted(state.tiles):
        by_row.setdefault(cell // 10, []).append(f"{cell}: {edges(state.tiles[cell])}")
    assert told[-4][1] == [f"row {row}: {'; '.join(tiles)}" for row, tiles in sorted(by_row.items())]
    assert sum(len(tiles) for tiles in by_row.values()) == len(state.tiles) == 54

    # the villages and their demands
    villages = told[-3][1]
    assert len(villages) == 7
    for line, v in zip(villages, D.VILLAGE_ORDER, strict=True):
        demand = state.demands[v]
        if demand:
            big, small = D.demand_colours(demand)
            assert line == f"{v} ({D.VILLAGES[v]}) wants {big} (big flag) and {small} (small flag)"
        else:
            assert line == f"{v} ({D.VILLAGES[v]}): no demand until the end of the turn"

    # each player's pieces, colours, loose pieces and llamas
    players = told[-2][1]
    for s in range(2):
        sup = state.supply[s]
        held = [f"{k} {sup[k]}" for k in D.SUPPLY_KINDS if sup[k]]
        counts = f"{P.rules.colours_held(sup)} of 7 colours, {P.rules.loose(sup)} loose"
        side = f"{{p{s}}}, {D.SEAT_NAMES[s]},"
        total = P.rules.total(sup)
        resources = f"{total} resource" + ("s" if total != 1 else "")
        if held:  # the resources in all, as the picture's seat line says them
            expected = f"{side} holds {', '.join(held)}: {counts.replace(', ', f', {resources}, ')}"
        else:
            expected = f"{side} holds nothing: {counts}"
        assert players[2 * s] == expected
        n = sum(1 for lm in state.llamas if lm.seat == s)
        assert players[2 * s + 1] == f"{{p{s}}} has {n} llama" + ("s" if n != 1 else "")

    # the bag: its count, and every used demand in order
    bag = told[-1][1]
    assert bag[0] == f"the bag holds {len(state.bag)} demand" + ("s" if len(state.bag) != 1 else "")
    if state.used:
        used = ", ".join(f"{b} over {s}" for b, s in map(D.demand_colours, state.used))
        assert bag[1] == f"used demands, big flag first: {used}"
    else:
        assert bag[1] == "no demand has been used yet"
    assert "{" not in re.sub(r"\{p[01]\}", "", flat)


@pytest.mark.parametrize(("board", "seed", "max_turns"), GAMES)
def test_the_text_names_every_piece_the_view_shows(board, seed, max_turns):
    for state in positions(board, seed, max_turns):
        for seat in (None, 0, 1):
            check_names_everything(state, seat)


def test_the_positions_cover_every_kind_of_line():
    """The sampled positions hold each step, rocks, used demands, empty, new and finished llamas,
    llamas on tiles, tiles turned this turn, unaffordable rotations and both endings."""
    states = [s for game in GAMES for s in positions(*game)]
    assert {s.phase for s in states} == {"rotate", "llamas", "over"}
    assert any(s.rocks for s in states) and any(s.used for s in states)
    assert any(any(lm.load is None for lm in s.llamas) for s in states)
    assert any(any(lm.new for lm in s.llamas) for s in states)
    assert any(any(lm.stage == 3 and not lm.new for lm in s.llamas) for s in states)
    acting = [lm for s in states if s.phase != "over" for lm in s.llamas if lm.stage in (1, 2)]
    assert {lm.stage for lm in acting} == {1, 2} and {lm.cell in D.VILLAGES for lm in acting} == {True, False}
    assert any(any(lm.cell not in D.VILLAGES for lm in s.llamas) for s in states)
    assert any(s.rotated and s.phase == "llamas" for s in states)
    assert any(s.rotated and s.phase == "rotate" for s in states)
    assert {s.winner is None for s in states if s.phase == "over"} == {True, False}


@pytest.mark.parametrize(("board", "seed", "max_turns"), GAMES)
def test_the_bag_order_changes_nothing(board, seed, max_turns):
    """The only hidden thing is the bag's order: a state with another order (the computer's own
    guess of it, and a plain shuffle) reads the same to everyone."""
    rng = random.Random(seed)
    for state in positions(board, seed, max_turns, every=11):
        other = P.determinize(P.view_for(state, None), rng)
        shuffled = P.from_dict(P.to_dict(state))
        rng.shuffle(shuffled.bag)
        for seat in (None, 0, 1):
            told = P.describe(P.view_for(state, seat))
            assert P.describe(P.view_for(other, seat)) == told
            assert P.describe(P.view_for(shuffled, seat)) == told
        # the seats read the same board; only the line naming their side differs
        spectator = P.describe(P.view_for(state, None))
        for seat in (0, 1):
            mine = P.describe(P.view_for(state, seat))
            assert [sec.heading for sec in mine] == [sec.heading for sec in spectator]
            assert mine[1:] == spectator[1:]
            extra = [line for line in mine[0].lines if line not in spectator[0].lines]
            assert [line.msg for line in extra] == ["you play {side}: your llamas walk {terrain}"]


def test_every_sentence_is_kept_for_translation():
    seen: set[str] = set()
    for state in positions("A", 41, 10, every=3) + positions("random", 42, 0, every=9):
        for seat in (None, 0, 1):
            for sec in P.describe(P.view_for(state, seat)):
                for told in (sec.heading, *sec.lines):
                    assert isinstance(told, Said)
                    check_kept(told, told.in_words())
                    seen.add(told.msg)
    # the turn's steps, the tiles' states, the villages with and without demand, the bag
    for msg in (
        "{p0}, {side}, to play: turn tiles (the first is free) or move llamas",
        "{p0}, {side}, to play: move, sell and buy with llamas, then end",
        "{direction}: tile {cell}, mountain edges {edges}; it may be turned",
        "{direction}: tile {cell}, mountain edges {edges}; turned this turn",
        "{direction}: village {cell} ({colour})",
        "{village} ({colour}): no demand until the end of the turn",
        "used demands, big flag first: {demands}",
        "game over: the turn limit was reached",
    ):
        assert msg in seen, msg


def spanish(sections: list[Section]) -> list[str]:
    return [
        text for sec in sections for text in (sec.heading.in_words(ES), *(x.in_words(ES) for x in sec.lines))
    ]


def test_a_position_read_in_english_and_spanish():
    """White turned tile 45 one sixth (N3 -> N4) and may turn more for 2 resources; Black's llama
    waits on tile 44 with nothing loaded; village 11 has sold its demand."""
    s = fresh()
    give(s, 0, white=2, red=1)
    put(s, 1, 1, 44, None)
    set_demand(s, 11, "RB")
    s = play(s, 0, "r45+1")
    set_demand(s, 11, None)
    view = P.view_for(s, 0)
    told = words(P.describe(view))
    assert told[0] == (
        "The turn",
        [
            "turn 1",
            "{p0}, White, to play: turn more tiles (the next costs 2) or move llamas",
            "this turn so far: {p0}, White, played r45+1",
            "you play White: your llamas walk the valleys",
            "{p0}, White: 2 of 7 colours",
            "{p1}, Black: 0 of 7 colours",
        ],
    )
    assert told[1] == (
        "{p0}'s llama 1 (White) on village 55 (white)",
        [
            "carries white",
            "it can reach 7 fields through the valleys: 45, 56, 64, 65, 73, 74, 83",
            "E: tile 56, mountain edges E, SE, SW; it may be turned",
            "SE: tile 65, mountain edges E, SE, SW; it may be turned",
            "SW: tile 64, mountain edges W, NW, NE; it may be turned",
            "W: tile 54, mountain edges E, SE, SW; it may be turned",
            "NW: tile 44, mountain edges E, SE, SW; a llama stands on it",
            "NE: tile 45, mountain edges E, NW, NE; turned this turn",
        ],
    )
    assert told[2][0] == "{p1}'s llama 1 (Black) on tile 44"
    assert told[2][1][:3] == [
        "carries nothing; it is loaded at the end of the turn",
        "its tile's mountain edges: E, SE, SW",
        told[2][1][2],
    ]
    assert told[3][1][3].startswith("row 4: ") and "45: E, NW, NE" in told[3][1][3]  # (turned: N4)
    assert told[4][1][0] == "11 (yellow): no demand until the end of the turn"
    assert told[5][1][:2] == [
        "{p0}, White, holds white 2, red 1: 2 of 7 colours, 3 resources, 1 loose",
        "{p0} has 1 llama",
    ]
    assert told[6][1] == ["the bag holds 35 demands", "used demands, big flag first: red over blue"]
    es = spanish(P.describe(view))
    assert "Llama 1 (Blanco) de {p0} en la aldea 55 (blanco)" in es  # a heading: capitalised
    headings = [sec.heading.in_words(ES) for sec in P.describe(view)]
    assert "Llama 1 (Negro) de {p1} en la loseta 44" in headings
    assert all(h[0].isupper() for h in headings), headings  # it said "llama 1 de {p0} ..."
    assert "NE: loseta 45, bordes de montaña E, NO, NE; girada este turno" in es
    assert "SO: loseta 64, bordes de montaña O, NO, NE; se puede girar" in es
    assert (
        "{p0}, Blanco, tiene blanco 2, rojo 1: 2 de 7 colores, 3 recursos, 1 suelto" in es
    )  # was "1 sueltos"
    assert "demandas usadas, bandera grande primero: rojo sobre azul" in es
    assert "Bordes de montaña de cada loseta, fila por fila" in es
    assert any(line.startswith("fila 4: ") and "45: E, NO, NE" in line for line in es)

    # Black's turn: the rock White left on 45, and no turn Black can pay for beyond the first
    s = play(s, 0, "end")
    told = words(P.describe(P.view_for(s, None)))
    assert "a rock on tile 45: it may not be turned this turn" in told[0][1]
    assert "NE: tile 45, mountain edges E, NW, NE; it has a rock" in told[1][1]
    give(s, 1, brown=0)
    s = play(s, 1, "r56+0")
    told = words(P.describe(P.view_for(s, None)))
    assert (
        told[0][1][1] == "{p1}, Black, to play: move llamas (another tile would cost 2, more than they hold)"
    )
    assert not any(line.endswith("it may be turned") for _, lines in told for line in lines)


def test_the_turn_limit_names_who_won():
    """A game stopped by the turn limit is told with its winner, by colours then resources, as
    the outcome ranks them (or the shared win), in English and Spanish."""
    s = fresh(max_turns=2)
    s = play(s, 0, "end")
    s = play(s, 1, "end")
    give(s, 0, white=3, red=1, brown=0)
    give(s, 1, white=1, red=1, brown=1)
    assert P.outcome(s).ranking == ((0,), (1,))  # two colours each, White has more resources
    told = words(P.describe(P.view_for(s, None)))[0][1]
    assert told[1:3] == [
        "game over: the turn limit was reached",
        "{p0}, White, wins: most colours, then most resources",
    ]
    assert spanish(P.describe(P.view_for(s, 1)))[2:4] == [
        "partida terminada: se alcanzó el límite de turnos",
        "{p0}, Blanco, gana: más colores y, después, más recursos",
    ]
    give(s, 1, blue=1)
    assert P.outcome(s).ranking == ((1,), (0,))
    assert (
        words(P.describe(P.view_for(s, None)))[0][1][2]
        == "{p1}, Black, wins: most colours, then most resources"
    )
    give(s, 0, white=2, blue=1)
    give(s, 1, brown=0, white=2)
    assert P.outcome(s).ranking == ((0, 1),)
    assert words(P.describe(P.view_for(s, None)))[0][1][2] == (
        "both players share the win: as many colours and as many resources"
    )


def test_the_llama_acting_now_is_told_what_it_may_still_do_not_where_it_could_walk():
    """A llama that has moved or sold this turn may not move again: its section says what it may
    still do (sell, buy, or nothing), not the fields it "can reach" (said before, and the move
    was then refused)."""

    def told_of(state: P.State, ident: int = 1) -> list[str]:
        return llama_section(words(P.describe(P.view_for(state, 0))), 0, ident)

    on_tile = play(fresh(), 0, "m1-45")
    assert told_of(on_tile)[2:4] == [
        "it has moved this turn; it cannot move again",
        "it may do nothing more this turn",
    ]

    s = fresh()
    start = next(c for c in D.TILE_CELLS if any(v in D.VILLAGES for v in reachable(s.tiles, c, False)))
    village = next(v for v in sorted(reachable(s.tiles, start, False)) if v in D.VILLAGES)
    put(s, 0, 1, start, "white" if D.VILLAGES[village] != "white" else "red")
    set_demand(s, village, "RY" if D.VILLAGES[village] not in ("red", "yellow") else "BG")
    give(s, 0, brown=4)
    moved = play(s, 0, f"m1-{village}")
    assert "it may still sell its load here, then buy a llama" in told_of(moved)
    sold = play(moved, 0, "s1")
    assert told_of(sold)[1:3] == [
        "it has sold this turn; it cannot move again",
        "it may still buy a llama here",
    ]
    give(moved, 0, brown=0, white=0, red=0)
    assert "it may still sell its load here" in told_of(moved)
    for state in (on_tile, moved, sold):
        assert not any(x.startswith("it can reach") for x in told_of(state))
