"""Tiwanaku's board in words: ``describe(view)`` names every cell as the notation does, with its
terrain, its crop and its explorer or that it is hidden, every player's score, cubes, explorers
off the board and scales, and whose turn it is; a seat's looks at the disc only in that seat's
private section; and nothing the view does not show."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import engines.tiwanaku as T
from engines.core import Section, rng_for
from engines.tiwanaku.board import cell_name
from engines.tiwanaku.data import ROW_LETTERS, TERRAINS
from engines.tiwanaku.rules import ACTION, DIVINING, FINAL, OVER, BoardSize, cube_words, terrain
from tests.support import sentences
from tests.support.sentences import ES
from tests.tiwanaku.helpers import cell, cultivate, discover, fixed, play, put, to_the_end

MODES = [(1, "auto"), (2, "short"), (2, "long"), (3, "auto"), (4, "auto")]


def positions(players: int, board: str, seed: int, every: int = 7) -> Iterator[T.State]:
    """States from a seeded game played by the computer (now and then a random move): every
    ``every``-th position, and the last one."""
    state = T.new_game(T.Config(players=players, board=BoardSize(board)), players, seed)
    rng = rng_for(seed, "describe")
    step = 0
    while T.to_move(state):
        if step % every == 0:
            yield state
        (seat,) = T.to_move(state)
        legal = T.legal_moves(state, seat)
        move = (
            rng.choice(legal) if rng.random() < 0.3 else T.computer_move(T.view_for(state, seat), legal, rng)
        )
        state, _ = T.apply_move(state, seat, move)
        step += 1
    yield state


def english(sections: list[Section]) -> list[tuple[str, tuple[str, ...], bool]]:
    return [(s.heading.in_words(), tuple(line.in_words() for line in s.lines), s.private) for s in sections]


def seats_of(state: T.State) -> list[int | None]:
    return [None, *range(state.config.players)]


def check_names_everything(view: T.View) -> None:
    sections = T.describe(view)
    public = [s for s in sections if not s.private]
    private = [s for s in sections if s.private]
    text = english(public)
    turn, players, the_map, *rows = text
    # the turn comes first
    assert turn[0] == "Turn and scores"
    if view.phase == OVER and view.players > 1:  # the places give the points
        assert [line for line in turn[1] if line.startswith("Place ")] != []
    else:
        assert turn[1][-view.players :] == tuple(
            f"{{p{q}}}: {view.scores[q]} point{'' if abs(view.scores[q]) == 1 else 's'}"
            for q in range(view.players)
        )
    p = "{p" + str(view.turn) + "}"
    first = turn[1][0]
    if view.phase == ACTION:
        assert first.startswith(f"{p} to play: {view.actions_left} action")
    elif view.phase == DIVINING:
        assert first.startswith(f"{p} to play: divine again")
    elif view.phase == FINAL:
        assert first == f"Final divinations: {p} divines under one explorer or passes"
    else:
        assert view.phase == OVER and first == f"The game is over: it ended in round {view.round}"
    if view.phase in (ACTION, DIVINING):
        assert turn[1][1] == f"Round {view.round}"
        assert f"{view.empty_left} hidden space" in turn[1][2]
    else:  # all the land is found: no count of what is hidden
        assert view.empty_left == 0 and not any("hidden space" in line for line in turn[1])
    # every player's score, guesses, cubes, reserve, scales and looks at the disc
    lines = players[1]
    for seat in range(view.players):
        q = "{p" + str(seat) + "}"
        mine = [line for line in lines if line.startswith(q)]
        assert mine[0] == f"{q}: right guesses {view.correct[seat]}; wrong guesses {view.wrong[seat]}"
        cubes = cube_words(list(view.cubes[seat])).in_words()
        points = view.cube_points[seat]
        if view.phase == OVER and points:
            s = "s" if points > 1 else ""
            assert f"{q} scored {points} point{s} for the offering cube{s} left over ({cubes})" in mine
            assert not any(" holds " in line for line in mine)
        else:
            assert f"{q} holds {cubes}" in mine
        assert f"{q}: explorers off the board: {view.reserve[seat]}" in mine
        scales = ", ".join(f"crop {k + 1} at level {v}" for k, v in enumerate(view.scales[seat]))
        assert f"{q}: diversity scales: {scales}" in mine
        looked = [line for line in mine if "looked at the disc" in line]
        times = view.peek_counts[seat]
        assert looked == (
            [f"{q} has looked at the disc {times} time" + ("s" if times > 1 else "")] if times else []
        )
        if view.phase == FINAL and view.final_out[seat]:
            assert f"{q} is out of the final divinations" in mine
    # the map's size and terrain counts, then every cell row by row
    assert the_map[1][0] == f"Rows A to E, columns 1 to {view.cols}"
    for t in TERRAINS:
        assert f"{terrain(t).in_words()} {view.terrain_totals.get(t, 0)}" in the_map[1][1]
    assert [r[0] for r in rows] == [f"Row {ROW_LETTERS[r]}" for r in range(view.rows)]
    for r, (_, cells, _) in enumerate(rows):
        assert len(cells) == view.cols
        for col, line in enumerate(cells):
            c = r * view.cols + col
            name = cell_name(c, view.cols)
            assert line.startswith(f"{name}: ")
            letter, crop, seat = view.terrain[c], view.crops[c], view.explorer[c]
            if letter is None:
                assert line.startswith(f"{name}: hidden")
            else:
                assert line.startswith(f"{name}: {terrain(letter).in_words()}, ")
                assert (f"crop {crop}" if crop is not None else "no crop yet") in line
            if seat >= 0:
                assert line.endswith(f"; explorer of {{p{seat}}}")
            else:
                assert "explorer" not in line
    # the seat's own looks: only in its private section, each one named
    if view.seat is None:
        assert private == []
    else:
        (own,) = english(private)
        want = [
            f"{cell_name(c, view.cols)}: you saw crop {v} on the disc"
            if v.isdigit()
            else f"{cell_name(c, view.cols)}: you saw {terrain(v).in_words()} on the disc"
            for c, v in view.peeks.items()
        ]
        assert list(own[1]) == (want or ["Nothing you saw on the disc is still hidden"])
        assert sections[-1].private  # private parts come last
    for line in (line for s in text for line in s[1]):
        assert "you saw" not in line and "peek:" not in line


@pytest.mark.parametrize(("players", "board"), MODES)
def test_every_piece_the_view_shows_is_named(players, board):
    phases: set[str] = set()
    looks = 0
    for seed in range(2):
        for state in positions(players, board, seed):
            phases.add(state.phase)
            for position in (state, with_a_look(state)):
                for seat in seats_of(position):
                    view = T.view_for(position, seat)
                    check_names_everything(view)
                    looks += len(view.peeks)
    assert {ACTION, OVER} <= phases
    assert looks >= 5, "too few looks at the disc were described"


def with_a_look(state: T.State) -> T.State:
    """``state`` after the player to move, given one cube of each terrain, looked at the disc
    (at the last cell it may); ``state`` itself when the game is over."""
    if not T.to_move(state):
        return state
    (seat,) = T.to_move(state)
    rich = T.from_dict(T.to_dict(state))
    rich.cubes[seat] = [1, 1, 1, 1]
    peeks = [m for m in T.legal_moves(rich, seat) if str(m).startswith("peek:")]
    return T.apply_move(rich, seat, peeks[-1])[0] if peeks else state


@pytest.mark.parametrize(("players", "board"), MODES)
def test_a_seat_reads_the_same_public_part_as_a_spectator(players, board):
    """Everything outside the private section is public: a seat's view and a spectator's give the
    same public sections, so a look at the disc (even one's own last move) never leaks into them."""
    for state in positions(players, board, 3, every=3):
        watcher = T.describe(T.view_for(state, None))
        for seat in range(players):
            public = [s for s in T.describe(T.view_for(state, seat)) if not s.private]
            assert public == watcher


def _hidden_swapped(state: T.State, seat: int | None) -> T.State:
    """``state`` with every hidden thing changed except what ``seat`` saw: the terrain and crops
    under hidden spaces and the crops under uncultivated tiles rotated, the other seats'
    looks at the disc moved elsewhere."""
    alt = T.from_dict(T.to_dict(state))
    n = len(alt.terrain)
    kept = set(state.peeks[seat]) if seat is not None else set()
    hidden = [c for c in range(n) if not alt.discovered[c] and c not in kept]
    unplanted = [c for c in range(n) if not alt.cultivated[c] and c not in kept]
    under = [alt.terrain[c] for c in hidden]  # rotated: the public terrain counts stay
    for c, letter in zip(hidden, under[1:] + under[:1], strict=True):
        alt.terrain[c] = letter
    for c in unplanted:
        alt.crops[c] = alt.crops[c] % 5 + 1
    for other in range(alt.config.players):
        if other != seat:
            elsewhere = [c for c in reversed(range(n)) if c not in kept and c not in state.peeks[other]]
            elsewhere += [c for c in state.peeks[other] if c not in kept]
            alt.peeks[other] = {c: alt.terrain[c] for c in elsewhere[: len(state.peeks[other])]}
    return alt


@pytest.mark.parametrize(("players", "board"), MODES)
def test_hidden_things_change_no_word(players, board):
    changed = 0
    for seed in (4, 5):
        for state in positions(players, board, seed, every=5):
            for seat in seats_of(state):
                alt = _hidden_swapped(state, seat)
                changed += alt.terrain != state.terrain
                assert T.describe(T.view_for(alt, seat)) == T.describe(T.view_for(state, seat))
    assert changed >= 5


def test_a_world_sampled_from_the_view_reads_the_same():
    """``determinize`` draws a full hidden map that agrees with a seat's view: the description for
    that seat, and for a spectator, is word for word the same."""
    checked = 0
    for state in positions(2, "short", 6, every=4):
        for seat in range(2):
            view = T.view_for(state, seat)
            alt = T.determinize(view, rng_for(6, "world", seat, checked))
            alt.last = state.last  # what another seat peeked at stays as hidden as it was
            assert T.describe(T.view_for(alt, seat)) == T.describe(view)
            assert T.describe(T.view_for(alt, None)) == T.describe(T.view_for(state, None))
            checked += 1
    assert checked >= 6


def test_a_look_at_the_disc_is_only_in_its_own_seats_private_section():
    s = fixed()
    s.cubes[0] = [1, 1, 1, 1]
    s, _ = play(s, 0, "peek:C2")  # C2 is desert on the fixed map
    mine = english(T.describe(T.view_for(s, 0)))
    theirs = english(T.describe(T.view_for(s, 1)))
    watcher = english(T.describe(T.view_for(s, None)))
    assert mine[-1] == ("Only you: your looks at the disc", ("C2: you saw desert on the disc",), True)
    assert theirs[-1] == (
        "Only you: your looks at the disc",
        ("Nothing you saw on the disc is still hidden",),
        True,
    )
    assert mine[:-1] == theirs[:-1] == watcher
    assert "Last move: {p0} looked at the disc in secret" in watcher[0][1]
    assert "{p0} has looked at the disc 1 time" in watcher[1][1]
    row_c = dict((h, lines) for h, lines, _ in watcher)["Row C"]
    assert row_c[1] == "C2: hidden"


def test_a_position_in_english_and_in_spanish():
    s = fixed()
    cultivate(s, "C2")
    discover(s, "B1")
    put(s, 0, "B1")
    put(s, 1, "C2")
    s.cubes[1] = [2, 0, 0, 1]
    s.scores[1], s.correct[1], s.scales[1] = 4, 1, [0, 0, 1, 0, 0]
    s.turn = 1
    s.peeks[1] = {cell("E5"): "D", cell("B1"): "1"}
    sections = T.describe(T.view_for(s, 1))
    assert english(sections)[0] == (
        "Turn and scores",
        (
            "{p1} to play: 1 action left",
            "Round 1",
            "20 hidden spaces left",
            "{p0}: 0 points",
            "{p1}: 4 points",
        ),
        False,
    )
    players = english(sections)[1][1]
    assert players[4:7] == (
        "{p1}: right guesses 1; wrong guesses 0",
        "{p1} holds two swamp cubes and a forest cube",
        "{p1}: explorers off the board: 4",
    )
    rows = {h: lines for h, lines, _ in english(sections)}
    assert rows["Row B"][0] == "B1: forest, no crop yet; explorer of {p0}"
    assert rows["Row C"][1] == "C2: desert, crop 3; explorer of {p1}"
    assert rows["Row A"][2] == "A3: mountain, crop 5"
    assert english(sections)[-1][1] == ("B1: you saw crop 1 on the disc", "E5: you saw desert on the disc")
    spanish = [[line.in_words(ES) for line in s.lines] for s in sections]
    assert sections[0].heading.in_words(ES) == "Turno y puntos"
    assert spanish[0][0] == "Le toca a {p1}: le queda 1 acción"
    assert spanish[0][-1] == "{p1}: 4 puntos"  # (the number first, as every game writes points)
    assert spanish[1][4] == "{p1}: aciertos 1; fallos 0"
    assert spanish[1][5] == "{p1} tiene dos cubos de pantano y un cubo de bosque"
    assert sections[4].heading.in_words(ES) == "Fila B"
    assert spanish[4][0] == "B1: bosque, aún sin cultivo; explorador de {p0}"
    assert spanish[5][1] == "C2: desierto, cultivo 3; explorador de {p1}"
    assert spanish[-1] == ["B1: en el disco viste el cultivo 1", "E5: en el disco viste que es de desierto"]


@pytest.mark.parametrize(("players", "board"), MODES)
def test_every_line_is_a_kept_sentence_with_spanish(players, board):
    for state in positions(players, board, 7, every=6):
        for seat in seats_of(state):
            for section in T.describe(T.view_for(state, seat)):
                sentences.check_said(section.heading, seats_in_values=False, differs=True)
                for line in section.lines:
                    sentences.check_said(line, seats_in_values=False)


def test_the_regions_the_outlines_show_are_said_with_what_is_known_of_them():
    """The picture outlines each region where its known cells meet another terrain: the words
    name each region seen (its cells, the crops placed on it) and whether it is whole (no hidden
    cell beside it, or already 5 cells) or may go on under hidden cells, in English and Spanish."""
    s = fixed()
    discover(s, "A2", "A5", "B2", "C1", "D1", "B1", "E1", "C2", "D2")
    sections = T.describe(T.view_for(s, None))
    the_map = english(sections)[2][1]
    assert the_map[2:] == (
        "Region of mountain: A2, A3, A4, A5, B2; the whole region, 5 cells; crops 1, 5 placed",
        "Region of forest: B1; 1 cell so far, it may go on under A1, still hidden; no crop placed yet",
        "Region of swamp: C1, D1; the whole region, 2 cells; no crop placed yet",
        "Region of desert: C2; 1 cell so far, it may go on under C3, still hidden; no crop placed yet",
        "Region of forest: D2; 1 cell so far, it may go on under D3, E2, still hidden; no crop placed yet",
        "Region of forest: D4; 1 cell so far, it may go on under C4, D3, D5, E4, still hidden; crop 4 placed",
        "Region of mountain: E1; 1 cell so far, it may go on under E2, still hidden; no crop placed yet",
    )
    spanish = [line.in_words(ES) for line in sections[2].lines]
    assert spanish[4] == "Región de pantano: C1, D1; la región entera, 2 casillas; aún sin cultivos"
    assert (
        spanish[2]
        == "Región de montaña: A2, A3, A4, A5, B2; la región entera, 5 casillas; cultivos 1, 5 ya colocados"
    )
    assert spanish[8] == (
        "Región de montaña: E1; 1 casilla por ahora, puede seguir bajo E2, aún sin descubrir; aún sin cultivos"
    )
    assert spanish[7] == (
        "Región de bosque: D4; 1 casilla por ahora, puede seguir bajo C4, D3, D5, E4, aún sin descubrir; cultivo 4 ya colocado"
    )


def test_the_cubes_left_at_the_end_are_said_as_scored():
    """At the end every cube left is offered for a point (the score already counts it, and the
    picture shows "+3 cubes"): the words say so instead of leaving the player holding cubes that
    seem still to be spent, in English and Spanish."""
    s = fixed(2)
    for name in (f"{r}{c}" for r in "ABCDE" for c in range(1, 6)):
        if name != "A1":
            discover(s, name)
    s.cubes[0] = [2, 0, 0, 0]
    s.cubes[1] = [0, 0, 0, 1]
    s, _ = play(s, 0, "+A1")  # the last hidden space: a forest cube, and the final round
    assert s.phase == FINAL and s.cubes[0] == [2, 0, 0, 1]
    s, _ = play(s, 0, "pass")
    assert s.phase == OVER and s.cube_points == [3, 1] and s.scores == [3, 1]
    (_, players, *_) = T.describe(T.view_for(s, None))
    lines = [line.in_words() for line in players.lines]
    assert (
        "{p0} scored 3 points for the offering cubes left over (two swamp cubes and a forest cube)" in lines
    )
    assert "{p1} scored 1 point for the offering cube left over (a forest cube)" in lines
    assert not any(" holds " in line for line in lines), lines
    spanish = [line.in_words(ES) for line in players.lines]
    assert any(
        line.startswith("{p0} ganó 3 puntos por los cubos de ofrenda que le sobraron") for line in spanish
    ), spanish


def test_the_end_in_words_gives_the_places_the_picture_ranks():
    """At the end the words give every seat's place, as the picture's ranking does: by score,
    then by right guesses (the tiebreak), seats equal in both sharing a place (1, 1, 3)."""
    s = T.new_game(T.Config(players=4), 4, 3)
    s.phase = FINAL
    s.scores = [12, 12, 12, 20]
    s.correct = [3, 5, 3, 1]
    s.final_out = [False, True, True, True]  # the last seat still in the final round passes
    s.turn = 0
    s, _ = play(s, 0, "pass")
    assert s.phase == OVER
    turn, *_ = T.describe(T.view_for(s, None))
    lines = [line.in_words() for line in turn.lines]
    places = [line for line in lines if line.startswith("Place ")]
    assert places == [
        "Place 1: {p3}, 20 points",
        "Place 2: {p1}, 12 points",
        "Place 3: {p0}, 12 points",
        "Place 3: {p2}, 12 points",
    ]
    assert T.outcome(s).ranking == ((3,), (1,), (0, 2))
    assert not [line for line in lines if ": score " in line]  # the points once, with the places
    spanish = [line.in_words(ES) for line in turn.lines]
    assert "Puesto 1: {p3}, 20 puntos" in spanish


def test_the_round_in_words_at_the_end_says_the_game_ended_in_it():
    """From the final divinations on nothing is hidden, so no count of hidden spaces is read out,
    and the finished game's words say the round it ended in, not a bare "Round 7" as if it went
    on (as the picture's header says it), in English and Spanish."""
    final, over = to_the_end(7)
    turn = T.describe(T.view_for(final, None))[0]
    assert [line.in_words() for line in turn.lines][:2] == [
        "Final divinations: {p0} divines under one explorer or passes",
        "Round 7",
    ]
    assert not any("hidden" in line.in_words() for line in turn.lines)
    turn = T.describe(T.view_for(over, None))[0]
    lines = [line.in_words() for line in turn.lines]
    assert lines[0] == "The game is over: it ended in round 7"
    assert not any(line.startswith("Round ") or "hidden" in line for line in lines), lines
    assert turn.lines[0].in_words(ES) == "La partida ha terminado en la ronda 7"
