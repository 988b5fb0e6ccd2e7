"""Two-player Swiss rounds by the FIDE Dutch system, through the ``caissify-pairings`` library.

The library pairs a chess round from each player's score, colour history, float history and
bye count; here a seat plays the part of a colour: the first seat is "white", the second
"black", so the Dutch system's colour rules balance who moves first over the season.

What the library is told, from a league's record:

- Pairing numbers come from ``starting_order`` (best first; by default rating, then player id),
  as a chess event fixes them when it starts; they are given to the library as they are (it would
  otherwise number the players afresh by the ratings it is given, which move during a season).
- Scores are the league points given; colour history is each player's seat in each game, in
  round order; float history (who was paired up or down a score group) is worked out from the
  scores before each round, as the library's own checker does; so both need the season's games
  with their rounds (``games``), else only colours from ``history`` are used.
- Earlier meetings (games played: a forfeit never played is none, so its players may meet
  again) and the forbidden pairs are both "previous pairings", which the Dutch system never
  pairs again (its absolute criterion C1).  The library's first-round shortcut does not
  look at them, so a first round with forbidden pairs is paired through its general path (one
  score group, as every score is 0).

:func:`dutch_round` returns None when the library's answer breaks a rule it cannot keep (a
forbidden pair, or more than one bye): the caller then pairs by the seating optimiser.

What the library says is this module's debug log: its prints (a bracket trace, when its
``CAISSIFY_TRACE_BRACKET`` is set) are captured around the call, and its warnings (such as
"Multiple forced byes", an answer the caller then replaces) are logged here at DEBUG, so that
neither reaches the bot's output nor its warnings.
"""

from __future__ import annotations

import contextlib
import io
import logging
import warnings
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence

from caissify_pairings import MissingFloatHistoryWarning, generate_pairings

from bot.league.rounds import GameResult, Round, place_points, points_for_places

log = logging.getLogger(__name__)

WHITE, BLACK = "white", "black"


class _Quieted(logging.Filter):
    """Passes the library's log records on to this module's log at DEBUG, and stops them there."""

    def filter(self, record: logging.LogRecord) -> bool:
        log.debug("caissify-pairings: %s", record.getMessage())
        return False


LIBRARY_LOGGERS = ("caissify_pairings", "caissify_pairings.engines.dutch")
"""The library's loggers (its Dutch engine logs on its own, and is imported only when first used)."""


def _quiet_the_library() -> None:
    """A logger's filter sees only what is logged on that logger itself: each of the library's
    gets one (made here when the library has not made it yet; it then finds it made)."""
    for name in LIBRARY_LOGGERS:
        library = logging.getLogger(name)
        if not any(isinstance(f, _Quieted) for f in library.filters):
            library.addFilter(_Quieted())


_quiet_the_library()


def default_starting_order(players: Iterable[str], ratings: Mapping[str, float]) -> list[str]:
    """Pairing numbers when none are given: highest rating first, then player id."""
    return sorted(players, key=lambda p: (-ratings.get(p, 0.0), p))


def season_record(
    games: Sequence[GameResult], byes: Iterable[tuple[int, str]]
) -> tuple[dict[str, list[str]], dict[str, list[str]], int]:
    """Each player's colour history and float history, and the last round played.

    A game counts for colours when both places are known and it was played (a forfeit never
    played gave nobody a colour); a bye is a downward float (FIDE
    C.04.A's convention, as in the library's checker), and so is a forfeit never played, for
    both its players (the Dutch system: a player who, for whatever reason, does not play in a
    round receives a downfloat); of a game played, a pair of players with different scores
    before the round floats down (the higher) and up (the lower).  Scores here are 1, 0.5, 0 per
    game and 1 per bye, which orders players as the league's own points do for two-player games.
    """
    by_round: dict[int, list[tuple[str, ...]]] = defaultdict(list)
    for g in games:
        by_round[g.round].append(g.seating)
    bye_rounds: dict[int, list[str]] = defaultdict(list)
    for rnd, pid in byes:
        bye_rounds[rnd].append(pid)
    score: dict[str, float] = defaultdict(float)
    colours: dict[str, list[str]] = defaultdict(list)
    floats: dict[str, list[str]] = defaultdict(list)
    last = max([*by_round, *bye_rounds], default=0)
    results = {(g.round, g.seating): g for g in games}
    for rnd in range(1, last + 1):
        gained: dict[str, float] = defaultdict(float)
        for seating in by_round.get(rnd, []):
            if len(seating) != 2:
                continue
            a, b = seating
            game = results[(rnd, seating)]
            if game.played:  # a forfeit never played gave nobody a colour
                colours[a].append(WHITE)
                colours[b].append(BLACK)
            if not game.played:  # neither played the round: each floats down, as with a bye
                floats[a].append("down")
                floats[b].append("down")
            elif score[a] > score[b]:
                floats[a].append("down")
                floats[b].append("up")
            elif score[a] < score[b]:
                floats[a].append("up")
                floats[b].append("down")
            else:
                floats[a].append("none")
                floats[b].append("none")
            got = points_for_places([game.places[a], game.places[b]], place_points(2))
            gained[a] += got[0]
            gained[b] += got[1]
        for pid in bye_rounds.get(rnd, []):
            floats[pid].append("down")
            gained[pid] += 1.0
        for pid, pts in gained.items():
            score[pid] += pts
    return dict(colours), dict(floats), last


def colours_from(history: Iterable[Sequence[str]]) -> dict[str, list[str]]:
    """Colour histories from past games in round order, each listed in seat order."""
    colours: dict[str, list[str]] = defaultdict(list)
    for g in history:
        if len(g) == 2:
            colours[g[0]].append(WHITE)
            colours[g[1]].append(BLACK)
    return dict(colours)


def dutch_round(
    players: Sequence[str],
    *,
    points: Mapping[str, float],
    history: Sequence[Sequence[str]],
    byes_had: Mapping[str, int],
    ratings: Mapping[str, float],
    forbidden: Collection[frozenset[str]] = frozenset(),
    games: Sequence[GameResult] | None = None,
    byes: Iterable[tuple[int, str]] = (),
    starting_order: Sequence[str] | None = None,
    round_number: int | None = None,
    total_rounds: int | None = None,
    seats: Mapping[str, Sequence[int]] | None = None,
) -> Round | None:
    """One round by the Dutch system (see the module docstring), or None when its answer pairs a
    forbidden pair or gives more than one bye.  ``history`` holds the games that count as
    meetings; ``seats``, when given, is each player's seats so far in order and stands for the
    colour history."""
    known = set(players)
    order = [p for p in (starting_order or []) if p in known]
    order += default_starting_order(known - set(order), ratings)
    number = {p: i + 1 for i, p in enumerate(order)}
    name = {i: p for p, i in number.items()}
    if games is not None:
        colours, floats, last = season_record(games, byes)
    else:
        colours, floats, last = colours_from(history), {}, 0
    if seats is not None:
        colours = {p: [WHITE if s == 0 else BLACK for s in seq if s in (0, 1)] for p, seq in seats.items()}
    if games is None:  # the rounds each player has been in so far
        last = max((len(colours.get(p, ())) + byes_had.get(p, 0) for p in players), default=0)
    met = [tuple(g) for g in history]
    rnd = round_number if round_number is not None else last + 1
    total = total_rounds if total_rounds is not None else rnd + 1  # unknown: not the last round
    previous = {
        tuple(sorted((number[a], number[b])))
        for g in met
        for i, a in enumerate(g)
        for b in g[i + 1 :]
        if a in number and b in number
    }
    blocked = {tuple(sorted(number[p] for p in pair)) for pair in forbidden if pair <= known}
    entrants = [
        {
            "id": number[p],
            "name": p,
            "score": float(points.get(p, 0.0)),
            "rating": round(ratings.get(p, 0.0)),
            "starting_number": number[p],
            # Fixed here: the library would otherwise number players by the ratings it is given.
            "pairing_number": number[p],
            "color_hist": list(colours.get(p, ())),
            "float_history": list(floats.get(p, ())),
            "bye_count": byes_had.get(p, 0),
        }
        for p in order
    ]
    if rnd == 1 and blocked:
        rnd = 2  # the general path, which honours previous pairings (every score is 0 here)
    printed = io.StringIO()
    with warnings.catch_warnings(), contextlib.redirect_stdout(printed):
        # Raised when every float history is empty from round 2 on: true of a season paired
        # from ``history`` alone, and of the first round with forbidden pairs.
        warnings.simplefilter("ignore", MissingFloatHistoryWarning)
        out = generate_pairings(
            system="dutch",
            players=entrants,
            previous_pairings=previous | blocked,
            round_number=rnd,
            total_rounds=max(total, rnd),
        )
    if printed.getvalue():
        log.debug("caissify-pairings printed: %s", printed.getvalue().strip())
    pairs = [(name[o["white_id"]], name[o["black_id"]]) for o in out if o.get("black_id") is not None]
    bye_list = [name[o["white_id"]] for o in out if o.get("black_id") is None]
    if len(bye_list) != len(players) % 2 or any(frozenset(p) in forbidden for p in pairs):
        return None
    return Round(tuple(pairs), tuple(bye_list))
