"""Boards are encoded with their game's own palette, chosen ahead of time: the pictures stay
those of the general quantizer (Pillow's octree, the encoding before) to the pixel, within a
stated tolerance, on boards the palettes were not chosen from, and closer to the drawing."""

from __future__ import annotations

import io
import struct
import zlib
from dataclasses import dataclass, replace
from functools import cache

import pytest
from PIL import Image, ImageChops, ImageDraw

import engines
from renderers import encoding, palettes, typeset
from renderers.palette_data import PALETTES
from renderers.samples import SETUPS, positions

GAMES = sorted(SETUPS)
SEED = 7  # not among palettes.SEEDS: the palettes were chosen without these boards

# The tolerance, pixel by pixel, largest difference of the three channels.  Against the
# reference encoding (the octree quantizer, 256 colours, which itself moves most pixels of a
# board by a few levels: its flat colours are averages): at most REF_MAX anywhere, more than
# REF_STEP on at most REF_SHARE of the pixels.  Against the drawn canvas: at most DRAWN_MAX
# anywhere, more than DRAWN_STEP on at most DRAWN_SHARE of the pixels, and a mean luminance
# error no larger than the reference's.
REF_MAX = 64
REF_STEP = 16
REF_SHARE = 0.01
DRAWN_MAX = 40
DRAWN_STEP = 8
DRAWN_SHARE = 0.005


@cache
def _positions(game: str):
    return positions(game, SEED)


def _decode(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _reference(canvas: Image.Image) -> Image.Image:
    """The encoding before the palettes: the image's own 256 colours from the octree quantizer
    (as its PNG decodes: a PNG keeps a palette image's indices and colours as they are)."""
    return canvas.quantize(256, method=Image.Quantize.FASTOCTREE).convert("RGB")


def _channel_histogram(a: Image.Image, b: Image.Image | None = None) -> list[int]:
    """How many pixels have each largest per-channel difference (0-255) between ``a`` and ``b``
    (without ``b``: ``a`` is their difference already)."""
    bands = (a if b is None else ImageChops.difference(a, b)).split()
    largest = ImageChops.lighter(ImageChops.lighter(bands[0], bands[1]), bands[2])
    return largest.histogram()


def _mean_error(a: Image.Image, b: Image.Image | None = None) -> float:
    """The mean luminance of the difference of ``a`` and ``b`` (without ``b``: of ``a``)."""
    hist = (a if b is None else ImageChops.difference(a, b)).convert("L").histogram()
    return sum(i * n for i, n in enumerate(hist)) / (a.width * a.height)


def _boards(game: str):
    """Middle and end of every setup: the public picture and the first seat's, in English;
    the first seat's middle in Spanish too."""
    for pos in _positions(game):
        if pos.label.endswith("-start"):
            continue
        for seat in (None, 0):
            yield pos, seat, None
        if pos.label.endswith("-middle"):
            yield pos, 0, "es"


@dataclass(frozen=True)
class Board:
    """One board of :func:`_boards` as the tests read it: its canvas (``draw_board``), its PNG
    (``render``) and what the encoder chose for that PNG (a copy of ``LAST_ENCODING`` taken right
    after it).  Drawn once per process and shared by the tests, which only read it."""

    label: str
    seat: int | None
    language: str | None
    canvas: Image.Image
    png: bytes
    chosen: encoding.Encoding


@cache
def _drawn(game: str) -> tuple[Board, ...]:
    renderer = engines.get(game).load_renderer()
    out = []
    for pos, seat, language in _boards(game):
        kwargs = {"names": pos.names, "last_action": pos.last_action_in(language), "language": language}
        view = pos.view(seat)
        canvas = renderer.draw_board(view, **kwargs)
        png = renderer.render(view, **kwargs)
        out.append(Board(pos.label, seat, language, canvas, png, replace(encoding.LAST_ENCODING)))
    return tuple(out)


def _compare(a: Image.Image, b: Image.Image | None, step: int) -> tuple[int, float]:
    """The largest channel difference between ``a`` and ``b``, and the share of pixels whose
    largest channel difference passes ``step`` (without ``b``: ``a`` is their difference)."""
    hist = _channel_histogram(a, b)
    return max(i for i, n in enumerate(hist) if n), sum(hist[step + 1 :]) / (a.width * a.height)


@pytest.mark.parametrize("game", GAMES)
def test_boards_keep_their_pixels_with_the_known_palette(game):
    """Every board renders with its game's palette (no quantizer); decoded, it matches the
    reference encoding and the drawn canvas within the tolerance, and is at least as close to
    the canvas as the reference on average."""
    seen = []
    for board in _drawn(game):
        canvas, png, label, seat, language = board.canvas, board.png, board.label, board.seat, board.language
        assert board.chosen.known and board.chosen.palette, (label, seat, language)
        assert len(png) < encoding.LIMIT
        new, old = _decode(png), _reference(canvas)
        ref_max, ref_share = _compare(new, old, REF_STEP)
        drawn = ImageChops.difference(canvas, new)  # measured twice: channel by channel, and on average
        drawn_max, drawn_share = _compare(drawn, None, DRAWN_STEP)
        mean_new, mean_old = _mean_error(drawn), _mean_error(canvas, old)
        where = (label, seat, language, ref_max, ref_share, drawn_max, drawn_share, mean_new, mean_old)
        assert ref_max <= REF_MAX and ref_share <= REF_SHARE, where
        assert drawn_max <= DRAWN_MAX and drawn_share <= DRAWN_SHARE, where
        assert mean_new <= mean_old, where
        seen.append(where)
    print(
        f"\n{game}, {len(seen)} boards: against the reference max {max(w[3] for w in seen)}, "
        f"> {REF_STEP}: {max(w[4] for w in seen):.3%}; against the canvas max {max(w[5] for w in seen)}, "
        f"> {DRAWN_STEP}: {max(w[6] for w in seen):.3%}, mean {max(w[7] for w in seen):.3f} "
        f"(reference {min(w[8] for w in seen):.3f}-{max(w[8] for w in seen):.3f})"
    )


def test_a_picture_outside_the_palette_is_encoded_as_before():
    """A colour the palette does not hold (a gradient over every hue) is measured on the sample
    and sent through the general path: the picture keeps its colours."""
    img = Image.new("RGB", (600, 400))
    draw = ImageDraw.Draw(img)
    for x in range(600):
        for y in range(0, 400, 4):
            draw.line((x, y, x, y + 3), fill=(x * 255 // 600, y * 255 // 400, (x + y) % 256))
    png = encoding.encode(img, encoding.palette_image("pachakuna"))
    assert not encoding.LAST_ENCODING.known and not encoding.LAST_ENCODING.palette
    assert _decode(png).tobytes() == img.tobytes()
    flat = Image.new("RGB", (600, 400), (10, 200, 250))  # one colour far from every board's
    ImageDraw.Draw(flat).text((20, 20), "Guacamole", font=typeset.font(60, True), fill=(250, 10, 120))
    png = encoding.encode(flat, encoding.palette_image("tiwanaku"))
    assert not encoding.LAST_ENCODING.known and encoding.LAST_ENCODING.palette
    assert _mean_error(flat, _decode(png)) < 1


@pytest.mark.parametrize("game", GAMES)
def test_the_drawing_colours_are_kept_exactly(game):
    """The flat colours a board is drawn in (the shared ones, the game's pieces, the seats it
    can have) are in its palette, each answering for itself (Pillow maps through 4x4x4 cells)."""
    colours = palettes.drawing_colours(game)
    text = PALETTES[game]
    palette = palettes.parse(text)
    assert len(palette) <= 256 and len(set(palette)) == len(palette)
    index = palettes.mapped(colours, palette)
    assert [palette[i] for i in index] == colours


def _chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    """The PNG's chunks (kind, data), each one's CRC checked."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    out, at = [], 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, data = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", png[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(kind + data), kind
        out.append((kind, data))
        at += 12 + length
    return out


@pytest.mark.parametrize("game", GAMES)
def test_the_fast_writer_keeps_every_pixel(game):
    """Boards in their game's palette are written by palette_png (ISA-L's deflate; zlib only for
    a file that would pass the limit, at most one board a game here): decoded, the same palette
    indices and colours as Pillow's own PNG of the same mapped image, exactly (no tolerance), and
    so with zlib's fallback; every chunk's CRC and the data's checksum hold."""
    palette = encoding.palette_image(game)
    fast = 0
    for board in _drawn(game):
        png, where = board.png, (board.label, board.seat, board.language)
        assert board.chosen.known, where
        mapped = board.canvas.quantize(palette=palette, dither=Image.Dither.NONE)
        if board.chosen.deflate != "isal":  # only a file that would pass the limit goes to zlib
            assert len(encoding.palette_png(mapped)) >= encoding.LIMIT > len(png), where
        ours = [png] if board.chosen.deflate == "isal" else []
        fast += len(ours)
        buf = io.BytesIO()
        mapped.save(buf, format="PNG", compress_level=0)  # the deflate level leaves the pixels as they are
        pillow = Image.open(buf)
        pillow.load()
        indices, colours, rgb = pillow.tobytes(), pillow.getpalette(), pillow.convert("RGB").tobytes()
        ours.append(encoding.palette_png(mapped, fast=False))
        for data in ours:
            kinds = [kind for kind, _ in _chunks(data)]
            assert kinds == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
            raw = zlib.decompress(dict(_chunks(data))[b"IDAT"])  # checks the Adler-32 too
            assert len(raw) == (mapped.width + 1) * mapped.height
        for data in dict.fromkeys((png, *ours)):  # the rendered PNG is among ours when ISA-L wrote it
            mine = Image.open(io.BytesIO(data))
            mine.load()
            assert mine.mode == "P" and mine.size == pillow.size, where
            assert mine.tobytes() == indices, where
            assert mine.getpalette() == colours, where
            assert mine.convert("RGB").tobytes() == rgb, where
    assert fast >= len(list(_boards(game))) - 1
