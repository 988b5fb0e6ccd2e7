"""The seeds of the long random playouts (the ``slow`` tests of each game's test_playouts.py).

Each such test names its full sweep (``range(200)``, say), and the test command plays one part of
it: the sweep cut into ``share`` runs of seeds following one another, and the part played chosen
by the engines' source (:func:`source_part`, a digest of every file under ``engines/``), so that
the same commit always plays the same seeds, and each change to an engine, the code the playouts
test, draws the part afresh (any part, this one included): over the changes every seed of every
sweep comes to be played, while one run plays ``1/share`` of them.  A part is a run of
seeds one after the other, so every player count and option mix the seeds cycle through
(``seed % 4``, ``seed % 5``...) is still played as often as the others.  The part is printed in
the last lines of the run and each seed as its game starts, so a failure's captured output ends with its
seed.  ``PUKLLAY_PLAYOUT_SEEDS`` chooses instead:

- ``part:N``: part N (counted from 0, taken modulo ``share``): the run's last line prints the N that plays
  its run again (the source's number, which other slow tests read too: :func:`part`);
- ``all``: the whole sweep (the test then takes about ``share`` times as long);
- ``A:B``: the seeds from A to B-1 (``1000:1100`` plays games no default run plays).
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Iterator
from pathlib import Path

VARIABLE = "PUKLLAY_PLAYOUT_SEEDS"
SHARE = 4  # a run plays one part in SHARE of each sweep


ROOT = Path(__file__).resolve().parents[2]


def source_part(root: Path = ROOT) -> int:
    """The part the default plays: a number read from a digest of the engines' source (every file
    under ``root/engines``, by its path and its bytes), the same for every checkout of a commit."""
    digest = hashlib.sha256()
    for path in sorted((root / "engines").rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return int.from_bytes(digest.digest()[:3], "big")


@functools.cache
def default_part() -> int:
    """:func:`source_part` of this checkout, read once a run."""
    return source_part()


def part_of(full: range, part: int, share: int = SHARE) -> range:
    """Part ``part`` of ``full`` cut into ``share`` parts (fewer when it has fewer seeds), seeds one
    after the other; ``part`` is taken modulo the number of parts."""
    parts = max(1, min(share, len(full)))
    part %= parts
    return full[part * len(full) // parts : (part + 1) * len(full) // parts]


def _asked() -> range | int | None:
    """What the variable asks for: a window of seeds (``all`` is none), a part, or nothing."""
    value = os.environ.get(VARIABLE, "").strip()
    if not value:
        return None
    if value == "all":
        return range(0)
    start, sep, stop = value.partition(":")
    try:
        if not sep:
            raise ValueError
        return int(stop) if start == "part" else range(int(start), int(stop))
    except ValueError:
        raise ValueError(
            f"{VARIABLE} must be 'all', 'part:N' or 'A:B' (the seeds from A to B-1), not {value!r}"
        ) from None


def part() -> int:
    """The part this run plays: N of ``part:N``, else the source's (:func:`default_part`).  Other
    slow tests spread their costly checks over the changes by it too (tests/test_computer_levels.py)."""
    asked = _asked()
    return asked if isinstance(asked, int) else default_part()


def chosen(full: range, share: int = SHARE) -> range:
    """The seeds to play out of ``full``: the source's part unless the variable says otherwise."""
    asked = _asked()
    if asked is None or isinstance(asked, int):
        return part_of(full, part(), share)
    return asked or full


def header() -> str:
    """The line that ends a run (tests/conftest.py), saying which seeds the playouts played."""
    value = os.environ.get(VARIABLE, "").strip()
    if value:
        return f"playout seeds: {VARIABLE}={value}"
    number = default_part()
    return (
        f"playout seeds: part {number % SHARE} of {SHARE} of each sweep (chosen by the engines' source, "
        f"the same for this commit); {VARIABLE}=part:{number} plays the same again, {VARIABLE}=all every seed"
    )


def playout_seeds(full: range, share: int = SHARE) -> Iterator[int]:
    """The seeds to play (see :func:`chosen`), each printed as it is handed out."""
    for seed in chosen(full, share):
        print(f"playout seed {seed}")
        yield seed
