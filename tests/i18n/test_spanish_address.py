"""The Spanish catalogue speaks to its reader with tú, in words that read the same in Spain and in
Latin America (docs/glossary.md): never vosotros (os, vuestro, compartís), usted or vos (tenés).
A message to several people at once says it without a second-person plural ("{players}: ¿de
acuerdo?", "esta partida sigue esperando")."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

import languages

# Words of another form of address: vosotros (pronouns and the -áis, -éis, -ís verb forms), usted,
# and the voseo's commonest verbs (país is a noun).  Placeholders and `code` are left out before looking.
OTHER_ADDRESS = re.compile(
    r"\b(os|vuestr[oa]s?|vosotr[oa]s|usted(?:es)?|vos|sois|\w+[áé]is|(?!país\b)\w+ís|tenés|podés|querés|sabés|sos)\b",
    re.IGNORECASE,
)
NOT_ADDRESS = re.compile(r"\{[^{}]*\}|`[^`]*`")


def strays(entries: list[tuple[str, str]]) -> list[str]:
    """``english: spanish`` for each Spanish text that addresses its reader otherwise than with tú."""
    return [
        f"{english!r}: {found!r} in {text!r}"
        for english, text in entries
        for found in OTHER_ADDRESS.findall(NOT_ADDRESS.sub(" ", text))
    ]


def spanish_texts(where: re.Pattern[str] | None = None) -> list[tuple[str, str]]:
    """Every entry's English and Spanish forms (``where``: only the entries used in a file it
    matches the path of)."""
    with languages.catalogue_path("es").open("rb") as fh:
        catalog = read_po(fh, locale="es")
    out = []
    for m in catalog:
        if not m.id or (where is not None and not any(where.match(path) for path, _ in m.locations)):
            continue
        english = m.id if isinstance(m.id, str) else m.id[0]
        for text in m.string if isinstance(m.string, tuple) else (m.string,):
            out.append((english, text or ""))
    return out


def test_the_spanish_catalogue_says_tu_to_its_reader():
    texts = spanish_texts()
    assert len(texts) > 2000
    assert strays(texts) == []


@pytest.mark.parametrize(
    "spanish",
    [
        # What the catalogue said before: vosotros to a table, or to a player and a friend.
        "⏳ {players}: vuestro turno espera; esta ronda de **{league}** termina {when}.",
        "⚠️ {players}: esta partida os espera y la ronda termina {when}.",
        "Recibe un mensaje directo cuando alguien empiece una partida en un servidor que compartís",
        "¿Estáis de acuerdo?",
        "Pulse Empezar cuando usted quiera",
        "si tenés tiempo",
    ],
)
def test_the_check_finds_another_form_of_address(spanish):
    assert strays([("x", spanish)])


def test_the_check_passes_tu_and_words_that_only_look_alike():
    good = [
        "¿Estás de acuerdo? Únete con {/game join}: el anfitrión la empieza después.",
        "Tu país, el maíz y los dos jugadores (`/vos` es notación).",
        "{players}: ¿de acuerdo? Hace falta el acuerdo de cada persona consultada.",
    ]
    assert strays([("x", text) for text in good]) == []
