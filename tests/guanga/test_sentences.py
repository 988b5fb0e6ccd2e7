"""Guanga's sentences kept for translation: every event, refusal, outcome and summary carries its
English template and values (:class:`engines.core.Said`), reads exactly as its English text, and
reads in Spanish through the real catalogue (``languages/es``), the values put in."""

from __future__ import annotations

import json
import random
from functools import partial

import pytest

from engines import guanga as G
from engines.core import (
    GameOver,
    IllegalMove,
    MalformedMove,
    MoveError,
    NotYourTurn,
    Outcome,
    Said,
    SetupError,
    in_words,
)
from engines.guanga import data as D
from engines.guanga import terms as W
from engines.guanga.rules import Buy, Claim, Done, Place, Refresh, Return, Stopper, patch_name
from tests.guanga.util import cell, clear, game, kind, play, put, set_basket, set_market
from tests.support import sentences
from tests.support.contract import playout
from tests.support.sentences import ES, PO, untranslated

COMBOS = [
    (1, "beginner", False),
    (1, "apprentice", False),
    (1, "master", False),
    (1, "artisan", False),
    (2, "beginner", False),
    (2, "apprentice", False),
    (2, "master", False),
    (2, "artisan", False),
    (3, "beginner", True),
    (3, "apprentice", True),
    (4, "master", False),
    (4, "apprentice", True),
]

# Texts tried at every step of the playouts: most are refused there, each for its own reason.
PROBES = (
    "P1A1",
    "P8E5",
    "S1C3",
    "S8E5",
    "refresh",
    "T1A1",
    "T2C3",
    "T4E5",
    "C A01 red A1A2A3",
    "C A03 yellow A1B2C3",
    "C B01 chakana A1A2",
    "R A1A2",
    "R C3D3",
    "keep O1",
    "done",
)


# Every Guanga sentence reads differently in Spanish.
check_said = partial(sentences.check_said, differs=True)
check_event = partial(sentences.check_event, differs=True)
check_refusal = partial(sentences.check_refusal, differs=True)


def sometimes_claims(state, seat, legal, rng):
    """Claims, stoppers and shells more often than a uniform choice plays them."""
    for wanted, chance in ((Claim, 0.8), (Stopper, 0.2), (Refresh, 0.1)):
        moves = [m for m in legal if isinstance(m, wanted)]
        if moves and rng.random() < chance:
            return rng.choice(moves)
    return rng.choice(legal)


@pytest.mark.parametrize(("players", "mode", "stoppers"), COMBOS)
def test_every_event_and_refusal_of_a_playout_is_a_kept_sentence(players, mode, stoppers):
    """Seeded playouts of every mode and variant: each event's sentences read as its text and
    translate; each probe refused along the way keeps its message and values; the outcome keeps
    its reason (and tiebreak), also through the stored state."""
    kinds: set[str] = set()
    refusals: set[str] = set()
    for seed in (1, 2):
        config = G.Config(players=players, mode=G.Mode(mode), stoppers=stoppers)
        steps = playout(G, config, players, seed, random.Random(seed), choose=sometimes_claims)
        for i, step in enumerate(steps):
            for e in step.events:
                check_event(e)
                kinds.add(e.kind)
            if i % 3:
                continue
            state = step.state
            for text in PROBES:
                for seat in range(players):
                    try:
                        G.apply_move(state, seat, G.parse_move(text))
                    except MoveError as exc:
                        check_refusal(exc)
                        refusals.add(exc.said.msg)
                        what = dict(exc.said.args).get("what")  # the refusal inside "now you may"
                        if isinstance(what, Said):
                            refusals.add(what.msg)
        final = steps[-1].after
        out = G.outcome(final)
        assert out is not None and out.reason_said is not None
        assert out.reason_said == final.end_said and out.reason == final.end_reason
        sentences.check_outcome(out, differs=True)
        back = G.from_dict(json.loads(json.dumps(G.to_dict(final))))
        assert back.end_said == final.end_said and G.outcome(back) == out
        with pytest.raises(GameOver) as caught:
            G.apply_move(final, 0, Done())
        check_refusal(caught.value)
    assert {"place", "claim", "return", "end"} <= kinds
    if players > 1:
        assert ("order" in kinds) == (mode != "beginner")
    assert "{what}; now ({phase}) you may: {allowed}" in refusals
    assert len(refusals) >= 5, refusals


def test_bad_notation_is_refused_with_its_values_in_spanish():
    """Each malformed text keeps the piece it quotes, in English and in Spanish."""
    cases = {
        "": ("una jugada vacía", "P3B2 (hueco 3 de la canasta a B2)"),
        "keep O11": ("no existe el pedido O11", "keep O3"),
        "P 3B2 5C4": ("primero P3B2, luego P5C4",),
        "C Z01 red A1": ("no es una jugada de Guanga", '"C Z01 red A1"'),
        "C A11 red A1": ("no existe la carta del mercado A11",),
        "C A03 amarillo A1B2C3": ("amarillo no es un color ni un símbolo", "yellow"),
        "C A03 yellow": ("no es una jugada de Guanga",),
        "C A03 yellow A1A1A2": ("repite una casilla",),
        "R B2": ("exactamente dos casillas",),
        "T5A1": ("un tope indica un asiento",),
        "hello": ('"hello" no es una jugada de Guanga', "las jugadas se escriben así"),
    }
    for text, pieces in cases.items():
        with pytest.raises(MalformedMove) as caught:
            G.parse_move(text)
        spanish = check_refusal(caught.value)
        assert all(p in spanish for p in pieces), (text, spanish)
    with pytest.raises(MalformedMove) as caught:
        G.parse_move("P 3B2 5C4")
    assert dict(caught.value.said.args) == {"first": "P3B2", "second": "P5C4"}


def test_setup_refusals_keep_their_counts():
    with pytest.raises(SetupError) as caught:
        G.Config(players=5).validate()
    assert check_refusal(caught.value) == "Guanga se juega con 1 a 4 jugadores, no con 5"
    with pytest.raises(SetupError) as caught:
        G.new_game(G.Config(players=2), 3, 1)
    assert str(caught.value) == "the config is for 2 players but 3 seats were given"
    assert check_refusal(caught.value) == "la configuración es para 2 jugadores, pero se dieron 3 asientos"
    with pytest.raises(SetupError) as caught:
        G.new_game(G.Config(players=1), 2, 1)
    assert str(caught.value) == "the config is for 1 player but 2 seats were given"
    assert check_refusal(caught.value) == "la configuración es para 1 jugador, pero se dieron 2 asientos"
    with pytest.raises(SetupError) as caught:
        G.Config(players=2, mode=G.Mode.MASTER, stoppers=True).validate()
    assert "variante de topes" in check_refusal(caught.value)


def test_turn_and_seat_refusals_in_spanish():
    s = game(2, "apprentice", keep=False)
    s, _ = G.apply_move(s, 0, G.parse_move(f"keep {s.orders_dealt[0][0]}"))
    with pytest.raises(NotYourTurn) as caught:
        G.apply_move(s, 0, G.parse_move(f"keep {s.orders_dealt[0][1]}"))
    assert check_refusal(caught.value) == "ya te quedaste con tu pedido; esperando al resto de la mesa"
    other = next(o[0] for o in D.ORDERS if o[0] not in s.orders_dealt[1])
    with pytest.raises(IllegalMove) as caught:
        G.apply_move(s, 1, G.parse_move(f"keep {other}"))
    spanish = check_refusal(caught.value)
    assert spanish == f"no recibiste {other}; quédate con uno de estos: {', '.join(s.orders_dealt[1])}"
    s = game(2, "beginner")
    with pytest.raises(NotYourTurn) as caught:
        G.apply_move(s, 1, Done())
    assert check_refusal(caught.value) == "es el turno de {p0}, no el tuyo"
    assert caught.value.said.args == {"player": "{p0}"}
    with pytest.raises(NotYourTurn) as caught:
        G.apply_move(s, 7, Done())
    assert check_refusal(caught.value) == "el asiento 7 no está en esta mesa"


def test_a_refusal_in_the_wrong_phase_names_the_phase_and_the_moves_in_spanish():
    s = game(2, "apprentice")
    with pytest.raises(IllegalMove) as caught:
        G.apply_move(s, 0, Done())
    exc = caught.value
    assert str(exc).startswith(
        "you cannot end your turn yet; now (taking the first of your two patches) you may: "
    )
    spanish = check_refusal(exc)
    assert spanish.startswith(
        "todavía no puedes terminar tu turno; ahora (tomando el primero de tus dos parches) puedes: "
    )
    assert (
        "colocar un parche de la canasta (P1A1)" in spanish
        and "comprar un parche con conchas (S1A1)" in spanish
    )
    assert "; " in spanish.split("puedes: ")[1]


def test_placement_events_and_refusals_name_the_patch_in_spanish():
    """A patch is one term (its colour agrees with its symbol): *chakana roja*, *inti azul*."""
    s = game(2, "apprentice")
    set_basket(
        s, [kind("red", "chakana"), kind("blue", "inti"), kind("red", "inti"), None, None, None, None, None]
    )
    s2, ev = G.apply_move(s, 0, G.parse_move("P1B2"))
    assert ev[0].text == "{p0} placed red chakana (basket slot 1) on B2"
    assert check_said(ev[0].said, ev[0].text) == "{p0} colocó chakana roja (hueco 1 de la canasta) en B2"
    with pytest.raises(IllegalMove) as caught:
        G.apply_move(s2, 0, G.parse_move("P3B3"))
    spanish = check_refusal(caught.value)
    assert "el parche inti rojo comparte color o símbolo con tu primer parche (chakana roja)" in spanish
    # the slots that may be taken, not where slot 3 may go ("puede ir en: ninguna")
    assert spanish.endswith("los huecos que puedes tomar ahora: 2")
    with pytest.raises(IllegalMove) as caught:
        G.apply_move(s2, 0, G.parse_move("P4B3"))
    assert check_refusal(caught.value).startswith(
        "el hueco 4 de la canasta está vacío; los huecos con parche son: 2, 3"
    )


def test_claim_and_return_events_in_spanish():
    s = game(2, "beginner")
    set_market(s, ["A01", "A02", "A03", "G01", "G02", "G03", "M01", "M02", "M03"])
    clear(s, 0)
    put(s, 0, {"C3": kind("red", "chakana"), "A1": kind("red", "inti"), "A2": kind("red", "inti")})
    set_basket(s, [kind("red", "chakana"), kind("blue", "inti")] + [kind("green", "rombo")] * 6)
    s, _ = play(s, 0, "P1A3", "P2B3")
    slot = s.market.index("A01")
    refill = s.decks[s.market_levels[slot]][-1]
    with pytest.raises(IllegalMove) as caught:
        G.apply_move(s, 0, G.parse_move("C A01 chakana A1A2A3"))
    assert check_refusal(caught.value) == (
        "los parches de arriba de A1, A2 no muestran chakana; todas las casillas de la figura deben mostrar chakana"
    )
    assert (
        caught.value.said.args["cells"] == "A1, A2" and caught.value.said.args["attr"] == W.SYMBOLS["chakana"]
    )
    with pytest.raises(IllegalMove) as caught:
        G.apply_move(s, 0, G.parse_move("C A02 red A1A2B1"))
    assert check_refusal(caught.value) == "A02 se reclama en azul o en inti, no en rojo"
    assert caught.value.said.args["colour"] == W.COLOURS["blue"]
    with pytest.raises(IllegalMove) as caught:
        G.apply_move(s, 0, G.parse_move("C A01 red A1A2B3"))
    assert check_refusal(caught.value) == (
        "A1, A2, B3 no forman la figura de A01 Chullo (###) con ningún giro ni reflejo"
    )
    s.markers = dict.fromkeys(s.markers, 0) | {"blue": 2, "inti": 2, "amaru": 2}
    with pytest.raises(IllegalMove) as caught:
        G.apply_move(s, 0, G.parse_move("C A01 red A1A2A3"))
    assert str(caught.value) == "no workshop marker for red is face up; face-up markers: blue, inti, amaru"
    assert check_refusal(caught.value) == (
        "no hay ningún marcador del taller de rojo boca arriba; marcadores boca arriba: azul, inti, amaru"
    )
    s.markers["grey"] = 1  # up, but of no use while the blue marker is up
    with pytest.raises(IllegalMove) as caught:
        G.apply_move(s, 0, G.parse_move("C A01 red A1A2A3"))
    assert str(caught.value) == (
        "no workshop marker for red is face up; face-up markers: blue, inti, amaru, grey (it stands in "
        "for a colour only once every colour marker is face down)"
    )
    assert check_refusal(caught.value).endswith(
        "azul, inti, amaru, gris (sustituye a un color solo cuando "
        "todos los marcadores de color están boca abajo)"
    )
    s.markers["grey"] = 0
    s.markers["red"] = 1  # 7 face up: this claim brings the end
    s, ev = G.apply_move(s, 0, G.parse_move("C A01 red A1A2A3"))
    claim = ev[0]
    assert claim.text.startswith(
        "{p0} claimed A01 Chullo (5 VP) with red on A1, A2, A3, flipping the red marker"
    )
    spanish = check_said(claim.said, claim.text)
    assert spanish.startswith(
        "{p0} reclamó A01 Chullo (5 PV) con rojo en A1, A2, A3 y volteó el marcador rojo"
    )
    assert spanish.endswith(f"; {refill} {dict((c[0], c[1]) for c in D.CARDS)[refill]} entra en el mercado")
    trigger = next(e for e in ev if e.kind == "trigger")
    assert trigger.text == (
        "Only 6 workshop markers remain visible: the game ends when this round is complete."
    )
    assert check_said(trigger.said, trigger.text) == (
        "Solo quedan 6 marcadores del taller visibles: la partida termina cuando se complete esta ronda."
    )
    assert trigger.said.args == {"n": 6}
    s, ev = G.apply_move(s, 0, G.parse_move("R A1A3"))
    ret = next(e for e in ev if e.kind == "return")
    assert ret.text == "{p0} returned red inti from A1 and red chakana from A3 to the bag"
    assert check_said(ret.said, ret.text) == "{p0} devolvió a la bolsa inti rojo de A1 y chakana roja de A3"
    while not s.finished:  # seat 1 completes the round: the game ends
        seat = min(G.to_move(s))
        legal = G.legal_moves(s, seat)
        s, ev = G.apply_move(s, seat, next((m for m in legal if isinstance(m, Done)), legal[0]))
    end = next(e for e in ev if e.kind == "end")
    assert end.text == "The game is over: the workshop reached its end and the round was completed."
    assert check_said(end.said, end.text) == (
        "La partida ha terminado: el taller llegó a su fin y se completó la ronda."
    )


def test_counted_events_take_their_plural_in_spanish():
    """Master shells: lines and shells counted with plural forms; a buy costs 3 shells."""
    s = game(2, "master")
    clear(s, 0)
    red = [kind("red", y) for y in D.SYMBOLS]
    put(s, 0, {"A1": red[0], "A2": red[1], "A3": red[2], "A4": red[3]})
    put(s, 0, {"C3": red[4], "B1": red[1], "C1": red[2], "D1": red[3]})
    set_market(s, ["A01", "A02", "A03", "A04", "G01", "G02", "G03", "M01", "M02", "B01", "B02"])
    set_basket(s, [red[4], kind("blue", "inti")] + [kind("green", "rombo")] * 6)
    s, _ = play(s, 0, "P1A5", "P2B5")
    s, ev = G.apply_move(s, 0, G.parse_move("C A01 red A1A2A3"))
    shells = next(e for e in ev if e.kind == "shells")
    assert shells.text == "{p0} completed 1 red line and gained 2 Mullu shells"
    assert check_said(shells.said, shells.text) == "{p0} completó 1 línea en rojo y ganó 2 conchas mullu"
    assert shells.said.args["n"] == 1 and shells.said.args["shells"].args["n"] == 2
    with pytest.raises(IllegalMove) as caught:
        G.apply_move(game(2, "master"), 0, G.parse_move("S1A1"))
    assert check_refusal(caught.value) == "comprar un parche cuesta 3 conchas y tienes 0"


def test_a_stopper_on_ones_own_guanga_is_said_so():
    """A player who stops a cell of their own guanga is not named twice ("P1 ... on P1's A2")."""
    s = game(3, "beginner", stoppers=True)
    s, ev = G.apply_move(s, 0, G.parse_move("T1A2"))
    assert ev[0].text == "{p0} put a stopper on their own A2"
    assert check_said(ev[0].said, ev[0].text) == "{p0} puso un tope en su propia casilla A2"
    s, more = G.apply_move(s, 0, G.parse_move("T2C4"))
    ((told,),) = G.tell_turn([(e.kind, e.said) for e in ev + more])
    assert told.in_words() == "{p0} put a stopper on their own A2 and put a stopper on {p1}'s C4"
    assert (
        told.in_words(ES)
        == "{p0} puso un tope en su propia casilla A2 y puso un tope en la casilla C4 de {p1}"
    )


def test_the_play_menu_offers_a_stopper_on_the_askers_own_guanga_as_theirs():
    """The menu and autocomplete a seat is shown name the other players' guangas and call the
    seat's own "your guanga", not by its own name, in English and Spanish."""
    from bot import choices
    from languages import ENGLISH

    s = game(3, "beginner", stoppers=True)
    assert G.to_move(s) == {0}
    legal = list(G.legal_moves(s, 0))
    names = ["Ana", "Bob", "Cy"]
    for t, own, other in (
        (ENGLISH, "Stopper on your guanga", "Stopper on Bob's guanga"),
        (ES, "Tope en tu guanga", "Tope en la guanga de Bob"),
    ):
        found = choices.entries(G, s, 0, legal, names, t)
        stoppers = {e.move[:2]: e.group_label for e in found if e.kind == "stopper"}
        assert stoppers["T1"] == own and stoppers["T2"] == other, stoppers
        assert not any("Ana" in label for label in stoppers.values())
        plans = choices.plan_menu(
            G.KINDS, lambda k, t=t: choices.kind_label(G, k, t), found, opened=("stopper",), t=t
        )
        assert own in [p.label for c in plans for p in c.picks]
        (typed,) = choices.complete(found, "T1A1", lambda k, t=t: choices.kind_label(G, k, t), t)
        assert typed[0].startswith(f"T1A1 — {own} ")


def test_stopper_events_and_refusals_in_spanish():
    s = game(3, "beginner", stoppers=True)
    s, ev = G.apply_move(s, 0, G.parse_move("T2C4"))
    assert ev[0].text == "{p0} put a stopper on {p1}'s C4"
    assert check_said(ev[0].said, ev[0].text) == "{p0} puso un tope en la casilla C4 de {p1}"
    with pytest.raises(IllegalMove) as caught:
        G.apply_move(s, 0, G.parse_move("T2C4"))
    assert check_refusal(caught.value) == "C4 ya tiene un tope"
    s, _ = G.apply_move(s, 0, G.parse_move("T2D4"))
    with pytest.raises(IllegalMove) as caught:
        G.apply_move(s, 0, G.parse_move("T3D4"))
    assert check_refusal(caught.value) == (
        "no te quedan topes; ahora (tomando el primero de tus dos parches) puedes: "
        "colocar un parche de la canasta (P1A1)"
    )
    with pytest.raises(IllegalMove) as caught:
        G.apply_move(game(2, "beginner", stoppers=True), 0, G.parse_move("T3A1"))
    assert check_refusal(caught.value) == "no existe el asiento 3; los asientos van del 1 al 2"


def test_kept_order_is_private_in_both_languages():
    s = game(2, "apprentice", keep=False)
    order = s.orders_dealt[0][0]
    _, ev = G.apply_move(s, 0, G.parse_move(f"keep {order}"))
    e = ev[0]
    assert e.visible_to == frozenset({0}) and e.text.startswith(f"{{p0}} kept order {order} (")
    mine, theirs = e.words_for(0, ES), e.words_for(1, ES)
    assert (
        mine is not None and mine.startswith(f"{{p0}} se quedó con el pedido {order} (") and " PV / " in mine
    )
    assert theirs == e.words_for(None, ES) == "{p0} se quedó con un pedido secreto"
    assert order not in theirs


def test_the_end_and_its_reason_in_spanish():
    """The end event, the outcome's reason and tiebreak, and a state stored before reasons were
    kept (no ``end_said``), which still reads its English reason."""
    s = game(2, "beginner")
    s.pile, s.bag = [], []
    s.basket[0] = None
    s, ev = G.apply_move(s, 0, G.parse_move("P2A1"))
    s, ev = G.apply_move(s, 0, G.parse_move("P3A2"))
    if not s.finished:
        s, ev = G.apply_move(s, 0, Done())
    end = next(e for e in ev if e.kind == "end")
    assert end.text == "The game is over: the basket could not be refilled to 8 patches."
    assert (
        check_said(end.said, end.text)
        == "La partida ha terminado: la canasta no se pudo rellenar hasta 8 parches."
    )
    out = G.outcome(s)
    assert out is not None and out.reason_in(ES) == "la canasta no se pudo rellenar hasta 8 parches"
    old = G.to_dict(s)
    del old["end_said"]
    plain = G.outcome(G.from_dict(old))
    assert plain is not None and plain.reason_said is None and plain.reason == out.reason


def test_a_tiebreak_by_fewer_negative_points_is_kept():
    """Tied on score, the seat with fewer minus points wins; the tiebreak's name is kept."""
    s = game(2, "beginner")
    clear(s, 0)
    clear(s, 1)
    for name in ("A1", "A2", "A3", "A4", "A5"):  # seat 0: no cards, 20 empty cells: -40
        put(s, 0, {name: kind("red", "inti")})
    s.claimed[1] = ["A01", "A02"]  # seat 1: 10 VP, 25 empty cells: -40
    s.finished, s.phase = True, "over"
    s.end_said = G.rules.said("the workshop reached its end and the round was completed")
    s.end_reason = s.end_said.in_words()
    out = G.outcome(s)
    assert out is not None and out.scores == (-40.0, -40.0) and out.ranking == ((0,), (1,))
    assert out.tiebreak == "fewer negative points ({p0} -40, {p1} -50)"
    assert out.tiebreak_in(ES) == "menos puntos negativos ({p0} -40, {p1} -50)"
    assert out.reason_in(ES) == "el taller llegó a su fin y se completó la ronda"
    assert Outcome.from_dict(json.loads(json.dumps(out.to_dict()))) == out


def test_summary_is_a_sentence_in_both_languages():
    s = game(2, "apprentice", keep=False)
    dealt = G.summary(G.view_for(s, 0))
    assert isinstance(dealt, Said)
    english = in_words(dealt)
    assert (
        english.startswith("Orders dealt to you: ")
        and "\nYou: shells 3, no cards yet, score -45, counting -48 for 24 empty cells" in english
    )
    assert not untranslated(dealt)
    spanish = dealt.in_words(ES)
    assert (
        spanish.startswith("Pedidos que recibiste: ")
        and "\nTú: conchas 3, aún sin cartas, puntos -45, contando -48 por 24 casillas vacías" in spanish
    )
    assert all(o in spanish for o in s.orders_dealt[0]) and " PV / " in spanish
    s = game(3, "beginner", stoppers=True)
    mine = G.summary(G.view_for(s, 1))
    assert isinstance(mine, Said) and mine.in_words(ES).startswith(
        "Tú: topes restantes 2, aún sin cartas, puntos -48, contando -48 por 24 casillas vacías"
    )
    assert G.summary(G.view_for(s, None)) == ""


def test_every_word_of_the_game_is_a_term_translated():
    """Every colour, symbol, patch, flag and typology in the data has its term, and the Spanish
    catalogue translates it; patches agree in gender (chakana is feminine)."""
    assert set(W.COLOURS) == set(D.COLOURS) and set(W.SYMBOLS) == set(D.SYMBOLS)
    assert set(W.PATCHES) == {patch_name(k) for k in range(D.KINDS)}
    assert set(W.FLAGS) == {c[2] for c in D.CARDS} == {o[1] for o in D.ORDERS}
    assert set(W.TYPOLOGIES) == {c[3] for c in D.CARDS} | {o[3] for o in D.ORDERS}
    for table in (W.ATTRS, W.PATCHES, W.FLAGS, W.TYPOLOGIES):
        for name, t in table.items():
            assert t.msg == name and t.context == "guanga term" and not untranslated(t)
    assert W.PATCHES["red chakana"].in_words(ES) == "chakana roja"
    assert W.PATCHES["yellow kuntur"].in_words(ES) == "kuntur amarillo"
    assert W.ATTRS["grey"].in_words(ES) == "gris" and W.FLAGS["Peru"].in_words(ES) == "Perú"


def test_words_rules_help_and_options_are_translated():
    for key, text in G.WORDS.items():
        entry = PO.get(text)
        assert entry is not None and entry.string, key
    assert ES.gettext(G.WORDS["option.mode.master"]) == "modo Maestra"
    assert ES.has(G.RULES_HELP)
    help_es = ES.gettext(G.RULES_HELP)
    assert help_es.startswith("**Guanga: Tejidos Andinos**") and "`C A03 yellow B2C3D4`" in help_es
    assert help_es.count("\n") == G.RULES_HELP.count("\n") and "**Modos**" in help_es
    for f in ("mode", "stoppers", "cannot_place"):
        assert ES.has(G.Config.__dataclass_fields__[f].metadata["help"]), f


def test_move_words_put_terms_in_the_readers_language():
    s = game(2, "apprentice", keep=False)
    order = s.orders_dealt[0][0]
    mw = G.move_words(s, 0, G.parse_move(f"keep {order}"))
    o = dict((x[0], x) for x in D.ORDERS)[order]
    assert mw.label(G.WORDS) == f"keep order {order}: {o[1]} {o[2]} / {o[3]} {o[4]}"
    assert mw.label(G.WORDS, ES).startswith(f"quedarte con el pedido {order}: {W.FLAGS[o[1]].in_words(ES)} ")
    s = game(2, "beginner")
    place = next(m for m in G.legal_moves(s, 0) if isinstance(m, Place))
    patch = patch_name(s.basket[place.slot - 1])
    mw = G.move_words(s, 0, place)
    assert mw.group_label(G.WORDS) == f"Slot {place.slot} ({patch})"
    assert mw.group_label(G.WORDS, ES) == f"Hueco {place.slot} ({W.PATCHES[patch].in_words(ES)})"
    # a bought patch is the slot's patch, not the slot ("Comprar el hueco 1" bought the slot)
    s = game(2, "apprentice")
    buy = next(m for m in G.legal_moves(s, 0) if isinstance(m, Buy))
    patch = patch_name(s.basket[buy.slot - 1])
    mw = G.move_words(s, 0, buy)
    assert mw.group_label(G.WORDS) == f"Buy slot {buy.slot} ({patch})"
    assert mw.group_label(G.WORDS, ES) == (
        f"Comprar el parche del hueco {buy.slot} ({W.PATCHES[patch].in_words(ES)})"
    )
    claim = Claim("A03", "yellow", (0, 6, 12))
    assert G.move_words(s, 0, claim).label(G.WORDS, ES) == "reclamar Lluch'u (A03) con amarillo en A1 B2 C3"
    assert G.move_words(s, 0, Return((0, 6))).label(G.WORDS, ES) == "devolver los parches de A1 y B2"


def test_cells_refused_for_a_claim_agree_in_number():
    """A claim's cells are several: "A1, A2, B3 is not the shape of A01" ("no forma") and
    "A1, A2 has a stopper" ("tiene un tope") read as one cell; the verb follows the count."""
    s = game(2, "beginner", stoppers=True)
    set_market(s, ["A01", "A02", "A03", "G01", "G02", "G03", "M01", "M02", "M03"])
    clear(s, 0)
    put(s, 0, {"A1": kind("red", "inti"), "A2": kind("red", "inti"), "A3": kind("red", "chakana")})
    set_basket(s, [kind("red", "chakana"), kind("blue", "inti")] + [kind("green", "rombo")] * 6)
    s, _ = play(s, 0, "P1B3", "P2B4")
    said = {}
    for stoppers, text in (
        ([], "C A01 red A1A2B3"),
        ([cell("A1")], "C A01 red A1A2A3"),
        ([cell("A1"), cell("A2")], "C A01 red A1A2A3"),
    ):
        s.stoppers[0] = stoppers
        with pytest.raises(IllegalMove) as caught:
            G.apply_move(s, 0, G.parse_move(text))
        said[len(stoppers)] = (str(caught.value), check_refusal(caught.value))
    assert said == {
        0: (
            "A1, A2, B3 do not make the shape of A01 Chullo (###) in any rotation or reflection",
            "A1, A2, B3 no forman la figura de A01 Chullo (###) con ningún giro ni reflejo",
        ),
        1: (
            "A1 has a stopper and cannot be part of a shape",
            "A1 tiene un tope y no puede formar parte de una figura",
        ),
        2: (
            "A1, A2 have stoppers and cannot be part of a shape",
            "A1, A2 tienen topes y no pueden formar parte de una figura",
        ),
    }


@pytest.mark.parametrize("mode", ["beginner", "apprentice", "master"])
def test_a_turn_that_did_something_is_not_told_as_ended_too(mode):
    """A turn that placed patches and then ended with `done` is told by what it did, on no line
    "ended their turn"; a turn that only ended (nothing else told) is told so."""
    s = game(2, mode)
    seat, told = s.turn, []
    while True:
        legal = G.legal_moves(s, seat)
        place = next((m for m in legal if isinstance(m, Place)), None)
        move = place if place is not None else next(m for m in legal if isinstance(m, Done))
        s, events = G.apply_move(s, seat, move)
        told.extend((e.kind, e.said) for e in events)
        if move is not place or s.turn != seat:
            break
    lines = [sentence.in_words() for line in G.tell_turn(told) for sentence in line]
    assert any("placed" in line for line in lines), lines
    assert not any("ended their turn" in line for line in lines), lines
    alone = [("done", G.rules.said("{player} ended their turn", player=G.rules.seat_word(1)))]
    assert [[x.in_words() for x in line] for line in G.tell_turn(alone)] == [["{p1} ended their turn"]]
