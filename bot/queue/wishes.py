"""What a person asks the queue for, read and checked: the player counts of ``/queue join``'s
``players`` (:func:`parse_counts`), the game's options (:func:`parse_options`, and
:func:`options_in_full` to say them), the bounds of the other wishes, and a waiting person's wishes
as the matcher reads them (:func:`want_of`).  Refused in words, as a :class:`Refusal`.

Imports: the matcher's types, sessions' refusal, storage's queue rows, engines, languages; never
discord, never the queue's service.
"""

from __future__ import annotations

import json
import re

import engines
from bot.queue.match import Want
from bot.sessions import Refusal
from bot.storage.queue import QueueEntry
from engines.core import (
    SetupError,
    config_from_options,
    echo,
    new_config_from_options,
    options_of,
    parse_option_text,
    said_n,
)
from languages import option_key

MAX_WAIT_HOURS = 168
DEFAULT_WAIT_HOURS = 12
MAX_COMPUTERS = 5


def parse_counts(text: str | None, info: engines.GameInfo) -> tuple[int, ...]:
    """The player counts ``text`` names (``3``, ``2-4``, ``2,4``); all the game's counts of two
    or more when None.  Refused with what is allowed when out of the game's range."""
    least, most = max(2, info.min_players), info.max_players
    if not text or not text.strip():
        return tuple(range(least, most + 1))
    found: set[int] = set()
    for part in text.replace(" ", "").split(","):
        m = re.fullmatch(r"(\d{1,2})(?:-(\d{1,2}))?", part)
        if not m:
            raise Refusal("players takes counts like 3, 2-4 or 2,4 (got {got})", got=echo(text.strip(), 40))
        low, high = int(m[1]), int(m[2] or m[1])
        if low > high:
            low, high = high, low
        found.update(range(low, high + 1))
    if not found or min(found) < least or max(found) > most:
        raise Refusal(
            "a queue table of {game} seats {least} to {most} players (got {got})",
            game=info.title,
            least=least,
            most=most,
            got=text.strip()[:40],
        )
    return tuple(sorted(found))


def parse_options(
    text: str | None, info: engines.GameInfo, counts: tuple[int, ...], chosen: bool
) -> tuple[str, tuple[int, ...]]:
    """The game options ``text`` names (``mode=master stoppers=true``, as a league takes them: a
    name in English or as a Spanish client shows it), as
    the queue keeps them (JSON of those that differ from the game's defaults, so that equal wishes
    read the same), and the player counts of ``counts`` they make a game of.  Refused in words:
    an option that is not one, and options that fit none of the counts, or not every count the
    person ``chosen`` to name (left out, the counts are narrowed to those that fit: Tiwanaku's
    short board seats 2)."""
    try:
        given = {option_key(name): value for name, value in parse_option_text(text).items()}
    except SetupError as exc:
        raise Refusal(exc.said) from None
    if not given:
        return "{}", counts
    module = info.load()
    fit: list[int] = []
    problem: SetupError | None = None
    config: object = None
    for n in counts:
        try:
            config = new_config_from_options(module.Config, n, given)
        except SetupError as exc:
            problem = problem or exc
            if chosen:
                raise Refusal(
                    said_n(
                        n,
                        "these options do not make a table of {n} player: {problem}",
                        "these options do not make a table of {n} players: {problem}",
                        problem=exc.said,
                    )
                ) from None
            continue
        fit.append(n)
    if not fit:
        assert problem is not None  # the counts are never empty (parse_counts)
        raise Refusal(problem.said)
    defaults = {o.name: o.default for o in info.options()}
    kept = {k: v for k, v in options_of(config).items() if v != defaults.get(k)}
    return json.dumps(kept, sort_keys=True), tuple(fit)


def options_in_full(game: str, options: str, players: int) -> dict[str, object]:
    """The options kept as ``options`` (JSON of those that differ from the defaults) with the
    game's defaults filled in for a table of ``players``, as a lobby holds them."""
    chosen = json.loads(options)
    try:
        return options_of(config_from_options(engines.get(game).load().Config, players, chosen))
    except SetupError:  # kept before a change of the game's options: said as they are
        return dict(chosen)


def want_of(entry: QueueEntry, avoid: frozenset[int]) -> Want:
    """A waiting person's wishes as the matcher reads them (``avoid``: the people they avoid)."""
    return Want(
        user_id=entry.user_id,
        game=entry.game,
        counts=frozenset(entry.counts),
        pace=entry.pace,
        computers=entry.computers,
        rated=entry.rated,
        avoid=avoid,
        since=entry.joined_at,
        order=entry.id,
        options=entry.options,
    )
