"""Boards as people with a colour-vision deficiency see them, and how far apart two colours look.

The simulation is the model of Machado, Oliveira and Fernandes, "A Physiologically-based Model
for Simulation of Color Vision Deficiency", IEEE Transactions on Visualization and Computer
Graphics 15(6), 2009, pp. 1291-1298: one 3x3 matrix per deficiency (their table, severity 1.0:
protanopia, deuteranopia, tritanopia), applied to linear RGB.  A colour goes sRGB -> linear ->
matrix -> clipped to [0, 1] -> sRGB.  :func:`simulate_image` applies the same map to a picture
through a 3D look-up table (Pillow's ``Color3DLUT``, trilinear, 33 points a side).

Colour difference is CIE76: the Euclidean distance in CIELAB (D65 white).  Two colours that a
legend says mean different things must stay at least :data:`THRESHOLD` apart after simulation.
ΔE76 = 2.3 is a just-noticeable difference side by side; colours told apart at a glance, as
small swatches on a phone screen and not side by side, need several times that.  10 is the
usual floor for categorical colours in data visualisation (a tenth of the lightness range): two
swatches 10 apart are distinct but not far apart, which is why every colour-coded thing also
carries a second cue (a letter, a shape or a pattern) that does not depend on colour at all.
"""

from __future__ import annotations

import math
from functools import cache

from PIL import Image, ImageFilter

RGB = tuple[int, int, int]

THRESHOLD = 10.0  # least CIE76 difference between two colours a legend tells apart

# Machado et al. 2009, severity 1.0, on linear RGB.
MATRICES: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
DEFICIENCIES = tuple(MATRICES)


def to_linear(v: float) -> float:
    """An sRGB channel (0-1) in linear light."""
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def to_srgb(v: float) -> float:
    """A linear channel (0-1) in sRGB, clipped to [0, 1]."""
    v = min(1.0, max(0.0, v))
    return v * 12.92 if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055


def _simulate_unit(deficiency: str, r: float, g: float, b: float) -> tuple[float, float, float]:
    lin = (to_linear(r), to_linear(g), to_linear(b))
    m = MATRICES[deficiency]
    out = [sum(m[i][j] * lin[j] for j in range(3)) for i in range(3)]
    return to_srgb(out[0]), to_srgb(out[1]), to_srgb(out[2])


def simulate(colour: tuple[int, ...], deficiency: str) -> RGB:
    """``colour`` (sRGB, 0-255) as seen with ``deficiency`` (one of :data:`DEFICIENCIES`)."""
    r, g, b = _simulate_unit(deficiency, colour[0] / 255, colour[1] / 255, colour[2] / 255)
    return round(r * 255), round(g * 255), round(b * 255)


LUT_SIZE = 33  # points a side of the look-up table


@cache
def _lut(deficiency: str) -> ImageFilter.Color3DLUT:
    """:func:`_simulate_unit` at every point of the table, in ``Color3DLUT.generate``'s order (red
    fastest) and with the same arithmetic; each channel's linear value is worked out once per
    level rather than once per point."""
    levels = [to_linear(i / (LUT_SIZE - 1)) for i in range(LUT_SIZE)]
    (m00, m01, m02), (m10, m11, m12), (m20, m21, m22) = MATRICES[deficiency]
    table: list[float] = []
    for b in levels:
        for g in levels:
            for r in levels:
                table += (
                    to_srgb(m00 * r + m01 * g + m02 * b),
                    to_srgb(m10 * r + m11 * g + m12 * b),
                    to_srgb(m20 * r + m21 * g + m22 * b),
                )
    return ImageFilter.Color3DLUT(LUT_SIZE, table)


def simulate_image(image: Image.Image, deficiency: str) -> Image.Image:
    """The picture (any mode; the result is RGB) as seen with ``deficiency``."""
    if deficiency not in MATRICES:
        raise ValueError(f"unknown deficiency {deficiency!r}; known: {', '.join(DEFICIENCIES)}")
    return (image if image.mode == "RGB" else image.convert("RGB")).filter(_lut(deficiency))


def lab(colour: tuple[int, ...]) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour."""
    r, g, b = (to_linear(c / 255) for c in colour[:3])
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    """CIE76 colour difference of two sRGB colours."""
    return math.dist(lab(a), lab(b))


def seen_apart(a: tuple[int, ...], b: tuple[int, ...], deficiency: str | None = None) -> float:
    """How far apart ``a`` and ``b`` look (CIE76) with ``deficiency`` (``None``: typical vision)."""
    if deficiency is None:
        return delta_e(a, b)
    return delta_e(simulate(a, deficiency), simulate(b, deficiency))
