"""Every sentence with a number agrees with it, for 0, 1, many and negative numbers, in English and
in Spanish: counted messages are plural messages (rendered here at 0, 1, 2 and -1), and no Spanish
message puts a plural noun after a number that is not its count."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

import languages
from bot.i18n import catalogue
from tests.i18n.test_glossary import spanish_entries

# Numbers in plain (not plural) messages that are never 1, so a plural noun after them agrees.
NEVER_ONE = {
    "most": "the top of a range, 1 to {most}: at least 2",
    "top": "a final stage's size, at least 2",
    "byes": "the message for one bye is another one",
    "actions": "shown only when more than one action is left",
    "need": "an order part needs 2 items (engines.guanga.data.ORDER_PART_NEEDS)",
    "minutes": "the league's retry time, 10 minutes",
    "high": "the most characters of a text option",
    "value": "an option's value in its words: 0 and 1 have words of their own (option.<name>.0, .1)",
}
# Messages whose count is never 1, by the start of their English.
NEVER_ONE_MESSAGES = {
    "`{text}` is the start of {n} moves": "asked only when at least two moves start so (bot.surface.menus)",
    "Buttons for the first {n} tables": "n is cogs.league.noshows.OVERDUE_BUTTONS, a constant above 1",
}
# Words after a placeholder that end in "s" but are not plural nouns.
NOT_NOUNS = {"es", "más", "tras"}


@pytest.fixture(scope="module")
def plurals() -> list[tuple[str, str]]:
    return [m.id for m in catalogue.template() if isinstance(m.id, tuple)]


def form(t: languages.Language, singular: str, plural: str, n: int) -> str:
    """The form ``t`` picks for ``n``, its placeholders left as their names."""
    names = languages.placeholders(singular) | languages.placeholders(plural)
    values = {k: f"<{k}>" for k in names if not k.startswith(("/", "button "))}
    return t.ngettext(singular, plural, n, **values)


@pytest.mark.parametrize("code", languages.available())
def test_every_counted_message_agrees_at_0_1_2_and_minus_1(plurals, code):
    t = languages.language(code)
    assert len(plurals) > 150
    wrong = []
    for singular, plural in plurals:
        one, minus_one = form(t, singular, plural, 1), form(t, singular, plural, -1)
        zero, two = form(t, singular, plural, 0), form(t, singular, plural, 2)
        if minus_one != one:  # "-1 points": a negative count agrees as its size does
            wrong.append(f"-1: {minus_one!r}, 1: {one!r}")
        if zero != two:  # "0 point": none is many in English and Spanish
            wrong.append(f"0: {zero!r}, 2: {two!r}")
        if one == two and singular != plural and code == "en":
            wrong.append(f"1 and 2 read the same: {one!r}")
    assert wrong == []


def test_a_count_reads_with_its_sign():
    es = languages.language("es")
    assert es.ngettext("{n} point", "{n} points", -1) == "-1 punto"
    assert es.ngettext("{n} point", "{n} points", -3) == "-3 puntos"
    assert languages.ENGLISH.ngettext("{n} point", "{n} points", -1) == "-1 point"


def test_no_spanish_message_puts_a_plural_noun_after_a_number_it_does_not_count():
    """ "hay {seated} sentados" and "{loose} sueltos" said "hay 1 sentados" and "1 sueltos"."""
    with languages.catalogue_path("es").open("rb") as fh:
        plural_ids = {m.id[0] for m in read_po(fh, locale="es") if isinstance(m.id, tuple)}
    wrong = []
    for english, spanish in spanish_entries():
        for text in spanish:
            for name, word in re.findall(r"\{(\w+)\} (\w+s)\b", text):
                if name == "n" and english[0] in plural_ids or name in NEVER_ONE or word in NOT_NOUNS:
                    continue
                if english[0].startswith(tuple(NEVER_ONE_MESSAGES)):
                    continue
                if not re.search(r"\b(n|count|seated|loose|score|turns|value|water|left|days|\w+s)\b", name):
                    continue
                wrong.append(f"{{{name}}} {word}: {text!r}")
    assert wrong == []
