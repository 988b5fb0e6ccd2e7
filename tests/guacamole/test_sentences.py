"""Guacamole's sentences kept for translation: every event, refusal and outcome carries its
English template and values (engines.core.Said), reads in English exactly as its text, and
reads in Spanish through the real catalogue."""

from __future__ import annotations

import random
from functools import partial

import pytest

import engines.guacamole as g
from engines.core import (
    END,
    Event,
    GameOver,
    IllegalMove,
    MalformedMove,
    MoveError,
    NotYourTurn,
    Said,
    SetupError,
    config_options,
)
from tests.support import sentences
from tests.support.sentences import ES, placeholders, translated

from .helpers import rig, tied_before_last_draw
from .test_playouts import candidate_moves, random_move

# Guacamole's templates name their seats as values too.
check_said = partial(sentences.check_said, seats_in_values=True)
check_event = partial(sentences.check_event, seats_in_values=True)
check_refusal = partial(sentences.check_refusal, seats_in_values=True)


def check_move_words(state: g.State, seat: int, move) -> None:
    """A move's words: its templates are marked and translated, its values kept sentences or text."""
    words = g.move_words(state, seat, move)
    for message, args in ((words.text, words.args), (f"group.{words.kind}", words.group_args)):
        if message not in g.WORDS:
            continue
        template = g.WORDS[message]
        assert translated(Said(template)) and placeholders(template) == set(args), message
        for value in args.values():
            assert isinstance(value, (int, str, Said))
            if isinstance(value, Said):
                check_said(value)
    english, spanish = words.full(g.WORDS), words.full(g.WORDS, ES)
    assert english and spanish and "{" not in english.replace("{p", "")


def sentences_playout(config: g.Config, seed: int) -> tuple[int, int]:
    """Play a seeded game; check every event and a sample of refusals. Returns their counts."""
    n = config.players
    rng = random.Random(seed)
    state = g.new_game(config, n, seed)
    events = refusals = steps = 0
    while not state.over:
        (seat,) = g.to_move(state)
        legal = g.legal_moves(state, seat)
        view = g.view_for(state, seat)
        assert view.step_said is not None and view.step_said.in_words() == view.step
        check_said(view.step_said)
        if steps % 10 == 0:
            legal_set = set(legal)
            for cand in candidate_moves(state, seat, rng):
                if cand in legal_set:
                    continue
                with pytest.raises(MoveError) as caught:
                    g.apply_move(state, seat, cand)
                check_refusal(caught.value)
                refusals += 1
            with pytest.raises(NotYourTurn) as caught:
                g.apply_move(state, (seat + 1) % n, legal[0])
            check_refusal(caught.value)
            for m in legal:
                check_move_words(state, seat, m)
        move = g.computer_move(view, legal, rng) if steps % 2 else random_move(legal, rng)
        state, told = g.apply_move(state, seat, move)
        for e in told:
            check_event(e)
        events += len(told)
        steps += 1
    oc = g.outcome(state)
    assert oc is not None
    sentences.check_outcome(oc, seats_in_values=True)
    with pytest.raises(GameOver) as caught:
        g.apply_move(state, 0, g.Pass())
    check_refusal(caught.value)
    return events, refusals


@pytest.mark.parametrize("dishes_per_turn", [1, 2, 3, 0])
def test_every_event_and_refusal_of_a_playout_is_a_kept_sentence(dishes_per_turn):
    """Seeded playouts of every dish limit, 2 to 6 cooks: each event's sentences read as its text,
    and the refusals of a wide sample of moves carry their template and values."""
    events = refusals = 0
    for players in range(2, 7):
        e, r = sentences_playout(
            g.Config(players=players, dishes_per_turn=dishes_per_turn), 100 * players + 7
        )
        events, refusals = events + e, refusals + r
    assert events > 500 and refusals > 500


def es_words(e: Event, reader: int | None) -> str:
    return e.words_for(reader, ES)


def test_typical_events_in_spanish():
    s = rig(players=3, hands={0: ["5L", "1T"], 1: ["1A", "2A", "3A"], 2: ["9T"]}, deck_top=["4O"])
    s2, ev = g.apply_move(s, 0, g.parse_move("prep 5L"))
    assert es_words(ev[0], 1) == ("{p0} preparó 5 Lima (quita una carta al azar de la mano de alguien).")
    s3, ev = g.apply_move(s2, 0, g.parse_move("steal p2"))
    stolen = ev[0].text.split()[2]
    assert es_words(ev[0], 0) == f"{{p0}} quitó al azar {stolen} de la mano de {{p1}}."
    assert es_words(ev[0], 1) == es_words(ev[0], 0)
    assert es_words(ev[0], 2) == es_words(ev[0], None) == "{p0} quitó una carta al azar de la mano de {p1}."
    s4, ev = g.apply_move(s3, 0, g.parse_move("draw deck"))
    assert es_words(ev[0], 0) == "{p0} robó 4O del mazo."
    assert es_words(ev[0], 1) == "{p0} robó una carta del mazo."


def test_a_dish_served_in_spanish_names_its_kind_and_cards():
    s = rig(hands={0: ["1T", "1A"]}, prep={0: ["1L"]})
    for text in ("dish 1T", "dish z1L"):
        s, ev = g.apply_move(s, 0, g.parse_move(text))
    assert es_words(ev[0], None) == "{p0} puso 1L de su zona de preparación en el plato nuevo."
    assert g.view_for(s, 0).step_said.in_words(ES) == (
        "añadir una carta al plato nuevo (1T, 1L) con dish 1P, o cancel"
    )
    s, ev = g.apply_move(s, 0, g.parse_move("dish 1A"))
    assert "done para servirlo" in g.view_for(s, 0).step_said.in_words(ES)
    s, ev = g.apply_move(s, 0, g.Done())
    assert es_words(ev[0], None) == "{p0} sirvió el plato 1 (mismo número): 1T, 1L, 1A."


def test_refusals_in_spanish_keep_their_values():
    s = rig(hands={0: ["5L", "1T"], 1: ["1A"]})
    with pytest.raises(IllegalMove) as caught:
        g.apply_move(s, 0, g.parse_move("prep 9T"))
    assert caught.value.said.args["card"] == "9T" and caught.value.said.args["cards"] == "1T, 5L"
    assert caught.value.said.in_words(ES) == "no tienes 9T en la mano; en tu mano hay: 1T, 5L"
    s2, _ = g.apply_move(s, 0, g.parse_move("prep 5L"))
    with pytest.raises(IllegalMove) as caught:
        g.apply_move(s2, 0, g.parse_move("draw deck"))
    assert caught.value.said.in_words(ES) == (
        "ahora no puedes robar; puedes usar a Lima Kahlo para quitar una carta al azar de la mano de"
        " alguien (steal p2) o pass"
    )
    with pytest.raises(NotYourTurn) as caught:
        g.apply_move(s, 1, g.parse_move("draw deck"))
    assert caught.value.said.in_words(ES) == "es el turno de {p0}, no el tuyo"


ABILITY_STEPS = [  # each ability step: the hands, the dishes, the moves that reach it
    ("avocaldo", {0: ["1P", "5T"]}, {0: [["2T", "3T", "4T"]]}, ["prep 1P"]),
    ("lima", {0: ["1L"], 1: ["2A"]}, {}, ["prep 1L"]),
    ("onion", {0: ["1O"]}, {}, ["prep 1O"]),
    ("onion", {0: ["1O"]}, {}, ["prep 1O", "draw deck"]),
    ("onion_discard", {0: ["1O"]}, {}, ["prep 1O", "draw deck", "draw deck", "draw deck"]),
    ("tomathor", {0: ["1T", "5L"]}, {}, ["prep 1T"]),
    ("aji", {0: ["1A"]}, {}, ["prep 1A"]),
]


@pytest.mark.parametrize(("phase", "hands", "dishes", "moves"), ABILITY_STEPS)
def test_a_refusal_in_an_ability_step_reads_as_a_sentence(phase, hands, dishes, moves):
    """A move out of its step is refused with 'you may {step}': an ability's step began with the
    character's name ('you may Tomathor: swap one of your cards...', 'puedes Tomathor: cambiar...'),
    so each now begins with what the player may do ('use Tomathor to swap', 'usar a Tomathor para')."""
    s = rig(hands=hands, dishes=dishes)
    for text in moves:
        s, _ = g.apply_move(s, 0, g.parse_move(text))
    assert s.phase == phase
    with pytest.raises(IllegalMove) as caught:
        g.apply_move(s, 0, g.parse_move("end"))
    check_refusal(caught.value)
    english, spanish = str(caught.value), caught.value.said.in_words(ES)
    assert english.startswith("you cannot end the turn now; you may "), english
    may = english.split("; you may ", 1)[1]
    assert may.split()[0] in ("use", "draw", "discard") and ":" not in may, english
    assert spanish.split("; puedes ", 1)[1].split()[0] in ("usar", "robar", "descartar"), spanish


def test_pass_after_onion_musk_s_draws_says_a_card_must_be_discarded():
    """Once Onion Musk has drawn, its discard may not be declined: 'pass' says so and names a hand
    card to discard, instead of 'there is no ability to decline now' in the ability's own step."""
    s = rig(hands={0: ["1O", "6T"]}, discards=(["9A"], []), fill_deck=False, end_triggered=True)
    for text in ("prep 1O", "draw x1"):  # the only card left: the draws end, the discard is due
        s, _ = g.apply_move(s, 0, g.parse_move(text))
    with pytest.raises(IllegalMove) as caught:
        g.apply_move(s, 0, g.parse_move("pass"))
    check_refusal(caught.value)
    assert (
        str(caught.value) == "Onion Musk's draws are made, so a hand card must be discarded (discard 6T x1)"
    )
    assert "discard 6T x1" in {str(m) for m in g.legal_moves(s, 0)}
    assert caught.value.said.in_words(ES) == (
        "los robos de Onion Musk ya se hicieron, así que debes descartar una carta de la mano (discard 6T x1)"
    )


def test_a_refusal_about_the_asker_s_own_dish_or_zone_says_you():
    """Tomathor's swap naming the player's own missing dish or zone card is said to them as 'you',
    not in the third person ('Ana has no dish 1...' told to Ana); another player's stays named."""
    s = rig(hands={0: ["1T", "5L"]}, prep={1: ["4O"]})
    s, _ = g.apply_move(s, 0, g.parse_move("prep 1T"))
    for text, english, spanish in (
        ("swap p1d1 x1", "you have no dish 1 with cards;", "no tienes un plato 1 con cartas;"),
        ("swap 5L p1d1", "you have no dish 1 with cards;", "no tienes un plato 1 con cartas;"),
        (
            "swap p1z9A x1",
            "your preparation zone has no 9A (it holds 1T);",
            "tu zona de preparación no tiene 9A (tiene: 1T);",
        ),
        ("swap 5L p2d1", "{p1} has no dish 1 with cards;", "{p1} no tiene un plato 1 con cartas;"),
    ):
        with pytest.raises(IllegalMove) as caught:
            g.apply_move(s, 0, g.parse_move(text))
        check_refusal(caught.value)
        assert str(caught.value).startswith(english), str(caught.value)
        assert caught.value.said.in_words(ES).startswith(spanish), caught.value.said.in_words(ES)


def test_counts_in_spanish_take_their_plural():
    full = rig(hands={0: ["5L"]}, prep={0: ["1T", "2T", "3T", "4T"]}, prep_at_start=4)
    with pytest.raises(IllegalMove) as caught:
        g.apply_move(full, 0, g.parse_move("prep 5L"))
    assert "(4 cartas); primero libera una" in caught.value.said.in_words(ES)
    for limit, spanish in (
        (1, "puedes hacer 1 plato nuevo por turno"),
        (2, "puedes hacer 2 platos nuevos por turno"),
    ):
        s = rig(hands={0: ["1T", "2T", "3T", "7A", "8A", "9A", "5O"]}, dishes_per_turn=limit)
        for k in range(limit):
            for code in (("1T", "2T", "3T"), ("7A", "8A", "9A"))[k]:
                s, _ = g.apply_move(s, 0, g.parse_move(f"dish {code}"))
            s, _ = g.apply_move(s, 0, g.Done())
        with pytest.raises(IllegalMove) as caught:
            g.apply_move(s, 0, g.parse_move("dish 5O"))
        assert caught.value.said.args["n"] == limit
        assert caught.value.said.in_words(ES).startswith(spanish)
    with pytest.raises(SetupError) as caught:
        g.new_game(g.Config(players=3), 2, 1)
    assert caught.value.said.in_words(ES) == "la configuración es para 3 jugadores, pero se dieron 2 asientos"
    with pytest.raises(SetupError) as caught:
        g.Config(players=7).validate()
    assert caught.value.said.in_words(ES) == "Guacamole se juega con 2 a 6 jugadores, no con 7"


@pytest.mark.parametrize("text", ["prep 9Z", "flip 5T", "", "dish 5T 6T"])
def test_bad_notation_in_spanish_names_the_text_and_the_notation(text):
    with pytest.raises(MalformedMove) as caught:
        g.parse_move(text)
    told = caught.value.said
    check_refusal(caught.value)
    spanish = told.in_words(ES)
    assert spanish.startswith(f"{told.args['text']} no es una jugada de Guacamole: ")
    assert "Las jugadas se escriben así: prep 5T | free 5T x1" in spanish
    assert "is not" not in spanish


def test_the_end_and_the_outcome_in_spanish():
    shared = tied_before_last_draw()
    end, ev = g.apply_move(shared, 1, g.parse_move("draw x1"))
    assert ev[-1].kind == END
    assert es_words(ev[-1], None) == (
        "La partida terminó. Puntos: {p0} 4, {p1} 4. {p0} y {p1} comparten la victoria."
    )
    oc = g.outcome(end)
    assert oc.reason_in(ES) == "se acabó el mazo y se completó la ronda" and oc.tiebreak_in(ES) is None
    alone = rig(players=2, discards=(["1A"], []), fill_deck=False, turn=1, dishes={1: [["1T", "2T", "3T"]]})
    end, ev = g.apply_move(alone, 1, g.parse_move("draw x1"))
    assert es_words(ev[-1], None).endswith("Gana {p1}.")
    s = rig(
        players=2,
        discards=(["1A"], []),
        fill_deck=False,
        turn=1,
        dishes={0: [["1P", "2P", "3P"], ["7O", "8O", "9O"]], 1: [["1T", "2T", "3T", "4T", "5T", "6T", "7T"]]},
    )
    end, _ = g.apply_move(s, 1, g.parse_move("draw x1"))
    oc = g.outcome(end)
    assert (
        oc.tiebreak == "more dishes ({p0} 2, {p1} 1)" and oc.tiebreak_in(ES) == "más platos ({p0} 2, {p1} 1)"
    )


def test_the_seats_own_holdings_in_spanish():
    s = rig(hands={0: ["5L", "1T"], 1: []}, prep={1: ["2P"]})
    assert g.summary(g.view_for(s, None)) == ""
    assert g.summary(g.view_for(s, 0)).in_words(ES) == "Tu mano (2): 1T 5L\nTu zona: vacía; tus puntos: 0"
    assert g.summary(g.view_for(s, 1)).in_words(ES) == "Tu mano (0): vacía\nTu zona: 2P; tus puntos: 0"
    assert isinstance(g.summary(g.view_for(s, 1)), Said)


def test_the_card_lima_kahlo_took_in_spanish():
    """The victim's and the thief's own holdings name the card taken, in Spanish too."""
    s = rig(players=3, hands={0: ["5L"], 1: ["1A"], 2: ["9T"]})
    s, _ = g.apply_move(s, 0, g.parse_move("prep 5L"))
    s, _ = g.apply_move(s, 0, g.parse_move("steal p2"))
    victim, thief = g.summary(g.view_for(s, 1)), g.summary(g.view_for(s, 0))
    assert victim.in_words(ES).endswith("\nLima Kahlo: {p0} te quitó 1A de la mano.")
    assert thief.in_words(ES).endswith("\nLima Kahlo: quitaste 1A de la mano de {p1}.")
    for said_ in (victim, thief):
        sentences.check_said(said_)
    assert "1A" not in g.summary(g.view_for(s, 2)).in_words(ES)


def test_moves_in_words_in_spanish():
    s = rig(hands={0: ["5L", "6T"]}, prep={0: ["5T"]}, dishes={0: [["2T", "3T", "4T"]]})
    labels = {str(m): g.move_words(s, 0, m).full(g.WORDS, ES) for m in g.legal_moves(s, 0)}
    assert labels["prep 5L"] == "preparar 5 Lima: quita una carta al azar de la mano de alguien"
    assert labels["dish z5T"] == "empezar un plato con 5 Tomathor de tu zona"
    assert labels["dish 6T"] == "empezar un plato con 6 Tomathor de tu mano"
    assert labels["draw deck"] == "robar del mazo"
    s2 = rig(hands={0: ["1P", "6T"]}, prep={0: ["5T"]}, dishes={0: [["2T", "3T", "4T"]]})
    s3, _ = g.apply_move(s2, 0, g.parse_move("prep 1P"))
    adds = {str(m): g.move_words(s3, 0, m).full(g.WORDS, ES) for m in g.legal_moves(s3, 0)}
    assert adds["add d1 6T,z5T"] == "añadir 6 Tomathor, 5 Tomathor (zona) a tu plato 1"
    assert g.move_words(s3, 0, g.Pass()).full(g.WORDS, ES) == "no usar la habilidad"


def test_the_rules_help_and_the_option_in_spanish():
    spanish = ES.gettext(g.RULES_HELP)
    assert spanish != g.RULES_HELP and len(spanish) <= 2000
    for notation in (
        "`prep 5T`",
        "`free 5T x1`",
        "`add d1 6T,z7T`",
        "`steal p2`",
        "`swap 5T p2d1`",
        "`take x2`",
    ):
        assert notation in spanish
    assert "**Turno**" in spanish and "zona de preparación" in spanish
    (option,) = config_options(g.Config)
    assert ES.gettext(option.help) == "cuántos platos nuevos se pueden hacer en un turno (0 = sin límite)"
    assert ES.gettext(g.WORDS["option.dishes_per_turn"], value=2) == "hasta 2 platos nuevos por turno"


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ,; ",
        "prep",
        "prep 5Z",
        "free 5T",
        "free 5T x3",
        "dish 5T 6T",
        "dish",
        "dish 0T",
        "add d1",
        "add x 5T",
        "add d1 5T,6T,7T,8T",
        "steal",
        "steal p9",
        "swap 5T",
        "swap x1 p1d1",
        "take",
        "take 5T",
        "draw",
        "draw x3",
        "discard 5T",
        "discard 5T x5",
        "pass now",
        "end 1",
        "done 5T",
        "cancel it",
        "eat 5T",
    ],
)
def test_every_bad_notation_is_refused_in_a_kept_sentence(text):
    with pytest.raises(MalformedMove) as caught:
        g.parse_move(text)
    check_refusal(caught.value)
    assert caught.value.said.args["help"].in_words(ES).startswith("Las jugadas se escriben así:")
    assert " no es una jugada de Guacamole: " in caught.value.said.in_words(ES)


def refusal(state, seat, move) -> MoveError:
    with pytest.raises(MoveError) as caught:
        g.apply_move(state, seat, move)
    check_refusal(caught.value)
    return caught.value


def test_the_rarer_refusals_are_kept_sentences():
    s = rig(
        players=3,
        hands={0: ["5L", "1P", "4T"], 1: ["1T"], 2: ["2T"]},
        dishes={0: [["1A", "3O", "5T"], ["1T", "2T", "3T"]]},
    )
    assert refusal(s, 5, g.Pass()).said.args == {"seat": "5"}
    assert refusal(s, 0, object()).said.msg == "{move} is not a Guacamole move"
    lima, _ = g.apply_move(s, 0, g.parse_move("prep 5L"))
    assert (
        refusal(lima, 0, g.Steal(0)).said.in_words(ES)
        == "no puedes quitar una carta de tu propia mano; elige a otra persona: p2, p3"
    )
    avocaldo, _ = g.apply_move(s, 0, g.parse_move("prep 1P"))
    assert refusal(avocaldo, 0, g.Add(1, ("5L",))).said.in_words(ES) == (
        "tu plato 1 no es válido, así que no admite cartas; tus platos válidos son: d2"
    )
    assert refusal(avocaldo, 0, g.Add(1, ())).said.args["n"] == 0
    assert (
        refusal(avocaldo, 0, g.Add(3, ("4T",))).said.in_words(ES)
        == "no tienes plato 3; tus platos válidos son: d2"
    )
    aji = rig(players=2, hands={0: ["5A"]})
    aji, _ = g.apply_move(aji, 0, g.parse_move("prep 5A"))
    assert refusal(aji, 0, g.parse_move("take p3d1")).said.args["number"] == 3
    full = rig(hands={0: ["5L"]}, prep={0: ["1T", "2T", "3T", "4T"]}, prep_at_start=3)
    assert refusal(full, 0, g.parse_move("prep 5L")).said.in_words(ES).endswith("espera a que haya lugar")
    with pytest.raises(SetupError) as caught:
        g.Config(dishes_per_turn=5).validate()
    check_refusal(caught.value)
    with pytest.raises(SetupError) as caught:
        g.from_dict({**g.to_dict(rig()), "schema": 99})
    check_refusal(caught.value)
    assert caught.value.said.args["schema"] == "99"
    with pytest.raises(SetupError) as caught:
        g.new_game(g.Config(players=2), 3, 1)
    check_refusal(caught.value)


def test_a_steal_from_an_empty_hand_and_a_shared_win_are_kept_sentences():
    s = rig(players=3, hands={0: ["5L"], 1: [], 2: ["9A"]})
    s, ev = g.apply_move(s, 0, g.parse_move("prep 5L"))
    s, ev = g.apply_move(s, 0, g.parse_move("steal p2"))
    check_event(ev[-1])
    assert es_words(ev[-1], 1) == "{p0} intentó quitarle una carta a {p1}, pero su mano está vacía."
    three = rig(
        players=3,
        hands={0: ["9L"], 1: ["9T"]},
        discards=(["1A"], []),
        fill_deck=False,
        turn=2,
        dishes={0: [["1P", "2P", "3P"]], 1: [["1T", "2T", "3T"]], 2: [["1O", "2O", "3O"]]},
    )
    _, ev = g.apply_move(three, 2, g.parse_move("draw x1"))
    check_event(ev[-1])
    assert "{p0}, {p1} y {p2} comparten la victoria" in es_words(ev[-1], None)
    assert "{p0}, {p1} and {p2} share the win" in ev[-1].text


def test_the_rules_help_tells_how_the_last_round_draws_and_ends_a_turn():
    """Once the draw pile is empty, draws come from the discard piles, and with every pile empty
    a turn ends with `end` (the only way then): the rules help says both, in English and Spanish."""
    s = rig(hands={0: ["5O", "1T"]}, discards=([], []), fill_deck=False, end_triggered=True)
    assert g.legal_moves(s, 0)[-1] == g.End() and not any(isinstance(m, g.Draw) for m in g.legal_moves(s, 0))
    english = "Once the draw pile is empty, draw from the discard piles; with nothing left, `end` the turn."
    spanish = "Sin mazo, roba de las pilas de descarte; si no queda nada, termina el turno con `end`."
    assert english in g.RULES_HELP
    assert spanish in ES.gettext(g.RULES_HELP)


def test_a_prepared_cards_ability_reads_alike_for_every_type_in_spanish():
    """What another player's prep did read "preparó 2 Tomathor (cambiar una carta propia por una
    carta visible)" beside "preparó 1 Lima (quita una carta al azar ...)": every type's ability is
    now told in the third person present, as Lima's, Onion's and Avocaldo's are."""
    told = {code: said.in_words(ES) for code, said in g.data.ABILITIES_TOLD.items()}
    assert told == {
        "P": "añade hasta 3 cartas a un plato válido",
        "L": "quita una carta al azar de la mano de alguien",
        "O": "roba 3 y luego descarta 1",
        "T": "cambia una de sus cartas por una carta visible",
        "A": "toma una carta visible para su mano",
    }


def test_the_rules_help_says_the_starting_discards_by_player_count():
    """/rules never said how many cards start on each discard pile (12 with 2-3 players, 6 with
    4-6: the rulebook's setup, as new_game deals them); it says both, in English and Spanish."""
    dealt = {n: g.new_game(g.Config(players=n), n, 3).discards for n in range(2, 7)}
    assert {n: [len(pile) for pile in piles] for n, piles in dealt.items()} == {
        2: [12, 12],
        3: [12, 12],
        4: [6, 6],
        5: [6, 6],
        6: [6, 6],
    }
    english = next(line for line in g.RULES_HELP.splitlines() if line.startswith("**Setup**"))
    spanish = next(
        line for line in ES.gettext(g.RULES_HELP).splitlines() if line.startswith("**Preparación**")
    )
    assert "12 cards each with 2-3 players, of 6 each with 4-6" in english
    assert "12 cartas cada una con 2-3 jugadores, de 6 con 4-6" in spanish


def _rules_help_line(text: str, start: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(start))


RULINGS_TOLD = {
    # a run does not go round from 9 to 1
    "no wrap": (("2.", "a run (no 9-1 wrap)"), ("2.", "escalera (sin pasar de 9 a 1)")),
    # only a card prepared from hand fires its ability, not one Tomathor puts in a zone
    "only prep fires": (
        ("**Powers**", "fire only on `prep`, not when Tomathor swaps a card into a zone"),
        ("**Habilidades**", "se activan solo con `prep`, no si Tomathor lleva la carta a una zona"),
    ),
    # a hand holds any number of cards
    "no hand limit": (("3.", "(no hand limit)"), ("3.", "(sin límite de mano)")),
    # Onion Musk's three draws mix the draw pile and both discard piles
    "onion mix": (
        ("• O Onion Musk", "three `draw …` (`deck`, `x1`, `x2` in any mix)"),
        ("• O Onion Musk", "tres `draw …` (`deck`, `x1`, `x2`, a tu gusto)"),
    ),
}


@pytest.mark.parametrize("ruling", sorted(RULINGS_TOLD))
def test_the_rules_help_tells_the_rulings_that_change_play(ruling):
    """Four rulings of DECISIONS.md that /rules left out, each said in its line of the guide in
    English and Spanish, and each what the engine does."""
    (en_line, english), (es_line, spanish) = RULINGS_TOLD[ruling]
    assert english in _rules_help_line(g.RULES_HELP, en_line)
    assert spanish in _rules_help_line(ES.gettext(g.RULES_HELP), es_line)
    if ruling == "no wrap":
        assert g.data.dish_kind(["8T", "9L", "1O"]) is None
        assert g.data.dish_kind(["7T", "8L", "9O"]) == "straight"
    elif ruling == "only prep fires":
        s = rig(hands={0: ["5T", "2L"]}, prep={1: ["6O"]})
        s = g.apply_move(s, 0, g.parse_move("prep 5T"))[0]
        s = g.apply_move(s, 0, g.parse_move("swap 2L p2z6O"))[0]
        assert s.phase == "main" and [g.data.card_code(c) for c in s.prep[1]] == ["2L"]
    elif ruling == "no hand limit":
        hand = [f"{n}{t}" for t in "PLOTA" for n in range(1, 5)]  # 20 cards
        s = rig(hands={0: hand})
        for _ in range(2):
            s = g.apply_move(s, 0, g.parse_move("draw deck"))[0]
        assert len(s.hands[0]) == 22 and s.turn == 1 and s.phase == "main"
    else:
        s = rig(hands={0: ["5O"]}, discards=(["1A", "2A"], ["3P", "4P"]))
        for move in ("prep 5O", "draw deck", "draw x1", "draw x2"):
            s = g.apply_move(s, 0, g.parse_move(move))[0]
        assert s.phase == "onion_discard" and len(s.hands[0]) == 3


def test_the_spanish_rules_help_serves_and_takes_back_a_dish_in_the_catalogue_s_words():
    """The Spanish guide closed a dish ('ciérralo') and undid it ('deshazlo', the word of /game
    undo) where the menus and turn posts serve ('servir') and take it back ('retirar'); it called a
    broken dish 'inválido' (the board says 'no válido') and a discard pile 'descarte'."""
    spanish = ES.gettext(g.RULES_HELP)
    step = _rules_help_line(spanish, "2.")
    assert "sírvelo con `done` o retíralo con `cancel`" in step
    assert (
        ES.gettext("serve the dish") == "servir el plato"
        and ES.gettext("take the dish back") == "retirar el plato"
    )
    for wrong in ("ciérralo", "deshaz", "inválido", "cada descarte"):
        assert wrong not in spanish, wrong
    visible = _rules_help_line(spanish, "Cartas visibles")
    assert "pilas de descarte `x1` `x2`" in visible and "deja de ser válido" in visible
