"""Guacamole's board in words (``describe``): every piece a view shows is named, with the places
as the notation writes them; nothing hidden leaks; every line is a kept, translated sentence."""

from __future__ import annotations

import random
from functools import partial

import engines.guacamole as g
from engines.core import Section
from engines.guacamole.rules import visible_places
from tests.support import sentences
from tests.support.sentences import ES

from .helpers import rig, tied_before_last_draw
from .test_playouts import perturb_hidden, random_move

check_said = partial(sentences.check_said, seats_in_values=True)


def english(sections: list[Section]) -> list[tuple[str, list[str], bool]]:
    return [(s.heading.in_words(), [line.in_words() for line in s.lines], s.private) for s in sections]


def spanish(sections: list[Section]) -> list[tuple[str, list[str], bool]]:
    return [(s.heading.in_words(ES), [line.in_words(ES) for line in s.lines], s.private) for s in sections]


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def expected_public(view: g.View) -> list[tuple[str, list[str], bool]]:
    """What the public sections must say, built from the view's own fields."""
    turn: list[str] = []
    if view.over:
        turn.append("The game is over.")
        winners = [f"{{p{w}}}" for w in view.winners]
        if len(winners) == 1:
            turn.append(f"{winners[0]} wins.")
        elif winners:
            names = winners[-1]
            if len(winners) > 1:
                names = f"{winners[-2]} and {names}"
            for w in reversed(winners[:-2]):
                names = f"{w}, {names}"
            turn.append(f"{names} share the win.")
    else:
        turn.append(f"Turn {view.turn_number}: {{p{view.turn}}} to play.")
        turn.append(f"{{p{view.turn}}} may now: {view.step}")
        if view.end_triggered:
            turn.append("The draw pile is empty: this is the last round.")
    # the last move and the places changed: this turn's, or the last turn's before a move
    if view.turn_moves and view.turn is not None:
        turn.append(f"Last move: {{p{view.turn}}} played {view.turn_moves[-1]}")
        changed = "Changed this turn"
    elif view.prev_turn and view.prev_seat is not None:
        turn.append(f"Last move: {{p{view.prev_seat}}} played {view.prev_turn[-1]}")
        changed = "Changed in the last turn"
    places = [m for m in view.turn_marks if m != "build"]
    if places and (view.turn_moves or view.prev_turn):
        turn.append(f"{changed}: {', '.join(places)}")
    turn += [f"{{p{p}}}: {plural(score, 'point')}" for p, score in enumerate(view.scores)]
    piles = [f"Draw pile (deck): {plural(view.deck_size, 'card')}"]
    for k, (top, size) in enumerate(zip(view.discard_tops, view.discard_sizes, strict=True), 1):
        piles.append(
            f"Discard pile x{k}: empty"
            if top is None
            else f"Discard pile x{k}: {top} on top, {plural(size, 'card')}"
        )
    out = [("Turn and scores", turn, False), ("Draw pile and discard piles", piles, False)]
    for p in range(view.players):
        lines = [f"{plural(view.hand_sizes[p], 'card')} in hand"]
        zone = view.prep[p]
        lines.append(
            f"Preparation zone p{p + 1}z ({len(zone)} of 4): {', '.join(zone)}"
            if zone
            else f"Preparation zone p{p + 1}z: empty"
        )
        for k, dish in enumerate(view.dishes[p], 1):
            if not dish.cards:
                lines.append(f"Dish p{p + 1}d{k}: empty, it counts as no dish")
                continue
            kind = {"number": "same number", "type": "same type", "straight": "a run"}.get(dish.kind or "")
            verdict = f"valid ({kind})" if dish.valid else "not valid"
            if dish.guacamole and dish.valid:
                verdict += ", a guacamole (all five types in one dish: +3 points)"
            elif dish.guacamole:
                verdict += ", but a guacamole (all five types in one dish: +3 points)"
            lines.append(
                f"Dish p{p + 1}d{k}: {', '.join(dish.cards)}; {dish.cards[-1]} on top; {verdict}; "
                f"{plural(dish.points, 'point')}"
            )
        if not view.dishes[p]:
            lines.append("No dishes yet")
        if view.building and p == view.turn:
            lines.append(f"New dish being made: {', '.join(view.building)}; {view.building[-1]} on top")
        you = ", you" if p == view.seat else ""
        out.append((f"{{p{p}}} (p{p + 1}){you}", lines, False))
    return out


def positions(players: int, seed: int, every: int) -> list[g.State]:
    """Every ``every``-th position of a seeded game (computer and random moves), and its end."""
    rng = random.Random(seed)
    state = g.new_game(g.Config(players=players), players, seed)
    out = [state]
    steps = 0
    while not state.over:
        (seat,) = g.to_move(state)
        legal = g.legal_moves(state, seat)
        move = g.computer_move(g.view_for(state, seat), legal, rng) if steps % 2 else random_move(legal, rng)
        state, _ = g.apply_move(state, seat, move)
        steps += 1
        if steps % every == 0 or state.over:
            out.append(state)
    return out


def check_position(state: g.State, rng: random.Random) -> None:
    n = state.config.players
    spectator = g.describe(g.view_for(state, None))
    for seat in [None, *range(n)]:
        view = g.view_for(state, seat)
        sections = g.describe(view)
        said = english(sections)
        public = [s for s in said if not s[2]]
        assert public == expected_public(view)
        assert all(not s.private for s in sections[: len(public)]), "public sections come first"
        private = said[len(public) :]
        if seat is None:
            assert private == []
        else:
            (heading, lines, is_private), *rest = private
            assert heading == "Your hand" and is_private and rest == []
            hand = sorted(g.view_for(state, seat).hand or ())
            assert lines[0] == f"You hold {plural(len(hand), 'card')}"
            assert sorted(line.split(",")[0] for line in lines[1 : 1 + len(hand)]) == hand
            assert len(lines) == 1 + len(hand) + len(view.taken)
        # a player can type every visible place from what they heard
        text = "\n".join(line for _h, lines, _p in said for line in lines)
        for place in visible_places(state):
            if place.startswith("x"):
                assert f"Discard pile {place}: " in text
            elif place[2] == "z":
                zone = next(
                    line for line in text.splitlines() if line.startswith(f"Preparation zone {place[:3]} ")
                )
                assert place[3:] in zone
            else:
                assert f"Dish {place}: " in text
        for section in sections:
            check_said(section.heading)
            for line in section.lines:
                check_said(line)
        # nothing hidden: the cards this view cannot see dealt otherwise change nothing
        other = g.describe(g.view_for(perturb_hidden(state, seat, rng), seat))
        assert other == sections
        assert spanish(other) == spanish(sections)
        dealt = g.determinize(view, rng)
        assert g.describe(g.view_for(dealt, seat)) == sections
        assert g.describe(g.view_for(dealt, None)) == spectator
        # a seat's public sections are everyone's (its own heading adds "you")
        assert [(h.removesuffix(", you"), lines) for h, lines, p in said if not p] == [
            (h, lines) for h, lines, _p in english(spectator)
        ]


def test_seeded_positions_name_every_visible_piece_and_nothing_hidden():
    """Positions from seeded games of 2 to 6 cooks, every view: the text names each zone and dish
    with its cards, the discard tops and sizes, the draw pile, each hand count and score, whose
    turn and the step; the own hand is private; dealing the unseen cards otherwise changes nothing."""
    rng = random.Random(33)
    checked = 0
    for players in range(2, 7):
        for state in positions(players, 300 + players, every=23):
            check_position(state, rng)
            checked += 1
    assert checked > 50


def test_a_hidden_hand_card_swapped_with_the_deck_changes_no_other_seat_s_description():
    """A card of player 2's hand traded for a draw pile card: everyone's description but player 2's
    is the same, and player 2's own private section names the new card."""
    s = rig(players=3, hands={0: ["5L"], 1: ["1A", "2A"], 2: ["9T"]}, deck_top=["4O"])
    other = rig(players=3, hands={0: ["5L"], 1: ["1A", "4O"], 2: ["9T"]}, deck_top=["2A"])
    for seat in (None, 0, 2):
        assert g.describe(g.view_for(s, seat)) == g.describe(g.view_for(other, seat))
    mine, theirs = g.describe(g.view_for(s, 1)), g.describe(g.view_for(other, 1))
    assert [x for x in mine if not x.private] == [x for x in theirs if not x.private]
    assert "2A, Aji Styles: take a visible card into your hand" in english(mine)[-1][1]
    assert "4O, Onion Musk: draw 3, then discard 1" in english(theirs)[-1][1]


def test_the_card_lima_kahlo_took_is_told_to_the_thief_and_the_victim_only():
    s = rig(players=3, hands={0: ["5L"], 1: ["1A"], 2: ["9T"]})
    s, _ = g.apply_move(s, 0, g.parse_move("prep 5L"))
    s, _ = g.apply_move(s, 0, g.parse_move("steal p2"))
    thief, victim = english(g.describe(g.view_for(s, 0)))[-1], english(g.describe(g.view_for(s, 1)))[-1]
    assert thief[1][-1] == "Lima Kahlo: you took 1A from {p1}'s hand."
    assert victim[1] == ["You hold 0 cards", "Lima Kahlo: {p0} took 1A from your hand."]
    assert victim[2] and thief[2]
    for seat in (None, 2):
        text = english(g.describe(g.view_for(s, seat)))
        assert not any("1A" in line for _h, lines, _p in text for line in lines), seat
    assert "{p1} (p2)" in [h for h, _l, _p in english(g.describe(g.view_for(s, 2)))]
    spanish_victim = spanish(g.describe(g.view_for(s, 1)))[-1][1]
    assert spanish_victim[-1] == "Lima Kahlo: {p0} te quitó 1A de la mano."
    for line in g.describe(g.view_for(s, 0))[-1].lines + g.describe(g.view_for(s, 1))[-1].lines:
        check_said(line)


def test_a_dish_being_made_an_empty_dish_a_guacamole_and_the_last_round():
    s = rig(
        players=2,
        hands={0: ["1T", "1A"]},
        prep={0: ["1L"]},
        dishes={1: [[], ["1P", "3L", "5O", "7T", "9A"]]},
        discards=(["4A"], []),
        fill_deck=False,
        deck_top=["2P"],
    )
    s, _ = g.apply_move(s, 0, g.parse_move("dish 1T"))
    s, _ = g.apply_move(s, 0, g.parse_move("dish z1L"))
    said = english(g.describe(g.view_for(s, None)))
    assert said[2][1][-1] == "New dish being made: 1T, 1L; 1L on top"
    assert said[3][1][2:] == [
        "Dish p2d1: empty, it counts as no dish",
        "Dish p2d2: 1P, 3L, 5O, 7T, 9A; 9A on top; not valid, but a guacamole (all five types in one dish: "
        "+3 points); 8 points",
    ]
    assert said[0][1][1].startswith("{p0} may now: add a card to the new dish (1T, 1L)")
    s, _ = g.apply_move(s, 0, g.parse_move("cancel"))
    s, _ = g.apply_move(s, 0, g.parse_move("draw deck"))
    turn = english(g.describe(g.view_for(s, 1)))[0][1]
    assert "The draw pile is empty: this is the last round." in turn
    assert english(g.describe(g.view_for(s, 1)))[1][1][0] == "Draw pile (deck): 0 cards"
    assert spanish(g.describe(g.view_for(s, 1)))[3][1][3] == (
        "Plato p2d2: 1P, 3L, 5O, 7T, 9A; arriba 9A; no válido, pero un guacamole (los cinco tipos en un plato: "
        "+3 puntos); 8 puntos"
    )


def test_a_shared_win_and_the_final_scores():
    s, _ = g.apply_move(tied_before_last_draw(), 1, g.parse_move("draw x1"))
    assert s.over
    turn = english(g.describe(g.view_for(s, 0)))[0]
    assert turn == (
        "Turn and scores",
        [
            "The game is over.",
            "{p0} and {p1} share the win.",
            "Last move: {p1} played draw x1",
            "Changed in the last turn: x1",
            "{p0}: 4 points",
            "{p1}: 4 points",
        ],
        False,
    )
    assert spanish(g.describe(g.view_for(s, None)))[0][1][1] == "{p0} y {p1} comparten la victoria."


def test_the_last_move_and_the_places_it_changed_are_said_as_the_picture_marks_them():
    """The picture writes the last move and outlines the places it changed (this turn's while the
    turn goes on, the last turn's once the next one begins): the words say both, in English and
    Spanish, for every reader alike."""
    state = g.new_game(g.Config(players=3), 3, 7)
    state, _ = g.apply_move(state, 0, "draw x1")
    for seat in (None, 0, 1):
        (turn, *_) = g.describe(g.view_for(state, seat))
        lines = [line.in_words() for line in turn.lines]
        assert lines[2:4] == ["Last move: {p0} played draw x1", "Changed this turn: x1"]
        assert [line.in_words(ES) for line in turn.lines][2:4] == [
            "Última jugada: {p0} jugó draw x1",
            "Cambios de este turno: x1",
        ]
    state, _ = g.apply_move(state, 0, "draw x2")
    (turn, *_) = g.describe(g.view_for(state, 1))
    lines = [line.in_words() for line in turn.lines]
    assert lines[:4] == [
        "Turn 2: {p1} to play.",
        lines[1],
        "Last move: {p0} played draw x2",
        "Changed in the last turn: x1, x2",
    ]
    assert turn.lines[3].in_words(ES) == "Cambios del último turno: x1, x2"
