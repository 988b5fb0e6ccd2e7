"""Words that fit their reader: a card power told about another player has no "your", and a
player's own places are "your zone" in the menu offered to them."""

from __future__ import annotations

import pytest

import engines.guacamole as g
import languages
from engines.core import IllegalMove, Said
from engines.guacamole.words import move_words

from .helpers import rig

ES = languages.language("es")


def test_a_power_prepared_is_told_in_the_third_person():
    """Everyone read "Carol prepared 5 Tomathor (swap one of your cards with a visible card)"."""
    s = rig(hands={0: ["5T", "9L"], 1: ["4A"]})
    _, events = g.apply_move(s, 0, g.parse_move("prep 5T"))
    (told,) = [e for e in events if e.kind == "prep"]
    assert told.said is not None
    assert (
        told.said.in_words() == "{p0} prepared 5 Tomathor (swap one of their own cards with a visible card)."
    )
    assert "your" not in told.said.in_words() and "tus" not in told.said.in_words(ES)
    assert told.said.in_words(ES).endswith("(cambia una de sus cartas por una carta visible).")
    s = rig(hands={0: ["5A"], 1: []})
    _, events = g.apply_move(s, 0, g.parse_move("prep 5A"))
    (told,) = [e for e in events if e.kind == "prep"]
    assert told.said is not None and told.said.in_words().endswith(
        "(take a visible card into their own hand)."
    )


def test_a_swap_with_ones_own_zone_names_it_your_zone():
    """Bob was offered "Swap your 4 Avocaldo (hand) for 4 Aji (Bob's zone)"."""
    s = rig(hands={0: ["5T", "9L"]}, prep={0: ["4O"], 1: ["7P"]})
    s2, _ = g.apply_move(s, 0, g.parse_move("prep 5T"))
    own = move_words(s2, 0, g.parse_move("swap 9L p1z4O"))
    other = move_words(s2, 0, g.parse_move("swap 9L p2z7P"))
    place, elsewhere = own.args["place"], other.args["place"]
    assert isinstance(place, Said) and isinstance(elsewhere, Said)
    assert place.in_words() == "your zone" and place.in_words(ES) == "tu zona"
    assert elsewhere.in_words() == "{p1}'s zone"


def test_aji_keeps_its_accent_in_spanish():
    """Spanish read "preparó 5 Aji", "Preparar 5 Aji" and "5A, Aji Styles" beside the rules
    help's "Ají Styles" (the rulebook's spelling; ají is Spanish for chili)."""
    s = rig(hands={0: ["5A", "9L"], 1: ["4A"]})
    _, events = g.apply_move(s, 0, g.parse_move("prep 5A"))
    (told,) = [e for e in events if e.kind == "prep"]
    assert told.said is not None
    assert told.said.in_words(ES) == "{p0} preparó 5 Ají (toma una carta visible para su mano)."
    assert told.said.in_words() == "{p0} prepared 5 Aji (take a visible card into their own hand)."
    label = move_words(s, 0, g.parse_move("prep 5A")).full(g.WORDS, ES)
    assert label.startswith("preparar 5 Ají:"), label
    mine = [line.in_words(ES) for sec in g.describe(g.view_for(s, 0)) for line in sec.lines]
    assert "5A, Ají Styles: toma una carta visible para tu mano" in mine, mine


def test_a_card_short_in_hand_is_counted_in_times_not_as_a_bare_number():
    """Refused "dish 1P" read "no tienes 1P en tu mano, pero la jugada usa 1": the "1" read as a
    card; a card used more often than held is counted in times, and one not held is just named."""
    s = rig(hands={0: ["1P", "5A", "6A", "7A"]}, prep={0: ["5L"]}, dishes={0: [["5T", "5O", "5P"]]})
    s2, _ = g.apply_move(s, 0, g.parse_move("prep 1P"))
    refusals = {}
    for text in ("add d1 5A,5A", "add d1 z5A"):
        try:
            g.apply_move(s2, 0, g.parse_move(text))
        except IllegalMove as refusal:
            refusals[text] = refusal.said.in_words(ES)
    assert refusals == {
        "add d1 5A,5A": "la jugada usa 5A 2 veces, pero en tu mano solo hay 1; en tu mano hay: 5A, 6A, 7A"
        " (escribe z5T para una carta de la zona de preparación)",
        "add d1 z5A": "no tienes 5A en tu zona de preparación; en tu zona de preparación hay: 1P, 5L"
        " (escribe z5T para una carta de la zona de preparación)",
    }


def test_a_power_waiting_to_be_used_is_the_movers_own_in_everyones_words():
    """The board's "Now:" and the board in words ("P1 may now: use Aji Styles to take a visible
    card into your hand") said "your" to every reader, the mover's rivals and spectators too;
    they name the mover's own hand and cards, and a refusal to the mover still says "your"."""
    s = rig(hands={0: ["5A", "5T", "9L"], 1: ["4A"]}, prep={1: ["6O"]})
    aji, _ = g.apply_move(s, 0, g.parse_move("prep 5A"))
    tomathor, _ = g.apply_move(s, 0, g.parse_move("prep 5T"))
    for state, english, spanish in (
        (aji, "take a visible card into their own hand", "tomar una carta visible para su mano"),
        (
            tomathor,
            "swap one of their own cards with a visible card",
            "cambiar una de sus cartas por una carta",
        ),
    ):
        for reader in (None, 0, 1):
            view = g.view_for(state, reader)
            assert view.step_said is not None
            assert english in view.step_said.in_words() and spanish in view.step_said.in_words(ES)
            words = [line.in_words() for sec in g.describe(view) for line in sec.lines]
            assert any(line.startswith("{p0} may now: use") and english in line for line in words), words
        with pytest.raises(IllegalMove) as refusal:
            g.apply_move(state, 0, g.parse_move("draw deck"))
        assert "your" in refusal.value.said.in_words() and "tu" in refusal.value.said.in_words(ES)


def test_a_steal_from_nobody_else_says_what_was_wrong():
    """Lima Kahlo aimed at oneself or at a seat the game does not have was only told "elige a otro
    jugador: p2, p3"; the refusal says which of the two it was."""
    s = rig(players=3, hands={0: ["5L"], 1: ["1T"], 2: ["2T"]})
    s2, _ = g.apply_move(s, 0, g.parse_move("prep 5L"))
    spanish = {}
    for text in ("steal p1", "steal p5"):
        with pytest.raises(IllegalMove) as refusal:
            g.apply_move(s2, 0, g.parse_move(text))
        spanish[text] = refusal.value.said.in_words(ES)
    assert spanish == {
        "steal p1": "no puedes quitar una carta de tu propia mano; elige a otra persona: p2, p3",
        "steal p5": "esta partida no tiene asiento 5; elige a otra persona: p2, p3",
    }


def test_dishes_taken_back_in_one_turn_are_said_once_and_counted():
    """A turn may start a dish, take it back and start another: the turn's summary said "took back
    the dish they were making" once for each; it says it once, with how many when more than one."""
    s = rig(hands={0: ["5T", "5L", "6T"]}, prep={0: ["5O"]})
    events = []
    for text in ("dish z5O", "dish 5T", "cancel", "dish 5T", "cancel", "dish 6T", "cancel"):
        s, more = g.apply_move(s, 0, g.parse_move(text))
        events += more
    told = [(e.kind, e.said_for(None)) for e in events]
    lines = [
        " ".join(sentence.in_words(lang) for sentence in line)
        for lang in (None, ES)
        for line in g.tell_turn(told)
    ]
    assert lines == ["{p0} took back 3 dishes they were making", "{p0} retiró 3 platos que estaba haciendo"]
    once = [(e.kind, e.said_for(None)) for e in events[:3]]
    assert [" ".join(x.in_words() for x in line) for line in g.tell_turn(once)] == [
        "{p0} took back the dish they were making"
    ]


def test_cards_taken_from_two_discard_piles_are_told_with_one_verb():
    """ "took 2 Tomathor from discard pile 1 and took 1 Lima from discard pile 2" said the verb twice;
    the second pile follows the first without it, in both languages (a draw from the draw pile
    between them keeps its own verb)."""

    def draw(card: str, pile: int | None = None) -> tuple[str, Said]:
        if pile is None:
            return (
                "draw",
                Said("{player} drew {card} from the draw pile.", {"player": "{p0}", "card": card}),
            )
        args = {"player": "{p0}", "card": card, "pile": pile}
        return ("draw", Said("{player} took {card} from discard pile {pile}.", args))

    def lines(told: list[tuple[str, Said]], lang=None) -> list[str]:
        return [" ".join(x.in_words(lang) for x in line) for line in g.tell_turn(told)]

    piles = [draw("2T", 1), draw("1L", 2)]
    assert lines(piles) == ["{p0} took 2 Tomathor from discard pile 1 and 1 Lima from discard pile 2"]
    assert lines(piles, ES) == [
        "{p0} tomó 2 Tomathor de la pila de descarte 1 y 1 Lima de la pila de descarte 2"
    ]
    apart = [draw("2T", 1), draw("3A"), draw("1L", 2)]
    assert lines(apart) == [
        "{p0} took 2 Tomathor from discard pile 1, drew 3 Aji from the draw pile and took 1 Lima from discard pile 2"
    ]
