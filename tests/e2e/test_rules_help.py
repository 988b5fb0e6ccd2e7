"""``/<game> rules`` read whole in either language: a guide longer than one Discord message
comes in several private messages, cut between lines, and nothing of it is lost."""

from __future__ import annotations

import importlib

import pytest

import languages
from bot.app import EXTENSIONS
from tests.e2e.conftest import BASE_EXTENSIONS

GAMES = ("guanga", "tiwanaku", "pachakuna", "nowa_gwinea", "guacamole")
LOADED = (*BASE_EXTENSIONS, *(f"cogs.{game}" for game in GAMES))


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_every_rules_guide_is_shown_whole_in_the_askers_language(standin, bot_factory, locale):
    assert all(f"cogs.{game}" in EXTENSIONS for game in GAMES)
    language = languages.language("es" if locale == "es-ES" else "en")
    reader = standin.add_user("reader")
    reader.locale = locale
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(LOADED)):
        await standin.wait_synced()
        longest = 0
        for game in GAMES:
            guide = language.gettext(importlib.import_module(f"engines.{game}").RULES_HELP)
            longest = max(longest, len(guide))
            pieces = -(-len(guide) // 2000)  # at least this many messages
            answer = await standin.slash(reader, chan, f"{game} rules")
            first = await answer.original()
            rest = await answer.followups(pieces - 1) if pieces > 1 else []
            messages = [first, *rest]
            assert all(m.ephemeral and len(m.content) <= 2000 for m in messages), game
            # every line of the guide, in order, whole: split only between lines
            assert "\n".join(m.content for m in messages) == guide, game
    if locale == "es-ES":
        assert longest > 2000  # Guanga's guide in Spanish does not fit one message


def guide(game: str) -> str:
    return importlib.import_module(f"engines.{game}").RULES_HELP


def test_every_guide_says_how_ties_end():
    """Each game's tie-breaks run out in a shared place (the rulings); the guide says so."""
    for game in GAMES:
        assert "shared" in guide(game), game


def test_guanga_s_guide_says_how_many_face_up_markers_end_the_game():
    """The rulebook ends the game at 4 face-up markers with 4 players and 6 with 2 or 3: the
    guide gives those numbers (it said "few")."""
    from engines.guanga.data import END_VISIBLE_MARKERS

    end = next(line for line in guide("guanga").splitlines() if line.startswith("**End**"))
    by_count: dict[int, list[int]] = {}
    for players, left in sorted(END_VISIBLE_MARKERS.items()):
        by_count.setdefault(left, []).append(players)
    for left, players in by_count.items():
        who = f"{players[0]}-{players[-1]} players" if len(players) > 1 else f"{players[0]} players"
        assert f"{left} ({who})" in end, (left, who, end)


def test_pachakuna_s_guide_says_who_wins_at_the_turn_limit():
    """With ``max_turns`` the game can end without a winner by colours: the guide says the limit
    counts both players' turns and what decides then (as the engine ranks it)."""
    options = next(line for line in guide("pachakuna").splitlines() if line.startswith("**Options**"))
    assert "both players' turns" in options
    assert options.index("most colours") < options.index("most resources") < options.index("shared")


def test_guanga_s_guide_gives_the_rulings_a_player_needs():
    """The guide states the rulings that change play (DECISIONS.md asks the help to say which
    apply), in English and in Spanish: what a grey marker does, what an order needs, what a
    shell buys in apprentice, that the artisan's mother patch stays, a stopper's limits, and
    that beginner's empty basket ends the game at once."""
    english = guide("guanga")
    spanish = languages.language("es").gettext(english)
    for needed in (
        "(grey, 2 with 4 players, 1 with 3, none with 1-2: any colour once all colours are down)",
        "each half scores with 2 cards of its flag/typology",
        "1 shell each: `S3B2` buys a patch, `refresh` renews the basket",
        "whose mother patch is never removed",
        "max 2 per guanga, counted as filled",
        "beginner (not solo) ends at once if the basket can't refill",
    ):
        assert needed in english, needed
    for needed in (
        "los grises, 2 con 4 jugadores, 1 con 3 y ninguno con 1-2, valen por cualquier color cuando ya no queda "
        "boca arriba ningún marcador de color",
        "cada mitad puntúa si tienes 2 cartas de su bandera o de su tipología",
        "Cada cosa cuesta 1 concha",
        "cuyo parche madre nunca se quita",
        "como mucho 2 por guanga, y una casilla con tope cuenta como llena",
        "en Principiante (salvo en solitario) la partida también termina de inmediato",
    ):
        assert needed in spanish, needed


def test_tiwanaku_s_guide_says_an_explorer_never_walks_over_an_opponent():
    """The rulebook: an explorer never passes over an opponent's explorer, and enters on a free
    edge cell; the guide says both, in English and in Spanish."""
    english = guide("tiwanaku")
    spanish = languages.language("es").gettext(english)
    assert "on a free edge cell" in english and "planted tiles, never over an opponent" in english
    assert "por una casilla libre del borde" in spanish and "nunca los de otra persona" in spanish
    assert len(languages.ENGLISH.gettext(english)) <= 1800 and len(spanish) <= 1800
