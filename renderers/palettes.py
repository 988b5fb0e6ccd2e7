"""Each game's board palette: the 256 colours its boards are encoded with, chosen once.

A board is drawn in a few dozen flat colours (its pieces, the header, the seats' colours) plus
the blends that anti-aliasing makes where two of them touch.  Those blends are the same from
one board to the next, so a game's palette can be chosen ahead of time and every board mapped
to it (a table look-up, a few milliseconds) instead of choosing a palette for every picture
(Pillow's octree quantizer: most of the encoding time).

The palettes are in :mod:`renderers.palette_data` (read when a board is encoded by
:func:`renderers.encoding.palette_image`), written by::

    python -m renderers.palettes [game ...]

which draws the boards of seeded computer games (:func:`renderers.samples.positions`, seeds
:data:`SEEDS`, every seat's picture and the public one, in English and Spanish), counts their
colours and chooses:

* the colours the boards are drawn in (:func:`drawing_colours`) and every colour that covers at
  least :data:`FLAT_SHARE` of those pixels, exactly (the flat colours; each is checked to map
  to itself);
* the rest by a k-means over the remaining colours, each weighted by the square root of its
  pixel count so that the rarer blends of text edges still get near colours.

Pillow maps a colour to a palette through a cache of 4x4x4 cells, each answered by one
entry, so two entries never share a cell and a flat colour whose cell another entry would
answer gives way to it (or that entry to it, by pixel count).  Run it again after a renderer
changes its colours; ``tests/test_palettes.py`` fails when a board no longer fits its palette.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from PIL import Image

from renderers import colours
from renderers.encoding import PALETTE_SIZE, RGB, as_image, parse

SIZE = PALETTE_SIZE
FLAT_SHARE = 1e-4  # a colour covering this share of the pixels is kept exactly
SEEDS = (1, 2)  # the boards the palettes are chosen from (the tests check seed 7's)
LANGUAGES = (None, "es")
ROUNDS = 12
DATA = Path(__file__).resolve().parent / "palette_data.py"


def mapped(colours: Sequence[RGB], palette: Sequence[RGB]) -> list[int]:
    """The palette index Pillow gives each colour (the same look-up :func:`encode` makes)."""
    strip = Image.new("RGB", (len(colours), 1))
    strip.putdata(list(colours))
    return list(strip.quantize(palette=as_image(palette), dither=Image.Dither.NONE).tobytes())


def _cell(c: RGB) -> tuple[int, int, int]:
    return c[0] >> 2, c[1] >> 2, c[2] >> 2


def choose(counts: Counter[RGB], keep: Sequence[RGB] = (), size: int = SIZE) -> list[RGB]:
    """A palette of at most ``size`` colours for pictures with these colour counts, holding the
    colours of ``keep`` (the ones the pictures are drawn in) exactly."""
    total = sum(counts.values())
    ranked = sorted(counts, key=lambda c: (-counts[c], c))
    weight = {c: math.sqrt(counts[c]) for c in ranked}
    kept = set(keep)
    flat: list[RGB] = []
    cells: set[tuple[int, int, int]] = set()
    for c in [*dict.fromkeys(keep), *ranked]:
        if c not in kept and (counts[c] < FLAT_SHARE * total or len(flat) >= size // 2):
            break
        if _cell(c) not in cells:
            flat.append(c)
            cells.add(_cell(c))

    def fill(palette: list[RGB]) -> list[RGB]:
        """Add the colours worst served, 16 at a time, until the palette is full."""
        while len(palette) < size:
            index = mapped(ranked, palette)
            worst = sorted(
                ((weight[c] * sum((a - b) ** 2 for a, b in zip(c, palette[i], strict=True)), c))
                for c, i in zip(ranked, index, strict=True)
            )[::-1]
            taken = {_cell(p) for p in palette}
            added = 0
            for err, c in worst:
                if len(palette) >= size or added == 16 or err == 0:
                    break
                if _cell(c) not in taken:
                    palette.append(c)
                    taken.add(_cell(c))
                    added += 1
            if added == 0:
                break
        return palette

    palette = fill(list(flat))
    for _ in range(ROUNDS):
        sums = [[0.0, 0.0, 0.0, 0.0] for _ in palette]
        for c, i in zip(ranked, mapped(ranked, palette), strict=True):
            s, w = sums[i], weight[c]
            s[0] += w * c[0]
            s[1] += w * c[1]
            s[2] += w * c[2]
            s[3] += w
        moved = list(flat)
        taken = {_cell(p) for p in flat}
        for s in sums[len(flat) :]:
            if s[3]:
                p = (round(s[0] / s[3]), round(s[1] / s[3]), round(s[2] / s[3]))
                if _cell(p) not in taken:
                    moved.append(p)
                    taken.add(_cell(p))
        palette = fill(moved)
    # every flat colour maps to itself: what answers for its cell instead gives way, unless it
    # is a drawing colour or, among the other flat colours, covers more pixels

    def rank(c: RGB) -> tuple[bool, int]:
        return c in kept, counts[c]

    while True:
        drop = set()
        for c, i in zip(flat, mapped(flat, palette), strict=True):
            if palette[i] != c:
                thief = palette[i]
                drop.add(c if thief in flat and rank(thief) >= rank(c) else thief)
        if not drop:
            return palette
        flat = [c for c in flat if c not in drop]
        palette = [p for p in palette if p not in drop]


def drawing_colours(game: str) -> list[RGB]:
    """The flat colours the game's boards are drawn in: the shared ones (background, panels,
    text, the last-turn mark), the seats' colours up to its player count, its pieces'."""
    import engines

    info = engines.get(game)
    renderer = info.load_renderer()
    shared = (colours.BACKGROUND, colours.PANEL, colours.INK, colours.MUTED, colours.RULE, colours.ACTIVE)
    return [
        *shared,
        colours.MARK,
        colours.GOLD,
        colours.CHIP,
        *colours.SEAT_COLOURS[: info.load().MAX_PLAYERS],
        *(renderer.PIECE_COLOURS if renderer is not None else ()),
    ]


def board_colours(game: str, seeds: Sequence[int] = SEEDS) -> Counter[RGB]:
    """The colours of the game's sample boards and how many pixels each covers."""
    import engines
    from renderers.samples import positions

    renderer = engines.get(game).load_renderer()
    if renderer is None:
        raise ValueError(f"{game} has no renderer, so it has no boards to count")
    counts: Counter[RGB] = Counter()
    for seed in seeds:
        for pos in positions(game, seed):
            for seat in (None, *range(pos.players)):
                for language in LANGUAGES:
                    image = renderer.draw_board(
                        pos.view(seat),
                        names=pos.names,
                        last_action=pos.last_action_in(language),
                        language=language,
                    )
                    for n, colour in colours.colour_counts(image):
                        counts[colour] += n
    return counts


def write(palettes: dict[str, list[RGB]]) -> None:
    lines = [
        '"""The games\' board palettes, written by ``python -m renderers.palettes`` (do not edit)."""',
        "",
        "PALETTES = {",
    ]
    for game in sorted(palettes):
        text = "".join(f"{r:02x}{g:02x}{b:02x}" for r, g, b in palettes[game])
        lines.append(f'    "{game}": (')
        lines.extend(f'        "{text[i : i + 96]}"' for i in range(0, len(text), 96))
        lines.append("    ),")
    lines.append("}")
    DATA.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    from renderers.palette_data import PALETTES
    from renderers.samples import SETUPS

    parser = argparse.ArgumentParser(
        prog="python -m renderers.palettes", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("games", nargs="*", default=list(SETUPS), help="games (default: all)")
    args = parser.parse_args(argv)
    out = {g: parse(t) for g, t in PALETTES.items()}
    for game in args.games:
        counts = board_colours(game)
        out[game] = choose(counts, drawing_colours(game))
        print(f"{game}: {len(counts)} colours on the sample boards, palette of {len(out[game])}", flush=True)
        write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
