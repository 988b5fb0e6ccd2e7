"""Names isolated from the text around them, on the web pages and on the boards.

A name is the one text of a page or a picture its readers write, and the Unicode bidirectional algorithm lets
it act on what follows it: an unterminated RIGHT-TO-LEFT OVERRIDE (U+202E) in a name draws the
rest of its line backwards ("Table 1: Eve (2nd) · game #1" as "1# emag · (dn2) evE"), and a
right-to-left name pulls a number after it to its left.  :func:`isolated` puts such a name between
FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE (U+2068, U+2069), which end whatever the name
opened at its end.  Being characters, not markup, they hold in any text a page writes: a
sentence, a table's cell, a heading, the ``<title>`` and an image's ``alt`` alike, and in a line a
board draws (Pillow's raqm layout runs the same algorithm: "▶ {name} (you)" stays in that order).
Only the standard library: the web pages (``bot.web``) and the renderers both use it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

FSI, PDI = "\u2068", "\u2069"
OPENS_ISOLATE = frozenset("\u2066\u2067\u2068")  # LRI, RLI, FSI
ISOLATE_MARKS = OPENS_ISOLATE | {PDI}
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


def balanced(text: str) -> str:
    """``text`` with an isolate it closes but did not open opened at its start (one FSI for each
    unmatched PDI): a line that begins inside an isolated name, as the second line of a wrapped
    caption does, keeps the name's letters from turning the rest of the line around (an unmatched
    PDI is ignored, and the line would take its direction from the name)."""
    if PDI not in text:
        return text
    unopened, open_isolates = 0, 0
    for c in text:
        if c == PDI:
            if open_isolates:
                open_isolates -= 1
            else:
                unopened += 1
        elif c in OPENS_ISOLATE:
            open_isolates += 1
    return FSI * unopened + text


def without_isolates(text: str) -> str:
    """``text`` without the isolate marks (:data:`ISOLATE_MARKS`): for a layout that does not run
    the bidirectional algorithm, and would draw each mark as a box."""
    return (
        "".join(c for c in text if c not in ISOLATE_MARKS) if any(c in ISOLATE_MARKS for c in text) else text
    )


def names_isolated(text: str, names: Iterable[str]) -> str:
    """``text`` (a sentence that holds players' names) with each of ``names`` in it
    :func:`isolated`: where two names overlap ("Ali", "Ali Hasan") the longer is taken whole, and
    a name isolated already is left as it is.  A name with no right-to-left letter or direction
    control leaves ``text`` as it is."""
    turning = sorted({n for n in names if n and n in text and isolated(n) != n}, key=len, reverse=True)
    if not turning:
        return text
    # a name isolated already (the text went through here before) is left as it is
    pattern = "(?<!" + FSI + ")(?:" + "|".join(map(re.escape, turning)) + ")"
    return re.sub(pattern, lambda m: isolated(m.group()), text)
