"""The seeds of the long random playouts (the ``slow`` tests of each game's test_playouts.py).

Each such test names its full sweep (``range(200)``, say), and the test command plays a fixed
sample of it: the first ``1/share`` of the seeds, so the same commit always plays the same games,
and every player count and option mix the seeds cycle through (``seed % 4``, ``seed % 5``...) is
still played as often as the others.  ``PUKLLAY_PLAYOUT_SEEDS`` plays more:

- ``all``: the whole sweep (the test then takes about ``share`` times as long);
- ``A:B``: the seeds from A to B-1 instead (``1000:1100`` plays games no default run plays).

Each seed is printed as its game starts, so a failure's captured output ends with its seed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

VARIABLE = "PUKLLAY_PLAYOUT_SEEDS"


def chosen(full: range, share: int = 2) -> range:
    """The seeds to play out of ``full``: its first ``1/share`` unless the variable says otherwise."""
    value = os.environ.get(VARIABLE, "").strip()
    if not value:
        return range(full.start, full.start + max(1, len(full) // share) * full.step, full.step)
    if value == "all":
        return full
    start, sep, stop = value.partition(":")
    try:
        if not sep:
            raise ValueError
        return range(int(start), int(stop))
    except ValueError:
        raise ValueError(
            f"{VARIABLE} must be 'all' or 'A:B' (the seeds from A to B-1), not {value!r}"
        ) from None


def playout_seeds(full: range, share: int = 2) -> Iterator[int]:
    """The seeds to play (see :func:`chosen`), each printed as it is handed out."""
    for seed in chosen(full, share):
        print(f"playout seed {seed}")
        yield seed
