"""The Spanish catalogue does not guess a player's gender.  Nothing tells the table whether a player
is a man or a woman, so a text about a player (a league's sign-ups and drop-outs, its champion,
the substitutes, the queue, a table's gates) is said in words that fit anyone: "{name} quedó
fuera de la liga", not "{name} fue retirado"; "ya te has inscrito", not "ya estás inscrito";
"Se lleva el título: {name}", not "Campeón: {name}".

The forms checked are words that only ever describe a person in these texts (a participle or
a title with a masculine or feminine ending); a word about a thing that happens to share a form
(the slash option ``retirada_tras``: the act of dropping) is not one of them, nor is a participle
after a form of *haber* ("no te has inscrito"), which never changes with who is meant.

The games' own texts are held to more: one player is never "el jugador" there (see
:data:`ONE_PLAYER`)."""

from __future__ import annotations

import re

import pytest

from tests.i18n.test_spanish_address import NOT_ADDRESS, spanish_texts

GENDERED = re.compile(
    r"\b(retirad[oa]s?|inscrit[oa]s?|campe[oó]n(?:a|es|as)?|ganador(?:a|es|as)?|sustitut[oa]s?"
    r"|(?:un|el|del|al|los|ningún|ninguna|una|la|las) suplentes?|jugador(?:a)? nuev[oa]"
    r"|bienvenid[oa]s?|invitad[oa]s?|eliminad[oa]s?|recién llegad[oa]s?|sembrad[oa]s|sentad[oa]s?"
    r"|(?:gana|ganará|ser|será) (?:el|la) primer[oa](?! persona)|anfitri(?:ón|ona|ones|onas)"
    r"|(?:el|del|al) organizador|(?:un|el|al|del) administrador(?:a|es|as)?)\b",  # (not "la primera en llegar": a village)
    re.IGNORECASE,
)

# A compound tense's participle ("se ha inscrito", "habías inscrito") is the same for everyone.
COMPOUND = re.compile(r"\b(?:he|has|ha|hemos|han|haya|hayas|hayan|había|habías|habían)\s+\w+", re.IGNORECASE)


def gendered(entries: list[tuple[str, str]]) -> list[str]:
    """``english: spanish`` for each Spanish text that names a player's gender."""
    return [
        f"{english!r}: {found!r} in {text!r}"
        for english, text in entries
        for found in GENDERED.findall(COMPOUND.sub(" ", NOT_ADDRESS.sub(" ", text)))
    ]


# The games' own texts (their sentences, boards, board in words, help and /rules) speak of one
# player in words that fit anyone too: "quien juega después", "elige a otra persona", "cada quien",
# "el asiento 2", not "el siguiente jugador", "otro jugador", "cada jugador", "el jugador 2".  A count
# of players ("{n} jugador", "de 2 a 4 jugadores") is a number of seats, not someone's gender.
GAME_SOURCES = re.compile(
    r"engines/|renderers/(?:guanga|tiwanaku|pachakuna|nowa_gwinea|guacamole|layout)\.py"
    r"|cogs/(?:guanga|tiwanaku|pachakuna|nowa_gwinea|guacamole)\.py"
)
ONE_PLAYER = re.compile(
    r"(?<![}\d] )\b(jugador(?:a)?|ganador(?:a)?|perdedor(?:a)?|(?:el|del|al|un|ningún|otro) (?:rival|oponente|contrincante))\b",
    re.IGNORECASE,
)
CODE = re.compile(r"`[^`]*`")


def one_player(entries: list[tuple[str, str]]) -> list[str]:
    """``english: spanish`` for each Spanish text that calls one player "jugador" (or "ganador", "un
    rival")."""
    return [
        f"{english!r}: {found!r} in {text!r}"
        for english, text in entries
        for found in ONE_PLAYER.findall(CODE.sub(" ", text))
    ]


def test_the_spanish_catalogue_says_nothing_of_a_players_gender():
    texts = spanish_texts()
    assert len(texts) > 2000
    assert gendered(texts) == []
    games = spanish_texts(GAME_SOURCES)
    assert len(games) > 1000
    assert one_player(games) == []


@pytest.mark.parametrize(
    "spanish",
    [
        # What the catalogue said before.
        "{name} (retirado)",
        "Quedas retirado de **{league}**: tus incomparecencias llegaron a su límite ({n})",
        "{name} ya está inscrito en {league}",
        "Inscritos ({n}): {names}",
        "🏆 **{league}** ha terminado. Campeón: {champion}.",
        "el resultado de un suplente cuenta para uno de: {choices}",
        "jugador nuevo (fiabilidad {value} %)",
        "quien aún no tiene partidas puntuadas cuenta como recién llegado, {rating}",
        "ya estás sentado en esta mesa",
        "hay {n} sentados",
        "Nadie espera en la cola de este servidor. /cola unirse para ser el primero.",
        "Final: gana el primero en reunir los siete colores",
        "La mesa está llena ({n} asiento): el anfitrión puede pulsar {button Start}.",
        "La ronda {round} está emparejada y espera la revisión del organizador.",
        "Un administrador del servidor puede dárselo a mi rol",
        # What the games' texts said before.
        "rocas en las losetas {tiles}: el siguiente jugador no puede girarlas",
        "no puedes quitar una carta de tu propia mano; elige a otro jugador: {players}",
        "no existe el jugador {number}; los jugadores van del 1 al {most}",
        "Cada jugador se queda con uno de dos pedidos secretos",
        "Jugador {number}",
        "ya tienes {n} llamas, el máximo que puede tener un jugador",
        "**Bandos**: Blanco (el primer jugador) camina por los valles",
        "(o más, por tus exploradores y losetas cultivadas, nunca sobre un rival)",
    ],
)
def test_a_gendered_word_about_a_player_is_found(spanish):
    assert gendered([("", spanish)]) or one_player([("", spanish)])


@pytest.mark.parametrize(
    "spanish",
    [
        "{name} quedó fuera de la liga",
        "Inscripciones ({n}): {names}",
        "{name} es suplente en {league}",
        "Suplentes ({n}): {names}.",
        "la ronda {round} ya está emparejada y espera revisión",
        "ya no se puede pedir ni retirar una ronda libre en ella",
        "`retirada_tras`",
        "no te has inscrito en {league}",
        "Todavía no se ha inscrito nadie.",
        "ya tienes asiento en esta mesa",
        "rocas en las losetas {tiles}: quien juega después no puede girarlas",
        "Guanga se juega con {least} a {most} jugadores, no con {players}",
        "{n} jugador",
        "los dos jugadores comparten la victoria",
        "la loseta {cell} tiene una roca de tu rival de su último turno",
        "Participante {number}",
        "escribe `jugador=2`",
        "Final: gana quien reúna primero los siete colores",
        "en un empate, la primera en llegar",
        "/cola unirse para ser la primera persona.",
        "La mesa está llena ({n} asiento): quien abrió la sala puede pulsar {button Start}.",
        "solo alguien con Gestionar servidor puede fijar el rol de organizador",
        "Quien administre el servidor puede dárselo a mi rol",
    ],
)
def test_a_word_that_fits_anyone_is_not(spanish):
    assert gendered([("", spanish)]) == one_player([("", spanish)]) == []
