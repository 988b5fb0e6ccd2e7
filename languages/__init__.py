"""Pukllay's languages: gettext catalogues, one per language, and the functions that read them.

English is the source language: every message id (``msgid``) is the English text itself, with
named placeholders in braces (``"{name} wins"``), so a translation may put them in any order.
Each other language is one catalogue, ``languages/<code>/LC_MESSAGES/pukllay.po``; adding a file
there adds the language (its name comes from Babel's locale data, the Discord locales it serves
from its code: ``es`` serves ``es-ES`` and ``es-419``).  The ``.po`` files are the source of
truth and are compiled in memory when first used (Babel's ``write_mo``), so no compiled ``.mo``
file is kept in the repository and none can go stale.

This package needs only the standard library and Babel, so renderers, the table and the terminal
can all use it.  Words are never glued from translated fragments: a whole sentence is one
message, with placeholders for what changes, and plurals go through :func:`Language.ngettext`.
"""

from __future__ import annotations

import gettext as _gettext
import io
import re
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from .choices import choice_name

DOMAIN = "pukllay"
HERE = Path(__file__).resolve().parent
SOURCE = "en"  # the language the message ids are written in
COMMAND_CONTEXT = "slash command name"  # the context of a slash command's or group's name
OPTION_CONTEXT = "slash option name"  # the context of a slash command option's name


def N_(message: str) -> str:
    """Mark a text for extraction without translating it (translated where it is shown)."""
    return message


def catalogue_path(code: str) -> Path:
    return HERE / code / "LC_MESSAGES" / f"{DOMAIN}.po"


@lru_cache(maxsize=1)
def available() -> tuple[str, ...]:
    """The languages the bot speaks: English, then every catalogue in this folder, by code."""
    found = sorted(p.parent.parent.name for p in HERE.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return (SOURCE, *found)


def normalise(code: str | None) -> str:
    """The language of a locale code (Discord's ``es-ES``, ``es-419``, ``pt-BR``, or ``es_ES``):
    the catalogue for the exact locale if there is one, else for its language, else English."""
    if not code:
        return SOURCE
    code = str(code).replace("-", "_")
    langs = available()
    if code in langs:
        return code
    base = code.split("_", 1)[0].lower()
    return base if base in langs else SOURCE


def placeholders(text: str) -> set[str]:
    """The named placeholders of a message: ``{name}`` and ``{count}`` in ``"{name} has {count}"``."""
    out = set()
    for _, field, _, _ in string.Formatter().parse(text):
        if field is not None:
            out.add(field)
    return out


MENTION = re.compile(r"\{(/[^{}]+|button [^{}]+|option [^{}]+|choice [^{}]+)\}")
"""A mention placeholder: a slash command (``{/game join}``, ``{/tiwanaku move move:}`` with an
option, ``{/<game> new}`` for any game's), a button (``{button Rematch}``), a slash command
option alone (``{option max_turns}``) or one of an option's choices (``{choice tiwanaku new board
long}``: the command, the option, the value; see :mod:`languages.choices`), filled in the
reader's language by :meth:`Language.mention` wherever a message is put in words."""


def _format(language: Language, text: str, values: Mapping[str, Any]) -> str:
    if "{/" in text or "{button " in text or "{option " in text or "{choice " in text:
        text = MENTION.sub(lambda m: language.mention(m[1]), text)
    if language.code == "es" and " y {" in text:
        text = _SPANISH_AND.sub(
            lambda m: (" e {" if _sounds_i(values.get(m[1])) else " y {") + m[1] + "}", text
        )
    return text.format(**values) if values else text


_SPANISH_AND = re.compile(r" y \{(\w+)\}")


def _sounds_i(value: Any) -> bool:
    """Whether a Spanish word starts with the sound /i/ (``inti``, ``hilo``; not ``hielo``), before
    which "y" is written "e" ("chakana roja e inti azul")."""
    word = str(value or "").lower()
    return word[:1] in ("i", "í") or (word[:2] in ("hi", "hí") and word[2:3] not in ("a", "e", "o", "u"))


def _compiled(code: str) -> _gettext.NullTranslations:
    """The catalogue of ``code`` compiled in memory (Babel reads the ``.po``; gettext serves it)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with catalogue_path(code).open("rb") as fh:
        catalog = read_po(fh, locale=code, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return _gettext.GNUTranslations(buf)


@dataclass(frozen=True)
class Language:
    """One language's catalogue: ``gettext``, ``ngettext`` and ``pgettext`` with named placeholders."""

    code: str
    catalogue: _gettext.NullTranslations

    def gettext(self, message: str, /, **values: Any) -> str:
        """``message`` in this language, its ``{placeholders}`` filled from ``values``."""
        return _format(self, self.catalogue.gettext(message), values)

    def ngettext(self, singular: str, plural: str, n: int, /, **values: Any) -> str:
        """The form for ``n`` (``n`` is also the placeholder ``{n}``), in this language's plural rule;
        a negative count agrees as its size does (``-1 point``, ``-2 points``)."""
        return _format(self, self.catalogue.ngettext(singular, plural, abs(n)), {"n": n, **values})

    def pgettext(self, context: str, message: str, /, **values: Any) -> str:
        """``message`` in ``context`` (the same English word may need two translations)."""
        return _format(self, self.catalogue.pgettext(context, message), values)

    def number(self, value: float, places: int | None = None) -> str:
        """A number as this language writes it: ``12`` (not ``12.0``), ``2.5`` in English and
        ``2,5`` in Spanish; with ``places``, that many decimals (``3.0``, ``3,0``).  Thousands are
        not grouped (scores, points and ratings stay small).  Only for showing: what people type
        is read as before.  Without ``places``, a number with a fraction that does not end within
        three decimals shows two: a third of a point (a bye worth the average of 3, 1 and 0) reads
        ``1.33``, not ``1.33333``; ``0.025`` hours and ``12.25`` points are exact and read so."""
        if places is not None:
            text = f"{value:.{places}f}"
        else:
            value = float(value)
            if abs(value - round(value, 3)) > 1e-9:
                value = round(value, 2)
            text = str(int(value)) if value.is_integer() else f"{value:g}"
        return text.replace(".", self.decimal_sign) if "." in text else text

    def numbers(self, values: Iterable[float]) -> str:
        """Numbers in a list: ``3, 2, 1, 0.5``; where the decimal sign is a comma, a semicolon
        between them so a decimal is not read as two numbers (``3; 2; 1; 0,5``)."""
        shown = [self.number(v) for v in values]
        comma = self.decimal_sign == "," and any("," in v for v in shown)
        return ("; " if comma else ", ").join(shown)

    @property
    def decimal_sign(self) -> str:
        """The sign between whole and decimal parts in this language (``.`` or ``,``)."""
        return _decimal_sign(self.code)

    def has(self, message: str, context: str | None = None) -> bool:
        """Whether the catalogue translates ``message`` (English translates everything as itself)."""
        if self.code == SOURCE:
            return True
        key = message if context is None else f"{context}\x04{message}"
        return key in getattr(self.catalogue, "_catalog", {})

    def command(self, path: str) -> str:
        """Slash command ``path`` (``"game join"``, or ``"tiwanaku move move:"`` with an option) as
        this language's Discord client shows it: ``/juego unirse``, ``/tiwanaku jugar jugada:``.
        A word in angle brackets stands for any game's command (``"<game> new"``: ``/<juego> nueva``)."""
        words = []
        for word in path.split():
            if word.endswith(":"):
                words.append(self.option(word[:-1]) + ":")
            elif word.startswith("<") and word.endswith(">"):
                words.append("<" + self.catalogue.pgettext(COMMAND_CONTEXT, word[1:-1]) + ">")
            else:
                words.append(self.catalogue.pgettext(COMMAND_CONTEXT, word))
        return "/" + " ".join(words)

    def button(self, label: str) -> str:
        """A button's label as this language shows it on the button (``Rematch``: ``Revancha``)."""
        return self.catalogue.gettext(label)

    def option(self, name: str) -> str:
        """A slash command option's name as this language's client shows it, from the same
        catalogue entry the command tree is registered with (``max_turns``: ``máx_turnos``)."""
        return self.catalogue.pgettext(OPTION_CONTEXT, name)

    def choice(self, path: str) -> str:
        """The name of a slash command option's choice (``"tiwanaku new board long"``: the
        command, the option, the value) as this language's client shows it in the option's menu,
        from the same catalogue entry the command tree is registered with (``Largo 5x9``)."""
        return self.catalogue.gettext(choice_name(path))

    def mention(self, field: str) -> str:
        """What a mention placeholder (see :data:`MENTION`) reads as in this language: the one
        way a text names a command, an option, a choice or a button, so it names what the
        reader's client shows."""
        if field.startswith("button "):
            return self.button(field.removeprefix("button "))
        if field.startswith("option "):
            return self.option(field.removeprefix("option "))
        if field.startswith("choice "):
            return self.choice(field.removeprefix("choice "))
        return self.command(field.removeprefix("/"))

    @property
    def name(self) -> str:
        """The language's own name, as its speakers write it, capitalised (``Español``)."""
        return self.name_of(self.code).capitalize()

    def name_of(self, code: str) -> str:
        """The name of language ``code`` as written in this language (``inglés``, in Spanish)."""
        from babel import Locale

        return str(Locale.parse(code).get_display_name(self.code))


def option_key(name: str) -> str:
    """The English name of a slash command option written as ``name`` in any language the bot
    speaks (``máx_turnos``: ``max_turns``; an English or unknown name as it is), so options typed
    as text (a league's ``name=value`` options, the terminal's ``--option``) take the names the
    refusals and guides give in the reader's language.  Case does not count (``Mode``: ``mode``):
    every option's name is in small letters, as Discord has them."""
    name = name.lower()
    prefix = f"{OPTION_CONTEXT}\x04"
    for code in available()[1:]:
        entries = getattr(language(code).catalogue, "_catalog", {})
        for key, value in entries.items():
            if (
                isinstance(value, str)
                and value.lower() == name
                and isinstance(key, str)
                and key.startswith(prefix)
            ):
                return key.removeprefix(prefix)
    return name


@cache
def _decimal_sign(code: str) -> str:
    """The decimal sign of language ``code``, from Babel's locale data (``es``: ``,``)."""
    if code == SOURCE:
        return "."
    from babel.numbers import get_decimal_symbol

    return str(get_decimal_symbol(code))


@cache
def language(code: str | None = None) -> Language:
    """The language for a locale or language code (English when there is no catalogue for it)."""
    code = normalise(code)
    if code == SOURCE:
        return Language(SOURCE, _gettext.NullTranslations())
    return Language(code, _compiled(code))


ENGLISH = language(SOURCE)
