"""The checks every game's tests make on the sentences its engine keeps for translation
(:class:`engines.core.Said`): a sentence reads as the English text shown, each of its values is
a number, plain text or a kept sentence and fills a placeholder of its template, every message in
it (terms, counted forms and contexts included) has a finished Spanish translation, the Spanish
leaves no placeholder but the seats, and it survives JSON storage.  Events, refusals and outcomes
are checked through their sentences.

The checks are as strict as the strictest game needs; a few are options a game turns on
(``differs``: the Spanish is not the English; ``seats_in_values``: the seats a template names
are values too, or with False never are) or, where its sentences are built so, off (``wordless_ok``: a template with no
words, a list's joiner such as ``{part0}; {part1}``, needs no translation)."""

from __future__ import annotations

import json
import re
import string
from collections.abc import Iterator
from typing import Any

from babel.messages.pofile import read_po

import languages
from engines.core import Event, Outcome, Said

ES = languages.language("es")
"""The Spanish catalogue as the table uses it (compiled)."""

with languages.catalogue_path("es").open("rb") as _fh:
    PO = read_po(_fh, locale="es", domain=languages.DOMAIN)
"""The Spanish catalogue as translators keep it (the .po), to see fuzzy or empty entries."""

_SEAT = re.compile(r"\{p\d+\}")


def placeholders(template: str | None) -> set[str]:
    """The named placeholders of ``template`` (a mention, ``{option side}``, takes no value)."""
    text = languages.MENTION.sub("", template or "")
    return {name for _t, name, _s, _c in string.Formatter().parse(text) if name is not None}


def is_seat(name: str) -> bool:
    """Whether a placeholder is a seat (``p0``), which the table names."""
    return name[:1] == "p" and name[1:].isdigit()


def parts(said: Said) -> Iterator[Said]:
    """``said`` and every sentence or term put into it, depth first."""
    yield said
    for value in said.args.values():
        if isinstance(value, Said):
            yield from parts(value)


def has_words(template: str) -> bool:
    """Whether a template holds words (a list's joiner, ``{part0}; {part1}``, holds none)."""
    literal = "".join(text for text, _name, _spec, _conv in string.Formatter().parse(template))
    return any(ch.isalpha() for ch in literal)


def translated(said: Said) -> bool:
    """Whether Spanish translates ``said``'s own message (not the values put in): the compiled
    catalogue has it (every plural form, for a counted one), and the .po entry is finished
    (not fuzzy, no form left empty)."""
    key = said.msg if said.context is None else f"{said.context}\x04{said.msg}"
    compiled = getattr(ES.catalogue, "_catalog", {})
    if said.plural is None:
        if key not in compiled:
            return False
    elif (key, 0) not in compiled:
        return False
    entry = PO.get(said.msg, said.context)
    if entry is None or entry.fuzzy:
        return False
    forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
    if said.plural is not None and (not isinstance(entry.id, tuple) or entry.id[1] != said.plural):
        return False
    return bool(forms) and all(forms)


def untranslated(said: Said, *, wordless_ok: bool = False) -> list[str]:
    """The messages of ``said`` (and of what is put into it) that Spanish does not translate."""
    return [p.msg for p in parts(said) if not translated(p) and not (wordless_ok and not has_words(p.msg))]


def values_problems(said: Said, *, seats_in_values: bool | None = None) -> list[str]:
    """What is wrong with the values of ``said`` and of every sentence inside it: a placeholder
    (other than a seat) without a value, a seat given as a value where ``seats_in_values`` is
    False or not given where it is True (None: either way), a value no placeholder uses, a value that is neither a
    number, plain text nor a kept sentence, a counted sentence whose count is not a whole number."""
    out = []
    for part in parts(said):
        names = placeholders(part.msg) | placeholders(part.plural)
        if part.plural is not None:
            names.add("n")  # a counted sentence's count, whether or not its words show it
        needed = names if seats_in_values else {n for n in names if not is_seat(n)}
        given = set(part.args)
        if seats_in_values is False and any(is_seat(n) for n in given):
            out.append(f"{part.msg!r} gives its seats as values")
        if not needed <= given:
            out.append(f"{part.msg!r} lacks {sorted(needed - given)}")
        if not given <= names:
            out.append(f"{part.msg!r} does not use {sorted(given - names)}")
        for name, value in part.args.items():
            if isinstance(value, bool) or not isinstance(value, (int, str, Said)):
                out.append(f"{part.msg!r}: {name}={value!r} is not a number, text or sentence")
        if part.plural is not None and (
            isinstance(part.args.get("n"), bool) or not isinstance(part.args.get("n"), int)
        ):
            out.append(f"{part.msg!r}: counted by {part.args.get('n')!r}")
    return out


def check_said(
    said: Any,
    english: str | None = None,
    *,
    differs: bool = False,
    seats_in_values: bool | None = None,
    wordless_ok: bool = False,
) -> str:
    """``said`` is a kept sentence that reads as ``english`` (when given), with sound values, every
    message translated, its Spanish whole (no placeholder left but the seats; with ``differs``,
    not the English), and the same after a JSON round trip.  Returns the Spanish."""
    assert isinstance(said, Said), (english, said)
    if english is not None:
        assert said.in_words() == english, (said.in_words(), english)
    problems = values_problems(said, seats_in_values=seats_in_values)
    assert not problems, problems
    missing = untranslated(said, wordless_ok=wordless_ok)
    assert not missing, f"no Spanish for {missing}"
    spanish = said.in_words(ES)
    assert spanish, said
    assert "{" not in _SEAT.sub("", spanish), spanish
    if differs:
        assert spanish != said.in_words(), spanish
    assert Said.from_dict(json.loads(json.dumps(said.to_dict()))) == said
    return spanish


def check_event(event: Event, **options: Any) -> None:
    """The event keeps its sentence, read as its text, and its public sentence exactly where it
    has a public text, read as that; both pass :func:`check_said`; JSON storage keeps the event,
    and every reader's Spanish is the same after it."""
    assert event.said is not None, event
    check_said(event.said, event.text, **options)
    assert (event.public_said is None) == (event.public_text is None), event
    if event.public_said is not None:
        check_said(event.public_said, event.public_text, **options)
    back = Event.from_dict(json.loads(json.dumps(event.to_dict())))
    assert back == event and (back.said, back.public_said) == (event.said, event.public_said)
    for reader in sorted(event.visible_to or ()) + [None]:
        assert back.words_for(reader, ES) == event.words_for(reader, ES)


def check_refusal(error: Exception, **options: Any) -> str:
    """A refusal keeps its sentence, read as ``str(error)``, which passes :func:`check_said`; a
    template with placeholders comes with its values.  Returns the Spanish."""
    said = getattr(error, "said", None)
    assert isinstance(said, Said), error
    if placeholders(said.msg) - {n for n in placeholders(said.msg) if is_seat(n)}:
        assert said.args, said.msg
    return check_said(said, str(error), **options)


def check_outcome(outcome: Outcome, *, whole: bool = True, **options: Any) -> None:
    """The outcome keeps its reason (and its tiebreak exactly where it has one), read as their
    texts, which pass :func:`check_said`; JSON storage keeps its sentences and their Spanish, and
    (``whole``) the whole outcome: turn it off for a game whose ``details`` do not come back from
    JSON as they were (keys that are numbers come back as strings, sentences as their JSON)."""
    assert outcome.reason_said is not None, outcome
    check_said(outcome.reason_said, outcome.reason, **options)
    assert (outcome.tiebreak is None) == (outcome.tiebreak_said is None), outcome
    if outcome.tiebreak_said is not None:
        check_said(outcome.tiebreak_said, outcome.tiebreak, **options)
    back = Outcome.from_dict(json.loads(json.dumps(outcome.to_dict())))
    assert not whole or back == outcome
    assert (back.reason, back.tiebreak) == (outcome.reason, outcome.tiebreak)
    assert (back.reason_said, back.tiebreak_said) == (outcome.reason_said, outcome.tiebreak_said)
    assert back.reason_in(ES) == outcome.reason_in(ES) and back.tiebreak_in(ES) == outcome.tiebreak_in(ES)
