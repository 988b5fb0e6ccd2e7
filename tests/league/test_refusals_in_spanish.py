"""League refusals, season labels and the table's own lines keep their sentence, so each reader
gets them whole in their own language (here Spanish), with their values put in."""

from __future__ import annotations

import discord
import pytest

from bot import texts
from bot.league.seasons import season_label, season_named
from bot.league.service import LeagueError, LeagueService
from bot.sessions import SessionService, refusal
from bot.sessions.play import Play
from bot.surface.replies import failure_text
from engines.core import name_seats, said
from languages import language

GUILD = 9
ES = language("es")


@pytest.fixture
def leagues(service):
    return LeagueService(service.store, service)


async def new_league(leagues, **values):
    base = {"name": "Otoño", "game": "guacamole", "format": "swiss", "group_size": 2, "rounds": 2, "days": 7}
    return await leagues.create(guild_id=GUILD, channel_id=50, organiser_id=1, **(base | values))


async def refused(call) -> LeagueError:
    with pytest.raises(LeagueError) as caught:
        await call
    return caught.value


async def test_league_refusals_read_in_spanish_with_their_values(leagues):
    league = await new_league(leagues)
    await leagues.join(league, 101, "Ana")

    twice = await refused(leagues.join(league, 101, "Ana"))
    assert str(twice) == "you are already signed up for Otoño"  # the English stays the message id
    assert refusal(twice, ES) == "ya te has inscrito en Otoño"
    other = await refused(leagues.join(league, 101, "Ana", who="Ana"))
    assert refusal(other, ES) == "Ana ya se ha inscrito en Otoño"

    few = await refused(leagues.start(league))  # a count: the plural form of the language
    assert str(few) == "Otoño needs at least 2 players to start; 1 signed up"
    assert refusal(few, ES) == "Otoño necesita al menos 2 participantes para empezar; inscripciones: 1"

    size = await refused(new_league(leagues, name="Grande", group_size=9))
    assert refusal(size, ES) == "las partidas de Guacamole son de 2 a 6 jugadores, no de 9"
    points = await refused(new_league(leagues, name="Puntos", points=[1.0]))
    assert refusal(points, ES) == "da 2 números de puntos, uno por puesto, ninguno negativo; no 1"
    taken = await refused(new_league(leagues, name="otoño"))
    assert refusal(taken, ES) == "este servidor ya tiene una liga llamada 'otoño'; elige otro nombre"
    final = await refused(leagues.set_final(league, 5000))
    assert (
        refusal(final, ES)
        == "la fase final admite de 2 a 1000 jugadores, no 5000 (1 jugador en Otoño ahora); 0 la quita"
    )


async def test_a_bad_league_clock_is_refused_in_spanish(leagues):
    help_es = "un reloj es `move:<tiempo>` (cada turno tiene ese tiempo, p. ej., `move:24h`) o `bank:"
    bank = await refused(new_league(leagues, clock="bank:1d+2d"))
    assert refusal(bank, ES).startswith(
        'el reloj de la liga: el incremento "2d" es mayor que la bolsa inicial "1d"; la bolsa nunca guarda más '
        "que su inicio; " + help_es
    )
    turn = await refused(new_league(leagues, clock="move:2x"))
    assert refusal(turn, ES).startswith(
        'el reloj de la liga: el tiempo de turno "2x" no es un tiempo como 24h, 3d, 2d12h o 90m; ' + help_es
    )
    kind = await refused(new_league(leagues, clock="3 days"))  # the help is said once
    assert refusal(kind, ES).startswith('el reloj de la liga: "3 days" no es un reloj; ' + help_es)
    assert refusal(kind, ES).count("un reloj es `move:") == 1
    long = await refused(new_league(leagues, clock="move:3d", days=2))
    assert refusal(long, ES) == (
        "el reloj de la liga: el tiempo de un turno (3 d) es más largo que una ronda (2 d); el plazo de la "
        "ronda llegaría siempre antes"
    )


async def test_seasons_are_named_and_refused_in_spanish(leagues, service):
    league = await new_league(leagues)
    assert season_label(league) == "Otoño (sign-ups open)"
    assert season_label(league, ES) == "Otoño (inscripciones abiertas)"
    missing = await refused(season_named(service.store, GUILD, "guacamole", "Verano"))
    assert (
        refusal(missing, ES)
        == "'Verano' no es una temporada de Guacamole en este servidor (temporadas: Otoño)"
    )


def test_a_committed_change_reads_whole_in_the_askers_language():
    done = said("Your move `{move}` was recorded", move="B3")
    refused_post = discord.Forbidden(type("R", (), {"status": 403, "reason": "Forbidden"})(), "no")
    english = failure_text(done, refused_post)
    spanish = failure_text(done, refused_post, ES)
    assert english.startswith("⚠️ Your move `B3` was recorded, but Discord refused to let me post here")
    assert spanish.startswith("⚠️ Tu jugada `B3` quedó registrada, pero ")
    assert "recorded" not in spanish and "`B3`" in spanish


def test_a_lobby_opened_whose_message_is_refused_is_told_how_to_reach_it_not_of_a_board():
    """A lobby has no board: its refused message is told with how to join and close it (what was
    committed says so), never "{/game board} posts the board again"."""
    done = said(
        "The {game} lobby is open (players can {/game join} in its thread, where the host can "
        "{/game abandon} it)",
        game="Nim",
    )
    gone = discord.NotFound(type("R", (), {"status": 404, "reason": "Not Found"})(), "gone")
    english = failure_text(done, gone, lobby=True)
    spanish = failure_text(done, gone, ES, lobby=True)
    assert english == (
        "⚠️ The Nim lobby is open (players can /game join in its thread, where the host can "
        "/game abandon it), but Discord refused the message (404)."
    ), english
    assert spanish == (
        "⚠️ La sala de Nim está abierta (quien quiera jugar puede usar /juego unirse en su hilo, "
        "donde quien la abrió puede cerrarla con /juego abandonar), pero Discord rechazó el "
        "mensaje (404)."
    ), spanish
    assert "/game board" not in failure_text(done, ValueError("drawn"), lobby=True)


async def test_whose_turn_it_is_reads_in_spanish(service: SessionService):
    await service.lobby.create("guacamole", guild_id=GUILD, channel_id=70, host_id=1, host_name="Ana", seed=3)
    await service.lobby.join(70, 2, "Beto")
    session = (await service.lobby.start(70, 1)).session
    waiting = session.waiting_on()[0]
    other = next(s for s in session.seats if s.user_id != waiting.user_id)
    words = Play.not_your_turn(session, other.seat)
    assert (
        name_seats(words.in_words(ES), session.names())
        == f"no es tu turno: le toca a {waiting.name}; te mencionaré cuando sea el tuyo"
    )


async def test_why_a_game_ended_reads_in_spanish(service: SessionService):
    await service.lobby.create("guacamole", guild_id=GUILD, channel_id=71, host_id=1, host_name="Ana", seed=4)
    await service.lobby.join(71, 2, "Beto")
    await service.lobby.start(71, 1)
    result = await service.seats.resign(71, 2)  # two players: the game ends, won by the other
    assert name_seats(str(result.note), result.session.names()) == "Beto resigned"
    assert texts.end_reason(result.session, ES) == "la partida terminó por rendición"
    assert texts.end_reason(result.session) == "the game ended by resignation"

    await service.lobby.create("guacamole", guild_id=GUILD, channel_id=72, host_id=1, host_name="Ana", seed=5)
    await service.lobby.join(72, 2, "Beto")
    await service.lobby.start(72, 1)
    gone = await service.seats.abandon(72, 1, can_manage=False)
    assert texts.end_reason(gone, ES) == "abandonada" and texts.end_reason(gone) == "abandoned"
    status = texts.status_text(gone, 0, t=ES)
    assert "Esta partida se abandonó." in status and "abandoned" not in status  # said once, in Spanish


async def test_dropping_someone_who_does_not_play_names_them_and_where_the_players_are_listed(leagues):
    from bot.league.noshow_desk import NoShowDesk
    from bot.league.season import Rounds

    desk = NoShowDesk(Rounds(leagues, posts=None, scheduler=None))  # a refusal: nothing is posted
    league = await new_league(leagues)
    for uid, name in ((101, "Ana"), (102, "Beto")):
        await leagues.join(league, uid, name)
    league, _ = await leagues.start(league)
    gone = await refused(desk.drop(league, 999, "Zoe"))
    assert (
        str(gone)
        == "Zoe is not playing in Otoño (not signed up, or dropped already); /league standings lists its players"
    )
    assert refusal(gone, ES) == (
        "Zoe no juega en Otoño (no se inscribió, o ya quedó fuera); /liga posiciones muestra quién juega en ella"
    )


async def test_a_member_named_you_is_answered_about_them_not_about_the_asker(leagues):
    """An organiser signs up (or off) a member whose name is "you": the answers name that member,
    in English and in Spanish, never "you are already signed up" meant for the asker."""
    league = await new_league(leagues)
    assert await leagues.join(league, 102, "you", who="you") == "you signed up for Otoño (1 player)"
    twice = await refused(leagues.join(league, 102, "you", who="you"))
    assert str(twice) == "you is already signed up for Otoño"
    assert refusal(twice, ES) == "you ya se ha inscrito en Otoño"
    assert await leagues.leave(league, 102, who="you", t=ES) == "you salió de Otoño"
    gone = await refused(leagues.leave(league, 102, who="you"))
    assert refusal(gone, ES) == "you no se ha inscrito en Otoño"
    mine = await refused(leagues.leave(league, 102))  # the asker themself
    assert refusal(mine, ES) == "no te has inscrito en Otoño"
