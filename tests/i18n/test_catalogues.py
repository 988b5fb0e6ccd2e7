"""The catalogues: every message translated into every language, with the English placeholders,
the template up to date with the code, and the languages chosen as Discord's locales ask."""

from __future__ import annotations

import asyncio

import pytest
from babel.messages.pofile import read_po

import languages
from bot import i18n
from bot.i18n import catalogue
from tests.support import catalogue as shared


@pytest.fixture(scope="module")
def template():
    return shared.template()


def messages(catalog) -> list[tuple[str | None, object]]:
    return [(m.context, m.id) for m in catalog if m.id]


def test_spanish_is_a_language():
    assert "es" in languages.available()


@pytest.mark.parametrize("code", languages.available()[1:])
def test_every_message_is_translated_with_the_english_placeholders(template, code):
    """Every message of the code and of the slash commands has a translation (not fuzzy) whose
    placeholders are exactly the English ones."""
    assert len(template) > 200  # the slash commands alone are more than 200 texts
    assert i18n.problems(code, messages(template)) == []


def test_the_template_holds_what_the_code_and_the_commands_say(template):
    """``python -m bot.i18n extract`` was run after the last change of a message."""
    with i18n.TEMPLATE.open("rb") as fh:
        committed = read_po(fh)
    assert set(messages(committed)) == set(messages(template))


def test_the_check_fails_for_a_missing_translation_and_for_different_placeholders(tmp_path):
    po = tmp_path / "xx.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
        'msgid "{name} wins"\nmsgstr "gana {nombre}"\n\n'
        'msgid "Both"\nmsgstr ""\n\n'
        '#, fuzzy\nmsgid "None"\nmsgstr "Ninguno"\n\n'
        'msgid "{a} and {b}"\nmsgstr "{b} y {a}"\n',
        encoding="utf-8",
    )
    found = i18n.problems(
        "xx",
        [(None, "{name} wins"), (None, "Both"), (None, "None"), (None, "{a} and {b}"), (None, "Gone")],
        po,
    )
    assert found == [
        "xx: '{name} wins' has placeholders ['nombre'], the English ['name']",
        "xx: no translation for 'Both'",
        "xx: no translation for 'None'",
        "xx: no translation for 'Gone'",
    ]


@pytest.mark.parametrize(
    ("locale", "code"),
    [("es-ES", "es"), ("es-419", "es"), ("es_ES", "es"), ("es", "es"), ("en-US", "en"), ("en-GB", "en")]
    + [("fr", "en"), ("pt-BR", "en"), ("", "en"), (None, "en")],
)
def test_discord_locales_choose_the_language(locale, code):
    assert languages.language(locale).code == code


def test_a_server_choice_wins_over_its_discord_locale():
    assert i18n.public("es", "en-US").code == "es"
    assert i18n.public("en", "es-ES").code == "en"
    assert i18n.public(None, "es-419").code == "es"
    assert i18n.public(None, None).code == "en"


def test_named_placeholders_and_plurals():
    es = languages.language("es-ES")
    assert es.gettext(
        "This server's boards and public messages are in {language}, as chosen with {/game language}.",
        language="español",
    ).startswith("Los tableros")
    en = languages.ENGLISH
    assert en.ngettext("{n} game", "{n} games", 1) == "1 game"
    assert en.ngettext("{n} game", "{n} games", 3) == "3 games"
    assert es.name == "Español" and es.name_of("en") == "inglés" and en.name_of("es") == "Spanish"


def test_the_slash_command_texts_come_from_the_tree():
    """A name is looked up in its own context, a description by its text."""
    found = asyncio.run(catalogue.bot_messages())
    assert (i18n.NAME_CONTEXT, "game") in found and (i18n.NAME_CONTEXT, "language") in found
    assert (None, "Join, watch and manage the game in this channel") in found


def message_index(spec: object) -> int:
    """Which argument of a translating call holds its message, from Babel's keyword spec."""
    if spec is None:
        return 0
    assert isinstance(spec, tuple)
    first = next(a for a in spec if not isinstance(a, tuple))  # (1, "c") is the context
    return int(first) - 1


def marked_literals() -> list[tuple[str, int, str]]:
    """Every message written as a literal in a translating call of the code (read with ast)."""
    import ast

    out = []
    for folder in i18n.SOURCES:
        keywords = i18n.keywords_for(folder)
        for path in sorted((i18n.ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call) or not node.args:
                    continue
                f = node.func
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
                if name not in keywords:
                    continue  # e.g. the drawing functions are the renderers' own (bot/__main__.py has a say)
                index = message_index(keywords[name])
                first = node.args[index] if index < len(node.args) else None
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    out.append((str(path.relative_to(i18n.ROOT)), node.lineno, first.value))
    return out


def test_every_translating_call_in_the_renderers_names_its_message():
    """``N_(word)`` with a variable marks nothing: the extractor sees only literals (the
    renderers translate variables with tr, whose messages are marked where they are written)."""
    import ast

    bad = []
    for path in sorted((i18n.ROOT / "renderers").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "N_":
                if not (node.args and isinstance(node.args[0], ast.Constant)):
                    bad.append(f"{path.name}:{node.lineno}")
    assert bad == []


def test_every_marked_literal_is_in_the_template(template):
    """Babel's extractor reads one call at a time; a message it missed (a call nested in another's
    arguments) would be drawn in English. Every literal in a translating call is in the template."""
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}
    found = marked_literals()
    assert len(found) > 200
    assert [f for f in found if f[2] not in ids] == []


def test_a_third_language_is_one_more_catalogue(tmp_path, monkeypatch):
    """A catalogue file added under languages/ is a language: chosen for its Discord locales,
    offered by /game language, and used by the slash command translator."""
    import shutil

    for code in ("es", "fr"):
        folder = tmp_path / code / "LC_MESSAGES"
        folder.mkdir(parents=True)
        shutil.copy(languages.catalogue_path("es"), folder / "pukllay.po")
    monkeypatch.setattr(languages, "HERE", tmp_path)
    languages.available.cache_clear()
    languages.language.cache_clear()
    try:
        assert languages.available() == ("en", "es", "fr")
        assert languages.language("fr").code == "fr"
        assert [c.value for c in i18n.language_choices()] == ["en", "es", "fr"]
        assert i18n.language_choices()[2].name == "Français"
    finally:
        monkeypatch.undo()
        languages.available.cache_clear()
        languages.language.cache_clear()
    assert languages.available() == ("en", "es")


def test_the_languages_package_needs_only_the_standard_library_and_babel():
    """Renderers, the table and the terminal all read it: it may not import discord, bot or PIL."""
    from tests.test_layers import STDLIB, imports

    for path in sorted((i18n.ROOT / "languages").rglob("*.py")):
        assert imports(path) - STDLIB <= {"babel"}, path
