"""Checks that Nowa Gwinea's sentences are kept for translation (shared by the playouts and the
sentence tests): each event's English is its kept sentence, survives storage, and every message
in it has a Spanish translation."""

from __future__ import annotations

import json
import string
from collections.abc import Iterator

from engines.core import Event, MoveError, Said
from languages import Language, language

SPANISH = language("es")


def parts(said: Said) -> Iterator[Said]:
    """``said`` and every sentence or term put into it, depth first."""
    yield said
    for value in said.args.values():
        if isinstance(value, Said):
            yield from parts(value)


def has_words(template: str) -> bool:
    """Whether a template holds words (a list's joiner, ``{part0}; {part1}``, holds none)."""
    literal = "".join(text for text, _field, _spec, _conv in string.Formatter().parse(template))
    return any(ch.isalpha() for ch in literal)


def translated(said: Said, lang: Language = SPANISH) -> bool:
    """Whether the catalogue of ``lang`` has ``said``'s own message (not the values put in)."""
    if said.plural is not None:
        return (said.msg, 0) in getattr(lang.catalogue, "_catalog", {})
    return lang.has(said.msg, said.context)


def untranslated(said: Said, lang: Language = SPANISH) -> list[str]:
    """The messages of ``said`` (and of what is put into it) that ``lang`` does not translate."""
    return [p.msg for p in parts(said) if has_words(p.msg) and not translated(p, lang)]


def check_event(event: Event) -> None:
    """The event carries its sentence (and its public one where others read a different line),
    whose English is the event's text, translated whole, and kept through JSON storage."""
    assert event.said is not None, event
    assert event.said.in_words() == event.text
    assert (event.public_said is None) == (event.public_text is None), event
    if event.public_said is not None:
        assert event.public_said.in_words() == event.public_text
        assert untranslated(event.public_said) == []
    assert untranslated(event.said) == []
    assert Event.from_dict(json.loads(json.dumps(event.to_dict()))) == event


def check_refusal(error: MoveError | ValueError) -> None:
    """A refusal's English is its kept sentence, whose values fill every placeholder of the
    template, and its every message is translated."""
    said = error.said  # type: ignore[union-attr]
    assert str(error) == said.in_words()
    names = {name for _t, name, _s, _c in string.Formatter().parse(said.msg) if name}
    if said.plural is not None:
        names |= {name for _t, name, _s, _c in string.Formatter().parse(said.plural) if name}
    seats = {name for name in names if name[:1] == "p" and name[1:].isdigit()}
    assert names - seats <= set(said.args), (said.msg, said.args)
    assert untranslated(said) == [], said
    assert Said.from_dict(json.loads(json.dumps(said.to_dict()))) == said
