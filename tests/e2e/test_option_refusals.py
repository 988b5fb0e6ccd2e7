"""A refusal of /<game> new that names one of its options names it as the asker's client shows it:
``no_puede_colocar`` and ``asientos_difíciles`` to a Spanish client, ``cannot_place`` and
``hard_seats`` to an English one; options typed as text (a league's ``name=value``) take either."""

from __future__ import annotations

import pytest

from bot.app import EXTENSIONS
from bot.league.texts import parse_options


async def answer(result):
    """The final text of an interaction's answer (after a deferral, the filled-in message)."""
    return (await result.original()).content if result.deferred else result.content


async def test_a_refused_option_is_named_as_the_askers_client_shows_it(standin, bot_factory):
    ana, bob = standin.add_user("ana"), standin.add_user("bob")
    ana.locale = "es-ES"
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        r = await standin.slash(ana, chan, "guanga new", thread=False, players=1, cannot_place="end_now")
        text = await answer(r)
        assert r.ephemeral and " no_puede_colocar es una opción para 2 a 4 jugadores" in text, text
        assert "cannot_place" not in text

        r = await standin.slash(ana, chan, "nowa_gwinea new", thread=False, players=2, hard_seats="1,9")
        text = await answer(r)
        assert r.ephemeral and "asientos_difíciles lleva números de asiento del 1 al 2" in text, text
        r = await standin.slash(ana, chan, "nowa_gwinea new", thread=False, players=1, hard_seats="2")
        text = await answer(r)
        assert "así que asientos_difíciles solo puede ser '1' (o elige la cara difícil en cara)" in text, text

        r = await standin.slash(bob, chan, "nowa_gwinea new", thread=False, players=2, hard_seats="2,2")
        text = await answer(r)
        assert "hard_seats names seat 2 twice" in text, text
        assert await bot.sessions.core.in_channel(chan.id) is None  # nothing was opened


def test_options_typed_as_text_take_the_name_either_client_shows():
    assert parse_options("máx_turnos=30 tablero=B") == {"max_turns": "30", "board": "B"}
    assert parse_options("max_turns=30, board=B") == {"max_turns": "30", "board": "B"}
    assert parse_options("asientos_difíciles=1 cara=hard") == {"hard_seats": "1", "side": "hard"}
    assert parse_options("nonsense=1") == {"nonsense": "1"}  # left for the game to refuse by name


def test_the_terminal_takes_an_option_by_the_name_its_refusal_gives():
    from tests.table.test_local_terminal import run

    code, out, err = run(
        ["nowa_gwinea", "--players", "2", "--option", "hard_seats=1,9", "--language", "es", "--no-images"]
    )
    assert "asientos_difíciles lleva números de asiento del 1 al 2" in out + err, out + err
    code, out, err = run(
        ["nowa_gwinea", "--players", "2", "--option", "asientos_difíciles=2", "--no-images", "--no-export"],
        "quit\n",
    )
    assert code == 0 and not err, err


def test_a_game_refusing_an_option_value_names_the_option_in_the_readers_language():
    """The games' own refusals (a league's options, the terminal's) name the option as the client
    shows it, and the name given is one the options typed as text take."""
    import engines.guacamole as guacamole
    import engines.nowa_gwinea as ng
    import engines.pachakuna as pachakuna
    import languages
    from engines.core import SetupError, config_from_options
    from engines.sentences import OPTION_CONTEXT

    assert OPTION_CONTEXT == languages.OPTION_CONTEXT
    es = languages.language("es")
    cases = [
        (
            pachakuna,
            2,
            "máx_turnos=-1",
            "máx_turnos debe ser uno de estos valores: 0, 40",
            "max_turns must be one of 0, 40",
        ),
        (
            guacamole,
            2,
            "platos_por_turno=7",
            "platos_por_turno debe ser uno de estos valores: 1, 2, 3, 0",
            "dishes_per_turn must be one of 1, 2, 3, 0",
        ),
        (
            ng,
            2,
            "repetición_difícil=quizá",
            "repetición_difícil debe ser yes o no",
            "hard_reroll must be yes or no",
        ),
        (
            ng,
            2,
            "meta_de_agua=9",
            "meta_de_agua debe ser uno de estos valores: 1, 2",
            "water_target must be one of 1, 2",
        ),
        (
            ng,
            2,
            "cara=blanda",
            "cara debe ser uno de estos valores: standard, hard",
            "side must be one of standard, hard",
        ),
    ]
    for module, players, typed, spanish, english in cases:
        with pytest.raises(SetupError) as refused:
            config_from_options(module.Config, players, parse_options(typed))
        assert refused.value.said.in_words(es).startswith(spanish), refused.value.said.in_words(es)
        assert refused.value.said.in_words().startswith(english), refused.value.said.in_words()


def test_an_unknown_option_is_answered_with_the_names_the_reader_can_type():
    import engines.pachakuna as pachakuna
    import languages
    from engines.core import SetupError, config_from_options

    with pytest.raises(SetupError) as refused:
        config_from_options(pachakuna.Config, 2, parse_options("colores=3"))
    said = refused.value.said
    assert said.in_words(languages.language("es")).endswith(
        "las opciones de este juego son: tablero, máx_turnos"
    )
    assert said.in_words() == 'unknown option "colores"; this game\'s options are: board, max_turns'
    assert config_from_options(pachakuna.Config, 2, parse_options("tablero=B máx_turnos=40")).max_turns == 40
