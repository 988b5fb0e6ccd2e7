"""Boards as people with a colour-vision deficiency see them, and how far apart two colours look.

The simulation is the model of Machado, Oliveira and Fernandes, "A Physiologically-based Model
for Simulation of Color Vision Deficiency", IEEE Transactions on Visualization and Computer
Graphics 15(6), 2009, pp. 1291-1298: one 3x3 matrix per deficiency (their table, severity 1.0:
protanopia, deuteranopia, tritanopia), applied to linear RGB.  A colour goes sRGB -> linear ->
matrix -> clipped to [0, 1] -> sRGB.  :func:`simulate_image` applies the same map to a picture
through a 3D look-up table (Pillow's ``Color3DLUT``, trilinear, 33 points a side).

Colour difference is measured twice, and two colours that a legend says mean different things
must pass both after simulation (:func:`far_enough`):

* CIE76, the Euclidean distance in CIELAB (D65 white), at least :data:`THRESHOLD`.  ΔE76 = 2.3
  is a just-noticeable difference side by side; colours told apart at a glance, as small
  swatches on a phone screen and not side by side, need several times that.  10 is the usual
  floor for categorical colours in data visualisation (a tenth of the lightness range).
* CIEDE2000 (CIE 142-2001, as written out by Sharma, Wu and Dalal, "The CIEDE2000
  Color-Difference Formula: Implementation Notes, Supplementary Test Data, and Mathematical
  Observations", Color Research and Application 30(1), 2005, pp. 21-30), at least
  :data:`THRESHOLD_2000`.  CIE76 overrates differences of chroma and hue between saturated
  colours, dark ones above all (the seats' navy and the plum they had before, two dark blues to
  a protanope, stood 14.1 apart by CIE76 and 4.6 by CIEDE2000); CIEDE2000 weighs lightness,
  chroma and hue nearer to how the eye does.  About 1 is a just-noticeable difference side by
  side; 5 asks, as 10 does of CIE76, for swatches told apart at a glance.

Two swatches that pass both are distinct but not far apart, which is why every colour-coded
thing also carries a second cue (a letter, a shape or a pattern) that does not depend on colour
at all.
"""

from __future__ import annotations

import math
from functools import cache

from PIL import Image, ImageFilter

RGB = tuple[int, int, int]

THRESHOLD = 10.0  # least CIE76 difference between two colours a legend tells apart
THRESHOLD_2000 = 5.0  # least CIEDE2000 difference between them

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


def ciede2000(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    """CIEDE2000 colour difference of two CIELAB colours (k_L = k_C = k_H = 1), step by step as
    Sharma, Wu and Dalal 2005 write it (their equations 2-19)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    # hue angles in degrees, 0 for a neutral colour (a' = b = 0)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if (a1p or b1) else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if (a2p or b2) else 0.0
    dlp, dcp = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dhp = 0.0
    elif abs(h2p - h1p) <= 180:
        dhp = h2p - h1p
    elif h2p - h1p > 180:
        dhp = h2p - h1p - 360
    else:
        dhp = h2p - h1p + 360
    d_hp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))
    lp, cp = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hp = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hp = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hp = (h1p + h2p + 360) / 2
    else:
        hp = (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hp - 30))
        + 0.24 * math.cos(math.radians(2 * hp))
        + 0.32 * math.cos(math.radians(3 * hp + 6))
        - 0.20 * math.cos(math.radians(4 * hp - 63))
    )
    d_theta = 30 * math.exp(-(((hp - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp**7 / (cp**7 + 25**7))
    s_l = 1 + 0.015 * (lp - 50) ** 2 / math.sqrt(20 + (lp - 50) ** 2)
    s_c = 1 + 0.045 * cp
    s_h = 1 + 0.015 * cp * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    lightness, chroma, hue = dlp / s_l, dcp / s_c, d_hp / s_h
    return math.sqrt(lightness**2 + chroma**2 + hue**2 + r_t * chroma * hue)


def delta_e2000(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    """CIEDE2000 colour difference of two sRGB colours."""
    return ciede2000(lab(a), lab(b))


def seen_apart(a: tuple[int, ...], b: tuple[int, ...], deficiency: str | None = None) -> float:
    """How far apart ``a`` and ``b`` look (CIE76) with ``deficiency`` (``None``: typical vision)."""
    if deficiency is None:
        return delta_e(a, b)
    return delta_e(simulate(a, deficiency), simulate(b, deficiency))


def seen_apart2000(a: tuple[int, ...], b: tuple[int, ...], deficiency: str | None = None) -> float:
    """How far apart ``a`` and ``b`` look (CIEDE2000) with ``deficiency`` (``None``: typical vision)."""
    if deficiency is None:
        return delta_e2000(a, b)
    return delta_e2000(simulate(a, deficiency), simulate(b, deficiency))


def far_enough(a: tuple[int, ...], b: tuple[int, ...], deficiency: str | None = None) -> bool:
    """Whether a legend may tell ``a`` and ``b`` apart for ``deficiency``: at least
    :data:`THRESHOLD` apart by CIE76 and :data:`THRESHOLD_2000` by CIEDE2000."""
    return seen_apart(a, b, deficiency) >= THRESHOLD and seen_apart2000(a, b, deficiency) >= THRESHOLD_2000
