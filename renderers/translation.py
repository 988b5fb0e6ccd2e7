"""The language of a render: every word drawn is in it.

:func:`speaking` sets it for the block (each renderer's ``render(..., language=...)`` does),
:func:`tr` and :func:`ntr` translate a message with named placeholders, and :func:`say` turns a
message into coloured spans (:data:`Span`), so a name keeps its seat's colour wherever the
language puts it.  The catalogues' extraction knows these names (``bot.i18n.RENDER_KEYWORDS``).
"""

from __future__ import annotations

import string
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import languages
from engines.core import Said, in_words
from renderers.colours import INK

Span = tuple[str, tuple[int, ...]]  # a run of text and its colour (RGB)


_SPEAKING: ContextVar[languages.Language] = ContextVar("speaking", default=languages.ENGLISH)


@contextmanager
def speaking(language: str | None) -> Iterator[languages.Language]:
    """Draw in ``language`` (a code such as ``es``; ``None`` or an unknown one: English) in the block."""
    token = _SPEAKING.set(languages.language(language))
    try:
        yield _SPEAKING.get()
    finally:
        _SPEAKING.reset(token)


def tr(message: str, /, **values: Any) -> str:
    """``message`` in the language being drawn, its ``{placeholders}`` filled from ``values``."""
    return _SPEAKING.get().gettext(message, **values)


def ntr(singular: str, plural: str, n: int, /, **values: Any) -> str:
    """The form of a message for ``n`` (also its ``{n}``) in the language being drawn."""
    return _SPEAKING.get().ngettext(singular, plural, n, **values)


def num(value: float, places: int | None = None) -> str:
    """A number as the language being drawn writes it (``2.5``; ``2,5`` in Spanish), with
    ``places`` decimals when given (see :meth:`languages.Language.number`)."""
    return _SPEAKING.get().number(value, places)


def told(text: str | Said | None) -> str:
    """A sentence an engine kept for translation (a :class:`~engines.core.Said` in its view), in
    the language being drawn; plain text as it is."""
    return in_words(text, _SPEAKING.get()) or ""


def ptr(context: str, message: str, /, **values: Any) -> str:
    """``message`` in ``context`` (one English word, two meanings) in the language being drawn."""
    return _SPEAKING.get().pgettext(context, message, **values)


def say(message: str, /, fill: tuple[int, ...] = INK, **parts: Any) -> list[Span]:
    """``message`` translated as coloured spans: text in ``fill``, each ``{part}`` either a string
    (in ``fill``, formatted) or a list of spans (a name in its seat's colour), where the language
    puts it."""
    return _spans(_SPEAKING.get().catalogue.gettext(message), fill, parts)


def nsay(singular: str, plural: str, n: int, /, fill: tuple[int, ...] = INK, **parts: Any) -> list[Span]:
    """:func:`say` for the form of a message for ``n``."""
    return _spans(_SPEAKING.get().catalogue.ngettext(singular, plural, abs(n)), fill, {"n": str(n), **parts})


def _spans(template: str, fill: tuple[int, ...], parts: dict[str, Any]) -> list[Span]:
    out: list[Span] = []
    for literal, field, spec, _ in string.Formatter().parse(template):
        if literal:
            out.append((literal, fill))
        if field is None:
            continue
        value = parts[field]
        if isinstance(value, list):
            out.extend(value)
        else:
            out.append((format(value, spec or ""), fill))
    return out


def list_spans(items: Sequence[list[Span]], fill: tuple[int, ...] = INK) -> list[Span]:
    """Spans of a list in the language's own words: ``Ana, Beto and Cleo`` (``Ana, Beto y Cleo``)."""
    if not items:
        return []
    out = items[0]
    for k, item in enumerate(items[1:], start=2):
        pattern = N_("{first} and {last}") if k == len(items) else N_("{first}, {next}")
        out = say(pattern, fill, first=out, last=item, next=item)
    return out


def N_(message: str) -> str:
    """Mark a message for the catalogues where it is written; it is translated where it is drawn."""
    return message


def current() -> languages.Language:
    """The language being drawn."""
    return _SPEAKING.get()
