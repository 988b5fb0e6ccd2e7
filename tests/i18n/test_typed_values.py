"""What someone typed, repeated in a refusal, reads as they typed it: in double quotes, with
Discord's markdown and mentions escaped (``*x*`` is not made italic, ``||a||`` hides nothing,
``@everyone`` or ``<@1>`` pings nobody) and no Python quoting (``'it's'`` with its backslashes),
in English and in Spanish."""

from __future__ import annotations

import pytest

from bot.league import controls, texts
from bot.league.service import LeagueError
from bot.notices import SettingError, parse_quiet, zone
from bot.sessions import refusal
from bot.time import gameclock as gc
from engines.core import SetupError, config_from_options, echo, parse_option_text
from languages import ENGLISH, language

ES = language("es")


def test_echo_escapes_markdown_and_mentions_without_python_quoting():
    assert echo("*x*") == r'"\*x\*"'
    assert echo("||a||") == r'"\|\|a\|\|"'
    assert echo("@everyone") == r'"\@everyone"'
    assert echo("<@123>") == r'"\<\@123>"'
    assert echo("it's") == '"it\'s"'  # repr would say "it's" in double quotes, 'a' in single ones
    assert echo("a\u200bb") == r'"a\\u200bb"'  # an invisible character shows as its code
    assert echo("abcdef", 3) == '"abc…"'


def refused(call, *args) -> tuple[str, str]:
    """The refusal of ``call(*args)`` in English and in Spanish."""
    with pytest.raises((LeagueError, SetupError, gc.ClockError)) as caught:
        call(*args)
    exc = caught.value
    if isinstance(exc, LeagueError):
        return refusal(exc, ENGLISH), refusal(exc, ES)
    return exc.said.in_words(ENGLISH), exc.said.in_words(ES)


def test_league_points_and_tiebreaks_are_repeated_escaped():
    en, es = refused(texts.parse_points, "*3*,2")
    assert en.startswith(r'"\*3\*,2" is not a list of points') and "'" not in en
    assert es.startswith(r'"\*3\*,2" no es una lista de puntos')
    en, es = refused(controls.parse_order, "Buchholz, ||elo||")
    assert en.startswith(r'"\|\|elo\|\|" is not a tiebreak') and es.startswith(
        r'"\|\|elo\|\|" no es un desempate'
    )
    en, es = refused(texts.parse_start, "@everyone", 0)
    assert en.startswith(r'"\@everyone" is not a start date') and es.startswith(
        r'"\@everyone" no es una fecha'
    )


def test_typed_game_options_are_repeated_escaped():
    from engines.guanga import Config

    en, es = refused(config_from_options, Config, 2, parse_option_text("mode=_master_"))
    assert en.endswith(r'not "\_master\_"') and es.endswith(r'; no "\_master\_"')
    en, es = refused(config_from_options, Config, 2, parse_option_text("<@1>=2"))
    assert en.startswith(r'unknown option "\<\@1>"') and es.startswith(r'opción desconocida: "\<\@1>"')
    en, _ = refused(parse_option_text, "~~mode~~")
    assert en.startswith(r'"\~\~mode\~\~" is not an option')


def test_a_typed_clock_is_repeated_escaped():
    en, es = refused(gc.parse_clock, "**fast**")
    assert en.startswith(r'"\*\*fast\*\*" is not a clock') and es.startswith(r'"\*\*fast\*\*" no es un reloj')


def test_a_typed_time_zone_and_quiet_hours_are_repeated_escaped():
    with pytest.raises(SettingError) as caught:
        zone("`Mars`")
    exc = caught.value
    assert ES.gettext(exc.message, **exc.values).startswith(r'"\`Mars\`" no es una zona horaria')
    with pytest.raises(SettingError) as caught:
        parse_quiet("||22||")
    exc = caught.value
    assert ENGLISH.gettext(exc.message, **exc.values).startswith(r'"\|\|22\|\|" is not a span of hours')


def test_a_typed_move_is_repeated_escaped_and_notation_reads_as_typed():
    import engines.guanga as G
    import engines.tiwanaku as T
    from engines.core import MalformedMove

    with pytest.raises(MalformedMove) as caught:
        T.parse_move("**hello**")
    assert caught.value.said.in_words(ES).startswith(r'"\*\*hello\*\*" no es una jugada de Tiwanaku')
    with pytest.raises(MalformedMove) as caught:
        G.parse_move("||P9A1||")
    assert str(caught.value).startswith(r'"\|\|P9A1\|\|" is not a Guanga move')
    with pytest.raises(MalformedMove) as caught:
        T.parse_move("F1-A1")  # a dash inside a quoted value marks no list: left as typed
    assert str(caught.value).startswith('"F1-A1": cells are rows A-E')
