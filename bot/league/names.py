"""League names as people type them, as they are stored and compared, and as messages show them.

Pure code: no Discord, no storage.  A name is stored normalised (:func:`normalise`: Unicode NFKC,
no control or format characters such as zero-width spaces or bidirectional marks, runs of white
space as one space), so two names that look the same are the same name (:func:`key`); messages
show it with Discord's markdown and mentions escaped (:func:`shown`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping

INVISIBLE = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")
"""Unicode categories a name never keeps: control, format (zero-width, bidirectional marks),
surrogates, private use, unassigned, and line or paragraph separators."""

MARKDOWN = re.compile(r"([\\*_~|`>#<@\[\]()-])")
"""Characters Discord's markdown or mentions give a meaning to; :func:`shown` escapes them."""

NUMBERED = re.compile(r"^(\d+)\.")
"""A name's opening number and full stop, which Discord would make a numbered list's item where the
name starts a line (``1. Ana joined.``); :func:`shown` escapes the full stop."""


def normalise(text: str) -> str:
    """``text`` as a name is stored: NFKC, invisible characters removed, white space collapsed."""
    text = unicodedata.normalize("NFKC", text)
    kept = "".join(" " if ch.isspace() else ch for ch in text if unicodedata.category(ch) not in INVISIBLE)
    return " ".join(kept.split())


def key(text: str) -> str:
    """What two names are compared by: two names with the same key look alike (they differ only in
    case, width, invisible characters or spacing)."""
    return normalise(text).casefold()


def shown(name: str) -> str:
    """``name`` as a message shows it: markdown and mentions escaped, so it reads as typed, also
    where it starts a line (a list's ``-``, ``*`` or ``1.``, a heading's ``#``, a quote's ``>``)."""
    return NUMBERED.sub(r"\1\\.", MARKDOWN.sub(r"\\\1", name))


def quoted(text: str) -> str:
    """``text`` (a name as typed or stored) in quotes as a message shows it: Python's quoting, so
    that an invisible character shows as its code (``'\\u200b'``), with markdown and mentions
    escaped (see :func:`shown`), so the quoted name formats nothing around it."""
    return shown(repr(text))


def all_shown(found: Mapping[int, str]) -> dict[int, str]:
    """People's names by user id (``found``) as a message shows them (see :func:`shown`)."""
    return {user: shown(name) for user, name in found.items()}


def of(found: Mapping[int, str], user: int) -> str:
    """The name of ``user`` in ``found`` (names by user id, as a message shows them); one not there
    (a player whose league record is gone) as a Discord mention, which the reader's client shows
    by name, never as a bare user id."""
    name = found.get(user)
    return name if name is not None else f"<@{user}>"


def listed(found: Mapping[int, str], users: Iterable[int]) -> str:
    """``users`` by name (see :func:`of`), separated by commas."""
    return ", ".join(of(found, u) for u in users)
