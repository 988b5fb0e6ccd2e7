"""The computer levels of every game, on seeded playouts.

* every level returns a legal move in every position (the strong one, the costly one, with the
  smallest budget and in every third position, another as the engines change: see ``STRONG_EVERY``);
* ``determinize(view, rng)`` builds a state whose view is exactly the view it started from,
  with the same legal moves;
* the strong player's move does not change when the hidden parts of the state change in a
  way its view cannot see, and the same seed gives the same move.
"""

from __future__ import annotations

import importlib
import random

import pytest

import engines
from engines import search
from engines.core import LEVELS, config_from_options, rng_for
from tests.support import seeds

TINY = 0.001  # strong level's thinking time here: the minimum number of simulations
# The strong player is asked in every STRONG_EVERY-th position of a playout, which of them chosen
# by the playouts' part (tests/support/seeds.py: read from the engines' source, so the same for a
# commit and another as the engines change; named in the run's last lines, and its
# PUKLLAY_PLAYOUT_SEEDS=part:N asks the same positions again), so that over the changes it is
# asked in every position.
STRONG_EVERY = 3

# (game, players, options) for the playouts
SETUPS = [
    ("guacamole", 2, {}),
    ("guacamole", 4, {}),
    ("guanga", 1, {}),
    ("guanga", 2, {"mode": "apprentice", "stoppers": "yes"}),
    ("guanga", 3, {"mode": "master"}),
    ("guanga", 2, {"mode": "artisan"}),
    ("tiwanaku", 1, {}),
    ("tiwanaku", 2, {}),
    ("tiwanaku", 3, {}),
    ("pachakuna", 2, {"board": "random", "max_turns": 40}),
    ("nowa_gwinea", 1, {}),
    ("nowa_gwinea", 3, {"side": "hard", "boards": "each"}),
]


def playout(game: str, players: int, options: dict, seed: int, max_moves: int = 400):
    """Positions of a seeded game, moves half random, half by the normal player: (state, seat)."""
    module = engines.get(game).load()
    state = module.new_game(config_from_options(module.Config, players, options), players, seed)
    rng = random.Random(seed)
    for _ in range(max_moves):
        if module.outcome(state) is not None:
            return
        seat = rng.choice(sorted(module.to_move(state)))
        yield state, seat
        legal = list(module.legal_moves(state, seat))
        if rng.random() < 0.5:
            move = rng.choice(legal)
        else:
            move = module.computer_move(module.view_for(state, seat), legal, rng)
        state, _ = module.apply_move(state, seat, move)


def label(setup) -> str:
    game, players, options = setup
    return f"{game}-{players}p" + "".join(f"-{v}" for v in options.values())


@pytest.mark.parametrize("setup", SETUPS, ids=label)
def test_every_level_returns_a_legal_move(setup):
    game, players, options = setup
    module = engines.get(game).load()
    checked = searched = 0
    strong_at = seeds.part() % STRONG_EVERY
    for k, (state, seat) in enumerate(playout(game, players, options, seed=11, max_moves=100)):
        view = module.view_for(state, seat)
        legal = list(module.legal_moves(state, seat))
        texts = {str(m) for m in legal}
        # the strong player searches (its minimum number of simulations, each a game played out),
        # the costly part of this test: it is asked in every STRONG_EVERY-th position of the game
        levels = LEVELS if k % STRONG_EVERY == strong_at else [lv for lv in LEVELS if lv != "strong"]
        for level in levels:
            move = module.computer_move(view, legal, rng_for(11, k, level), level, TINY)
            assert str(move) in texts, f"{level} chose {move} at move {k} ({seeds.header()})"
        checked += 1
        searched += "strong" in levels
    assert checked > 20 and searched > 10


@pytest.mark.parametrize("setup", SETUPS, ids=label)
def test_determinize_agrees_with_the_view(setup):
    game, players, options = setup
    module = engines.get(game).load()
    worlds = failed = 0
    for k, (state, seat) in enumerate(playout(game, players, options, seed=5)):
        view = module.view_for(state, seat)
        try:
            world = module.determinize(view, random.Random(k))
        except search.NoWorld:
            failed += 1
            continue
        worlds += 1
        assert module.view_for(world, seat) == view, f"move {k}"
        assert {str(m) for m in module.legal_moves(world, seat)} == {
            str(m) for m in module.legal_moves(state, seat)
        }
    # Tiwanaku's sampler falls back on an approximate map rather than give up
    assert worlds > 20 and failed == 0


STRONG = [
    ("guacamole", 2, {}),
    ("guanga", 2, {}),
    ("tiwanaku", 2, {}),
    ("pachakuna", 2, {}),
    ("nowa_gwinea", 2, {}),
]


def test_pachakuna_sharp_player_is_legal_reads_only_its_view_and_is_seeded():
    """The sharp player (the strong player's default move and playout policy) returns a legal
    move everywhere, the same move for the same seed, and the same move in another state with
    the same view (the bag in another order)."""
    from engines.pachakuna import ai as pai

    module = engines.get("pachakuna").load()
    checked = 0
    for setup in (("pachakuna", 2, {"board": "random", "max_turns": 40}), ("pachakuna", 2, {})):
        for k, (state, seat) in enumerate(playout(*setup, seed=12, max_moves=300)):
            view = module.view_for(state, seat)
            legal = list(module.legal_moves(state, seat))
            move = pai.sharp_move(view, legal, rng_for(12, k))
            assert move in legal, f"sharp chose {move} at move {k}"
            assert pai.sharp_move(view, legal, rng_for(12, k)) == move
            twin = module.determinize(view, random.Random(k))
            assert twin.bag != state.bag or len(state.bag) < 2
            assert (
                pai.sharp_move(
                    module.view_for(twin, seat), list(module.legal_moves(twin, seat)), rng_for(12, k)
                )
                == move
            )
            checked += 1
    assert checked > 200


@pytest.mark.parametrize("setup", STRONG, ids=label)
def test_strong_move_depends_only_on_the_view(setup):
    """Hidden parts changed (another state with the same view): the same strong move; and the
    same seed always gives the same move."""
    game, players, options = setup
    module = engines.get(game).load()
    compared = 0
    for k, (state, seat) in enumerate(playout(game, players, options, seed=3, max_moves=150)):
        if k % 7:
            continue
        view = module.view_for(state, seat)
        try:
            twin = module.determinize(view, random.Random(1000 + k))
        except search.NoWorld:
            continue
        assert twin != state
        twin_view = module.view_for(twin, seat)
        assert twin_view == view
        legal = list(module.legal_moves(state, seat))
        twin_legal = list(module.legal_moves(twin, seat))
        first = module.computer_move(view, legal, rng_for(3, "cpu", k), "strong", 0.02)
        again = module.computer_move(view, legal, rng_for(3, "cpu", k), "strong", 0.02)
        other = module.computer_move(twin_view, twin_legal, rng_for(3, "cpu", k), "strong", 0.02)
        assert first == again == other, f"move {k}"
        compared += 1
    assert compared >= 5


def test_unknown_level_is_refused():
    module = engines.get("guacamole").load()
    state = module.new_game(module.Config(players=2), 2, 1)
    with pytest.raises(ValueError, match="easy, normal, strong"):
        module.computer_move(
            module.view_for(state, 0), module.legal_moves(state, 0), random.Random(1), "hard"
        )


def test_tiwanaku_hidden_maps_are_legal_or_flagged_approximate():
    """Late in seeded games: an exact sample is a legal map (the crop puzzle accepts it with
    every crop fixed); the fallback map agrees with the view all the same."""
    from engines.tiwanaku import ai as tai
    from engines.tiwanaku.board import Puzzle, regions_of

    module = engines.get("tiwanaku").load()
    exact = checked = 0
    for players, seed in ((2, 7), (3, 5)):
        for k, (state, seat) in enumerate(playout("tiwanaku", players, {}, seed=seed)):
            view = module.view_for(state, seat)
            rng = random.Random(k)
            terrain = tai.sample_terrain(view, rng)
            if terrain is not None:
                cols = view.cols
                for c, t in enumerate(view.terrain):
                    assert t is None or terrain[c] == t
                fixed = {c: v for c, v in enumerate(view.crops) if v is not None}
                sols = Puzzle(regions_of(terrain, cols), cols, fixed).solutions(1, max_nodes=3000)
                if sols:
                    full = dict(enumerate(sols[0]))
                    assert Puzzle(regions_of(terrain, cols), cols, full).solutions(1) == [sols[0]]
                    exact += 1
            world_terrain, crops = tai.approximate_map(view, random.Random(k), terrain)
            world = tai.determinize(view, random.Random(k))
            assert module.view_for(world, seat) == view
            for c, v in enumerate(view.crops):
                assert v is None or crops[c] == v
            checked += 1
    assert exact > 0 and checked > exact


def test_a_move_replaces_the_default_only_when_clearly_better_on_the_same_worlds():
    steady = [0.62, 0.66, 0.64, 0.61]
    assert search.clearly_better(steady, [0.5] * 4, 1.64)
    # the same average gain, but up and down from world to world: not enough evidence
    assert not search.clearly_better([0.9, 0.2, 0.85, 0.3], [0.5] * 4, 1.64)
    # no gain, or a single world, never suffices
    assert not search.clearly_better([0.5] * 4, [0.5] * 4, 1.64)
    assert not search.clearly_better([1.0], [0.0], 1.64)


def test_pachakuna_playouts_stop_when_the_seat_is_about_to_start_its_turn_again():
    """A playout of the strong P'achakuna player covers the rest of the seat's turn and
    ``ROUNDS`` turns of each player, and is scored at the start of the seat's turn."""
    from engines.pachakuna import ai as pai

    module = engines.get("pachakuna").load()
    assert pai.ROUNDS
    checked = 0
    for k, (state, seat) in enumerate(playout("pachakuna", 2, {}, seed=4, max_moves=120)):
        if k % 9:
            continue
        world = pai.determinize(module.view_for(state, seat), random.Random(k))
        done = pai._until(world)
        game = pai._game()
        value = search.playout(game, world, random.Random(k), None, seat, done)
        # the same playout by hand: the rollout player at every seat until the stop
        player = pai.sharp_move if pai.ROLLOUT == "sharp" else pai.normal_move
        assert game.policy is player
        rng = random.Random(k)
        now = world
        while module.outcome(now) is None and not done(now):
            who = min(module.to_move(now))
            move = player(module.view_for(now, who), list(module.legal_moves(now, who)), rng)
            now, _ = module.apply_move(now, who, move)
        if module.outcome(now) is None:
            assert now.turn == seat and now.phase == "rotate" and not now.turn_log
            assert now.turn_number == world.turn_number + 2 * pai.ROUNDS
        assert value == pai._evaluate(now, seat)
        checked += 1
    assert checked >= 5


def test_pachakuna_strong_candidates_are_legal_and_include_tile_turns():
    """The sharp player's move comes first; the others are legal, and at the start of some
    turns several tile turns are compared, not only the sharp player's."""
    from engines.pachakuna import ai as pai
    from engines.pachakuna.rules import Rotate

    module = engines.get("pachakuna").load()
    several = 0
    for k, (state, seat) in enumerate(playout("pachakuna", 2, {}, seed=6, max_moves=200)):
        view = module.view_for(state, seat)
        legal = list(module.legal_moves(state, seat))
        found = pai.candidates(view, legal, random.Random(k))
        assert found[0] == pai.sharp_move(view, legal, random.Random(k))
        assert set(found) <= set(legal) and len(found) == len(set(found)) <= pai.CANDIDATES
        several += sum(isinstance(m, Rotate) for m in found) >= 2
    assert several >= 3


def _read_fields(ai, seen, view, state, who):
    """(field, the light view's value, the view's value) for every field of the view the game's
    normal player reads (in Guanga, of the guanga it plays: the seat's, or the one to move)."""
    for name in ai._Seen.__slots__:
        if name != "guangas":
            yield name, getattr(seen, name), getattr(view, name)
    if hasattr(ai, "_SeenGuanga"):
        me = state.turn if who is None else who
        for name in ai._SeenGuanga.__slots__:
            yield name, getattr(seen.guangas[me], name), getattr(view.guangas[me], name)


@pytest.mark.parametrize("game", ["guanga", "guacamole", "tiwanaku"])
def test_playouts_hand_the_policy_what_it_reads_of_the_view(game):
    """In the search's playouts the normal player sees only the fields of the view it reads:
    they equal the view's own, and it makes the same move from them with the same generator
    (from the seat's view and the public one; Tiwanaku's normal player plays from a seat's)."""
    ai = importlib.import_module(f"engines.{game}.ai")
    module = engines.get(game).load()
    playing = ai._game().module
    checked = 0
    for setup in SETUPS:
        if setup[0] != game:
            continue
        for k, (state, seat) in enumerate(playout(*setup, seed=9, max_moves=150)):
            legal = list(module.legal_moves(state, seat))
            for who in (seat, None):
                view = module.view_for(state, who)
                seen = playing.view_for(state, who)
                for name, got, expected in _read_fields(ai, seen, view, state, who):
                    assert got == expected, (name, k)
                if who is not None or game != "tiwanaku":
                    assert ai.normal_move(seen, legal, rng_for(9, k)) == ai.normal_move(
                        view, legal, rng_for(9, k)
                    )
            checked += 1
    assert checked > 200


def test_tiwanaku_sampled_maps_pass_the_crop_check_on_every_region_and_candidates_are_fresh():
    """A sampled map's regions, all shut once the map is full, pass the sampler's crop check
    together (the sampler keeps the shut regions as it fills the map in); the crops a cell may
    hold are the same however often they are asked, whatever a caller did with an answer."""
    from engines.tiwanaku import ai as tai
    from engines.tiwanaku.board import regions_of

    module = engines.get("tiwanaku").load()
    sampled = asked = 0
    for players, seed in ((2, 4), (3, 6)):
        for k, (state, seat) in enumerate(playout("tiwanaku", players, {}, seed=seed, max_moves=200)):
            view = module.view_for(state, seat)
            if k % 4 == 0:
                terrain = tai.sample_terrain(view, random.Random(k))
                if terrain is not None and None in view.terrain:
                    fixed = tuple(tai.known_crops(view).items())
                    assert tai.shut_regions_fit(view.cols, tuple(regions_of(terrain, view.cols)), fixed), k
                    sampled += 1
            first = tai.crop_candidates(view)
            for cells in first.values():
                cells.clear()  # an answer is the caller's own
            first.clear()
            again = tai.crop_candidates(view)
            tai._CANDIDATES.clear()
            assert again == tai.crop_candidates(view), k
            some = sorted(again)[::2]
            assert tai.crop_candidates(view, some) == {c: again[c] for c in some}, k
            asked += bool(again)
    assert sampled > 20 and asked > 20
