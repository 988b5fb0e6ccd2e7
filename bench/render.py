"""Render benchmark: every game's render + encode time against its floor, and its PNG sizes.

Run from the repository root: ``python bench/render.py [game ...] [--repeat N]``.

For each board (the middle and the end of every setup in :mod:`renderers.samples`, the
spectator's and the first seat's picture) it measures, in one run:

* ``render``: the renderer's call, drawing and encoding, as the table makes it;
* the floor: the same drawing calls replayed on blank canvases (recorded while the renderer
  ran: every ImageDraw primitive and every paste or alpha composite, the outermost call only),
  plus the fastest encoding of the final canvas among RGB and a 128-colour palette at zlib
  levels 1, 3 and 6.

* the encode share: the part of ``render`` that is not ``draw_board`` (the same drawing without
  the encoding), as a share of ``render``; and of it, the part that is not the PNG's
  compression (the PNG's own pixels written again: a palette PNG by the renderers' own writer,
  ``palette_png``, where the checkout has one, else by Pillow at zlib level 3): the choice of
  colours.  Beside it, one read of the drawn picture's pixels (a copy of its RGB bytes) as a
  share of ``render``: what any encoding that starts from the drawn picture costs at the least;
  and "at best": the share such an encoding would have if choosing the colours cost nothing,
  that one read plus the PNG's compression as the renderers write it, against the drawing plus
  both; and "compression alone": the share of that compression against the drawing plus it, what
  is left even for a board drawn straight into its palette (no read of RGB pixels, no colours to
  choose), when its drawing costs what it does today.

It prints, per game, the ratio render / floor (median and range), the encode share (median and
range) with the colour share and the one read, and the PNG sizes (median and range).  Each
time is the best of ``--repeat`` runs, after a warm-up render (caches of static art filled),
so that the other work on a shared machine disturbs the figures as little as possible; with
``--cpu``, every time is this thread's CPU time instead of the wall clock's (on a busy machine,
the time that other processes take is then left out).  The
same script measures an older checkout too (``last_action`` is passed only where accepted).
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import io
import math
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import cast

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image, ImageDraw  # noqa: E402

import engines  # noqa: E402
from renderers.samples import SETUPS, positions  # noqa: E402


def _writer() -> Callable[[Image.Image], bytes] | None:
    """The renderers' own palette PNG writer, where the checkout has one (in its shared module
    before it was split)."""
    for name in ("renderers.encoding", "renderers.common"):
        try:
            writer = getattr(importlib.import_module(name), "palette_png", None)
        except ImportError:
            continue
        return cast("Callable[[Image.Image], bytes] | None", writer)
    return None


palette_png = _writer()

DRAW_METHODS = (
    "arc",
    "bitmap",
    "chord",
    "circle",
    "ellipse",
    "line",
    "pieslice",
    "point",
    "polygon",
    "rectangle",
    "regular_polygon",
    "rounded_rectangle",
    "text",
    "multiline_text",
)
IMAGE_METHODS = ("paste", "alpha_composite")
ENCODINGS = tuple((mode, level) for mode in ("RGB", "P128") for level in (1, 3, 6))


class Tape:
    """Records the outermost drawing calls made while it is active."""

    def __init__(self) -> None:
        self.ops: list[tuple[str, str, Image.Image, tuple, dict]] = []
        self._depth = 0
        self._saved: list[tuple[type, str, object]] = []

    def _wrap(self, cls: type, name: str, kind: str) -> None:
        original = getattr(cls, name)
        tape = self

        def wrapper(obj, *args, **kwargs):
            if tape._depth == 0:
                target = obj._image if kind == "draw" else obj
                tape.ops.append((kind, name, target, args, kwargs))
            tape._depth += 1
            try:
                return original(obj, *args, **kwargs)
            finally:
                tape._depth -= 1

        self._saved.append((cls, name, original))
        setattr(cls, name, wrapper)

    def __enter__(self) -> Tape:
        for name in DRAW_METHODS:
            self._wrap(ImageDraw.ImageDraw, name, "draw")
        for name in IMAGE_METHODS:
            self._wrap(Image.Image, name, "image")
        return self

    def __exit__(self, *exc) -> None:
        for cls, name, original in reversed(self._saved):
            setattr(cls, name, original)
        self._saved.clear()

    def replay(self) -> float:
        """Seconds to make the same calls on blank canvases of the same sizes."""
        blanks: dict[int, Image.Image] = {}
        draws: dict[int, ImageDraw.ImageDraw] = {}
        start = clock()
        for kind, name, target, args, kwargs in self.ops:
            key = id(target)
            image = blanks.get(key)
            if image is None:
                image = blanks[key] = Image.new(target.mode, target.size)
            if kind == "draw":
                draw = draws.get(key)
                if draw is None:
                    draw = draws[key] = ImageDraw.Draw(image)
                getattr(ImageDraw.ImageDraw, name)(draw, *args, **kwargs)
            else:
                getattr(Image.Image, name)(image, *args, **kwargs)
        return clock() - start

    def final_canvas(self, size: tuple[int, int]) -> Image.Image:
        """The canvas of the output's size that received the most calls."""
        counts: dict[int, int] = {}
        images: dict[int, Image.Image] = {}
        for _, _, target, _, _ in self.ops:
            if target.size == size:
                counts[id(target)] = counts.get(id(target), 0) + 1
                images[id(target)] = target
        return images[max(counts, key=counts.__getitem__)].convert("RGB")


def encode(image: Image.Image, mode: str, level: int) -> bytes:
    if mode == "P128":
        image = image.quantize(128, method=Image.Quantize.FASTOCTREE)
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=level)
    return buf.getvalue()


def compress(image: Image.Image) -> bytes:
    """The PNG's own pixels written again, as the renderers write them."""
    if image.mode == "P" and palette_png is not None:
        return palette_png(image)
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=3)
    return buf.getvalue()


clock = time.perf_counter  # --cpu: time.thread_time


def timed(fn) -> float:
    start = clock()
    fn()
    return clock() - start


def measure(render, draw_board, view, kwargs, repeat: int) -> tuple[float, float, float, float, float, int]:
    """(render seconds, floor seconds, draw_board seconds, compression seconds, read seconds,
    PNG bytes) for one board.  The read is one copy of the drawn picture's RGB pixels
    (``tobytes``): the least that any encoding which starts from the drawn picture adds.

    The render, the replay and the encodings are timed in turn within each round, so that a
    busy moment on a shared machine falls on both sides; each keeps its best round."""
    png = render(view, **kwargs)  # warm-up: static art and text layouts cached
    decoded = Image.open(io.BytesIO(png))
    decoded.load()
    size = decoded.size
    with Tape() as tape:
        render(view, **kwargs)
    canvas = tape.final_canvas(size)
    drawn = draw_board(view, **kwargs).convert("RGB")
    t_render = t_draw = t_board = t_zlib = t_read = math.inf
    t_encode = dict.fromkeys(ENCODINGS, math.inf)
    for _ in range(repeat):
        t_render = min(t_render, timed(lambda: render(view, **kwargs)))
        t_board = min(t_board, timed(lambda: draw_board(view, **kwargs)))
        t_zlib = min(t_zlib, timed(lambda: compress(decoded)))
        t_read = min(t_read, timed(drawn.tobytes))
        t_draw = min(t_draw, tape.replay())
        for m, lv in ENCODINGS:
            t_encode[m, lv] = min(t_encode[m, lv], timed(lambda m=m, lv=lv: encode(canvas, m, lv)))
    return t_render, t_draw + min(t_encode.values()), t_board, t_zlib, t_read, len(png)


def bench_game(game: str, repeat: int, boards: bool = False) -> None:
    info = engines.get(game)
    renderer = info.load_renderer()
    if renderer is None:
        raise SystemExit(f"{info.title} has no renderer to measure")
    ratios, sizes, times, shares, colours, reads, least, alone = [], [], [], [], [], [], [], []
    for pos in positions(game):
        if pos.label.endswith("-start"):
            continue
        for seat in (None, 0):
            kwargs: dict[str, object] = {"names": pos.names}
            if "last_action" in inspect.signature(renderer.render).parameters:  # an older checkout lacks it
                kwargs["last_action"] = pos.last_action
            t_render, floor, t_board, t_zlib, t_read, nbytes = measure(
                renderer.render, renderer.draw_board, pos.view(seat), kwargs, repeat
            )
            share = max(0.0, 1 - t_board / t_render)
            colour = max(0.0, (t_render - t_board - t_zlib) / t_render)
            if boards:
                who = "public" if seat is None else f"p{seat + 1}"
                print(
                    f"  {pos.label}-{who}: {t_render / floor:.2f} "
                    f"({1000 * t_render:.0f} ms / floor {1000 * floor:.0f} ms), "
                    f"encode {100 * share:.0f} % (colours {100 * colour:.0f} %), {nbytes / 1024:.0f} KB"
                )
            ratios.append(t_render / floor)
            sizes.append(nbytes)
            times.append(t_render)
            shares.append(share)
            colours.append(colour)
            reads.append(t_read / t_render)
            least.append((t_read + t_zlib) / (t_board + t_read + t_zlib))
            alone.append(t_zlib / (t_board + t_zlib))
    print(
        f"{info.title:24s} ratio median {statistics.median(ratios):.2f} "
        f"(range {min(ratios):.2f}-{max(ratios):.2f})   "
        f"render {1000 * statistics.median(times):5.0f} ms median   "
        f"encode {100 * statistics.median(shares):3.0f} % (range {100 * min(shares):.0f}-{100 * max(shares):.0f}, "
        f"colours {100 * statistics.median(colours):.0f} %, one read of the pixels "
        f"{100 * statistics.median(reads):.0f} %, at best {100 * statistics.median(least):.0f} %, "
        f"compression alone {100 * statistics.median(alone):.0f} %)   "
        f"PNG median {statistics.median(sizes) / 1024:4.0f} KB (range {min(sizes) / 1024:.0f}-{max(sizes) / 1024:.0f})   "
        f"{len(ratios)} boards"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=list(SETUPS), help="games to measure (default: all)")
    parser.add_argument("--repeat", type=int, default=5, help="rounds per board; the best of each is kept")
    parser.add_argument("--boards", action="store_true", help="also print each board's figures")
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time this thread's CPU instead of the wall clock: on a busy shared machine, the time "
        "the other processes take is left out",
    )
    args = parser.parse_args(argv)
    global clock
    clock = time.thread_time if args.cpu else time.perf_counter
    for game in args.games:
        bench_game(game, args.repeat, args.boards)


if __name__ == "__main__":
    main()
