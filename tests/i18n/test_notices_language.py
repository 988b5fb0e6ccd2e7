"""Turn notices, reminders, /game mine and the timeout question, in English and in Spanish (the pure
texts: no Discord)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from bot import notices, waits
from bot.storage import PersonRow
from bot.surface import clockvote
from bot.time.gameclock import MOVE, ClockSpec
from languages import ENGLISH, language

SPANISH = language("es-ES")


@dataclass
class Info:
    title: str = "Guacamole"


@dataclass
class Seat:
    seat: int
    name: str
    user_id: int
    computer: bool = False
    resigned: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.user_id}>"


@dataclass
class FakeSession:
    id: int
    status: str = "active"
    seats: list = field(default_factory=list)
    waiting: list = field(default_factory=list)
    damaged: bool = False
    clock: object = None
    info: Info = field(default_factory=Info)

    def waiting_on(self):
        return self.waiting

    def by_seat(self, seat):
        return next(s for s in self.seats if s.seat == seat)


def link(session) -> str:
    return f"https://discord.com/channels/1/2/{session.id}"


@pytest.mark.parametrize(
    ("t", "expected"),
    [
        (
            ENGLISH,
            ["less than a minute", "1 minute", "59 minutes", "1 hour", "47 hours", "2 days", "3 days 1 hour"],
        ),
        (
            SPANISH,
            [
                "menos de un minuto",
                "1 minuto",
                "59 minutos",
                "1 hora",
                "47 horas",
                "2 días",
                "3 días y 1 hora",
            ],
        ),
    ],
)
def test_a_wait_is_said_in_the_readers_language(t, expected):
    seconds = [0, 60, 59 * 60, 3600, 47 * 3600, 48 * 3600, 73 * 3600]
    assert [notices.waited(s, t) for s in seconds] == expected
    # a verb before the wait agrees with it: "queda menos de un minuto", as "queda 1 minuto"
    assert notices.waited_count(0) == notices.waited_count(60) == 1


def test_a_reminder_digest_in_spanish_fits_and_counts_in_spanish():
    games = [
        notices.Waiting(FakeSession(n), "Un servidor con un nombre largo", 3600 * n) for n in range(1, 31)
    ]
    english = notices.digest(games[:1], link)
    assert english.startswith("Reminder: it is your turn in 1 game:") and "waiting 1 hour" in english
    one = notices.digest(games[:1], link, SPANISH)
    assert one.startswith("Recordatorio: es tu turno en 1 partida:")
    assert "esperando desde hace 1 hora" in one and "/yo avisos" in one and "Reminder" not in one
    many = notices.digest(games, link, SPANISH)
    assert (
        len(many) <= 2000
        and "es tu turno en 30 partidas" in many
        and "partidas más (mira /juego mías)" in many
    )


def test_game_mine_in_spanish():
    alice, bob = Seat(0, "Alice", 1), Seat(1, "Bob", 2)
    turn = FakeSession(7, seats=[alice, bob], waiting=[alice])
    theirs = FakeSession(8, seats=[alice, bob], waiting=[bob])
    lobby = FakeSession(9, status="lobby", seats=[alice])
    lobby.row = type("Row", (), {"max_players": 4})()  # type: ignore[attr-defined]
    games = [
        notices.Waiting(turn, "Andes", 2 * 3600),
        notices.Waiting(theirs, "Andes", 600),
        notices.Waiting(lobby, "Andes", 60),
    ]
    text = notices.mine_text(games, 1, link, {7: None, 8: "⏱ reloj"}, SPANISH)
    lines = text.splitlines()
    assert lines[0] == "**Tus partidas** (3 partidas, 1 espera tu jugada):"
    assert lines[2] == "  tu turno, esperando desde hace 2 horas; sin temporizador de turno"
    assert lines[4] == "  turno de Bob, esperando desde hace 10 minutos; ⏱ reloj"
    assert lines[6] == "  sala, 1 asiento ocupado de 4"
    english = notices.mine_text(games, 1, link, {7: None, 8: None})
    assert (
        "**Your games** (3 games, 1 waiting on you):" in english
        and "Bob to play, waiting 10 minutes" in english
    )
    assert notices.mine_text([], 1, link, t=SPANISH).startswith("No tienes asiento en ninguna partida")


def test_time_away_labels_in_spanish():
    away = PersonRow(3, away_since=0.0, away_until=86400.0 * 400, time_zone="America/Lima")
    assert notices.away_labels({3: away}, 10.0, SPANISH) == {
        3: "de descanso hasta el 1971-02-04 19:00 (America/Lima)"
    }
    assert notices.away_labels({3: away}, 10.0) == {3: "away until 1971-02-04 19:00 (America/Lima)"}


def test_the_timeout_question_and_its_answers_in_both_languages():
    late, other = Seat(0, "Ana", 11), Seat(1, "Bob", 12)
    session = FakeSession(5, seats=[late, other], clock=ClockSpec(MOVE, 10 * 60.0))
    english = clockvote.question(session, late, [other], 1000.0)
    assert english.startswith(
        "⏰ <@11>'s time ran out in Guacamole game #5.\n<@12>: what now? **Computer plays"
    )
    assert "With no answer <t:1000:R>" in english
    spanish = clockvote.question(session, late, [other], 1000.0, SPANISH)
    assert spanish.startswith(
        "⏰ Se le acabó el tiempo a <@11> en la partida de Guacamole #5.\n<@12>: ¿y ahora qué?"
    )
    assert (
        "**La máquina juega el asiento**" in spanish
        and "(otra vez el tiempo completo, 10 min, desde ahora)" in spanish
        and "<t:1000:R>" in spanish
    )
    assert "Nadie más puede responder aquí." in clockvote.question(session, late, [], 1000.0, SPANISH)
    assert [clockvote.decided_words(session, 0, c, SPANISH) for c in ("computer", "more", "abandon")] == [
        "la máquina juega el asiento a partir de ahora",
        "Ana vuelve a tener 10 min en su reloj, desde ahora",
        "la partida queda abandonada",
    ]
    assert clockvote.decided_words(session, 0, "more") == "Ana has 10 min on their clock again, from now"
    assert "**give more time** (the full 10 min again, from now)" in english
    labels = [SPANISH.gettext(clockvote.LABELS[c]) for c in ("computer", "more", "abandon")]
    assert labels == ["La máquina juega el asiento", "Dar más tiempo", "Abandonar la partida"]


def test_no_quiet_hours_agrees_with_its_noun_in_spanish():
    """/me show said "Horas de silencio: ninguno": "horas" is feminine, so none is "ninguna"."""
    spanish = notices.settings_text(PersonRow(3), SPANISH)
    assert "\nHoras de silencio: ninguna\n" in spanish, spanish
    assert "\nQuiet hours: none\n" in notices.settings_text(PersonRow(3))


def test_the_time_left_agrees_with_its_verb_in_spanish():
    """A reminder said "quedan 1 hora" and the 80 % warning "Te quedan 1 hora de reloj": one hour
    or one minute left is "queda"."""
    session = FakeSession(4)
    one = notices.digest([notices.Waiting(session, "Sala", 2 * 3600, left=3600 + 59)], link, t=SPANISH)
    assert "Sala, queda 1 hora, esperando desde hace 2 horas:" in one, one
    two = notices.digest([notices.Waiting(session, "Sala", 3600, left=2 * 3600)], link, t=SPANISH)
    assert "Sala, quedan 2 horas, esperando desde hace 1 hora:" in two, two
    days = notices.digest([notices.Waiting(session, "Sala", 60, left=49 * 3600)], link, t=SPANISH)
    assert "Sala, quedan 2 días y 1 hora, esperando desde hace 1 minuto:" in days, days
    # the waiting time reads as in a line without a clock ("esperando desde hace 2 horas")
    plain = notices.digest([notices.Waiting(session, "Sala", 2 * 3600)], link, t=SPANISH)
    assert "Sala, esperando desde hace 2 horas:" in plain, plain
    assert waits.warning_text(session, 60.0, "Sala", "L", SPANISH).startswith("⏳ Te queda 1 minuto de reloj")
    assert waits.warning_text(session, 120.0, "Sala", "L", SPANISH).startswith("⏳ Te quedan 2 minutos")
    assert waits.warning_mention(7, 3600.0, SPANISH) == (
        "<@7>, te queda 1 hora de reloj en esta partida para este turno: has usado el 80 %."
    )
    assert waits.warning_mention(7, 3600.0) == (
        "<@7>, 1 hour left on your clock in this game for this turn: you have used 80 %."
    )


def test_a_wait_of_whole_days_says_no_zero_hours():
    """A reminder said "esperando desde hace 3 días y 0 horas" ("3 days 0 hours"): whole days are
    said alone."""
    assert notices.waited(3 * 86400 + 59 * 60, SPANISH) == "3 días"
    assert notices.waited(3 * 86400) == "3 days"
    assert notices.waited(3 * 86400 + 3600, SPANISH) == "3 días y 1 hora"
    assert notices.waited(2 * 86400 + 5 * 3600) == "2 days 5 hours"


def test_game_mine_says_when_no_game_waits_on_you():
    """Alice sits in a game where it is Bob's turn and in a lobby: the heading says none waits on
    her (it read '(2 games, your turn in 0)', as if her turn came in no time)."""
    alice, bob = Seat(0, "Alice", 1), Seat(1, "Bob", 2)
    theirs = FakeSession(8, seats=[alice, bob], waiting=[bob])
    lobby = FakeSession(9, status="lobby", seats=[alice])
    lobby.row = type("Row", (), {"max_players": 4})()  # type: ignore[attr-defined]
    games = [notices.Waiting(theirs, "Andes", 600), notices.Waiting(lobby, "Andes", 60)]
    english = notices.mine_text(games, 1, link, {8: None}).splitlines()[0]
    assert english == "**Your games** (2 games, none waiting on you):", english
    spanish = notices.mine_text(games[:1], 1, link, {8: None}, SPANISH).splitlines()[0]
    assert spanish == "**Tus partidas** (1 partida, ninguna espera tu jugada):", spanish
