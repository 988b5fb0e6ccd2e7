"""What the view tells each reader, read against the state at every step of seeded games: the
basket, market cards, guangas, markers and pending claim as they are; the kept order only to
its owner (others see `keep ?`) until the end; the turn number; and the seat's own summary."""

from __future__ import annotations

import random

import pytest

from engines import guanga as G
from engines.core import UNKNOWN, config_from_options, in_words
from engines.guanga import data as D
from engines.guanga.rules import Claim, card_view, order_points
from tests.support.contract import facts, playout

CARD_ROWS = {c[0]: c for c in D.CARDS}


def patch(kind):
    return None if kind is None else f"{D.COLOURS[kind // 5]}/{D.SYMBOLS[kind % 5]}"


def claims_first(state, seat, legal, rng):
    claims = [m for m in legal if isinstance(m, Claim)]
    return rng.choice(claims) if claims and rng.random() < 0.8 else rng.choice(legal)


def check_view(s, seat):
    v = G.view_for(s, seat)
    n = s.config.players
    assert (v.seat, v.players, v.phase, v.turn, v.turns) == (seat, n, s.phase, s.turn, s.turns)
    assert v.mode == s.config.mode.value and v.stoppers_variant == s.config.stoppers
    assert v.side == ("B" if v.mode in ("master", "artisan") else "A")
    assert v.to_move == tuple(sorted(G.to_move(s)))
    assert v.basket == tuple(patch(k) for k in s.basket)
    assert (v.pile, v.bag) == (len(s.pile), len(s.bag))
    assert v.decks == {k: len(d) for k, d in s.decks.items()}
    assert v.markers == s.markers and v.visible_markers == sum(s.markers.values())
    assert v.end_at == {2: 6, 3: 6, 4: 4}.get(n) and v.end_triggered == s.end_triggered
    assert v.shells_per_vp == {"apprentice": 1, "master": 2, "artisan": 2}.get(v.mode, 0)
    assert v.placed == tuple(s.placed) and v.tile == s.tile and v.finished == s.finished
    assert v.first_patch == (patch(s.first_kind) if s.phase == "place2" else None)
    if s.pending is None:
        assert v.pending is None
    else:
        assert v.pending["card"] == s.pending["card"] and v.pending["cells"] == tuple(s.pending["cells"])
    for cid, cv in zip(s.market, v.market, strict=True):
        assert (cv is None) == (cid is None)
        if cid:
            row = CARD_ROWS[cid]
            assert (cv.id, cv.name, cv.vp, cv.colour, cv.symbol, cv.level) == (
                cid,
                row[1],
                row[4],
                row[6],
                row[7],
                cid[0],
            )
            assert "/".join(cv.shape) == row[5]
    for i, pv in enumerate(v.guangas):
        assert (pv.seat, pv.colour) == (i, D.COLOURS[i])
        assert pv.tops == tuple(patch(st[-1]) if st else None for st in s.guangas[i])
        assert pv.heights == tuple(len(st) for st in s.guangas[i])
        assert pv.stoppers == tuple(sorted(s.stoppers[i])) and pv.stoppers_left == s.stoppers_left[i]
        assert pv.claimed == tuple(s.claimed[i]) and pv.shells == s.shells[i]
        if s.orders[i] is None:
            assert pv.order is None
        else:
            assert pv.order == (s.orders[i] if s.finished or i == seat else UNKNOWN)
    if s.last is not None and s.last.startswith("keep") and not s.finished:
        assert v.last == (s.last if seat == s.last_seat else "keep ?")
    else:
        assert v.last == s.last
    return v


def check_summary(v):
    text = in_words(G.summary(v))
    if v.seat is None:
        assert text == ""
        return
    me = v.guangas[v.seat]
    lines = text.split("\n")
    assert lines[-1].startswith("You: ")
    assert f"score {me.score['total']}" in lines[-1]
    assert (f"cards {', '.join(me.claimed)}" if me.claimed else "no cards yet") in lines[-1]
    empty = me.score["penalty"] // 2
    if empty:  # the score says what the empty cells take off (it read "score -48" at the start)
        assert f"counting -{me.score['penalty']} for {empty} empty cell" in lines[-1]
    assert (f"shells {me.shells}" in lines[-1]) == (v.mode != "beginner" or me.shells > 0)
    assert (f"stoppers left {me.stoppers_left}" in lines[-1]) == v.stoppers_variant
    if v.dealt_orders:
        assert lines[0].startswith("Orders dealt to you: ") and len(lines) == 2
        assert [f for f in facts(lines[0]) if f.isdigit()]  # the orders' points
        assert all(o in lines[0] for o in v.dealt_orders)
    elif me.order not in (None, UNKNOWN):
        assert lines[0].startswith(f"Your order: {me.order} (") and len(lines) == 2
    else:
        assert len(lines) == 1


@pytest.mark.parametrize(
    "players,mode,options,seed",
    [
        (3, "apprentice", {"stoppers": True}, 2),
        (2, "master", {}, 4),
        (1, "artisan", {}, 6),
        (2, "beginner", {}, 1),
    ],
)
def test_view_tells_the_state(players, mode, options, seed):
    config = config_from_options(G.Config, players, {"mode": mode, **options})
    steps = playout(G, config, players, seed, random.Random(seed), choose=claims_first)
    seen_keep = seen_pending = False
    for step in steps:
        for s in (step.state, step.after):
            for seat in [None, *range(players)]:
                check_summary(check_view(s, seat))
            seen_keep |= bool(s.last and s.last.startswith("keep") and players > 1)
            seen_pending |= s.pending is not None
    assert G.outcome(steps[-1].after) is not None
    events = steps[-1].events
    end = [e for e in events if e.kind == "end"]
    assert len(end) == 1 and steps[-1].after.end_reason in end[0].text
    # the end is the last word, but for the solo version's score and rank said after it; each
    # seat's secret order and its points come just before it
    if players == 1:
        assert events[-1].kind == "score" and "rank" in events[-1].text and events[-2] is end[0]
    else:
        assert events[-1] is end[0]
        before = events[-2] if len(events) > 1 else None
        if any(steps[-1].after.orders):
            assert before is not None and before.kind == "score", before
            for seat, order in enumerate(steps[-1].after.orders):
                points = order_points(steps[-1].after, seat)
                assert f"{{p{seat}}} {points} VP for order {order} (" in before.text, before.text
    assert not any(e.kind == "end" for step in steps[:-1] for e in step.events)
    assert seen_pending and (seen_keep or mode == "beginner" or players == 1)


def test_turn_number_counts_turns():
    """0 while the orders are chosen, then the number of turns so far plus one."""
    config = config_from_options(G.Config, 2, {"mode": "apprentice"})
    steps = playout(G, config, 2, 3, random.Random(3))
    numbers = [G.turn_number(step.state) for step in steps]
    assert numbers[0] == 0 and steps[0].state.phase == "order"
    for step, number in zip(steps, numbers, strict=True):
        assert number == (0 if step.state.phase == "order" else step.state.turns + 1)
    played = [n for n in numbers if n]
    assert played[0] == 1 and played == sorted(played) and max(played) == steps[-1].state.turns + 1
    assert set(range(1, max(played) + 1)) <= set(played)


def test_kept_order_is_private_until_the_end():
    """`keep O3` belongs to its player (others read `keep ?`) until the game is over."""
    s = G.new_game(config_from_options(G.Config, 2, {"mode": "apprentice"}), 2, 5)
    move = G.parse_move(f"keep {s.orders_dealt[1][0]}")
    p = G.move_privacy(s, 1, move)
    assert p.owner == 1 and p.mask == "keep ?"
    assert G.readable(s, p, 1) and not G.readable(s, p, 0) and not G.readable(s, p, None)
    assert G.move_privacy(s, 1, str(move)) == p
    assert G.move_privacy(s, 0, "done").owner is None
    after, _ = G.apply_move(s, 1, move)
    assert G.view_for(after, 0).last == "keep ?" and G.view_for(after, 1).last == str(move)
    after.finished = True
    assert G.readable(after, p, 0) and G.view_for(after, 0).last == str(move)


def test_card_view_is_the_card():
    for row in D.CARDS:
        cv = card_view(row[0])
        assert (cv.id, cv.name, cv.flag, cv.typology, cv.vp, cv.colour, cv.symbol) == row[:5] + row[6:8]
        assert cv.shape == tuple(row[5].split("/")) and cv.level == row[0][0]
