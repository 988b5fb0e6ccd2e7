"""Each engine's per-move "undoable" answer, on cases from its rules.

Seeded playouts by the computer players find positions where a kind of move is
legal; the expected answer comes from what the move does by the rules (a card
drawn, a space discovered, a patch taken from the basket, a demand drawn, a
round's villages shown and its die rolled), checked on the states, not from
the code under test.
"""

from __future__ import annotations

import engines
from engines.core import TABLE, config_from_options, rng_for


def positions(game: str, players: int = 2, seeds=range(1, 4), limit: int = 400):
    """(state, seat) pairs along seeded computer playouts of ``game``."""
    module = engines.get(game).load()
    for seed in seeds:
        state = module.new_game(config_from_options(module.Config, players, {}), players, seed)
        rng = rng_for(seed, "undoable")
        for _ in range(limit):
            if module.outcome(state) is not None:
                break
            movers = sorted(module.to_move(state))
            if not movers:
                state, _ = module.apply_move(state, TABLE, module.legal_moves(state, TABLE)[0])
                continue
            seat = movers[0]
            yield module, state, seat
            legal = list(module.legal_moves(state, seat))
            move = module.computer_move(module.view_for(state, seat), legal, rng)
            state, _ = module.apply_move(state, seat, move)


def first(game: str, wanted, players: int = 2):
    """The first (module, state, seat, move) whose move satisfies ``wanted(module, state, seat, move)``."""
    for module, state, seat in positions(game, players):
        for move in module.legal_moves(state, seat):
            if wanted(module, state, seat, move):
                return module, state, seat, move
    raise AssertionError(f"no such move found in {game} playouts")


def test_guacamole_a_draw_is_not_undoable_a_zone_dish_card_is():
    module, state, seat, move = first("guacamole", lambda m, s, k, mv: str(mv) == "draw deck")
    after, _ = module.apply_move(state, seat, move)
    assert len(after.deck) < len(state.deck)  # a card left the draw pile: chance
    assert module.undoable(state, seat, move) is False
    module, state, seat, move = first("guacamole", lambda m, s, k, mv: str(mv).startswith("prep "))
    assert module.undoable(state, seat, move) is False  # a hand card is laid face up
    module, state, seat, move = first("guacamole", lambda m, s, k, mv: str(mv) == "pass")
    assert module.undoable(state, seat, move) is True


def test_tiwanaku_a_discovery_is_not_undoable_a_walk_over_known_land_is():
    def discovers(m, s, k, mv):
        if not str(mv).startswith("+"):
            return False
        after, _ = m.apply_move(s, k, mv)
        return sum(after.discovered) > sum(s.discovered)

    module, state, seat, move = first("tiwanaku", discovers)
    assert module.undoable(state, seat, move) is False

    def plain_step(m, s, k, mv):
        if "-" not in str(mv) or str(mv).endswith("out"):
            return False
        after, _ = m.apply_move(s, k, mv)
        return after.discovered == s.discovered and after.cultivated == s.cultivated

    module, state, seat, move = first("tiwanaku", plain_step)
    assert module.undoable(state, seat, move) is True
    module, state, seat, move = first("tiwanaku", lambda m, s, k, mv: "=" in str(mv))
    assert module.undoable(state, seat, move) is False  # a divination tells right or wrong


def test_guanga_a_take_is_not_undoable_a_return_or_kept_order_is():
    module, state, seat, move = first("guanga", lambda m, s, k, mv: str(mv).upper().startswith("P"))
    assert module.undoable(state, seat, move) is False
    # A return after a claim: undoable exactly when it ends no turn that refills the basket
    # from the face-down pile (a draw: chance).
    seen = set()
    for module, state, seat in positions("guanga"):
        for move in module.legal_moves(state, seat):
            if str(move).upper().startswith("R "):
                after, _ = module.apply_move(state, seat, move)
                draws = after.pile != state.pile or after.basket != state.basket
                assert module.undoable(state, seat, move) is (not draws and not after.finished)
                seen.add(draws)
    assert True in seen
    config = config_from_options(module.Config, 2, {"mode": "apprentice"})
    state = module.new_game(config, 2, 3)
    keep = module.legal_moves(state, 0)[0]
    assert str(keep).startswith("keep") and module.undoable(state, 0, keep) is True


def test_pachakuna_a_demand_drawn_is_not_undoable_a_rotation_is():
    def draws_demand(m, s, k, mv):
        if str(mv) != "end":
            return False
        after, _ = m.apply_move(s, k, mv)
        return after.bag != s.bag

    module, state, seat, move = first("pachakuna", draws_demand)
    assert module.undoable(state, seat, move) is False
    module, state, seat, move = first("pachakuna", lambda m, s, k, mv: str(mv).startswith("r"))
    assert module.undoable(state, seat, move) is True


def test_pachakuna_every_sale_is_undoable_unless_it_wins_every_end_unless_it_draws():
    """Over seeded computer games, every legal sale and turn end: a sale draws nothing (the
    villages' demands are refilled from the bag only when the turn ends), so it can be taken
    back unless it wins the game; an end can be taken back exactly when it draws no demand,
    shuffles none back into the bag and does not end the game."""
    seen: dict[tuple[str, bool], int] = {}
    for module, state, seat in positions("pachakuna", seeds=range(1, 7), limit=2000):
        for move in module.legal_moves(state, seat):
            kind = type(move).__name__
            if kind not in ("Sell", "End"):
                continue
            after, _ = module.apply_move(state, seat, move)
            over = after.phase == "over"
            drew = after.bag != state.bag or after.recycles != state.recycles
            if kind == "Sell":
                assert not drew, f"a sale drew from the bag: seed {state.seed}, {move}"
            expected = not drew and not over
            assert module.undoable(state, seat, move) is expected, (state.seed, str(move), drew, over)
            key = (kind, expected)
            seen[key] = seen.get(key, 0) + 1
    # Every class was met: plain sales, winning sales, ends that draw and ends that do not.
    assert seen.get(("Sell", True), 0) >= 50 and seen.get(("Sell", False), 0) >= 1, seen
    assert seen.get(("End", True), 0) >= 1 and seen.get(("End", False), 0) >= 1, seen


def test_nowa_gwinea_a_die_roll_is_not_undoable_a_hut_is():
    def ends_round(m, s, k, mv):
        if str(mv) not in ("done", "gwinea"):
            return False
        after, _ = m.apply_move(s, k, mv)
        return after.round != s.round or after.over

    module, state, seat, move = first("nowa_gwinea", ends_round)
    assert module.undoable(state, seat, move) is False  # the next round's die is rolled
    module, state, seat, move = first(
        "nowa_gwinea", lambda m, s, k, mv: str(mv)[0].isalpha() and str(mv)[1].isdigit()
    )
    assert module.undoable(state, seat, move) is True
