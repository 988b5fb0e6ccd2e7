"""Names isolated from the text around them on the web pages.

A name is the one text of a page its readers write, and the Unicode bidirectional algorithm lets
it act on what follows it: an unterminated RIGHT-TO-LEFT OVERRIDE (U+202E) in a name draws the
rest of its line backwards ("Table 1: Eve (2nd) · game #1" as "1# emag · (dn2) evE"), and a
right-to-left name pulls a number after it to its left.  :func:`isolated` puts such a name between
FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE (U+2068, U+2069), which end whatever the name
opened at its end.  Being characters, not markup, they hold in any text a page writes: a
sentence, a table's cell, a heading, the ``<title>`` and an image's ``alt`` alike.
"""

from __future__ import annotations

import unicodedata

FSI, PDI = "\u2068", "\u2069"
OPENS_ISOLATE = frozenset("\u2066\u2067\u2068")  # LRI, RLI, FSI
TURNING = frozenset({"R", "AL", "AN", "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"})
"""The bidirectional classes of the characters that can move text around them: right-to-left
letters and digits, and the embedding, override and isolate controls.  A name with none of them
(left-to-right letters, digits, punctuation, emoji) draws the same isolated or not, and is left
as it is."""


def isolated(name: str) -> str:
    """``name`` as a page writes it: isolated (between FSI and PDI) when it holds a character that
    could move the text around it (:data:`TURNING`), else as it is.  Inside, an isolate the name
    opens and does not close is closed, and a PDI that closes none the name opened is left out
    (it would end the isolate around the name early, and let the rest of the name out)."""
    if not any(unicodedata.bidirectional(c) in TURNING for c in name):
        return name
    kept, open_isolates = [], 0
    for c in name:
        if c == PDI:
            if not open_isolates:
                continue
            open_isolates -= 1
        elif c in OPENS_ISOLATE:
            open_isolates += 1
        kept.append(c)
    return FSI + "".join(kept) + PDI * open_isolates + PDI
