"""One term per concept in Spanish: every catalogue entry about a concept of
languages/es/glossary.toml says it with the glossary's term, never with one of its alternatives."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from typing import Any

import pytest
from babel.messages.pofile import read_po

import languages
from languages import COMMAND_CONTEXT, OPTION_CONTEXT

GLOSSARY = languages.HERE / "es" / "glossary.toml"
Entry = tuple[tuple[str, ...], tuple[str, ...]]  # the English forms, the Spanish forms


def glossary() -> dict[str, Any]:
    with GLOSSARY.open("rb") as fh:
        return tomllib.load(fh)


def spanish_entries() -> list[Entry]:
    """Every message with its translations (command and option names aside: Discord's own)."""
    with languages.catalogue_path("es").open("rb") as fh:
        catalog = read_po(fh, locale="es")
    out = []
    for m in catalog:
        if not m.id or m.context in (COMMAND_CONTEXT, OPTION_CONTEXT):
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        out.append((tuple(ids), tuple(s or "" for s in strings)))
    return out


def about(concept: dict[str, Any], english: tuple[str, ...]) -> bool:
    """Whether an English message is about ``concept`` (its placeholders, such as a command's
    ``{/game ratings}``, left out)."""
    if english[0] in concept.get("not", []):
        return False
    words = [re.sub(r"\{[^{}]*\}", "", e) for e in english]
    if any(re.search(p, w, re.I) for p in concept.get("unless", []) for w in words):
        return False
    return any(re.search(p, w, re.I) for p in concept["english"] for w in words)


def problems(entries: Iterable[Entry], terms: dict[str, Any]) -> list[str]:
    out = []
    for english, spanish in entries:
        for word in terms.get("anywhere", []):
            if any(word in s for s in spanish):
                out.append(f"{english[0]!r}: {word!r} is never the word")
        for name, concept in terms.items():
            if not isinstance(concept, dict) or not about(concept, english):
                continue
            for text in spanish:
                low = text.lower()
                if concept["terms"] and not any(t.lower() in low for t in concept["terms"]):
                    out.append(f"{name}: {english[0]!r} is said without {concept['terms'][0]!r}: {text!r}")
                out += [
                    f"{name}: {english[0]!r} is said with {f!r}, not {concept['terms'] or 'the term'}: {text!r}"
                    for f in concept["forbidden"]
                    if f.lower() in low
                ]
    return out


def test_every_concept_has_one_term_in_the_spanish_catalogue():
    assert problems(spanish_entries(), glossary()) == []


def test_every_concept_of_the_glossary_is_found_in_the_catalogue():
    """A concept whose English no entry matches any more would check nothing."""
    entries = spanish_entries()
    terms = glossary()
    unused = [
        name
        for name, concept in terms.items()
        if isinstance(concept, dict) and not any(about(concept, english) for english, _ in entries)
    ]
    assert unused == []
    for name, concept in terms.items():
        if isinstance(concept, dict):
            assert concept["about"] and concept["forbidden"], name


@pytest.mark.parametrize(
    ("english", "spanish", "found"),
    [
        # What the catalogue said before the glossary: two terms for one concept.
        ("**Ratings**: {changes}. (The rating is {meaning}.)", "**Puntuaciones**: {changes}.", "rating"),
        ("{player}: score {score}", "{player}: puntuación {score}", "score"),
        ("Bye: {players}", "Descansan: {players}", "swiss_bye"),
        ("Bye into the next round: {players}", "Descansan: {players}", "knockout_bye"),
        ("Standings", "Clasificación", "standings"),
        ("Whose record to show (default: yours)", "De quién mostrar el historial", "record"),
        ("master mode", "modo maestro", "guanga_master"),
        ("Blanket", "Manta", "guanga_blanket"),
        ("Take a visible card (Aji Styles)", "Tomar una carta visible (Aji Styles)", "aji_styles"),
    ],
)
def test_the_check_fails_when_a_concept_gets_a_second_term(english, spanish, found):
    found_problems = problems([((english,), (spanish,))], glossary())
    assert found_problems and any(p.startswith(found) or "is never the word" in p for p in found_problems)


def test_the_check_passes_the_glossarys_own_terms():
    good = [
        (("**Ratings**: {changes}. (The rating is {meaning}.)",), ("**Valoraciones**: {changes}.",)),
        (("Bye: {players}",), ("Ronda libre: {players}",)),
        (("Bye into the next round: {players}",), ("Pase directo a la siguiente ronda: {players}",)),
        (("you are not away",), ("no estás de descanso",)),
        (("Read Message History",), ("Leer el historial de mensajes",)),
    ]
    assert problems(good, glossary()) == []
