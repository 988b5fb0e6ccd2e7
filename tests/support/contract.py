"""Checks of the engine contract shared by every game's tests.

- ``playout``: a seeded random game through ``legal_moves`` and ``apply_move``, every state kept
  (and each state given to ``apply_move`` checked unchanged).
- ``assert_round_trip``: ``from_dict(to_dict(s))`` equals ``s`` field by field (through JSON).
- ``assert_replays``: the seed and the log of move texts rebuild the stored state exactly.
- ``assert_complete``: ``legal_moves`` is exactly the set of candidate moves that ``apply_move``
  accepts, for every seat, the candidates coming from an independent enumeration of the
  game's notation (a superset of the legal moves, written in each game's test).
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from engines.core import TABLE, MoveError


@dataclass
class Step:
    state: Any  # before the move
    seat: int
    move: Any
    after: Any
    events: list


def playout(
    module,
    config,
    seats: int,
    seed: int,
    rng: random.Random,
    max_moves: int = 10_000,
    table_every: int = 0,
    choose: Callable[[Any, int, list, random.Random], Any] | None = None,
) -> list[Step]:
    """Random legal moves until the game ends (or ``max_moves``); ``choose(state, seat, legal, rng)`` may
    pick instead of a uniform choice.  With ``table_every``, the table's own move
    (``legal_moves(state, TABLE)``) is played about once in that many moves."""
    state = module.new_game(config, seats, seed)
    steps: list[Step] = []
    while module.outcome(state) is None and len(steps) < max_moves:
        table = module.legal_moves(state, TABLE) if table_every else []
        if table and rng.randrange(table_every) == 0:
            seat, move = TABLE, table[0]
        else:
            seat = rng.choice(sorted(module.to_move(state)))
            legal = list(module.legal_moves(state, seat))
            move = choose(state, seat, legal, rng) if choose else rng.choice(legal)
        before = module.to_dict(state)
        after, events = module.apply_move(state, seat, move)
        assert module.to_dict(state) == before, f"apply_move changed its input state ({move})"
        steps.append(Step(state, seat, move, after, events))
        state = after
    return steps


def assert_round_trip(module, state) -> None:
    """The saved form brings back every field (JSON in between, as storage does)."""
    back = module.from_dict(json.loads(json.dumps(module.to_dict(state))))
    for f in dataclasses.fields(state):
        assert getattr(back, f.name) == getattr(state, f.name), f"field {f.name} changed in the round trip"
    assert back == state


def assert_replays(module, config, seats: int, seed: int, steps: list[Step]) -> None:
    """The game rebuilt from its seed and the move texts of its log equals the stored state."""
    state = module.new_game(config, seats, seed)
    for step in steps:
        state, _ = module.apply_move(state, step.seat, module.parse_move(str(step.move)))
    final = steps[-1].after if steps else state
    assert module.to_dict(state) == module.to_dict(final)
    assert state == final


def accepted(
    module, state, seat: int, texts: Iterable[str], parsed: dict[str, Any] | None = None
) -> set[str]:
    """The candidate texts that parse and that ``apply_move`` accepts from ``seat``, canonical.
    ``parsed`` keeps each text's parse (a move, or the MoveError it raised) between calls of one
    test: parse_move depends on the text alone, and the same texts come back at every step."""
    parsed = {} if parsed is None else parsed
    out = set()
    for text in texts:
        if text not in parsed:
            try:
                parsed[text] = module.parse_move(text)
            except MoveError as e:
                parsed[text] = e
        move = parsed[text]
        if isinstance(move, MoveError):
            continue
        try:
            module.apply_move(state, seat, move)
        except MoveError:
            continue
        out.add(str(move))
    return out


def assert_complete(
    module,
    state,
    seats: Iterable[int],
    candidates: Callable[[Any, int], Iterable[str]],
    parsed: dict[str, Any] | None = None,
) -> None:
    """For every seat: legal_moves holds no duplicate and is exactly what apply_move accepts."""
    for seat in seats:
        legal = [str(m) for m in module.legal_moves(state, seat)]
        assert len(legal) == len(set(legal)), f"seat {seat}: a legal move is listed twice"
        found = accepted(module, state, seat, candidates(state, seat), parsed)
        missing = found - set(legal)
        extra = set(legal) - found
        assert not missing, f"seat {seat}: accepted but not listed: {sorted(missing)[:8]}"
        assert not extra, (
            f"seat {seat}: listed but refused (or not among the candidates): {sorted(extra)[:8]}"
        )


def check_steps(
    module,
    steps: list[Step],
    seats: Iterable[int],
    candidates: Callable[[Any, int], Iterable[str]],
    key: Callable[[Any], Any],
    first: int = 3,
    every: int = 25,
) -> dict[Any, int]:
    """The round trip after every step, and completeness before the first ``first`` steps of
    each kind (``key(state)``: a phase, a round) and every ``every`` steps; returns how many
    steps each kind had."""
    seats = list(seats)
    if steps:
        assert_round_trip(module, steps[0].state)  # the new game too, before any copy
    seen: dict[Any, int] = {}
    parsed: dict[str, Any] = {}
    for i, step in enumerate(steps):
        assert_round_trip(module, step.after)
        kind = key(step.state)
        seen[kind] = seen.get(kind, 0) + 1
        if seen[kind] <= first or i % every == 0:
            assert_complete(module, step.state, seats, candidates, parsed)
    return seen


def assert_events_tell(steps: list[Step], kinds: dict[str, set[str]]) -> None:
    """Each move's first event has a kind allowed for that move (``kinds``: move class name ->
    kinds) and names the seat that moved."""
    for step in steps:
        name = type(step.move).__name__
        assert step.events, f"{step.move} told nothing"
        first = step.events[0]
        assert first.kind in kinds[name], f"{step.move}: first event is {first.kind!r}"
        if step.seat >= 0:
            assert f"{{p{step.seat}}}" in first.text, f"{step.move}: {first.text!r} does not name the mover"


FACT = re.compile(r"\{p\d\}|\b[1-9][PLOTA]\b|\b[A-H][1-9]\b|-?\b\d+\b")


def facts(text: str | None) -> list[str]:
    """The facts a line carries, without its wording: seats ({p0}), cards (5T), cells (C3) and
    numbers, in order."""
    return FACT.findall(text or "")


def transcript(module, config, seats: int, seed: int, moves: list[str]) -> list[dict]:
    """For each move of a recorded game: who moved, and each event's kind, audience and facts
    (the wording stays free)."""
    state = module.new_game(config, seats, seed)
    out = []
    for text in moves:
        (seat,) = module.to_move(state)
        state, events = module.apply_move(state, seat, module.parse_move(text))
        out.append(
            {
                "move": text,
                "seat": seat,
                "events": [
                    [
                        e.kind,
                        None if e.visible_to is None else sorted(e.visible_to),
                        facts(e.text),
                        facts(e.public_text),
                    ]
                    for e in events
                ],
            }
        )
    return out
