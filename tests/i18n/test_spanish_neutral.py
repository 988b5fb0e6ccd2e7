"""The Spanish catalogue does not guess a player's gender.  Nothing tells the table whether a player
is a man or a woman, so a text about a player (a league's sign-ups and drop-outs, its champion,
the substitutes, the queue, a table's gates) is said in words that fit anyone: "{name} quedó
fuera de la liga", not "{name} fue retirado"; "ya te has inscrito", not "ya estás inscrito";
"Se lleva el título: {name}", not "Campeón: {name}".

The forms checked are words that only ever describe a person in these texts (a participle or
a title with a masculine or feminine ending); a word about a thing that happens to share a form
(the slash option ``retirada_tras``: the act of dropping) is not one of them, nor is a participle
after a form of *haber* ("no te has inscrito"), which never changes with who is meant.

Nor is one player ever "el jugador" or "un jugador", in the games' texts or the table's (see
:data:`ONE_PLAYER`), nor a group of them "los jugadores" (see :data:`GROUP`), "todos", "los demás" or "otros" (see
:data:`PEOPLE`)."""

from __future__ import annotations

import re

import pytest

from tests.i18n.test_spanish_address import NOT_ADDRESS, spanish_texts

# A word starts at a word's edge or after a slash command name's underscore ("rol_organizador").
GENDERED = re.compile(
    r"(?:\b|(?<=_))(retirad[oa]s?|inscrit[oa]s?|campe[oó]n(?:a|es|as)?|ganador(?:a|es|as)?|sustitut[oa]s?"
    r"|(?:un|el|del|al|los|ningún|ninguna|una|la|las) suplentes?|jugador(?:a)? nuev[oa]"
    r"|bienvenid[oa]s?|invitad[oa]s?|eliminad[oa]s?|recién llegad[oa]s?|sembrad[oa]s|sentad[oa]s?"
    r"|(?:gana|ganará|ser|será) (?:el|la) primer[oa](?! persona)|anfitri(?:ón|ona|ones|onas)"
    r"|organizador(?:a|es|as)?|administrador(?:a|es|as)?|moderador(?:a|es|as)?|qued\w* últim[oa]s?"
    r"|(?:tú|ti|te) mism[oa]s?)\b",  # (not "la primera en llegar": a village)
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


# Every text (the games' sentences, boards, help and /rules, and the table's lobby, clocks, queue,
# leagues and commands) speaks of one player in words that fit anyone: "quien juega después", "elige
# a otra persona", "alguien dejó la cola", "un asiento de la máquina", "Nombre", not "el
# siguiente jugador", "otro jugador", "un jugador dejó la cola", "un jugador de la máquina",
# "Jugador".  A count of players ("{n} jugador", "de 2 a 4 jugadores") is a number of seats, not
# someone's gender.
ONE_PLAYER = re.compile(
    r"(?<![}\d] )\b(jugador(?:a)?|ganador(?:a)?|perdedor(?:a)?|(?:el|del|al|un|ningún|otro) (?:rival|oponente|contrincante))\b",
    re.IGNORECASE,
)
# A group of people is "quienes juegan", "el resto de la mesa", "la misma gente", not "los
# jugadores", "los demás jugadores", "los mismos jugadores" ("dos jugadores", "el número de
# jugadores": a count again).
GROUP = re.compile(r"\b(?:los|sus|tus|demás|mismos|otros|unos|entre) jugadores\b", re.IGNORECASE)
CODE = re.compile(r"`[^`]*`")


def one_player(entries: list[tuple[str, str]]) -> list[str]:
    """``english: spanish`` for each Spanish text that calls one player "jugador" (or "ganador", "un
    rival"), or a group of them "los jugadores"."""
    return [
        f"{english!r}: {found!r} in {text!r}"
        for english, text in entries
        for pattern in (ONE_PLAYER, GROUP)
        for found in pattern.findall(CODE.sub(" ", text))
    ]


# Nor is a group of people "todos", "los demás", "otros" or "ellos", nor "solos", "listos" or
# "juntos": "toda la mesa", "todo el mundo", "el resto de la mesa", "cada quien", "alguien", "compartir
# mesa".  "todos" before a determiner counts things ("todos los servidores", "todos tus
# exploradores"), unless a participle follows that names people ("todos los consultados"); "los
# demás" or "otros" before a plural noun in -os or -as is things too ("en los demás formatos").  As
# in :data:`GENDERED`, a word may start after a slash option name's underscore.
PEOPLE = re.compile(
    r"(?:\b|(?<=_))(?:todos(?!\s+(?:los|las|tus|sus|mis|estos|esos)\b)"
    r"|todos los (?:consultados|presentes|inscritos|sentados|convocados|interesados|invitados)"
    r"|los demás(?!\s+\w+(?:os|as)\b)|otros(?!\s+\w+(?:os|as|es)\b)"
    r"|ellos|nosotros|vosotros|solos|listos|juntos|uno como otro|unos? (?:a|con) otros?)\b",
    re.IGNORECASE,
)
# The one use allowed: "todos contra todos", the Spanish name of a round-robin league's format,
# which names no one in particular and has no neutral name a reader would know.
ROUND_ROBIN = re.compile(r"\btodos contra todos\b", re.IGNORECASE)


def people_plural(entries: list[tuple[str, str]]) -> list[str]:
    """``english: spanish`` for each Spanish text that calls a group of people "todos", "los demás"
    (or another masculine plural)."""
    return [
        f"{english!r}: {found!r} in {text!r}"
        for english, text in entries
        for found in PEOPLE.findall(ROUND_ROBIN.sub(" ", NOT_ADDRESS.sub(" ", text)))
    ]


def test_the_spanish_catalogue_says_nothing_of_a_players_gender():
    texts = spanish_texts()
    assert len(texts) > 2000
    assert gendered(texts) == []
    assert one_player(texts) == []
    assert people_plural(texts) == []


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
        # What the table's texts said before.
        "no se pudo sentar a un jugador",
        "un jugador dejó la cola",
        "abandonada después de que a un jugador se le acabó el tiempo",
        "un jugador se retira tras 1 a {most} incomparecencias (0: nunca), no {n}",
        "{player} añadió un jugador de la máquina ({level}).",
        "Expulsa a un jugador a mitad de temporada: pierde las partidas que le quedan",
        "Jugador",
        "Las valoraciones y la trayectoria de un jugador en este servidor",
        "rol_organizador",
        "solo alguien con Gestionar servidor puede fijar el rol de organizador",
        "Un moderador puede desbloquearlo",
        "Pedido: los demás jugadores responden con los botones del canal.",
        "Vuelve a jugar con los mismos jugadores y opciones",
        "solo los jugadores de la partida construyen aldeas",
        "la máquina juega en tu asiento y quedas último",
        # Groups of people the catalogue named in the masculine before.
        "no todos confirmaron la mesa de la cola",
        "{player} deshizo {n} jugada, desde la jugada {target}, con el acuerdo de todos",
        "Todos los consultados deben estar de acuerdo",
        "ya estuviste de acuerdo; esperando a los demás",
        "la sigues como los demás espectadores",
        "espera a otros",
        "si vence el plazo o todos dicen `done`",
        "¡Todos construyen a la vez!",
        "tantos colores y tantos recursos uno como otro",
        "{a} y {b} no se emparejarán juntos en {league}.",
        "ya están listos",
        "no juegan solos",
        "se avisa a ellos",
        "frutos_para_todos",
    ],
)
def test_a_gendered_word_about_a_player_is_found(spanish):
    assert gendered([("", spanish)]) or one_player([("", spanish)]) or people_plural([("", spanish)])


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
        "Quien administre el servidor puede dárselo a mi rol",
        "no se pudo sentar a una persona",
        "alguien dejó la cola",
        "{player} añadió un asiento de la máquina ({level}).",
        "Nombre",
        "solo alguien con Gestionar servidor puede fijar el rol de organización",
        "rol_organización",
        "Petición enviada: el resto de la mesa responde con los botones del canal.",
        "solo quienes jugaron la partida n.º {number} pueden empezar su revancha",
        "la eliminación directa es para juegos de dos jugadores",
        "tablero según el número de jugadores",
        "la máquina juega en tu asiento y quedas en último lugar",
        "alguien no confirmó la mesa de la cola",
        "con el acuerdo de toda la mesa",
        "Hace falta el acuerdo de cada persona consultada",
        "esperando al resto de la mesa",
        "la partida empieza cuando todo el mundo lo haya hecho",
        "{a} y {b} no compartirán mesa en {league}.",
        "Tus partidas y salas en todos los servidores",
        "todos tus exploradores están en el tablero",
        "Todos los pedidos están elegidos",
        "Rondas de una liga suiza (en los demás formatos se calculan solas)",
        "elige otros nombres",
        "{league} es una liga de todos contra todos",
        "fruta_para_toda_la_mesa",
    ],
)
def test_a_word_that_fits_anyone_is_not(spanish):
    assert gendered([("", spanish)]) == one_player([("", spanish)]) == people_plural([("", spanish)]) == []
