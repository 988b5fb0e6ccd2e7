"""Guanga's board in words (``describe``), read against the view at several points of seeded
games played by the computer: every piece the view shows is named (each market card, each
basket slot, each cell of each guanga with its top patch, stack, stopper or emptiness, the
markers, shells, stoppers, cards and scores, whose turn it is), the seat's own order only in
its private section, nothing that differs only in hidden things changes the text, and every
line is a kept sentence with its Spanish."""

from __future__ import annotations

import random
from functools import partial

import pytest

from engines import guanga as G
from engines.core import UNKNOWN, Section
from engines.guanga import data as D
from engines.guanga.rules import ORDER, from_dict, to_dict
from engines.guanga.shapes import CELL_NAMES
from renderers.layout import places
from tests.support import sentences
from tests.support.contract import playout

from .util import artisan_claim_over_the_bare_mother, cell

COMBOS = [
    (1, "beginner", False),
    (1, "master", False),
    (2, "apprentice", True),
    (2, "artisan", False),
    (3, "beginner", True),
    (4, "master", False),
]

check_said = partial(sentences.check_said, differs=True)


def computer(state, seat, legal, rng):
    return G.computer_move(G.view_for(state, seat), legal, rng, "easy")


def positions(players: int, mode: str, stoppers: bool, seed: int) -> list:
    """Every twelfth state of a seeded computer game, the opening and the finished game."""
    config = G.Config(players=players, mode=G.Mode(mode), stoppers=stoppers)
    steps = playout(G, config, players, seed, random.Random(seed), choose=computer)
    assert steps and G.outcome(steps[-1].after) is not None
    return [steps[0].state, *(step.state for step in steps[1::12]), steps[-1].after]


def lines_of(sections: list[Section]) -> list[str]:
    return [line.in_words() for section in sections for line in section.lines]


def section(sections: list[Section], heading: str) -> list[str]:
    (found,) = [s for s in sections if s.heading.in_words() == heading]
    return [line.in_words() for line in found.lines]


def patch_words(top: str) -> str:
    return top.replace("/", " ")


def order_words(order: str) -> str:
    o = ORDER[order]
    return f"{order} ({o[1]} {o[2]} VP / {o[3]} {o[4]} VP)"


def check_names_everything(view) -> None:
    sections = G.describe(view)
    public = [s for s in sections if not s.private]
    private = [s for s in sections if s.private]
    assert sections[: len(public)] == public, "public sections come first"
    game = section(sections, "Game")

    # whose turn, the scores, the end
    if view.finished:
        assert "The game has ended." in game
        assert view.final_scores is not None
        if view.players == 1:
            assert f"Final score {view.final_scores[0]} VP, rank {view.solo_rank}" in game
        else:
            for seat, place in places(view.ranking).items():  # as the board's ranking numbers them
                assert f"Place {place}: {{p{seat}}}, {view.final_scores[seat]} VP" in game
    else:
        if view.phase == "order":
            assert any(line.startswith("Everyone keeps one of two secret orders") for line in game)
            assert all(f"{{p{seat}}}" in game[1] for seat in view.to_move)
        else:
            assert game[1].startswith(f"{{p{view.turn}}} ")
        for p in view.guangas:
            total = p.score["total"] - (p.score["orders"] if p.score["orders"] != UNKNOWN else 0)
            assert any(line.startswith(f"{{p{p.seat}}}: {total} VP") for line in game), (p.seat, game)
        if view.end_at is not None and not view.end_triggered:
            assert f"{view.visible_markers} workshop markers face up; the end comes at {view.end_at}" in game
    if view.first_patch is not None and not view.finished:
        first = (
            f"First patch taken this turn: {patch_words(view.first_patch)} on {CELL_NAMES[view.placed[0]]}"
        )
        assert first in game, game
    if view.pending:
        cells = " ".join(CELL_NAMES[c] for c in view.pending["returnable"])
        assert f"Claimed {view.pending['card']}; return two of the cells {cells}" in game

    # the market, slot by slot, and its decks
    market = section(sections, "Market")
    for slot, card in enumerate(view.market, start=1):
        if card is None:
            assert f"Slot {slot}: empty" in market
            continue
        line = next(line for line in market if line.startswith(f"{card.id} "))
        for part in (card.name, f"{card.vp} VP", card.flag, card.typology, card.colour, card.symbol):
            assert part in line, (part, line)
        cells = [
            f"{D.ROWS[r]}{c + 1}" for r, row in enumerate(card.shape) for c, ch in enumerate(row) if ch == "#"
        ]
        assert line.endswith("shape " + " ".join(cells)), line
    for level, left in view.decks.items():
        assert any(line.startswith(f"{D.LEVEL_NAMES[level]} deck: {left} card") for line in market)

    # the basket, slot by slot, the pile and the bag
    basket = section(sections, "Basket")
    for slot, top in enumerate(view.basket, start=1):
        assert f"Slot {slot}: {'empty' if top is None else patch_words(top)}" in basket
    assert any(line.startswith(f"Pile: {view.pile} patch") for line in basket)
    assert any(line.startswith(f"Bag: {view.bag} patch") for line in basket)

    # the workshop
    workshop = section(sections, "Workshop markers")
    for name, total in view.markers_total.items():
        if total:
            assert f"{name}: {view.markers.get(name, 0)} of {total} face up" in workshop

    # every guanga, the viewer's own first, cell by cell
    seats = [view.seat] if view.seat is not None else []
    seats += [p.seat for p in view.guangas if p.seat != view.seat]
    headings = [s.heading.in_words() for s in public[4:]]
    assert headings == [f"{{p{seat}}}'s guanga" for seat in seats]
    for p in view.guangas:
        lines = section(sections, f"{{p{p.seat}}}'s guanga")
        assert f"Colour {p.colour}" in lines
        assert ("Cards claimed: " + (", ".join(p.claimed) or "none")) in lines
        if view.mode != "beginner":
            assert any(line.startswith(f"{p.shells} shell") for line in lines)
        if view.stoppers_variant:
            assert any(line.startswith(f"{p.stoppers_left} stopper") for line in lines)
        assert ("Holds the complete-guanga tile" in lines) == (view.tile == p.seat)
        for r, row in enumerate(D.ROWS):
            (row_line,) = [line for line in lines if line.startswith(f"Row {row}: ")]
            for c in range(D.SIZE):
                i = r * D.SIZE + c
                if i in p.stoppers:
                    said = f"{CELL_NAMES[i]} stopper"
                elif p.tops[i] is None:
                    said = f"{CELL_NAMES[i]} empty"
                else:
                    said = f"{CELL_NAMES[i]} {patch_words(p.tops[i])}"
                    if p.heights[i] > 1:
                        said += f", stack of {p.heights[i]}"
                assert said + "," in row_line + ",", (said, row_line)
            assert row_line.count(",") == D.SIZE - 1 + sum(
                1 for c in range(D.SIZE) if p.heights[r * D.SIZE + c] > 1 and r * D.SIZE + c not in p.stoppers
            )
        # another's order only once the game is over; one's own only in the private part
        if view.finished and p.order not in (None, UNKNOWN):
            assert f"Order {order_words(p.order)}" in lines

    # the private part: the seat's own order (or the orders dealt to choose from)
    text = "\n".join(lines_of(public))
    if view.seat is None:
        assert not private
    me = None if view.seat is None else view.guangas[view.seat]
    for p in view.guangas:
        if p.order not in (None, UNKNOWN) and not view.finished:
            assert order_words(p.order) not in text, "an order before the end is the owner's secret"
    if me is not None and me.order not in (None, UNKNOWN) and not view.finished:
        (mine,) = private
        assert f"Your secret order: {order_words(me.order)}" in lines_of([mine])
        assert f"With your order: {me.score['total']} VP (order {me.score['orders']} VP)" in lines_of([mine])
    elif me is not None and view.dealt_orders:
        (mine,) = private
        for order in view.dealt_orders:
            assert f"keep {order_words(order)}" in lines_of([mine])
    else:
        assert not private


@pytest.mark.parametrize(("players", "mode", "stoppers"), COMBOS)
def test_every_piece_the_view_shows_is_named(players, mode, stoppers):
    for state in positions(players, mode, stoppers, seed=players * 31 + len(mode)):
        for seat in [None, *range(players)]:
            check_names_everything(G.view_for(state, seat))


def test_the_opening_names_the_dealt_orders_to_their_seat_alone():
    state = G.new_game(G.Config(players=3, mode=G.Mode.APPRENTICE), 3, 5)
    assert state.phase == "order"
    for seat in range(3):
        private = [s for s in G.describe(G.view_for(state, seat)) if s.private]
        text = lines_of(private)
        for order in state.orders_dealt[seat]:
            assert f"keep {order_words(order)}" in text
        others = {o for other in range(3) if other != seat for o in state.orders_dealt[other]}
        everything = "\n".join(lines_of(G.describe(G.view_for(state, seat))))
        for order in others - set(state.orders_dealt[seat]):
            assert order_words(order) not in everything
    assert not [s for s in G.describe(G.view_for(state, None)) if s.private]


def hidden_changed(state, keep_seat: int | None, rng: random.Random):
    """The same position with every hidden thing changed but ``keep_seat``'s own order: the pile,
    the bag and the decks reshuffled, the covered patches under every top swapped with the pile's,
    and every other seat's kept order exchanged for one nobody holds."""
    data = to_dict(state)
    other = from_dict(data)
    rng.shuffle(other.pile)
    rng.shuffle(other.bag)
    for deck in other.decks.values():
        rng.shuffle(deck)
    for guanga in other.guangas:
        for stack in guanga:
            for i in range(len(stack) - 1):
                for j, k in enumerate(other.pile):
                    if k != stack[i]:
                        stack[i], other.pile[j] = k, stack[i]
                        break
    held = {o for o in other.orders if o is not None}
    free = [o for o, *_ in D.ORDERS if o not in held]
    for seat, order in enumerate(other.orders):
        if seat != keep_seat and order is not None and free:
            other.orders[seat] = free.pop()
    return other


@pytest.mark.parametrize(("players", "mode", "stoppers"), [(2, "apprentice", True), (3, "master", False)])
def test_hidden_things_do_not_change_the_description(players, mode, stoppers):
    changed = 0
    for state in positions(players, mode, stoppers, seed=7)[:-1]:  # before the end, when orders are secret
        for seat in [None, *range(players)]:
            other = hidden_changed(state, seat, random.Random(11))
            changed += to_dict(other) != to_dict(state)
            assert G.describe(G.view_for(other, seat)) == G.describe(G.view_for(state, seat))
    assert changed > 0, "the hidden things really changed"


def test_a_changed_own_order_does_change_the_own_description():
    """The comparison above can fail: the seat's own order is in its description."""
    state = positions(2, "apprentice", False, seed=7)[3]
    assert state.orders[0] is not None
    other = hidden_changed(state, None, random.Random(11))
    assert other.orders[0] != state.orders[0]
    assert G.describe(G.view_for(other, 0)) != G.describe(G.view_for(state, 0))
    assert G.describe(G.view_for(other, None)) == G.describe(G.view_for(state, None))


@pytest.mark.parametrize(("players", "mode", "stoppers"), COMBOS)
def test_every_line_is_a_kept_sentence_with_spanish(players, mode, stoppers):
    for state in positions(players, mode, stoppers, seed=players * 31 + len(mode)):
        for seat in [None, *range(players)]:
            for part in G.describe(G.view_for(state, seat)):
                check_said(part.heading)
                for line in part.lines:
                    spanish = check_said(line)
                    assert "#" not in spanish and "*" not in spanish and "`" not in spanish, spanish


def test_a_shared_place_counts_for_the_places_after_it():
    """The end in words numbers places as the board's ranking does: two seats sharing the first
    place leave the next one third (1, 1, 3), not second."""
    s = G.new_game(G.Config(players=3), 3, 5)
    for seat in range(3):
        s.guangas[seat] = [list(s.guangas[seat][D.CENTRE]) for _ in range(25)]  # full: no penalty
    s.claimed = [["A01"], ["A02"], []]  # 5 VP, 5 VP, 0 VP
    s.finished, s.phase = True, "over"
    s.end_said = G.rules.said("the workshop reached its end and the round was completed")
    s.end_reason = s.end_said.in_words()
    view = G.view_for(s, None)
    assert view.ranking == ((0, 1), (2,)) and places(view.ranking) == {0: 1, 1: 1, 2: 3}
    game = section(G.describe(view), "Game")
    assert "Place 1: {p0}, 5 VP" in game and "Place 1: {p1}, 5 VP" in game
    assert "Place 3: {p2}, 0 VP" in game


def test_the_cells_to_return_leave_out_a_bare_mother_patch():
    """Artisan: the mother patch may be covered but never removed, so when a claimed shape holds
    C3 with only the mother on it, the view, and the board in words, offer the other cells only
    (as the legal returns do); the whole shape stays in the view."""
    s = artisan_claim_over_the_bare_mother()
    assert [str(m) for m in G.legal_moves(s, 0)] == ["R C2C4"]
    view = G.view_for(s, None)
    assert view.pending["cells"] == (cell("C2"), cell("C3"), cell("C4"))
    assert view.pending["returnable"] == (cell("C2"), cell("C4"))
    assert "Claimed A01; return two of the cells C2 C4" in section(G.describe(view), "Game")


def breakdown(lines: list[str]) -> dict[str, str]:
    """A guanga section's points lines, by what they count."""
    return {
        line.split(":")[0]: line.split(": ", 1)[1]
        for line in lines
        if line.startswith(("Points from", "Empty cells:", "Complete-guanga tile:"))
    }


def vp(text: str) -> int:
    return int(text.replace("minus ", "-").removesuffix(" VP"))


@pytest.mark.parametrize(("players", "mode", "stoppers"), [(2, "apprentice", True), (3, "master", False)])
def test_each_guanga_tells_where_its_points_come_from_as_the_picture_does(players, mode, stoppers):
    games = positions(players, mode, stoppers, seed=7)
    for state in games[1:]:
        for reader in [None, *range(players)]:
            view = G.view_for(state, reader)
            sections = G.describe(view)
            for p in view.guangas:
                parts = breakdown(section(sections, f"{{p{p.seat}}}'s guanga"))
                sc = G.view_for(state, p.seat).guangas[p.seat].score
                assert vp(parts["Points from cards"]) == sc["market"]
                assert vp(parts["Points from shells"]) == sc["shells"]
                assert vp(parts["Empty cells"]) == -sc["penalty"]
                assert vp(parts.get("Complete-guanga tile", "0 VP")) == sc["tile"]
                if state is games[-1]:  # the game over: every order's points, for everyone
                    assert vp(parts["Points from the order"]) == sc["orders"]
                    assert sum(map(vp, parts.values())) == sc["total"]
                else:  # before: secret in every public part, its owner's included
                    assert parts["Points from the order"] == "secret"
                    assert sum(map(vp, (v for k, v in parts.items() if "order" not in k))) == (
                        sc["total"] - sc["orders"]
                    )


def test_a_beginner_guanga_has_no_shells_or_order_points():
    state = positions(1, "beginner", False, seed=3)[2]
    parts = breakdown(section(G.describe(G.view_for(state, 0)), "{p0}'s guanga"))
    assert set(parts) == {"Points from cards", "Empty cells"}


@pytest.mark.parametrize("mode", ["beginner", "master"])
def test_the_solo_rank_is_told_in_the_readers_language(mode):
    """The end of a solo game in words names its rank in Spanish for a Spanish reader, as the
    picture does ("rango Aprendiz"), not in the English of the rulebook's table."""
    config = G.Config(players=1, mode=G.Mode(mode))
    steps = playout(G, config, 1, 7, random.Random(7), choose=computer)
    view = G.view_for(steps[-1].after, 0)
    assert view.finished and view.solo_rank in dict((name, low) for low, name in D.SOLO_RANKS) | {
        D.SOLO_LOWEST_RANK: 0
    }
    game = G.describe(view)[0]
    english = [line.in_words() for line in game.lines]
    spanish = [line.in_words(sentences.ES) for line in game.lines]
    assert any(line.endswith(f"rank {view.solo_rank}") for line in english), english
    rank_es = sentences.ES.gettext(view.solo_rank)
    assert rank_es != view.solo_rank
    assert any(line.endswith(f"rango {rank_es}") for line in spanish), spanish
    assert not any(view.solo_rank in line for line in spanish), spanish


def test_an_order_kept_in_secret_is_told_in_words_to_the_others():
    """The others read that an order was kept, not its stand-in notation ("played keep ?"); its
    keeper reads the order they kept."""
    from engines.core import name_seats

    s = G.new_game(G.Config(mode=G.Mode.APPRENTICE), 2, 5)
    move = G.parse_move(f"keep {s.orders_dealt[1][0]}")
    after, _ = G.apply_move(s, 1, move)

    def last(state, seat):
        lines = [
            name_seats(x.in_words(), ["Ana", "Beto"])
            for sec in G.describe(G.view_for(state, seat))
            for x in sec.lines
        ]
        return [x for x in lines if x.startswith("Last move")]

    assert last(after, 0) == ["Last move: Beto kept a secret order"] == last(after, None)
    assert last(after, 1) == [f"Last move: Beto played {move}"]
