"""The table's texts in the reader's language: the same game told in English and in Spanish.

The test game Nim keeps its sentences for translation (``Event.told``, ``IllegalMove`` with
values, ``Outcome.told``); ``nim_in_spanish`` gives them Spanish for one test, as a game's
engine does through the catalogues.
"""

from __future__ import annotations

import pytest

from bot import choices, movetexts, public, texts
from bot.sessions import Refusal, named, refusal
from engines.core import Event, IllegalMove
from languages import ENGLISH, language
from tests.support.nim_spanish import nim_in_spanish  # noqa: F401 (a fixture)

pytestmark = pytest.mark.usefixtures("nim_in_spanish")

G, CHANNEL = 1, 7


def es():
    return language("es")


async def nim_pair(service, piles=2):
    await service.lobby.create(
        "nim", guild_id=G, channel_id=CHANNEL, host_id=1, host_name="Ana", options={"piles": piles}
    )
    await service.lobby.join(CHANNEL, 2, "Bob")
    return (await service.lobby.start(CHANNEL, 1)).session


async def play_first(service, session):
    (seat,) = session.to_move()
    user = session.by_seat(seat).user_id
    move = (await service.play.legal_moves(CHANNEL, user))[-1]
    return await service.play.play(CHANNEL, user, move), move, user


async def to_the_end(service, session):
    while session.status == "active":
        result, _, _ = await play_first(service, session)
        session = result.session
    return session


async def test_a_turn_is_told_in_the_servers_language(service):
    session = await nim_pair(service)
    result, move, _ = await play_first(service, session)
    records = list(result.played)
    count = int(move[1:])
    spanish = texts.board_text(result.session, records, t=es())
    english = texts.board_text(result.session, records)
    stones = "piedra" if count == 1 else "piedras"
    assert f"tomó {count} {stones} del montón {move[0]}." in spanish
    assert "**Turno de:** " in spanish and "took" not in spanish and "**Next:**" not in spanish
    assert f"took {count} from pile {move[0]}." in english and "**Next:** " in english
    assert texts.last_action(result.session, records, es()).endswith(f"del montón {move[0]}")
    assert texts.last_action(result.session, records).endswith(f"from pile {move[0]}")
    mover = result.session.by_seat(records[0].seat).name
    assert texts.own_lines(result.session, records, records[0].seat, t=es())[0].startswith(f"{mover} tomó")
    # the private reply tells the move as the channel does: a sentence, capital and full stop
    (own,) = texts.own_lines(result.session, records, records[0].seat, t=es())
    assert own == f"{mover} tomó {count} {stones} del montón {move[0]}."


async def test_the_last_movers_reply_leaves_the_engines_end_to_the_tables_ranking(service):
    """The engine's end line names its own winner; the table's ranking may differ (a seat that
    resigned ranks last), so the last mover's private reply leaves it out once the game is over."""
    session = await nim_pair(service)
    while True:
        result, _, _ = await play_first(service, session)
        session = result.session
        if session.status != "active":
            break
    last = [r for r in result.played if not r.by_computer][-1]
    told = texts.own_lines(session, result.played, last.seat)
    assert told and not any("wins" in line for line in told), told
    assert any(e.kind == "end" for e in last.events or ()), "the engine did tell its end"


async def test_the_end_of_a_game_in_both_languages(service):
    session = await to_the_end(service, await nim_pair(service))
    from engines.core import Outcome

    outcome = Outcome.from_dict(session.row.outcome)
    winner = session.by_seat(outcome.ranking[0][0])
    spanish = texts.outcome_lines(session, outcome, es())
    assert spanish[0] == "**Fin de la partida**: se tomó la última piedra."
    assert spanish[1] == f"1.º: {winner.mention}: 1"
    english = texts.outcome_lines(session, outcome)
    assert english[0] == "**Game over**: the last stone was taken." and english[1].startswith("1st: ")
    assert texts.result_line(session, es()) == f"Resultado: gana {winner.name} (se tomó la última piedra)."
    assert texts.result_line(session) == f"Result: {winner.name} wins (the last stone was taken)."
    assert texts.next_steps(session, es()).startswith("Vuelve a jugar con `/nim nueva`")
    board = texts.board_text(session, [], t=es())
    assert "**Fin de la partida**" in board and "Game over" not in board


async def test_log_status_list_and_history_in_the_askers_language(service):
    session = await nim_pair(service)
    result, move, _ = await play_first(service, session)
    session = result.session
    records = await service.logbook.log(session)
    log = movetexts.log_text(session, records, None, es())
    assert log.startswith("1. ") and f"`{move}`" in log
    assert movetexts.log_text(session, [], None, es()) == "Todavía no hay jugadas."
    status = texts.status_text(session, 1, records[-1], None, t=es())
    assert "**Nim** (partida n.º" in status and "1 jugada hecha" in status
    assert "Esperando a: " in status and "Última: " in status and "Waiting" not in status
    assert "Waiting on: " in texts.status_text(session, 1, records[-1], None)
    listed = texts.list_text([session], es())
    assert "(esperando a " in listed and "waiting" not in listed
    page = movetexts.history_text(session, 1, 1, records[0], None, es())
    assert "jugada 1 de 1 (la partida sigue)" in page and f"jugó `{move}`." in page
    assert movetexts.history_label(session, 0, None, es()) == "El inicio"
    assert movetexts.history_label(session, 1, records[0].seat, es()).startswith("Jugada 1: ")


async def test_an_event_stored_before_sentences_were_kept_reads_as_it_was(service):
    session = await nim_pair(service)
    result, _, _ = await play_first(service, session)
    old = result.played[0]
    plain = public.MoveRecord(old.seat, old.move, False, (Event("{p0} did the old thing"),), old.privacy)
    lines = texts.turn_lines(result.session, [plain], t=es())
    assert lines == [f"{result.session.by_seat(old.seat).name} did the old thing."]


async def test_the_play_menu_and_autocomplete_in_the_askers_language(service):
    session = await nim_pair(service)
    (seat,) = session.to_move()
    engine = session.engine
    moves = engine.legal_moves(session.state, seat)
    found = choices.entries(engine, session.state, seat, moves, session.names(), es())
    assert {e.group_label for e in found} == {"Montón A:", "Montón B:"}
    assert found[0].label == "tomar 1" and found[0].move == "A1"  # the notation stays the value
    controls = choices.plan_menu(engine.KINDS, lambda k: choices.kind_label(engine, k, es()), found, t=es())
    labels = [p.label for c in controls for p in c.picks] + [c.placeholder for c in controls]
    assert any(label.startswith("Montón A") for label in labels), labels
    assert not any("Pile" in label or "take" in label for label in labels), labels
    opened = choices.plan_menu(
        engine.KINDS, lambda k: choices.kind_label(engine, k, es()), found, opened=("take", "A"), t=es()
    )
    assert "Todas las jugadas" in [p.label for c in opened for p in c.picks]
    pairs = choices.complete(found, "A", lambda k: choices.kind_label(engine, k, es()), es())
    assert pairs[0] == ("A1 — Montón A: tomar 1", "A1")
    english = choices.entries(engine, session.state, seat, moves, session.names())
    assert english[0].full == "Pile A: take 1"


def test_refusals_in_the_readers_language():
    exc = named(IllegalMove("{p0} cannot take from pile {pile}", pile="A"), ["Ana", "Bob"])
    assert str(exc) == "Ana cannot take from pile A"  # not in the catalogue: English, names put in
    from tests.support import nim

    state = nim.new_game(nim.Config(players=2, piles=1), 2, seed=3)
    try:
        nim.apply_move(state, 0, nim.Move(0, 50))
    except IllegalMove as refused:
        told = named(refused, ["Ana", "Bob"])
    have = state.piles[0]
    assert refusal(told, es()) == f"el montón A tiene {have} piedras; toma de 1 a {have}"
    assert refusal(told, ENGLISH) == f"pile A has {have} stones; take 1 to {have}"
    table = Refusal("there is no game #{number} here", number=5)
    assert str(table) == "there is no game #5 here" and refusal(table, es()) == "there is no game #5 here"
    known = Refusal("the board changed since that menu was made")
    assert refusal(known, es()) == "el tablero cambió desde que se hizo ese menú"


def test_the_no_game_hint_names_the_commands_in_the_readers_language():
    from bot.sessions import NoGameHere, new_game_hint

    refused = NoGameHere("there is no game in this channel; {hint}", hint=new_game_hint())
    spanish = refusal(refused, es())
    assert spanish.startswith("no hay ninguna partida en este canal; empieza una con /")
    assert "/guacamole nueva" in spanish and " new" not in spanish
    assert "/guacamole new" in str(refused)
    assert "/tiwanaku nueva" in texts.list_text([], es())


async def test_a_private_reply_past_its_limit_counts_the_lines_left_out(service):
    """The private reply keeps to a few lines; past them, a last line says how many more there
    are and where they are (it used to stop there without a word)."""
    session = await nim_pair(service, piles=5)  # each move empties a pile: seat 1 moves 3 times
    records = []
    while session.status == "active":
        result, _, _ = await play_first(service, session)
        records.extend(result.played)
        session = result.session
    seat = records[0].seat
    full = texts.own_lines(session, records, seat, limit=100)
    assert len(full) >= 3, full
    cut = texts.own_lines(session, records, seat, limit=2, t=es())
    assert len(cut) == 2 and cut[0] == texts.own_lines(session, records, seat, limit=100, t=es())[0]
    more = len(full) - 1
    assert cut[1] == f"… y {more} línea{'s' if more > 1 else ''} más (ver /juego registro)", cut
