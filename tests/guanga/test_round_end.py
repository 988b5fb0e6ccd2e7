"""A player who cannot place the two basket patches at the start of their turn, with 2-4 players:
by default (``cannot_place=finish_round``) the round is completed, as the rulebook completes it
when the workshop ends the game, so every seat has as many turns; ``end_now`` ends the game at
once, as the solo version always does (the option is refused in solo)."""

from __future__ import annotations

import dataclasses

import pytest

from engines import guanga as G
from engines.core import IllegalMove, NotYourTurn, SetupError, config_from_options, jsonable
from engines.guanga.ai import determinize
from engines.guanga.rules import Buy, Done, Refresh, Stuck, legal_kinds, legal_moves
from tests.support.sentences import ES, check_event, check_refusal

from .util import (
    BLU_IN,
    RED_CH,
    RED_IN,
    cell,
    conserved,
    game,
    kind,
    play,
    set_basket,
    set_market,
)

STUCK_REASON = "at the start of {p1}'s turn the basket patches could not be placed"


def stuck_at_seat_1(option: Stuck = Stuck.FINISH_ROUND, shells=(0, 0, 1)):
    """Three players in apprentice, seat 0 to move: pile and bag are empty and the basket holds a
    red chakana, a blue inti and a red inti, so once seat 0 takes the first two (``P1A2``,
    ``P2A3``) the red inti is left alone and seat 1 cannot place two patches.  No market cards,
    so nothing is claimed; the seats' shells are ``shells``."""
    s = G.new_game(G.Config(players=3, mode=G.Mode.APPRENTICE, cannot_place=option), 3, 5)
    for seat in range(3):
        s, _ = G.apply_move(s, seat, G.parse_move(f"keep {s.orders_dealt[seat][0]}"))
    set_market(s, [])
    set_basket(s, [RED_CH, BLU_IN, RED_IN, None, None, None, None, None])
    s.guangas[0][cell("A1")].extend(s.pile + s.bag)  # the whole supply is woven: nothing to draw
    s.pile, s.bag = [], []
    s.shells = list(shells)
    assert conserved(s) and G.to_move(s) == {0} and s.turns == 0
    return s


def test_by_default_the_round_is_completed_after_a_player_cannot_place():
    """Seat 1 cannot place: it passes, the end is triggered, seat 2 still plays its turn (a bought
    patch), and the game ends after seat 2, every seat having had one turn."""
    s = stuck_at_seat_1()
    s, events = play(s, 0, "P1A2", "P2A3")
    assert not s.finished and G.to_move(s) == {2} and s.turn == 2 and s.phase == "stuck"
    assert s.end_triggered and s.stuck == 1 and s.turns == 2  # seat 1's pass counts
    told = [(e.kind, e.said.in_words()) for e in events]
    assert (
        "trigger",
        "{p1} cannot place the two basket patches and passes: the game ends when this round is complete.",
    ) in told
    assert ("stuck", "{p2} cannot place the two basket patches this turn.") in told
    for e in events:
        check_event(e)
    # Seat 2 cannot place either, but has a shell: it may buy a patch, refresh the basket or pass.
    assert set(legal_kinds(s, 2)) == {"Buy", "Refresh", "Done"}
    legal = legal_moves(s, 2)
    assert {type(m) for m in legal} == {Buy, Refresh, Done}
    with pytest.raises(IllegalMove, match="only after taking and placing your two patches"):
        G.apply_move(s, 2, G.parse_move("C A01 red A1A2A3"))
    for text in ("P3B2", "P1A1"):
        with pytest.raises(IllegalMove) as refused:
            G.apply_move(s, 2, G.parse_move(text))
        assert refused.value.said.in_words() == (
            "the two basket patches cannot be placed this turn; now (unable to place the two basket "
            "patches) you may: buy a patch with shells (S3A1); end your turn (done); refresh the basket"
        )
        check_refusal(refused.value)
    with pytest.raises(NotYourTurn):
        G.apply_move(s, 1, G.parse_move("done"))  # seat 1's turn is over
    s, events = play(s, 2, "S3B2")
    assert s.guangas[2][cell("B2")] == [RED_IN] and s.shells[2] == 0
    assert s.finished and s.phase == "over" and s.turns == 3  # one turn each: 3 seats, 1 round
    assert s.end_reason == STUCK_REASON + ", and the round was completed"
    assert [e.kind for e in events][-1] == "end"
    out = G.outcome(s)
    assert out is not None and out.reason == s.end_reason
    assert G.view_for(s, None).final_scores == tuple(int(x) for x in out.scores)
    assert conserved(s)


def test_a_seat_with_nothing_to_do_passes_with_done_and_the_game_ends_after_the_last_seat():
    """Seat 2, offered a buy, a refresh or done, passes: the pass is said and the game ends."""
    s = stuck_at_seat_1()
    s, _ = play(s, 0, "P1A2", "P2A3")
    s, events = play(s, 2, "done")
    told = [(e.kind, e.said.in_words()) for e in events]
    assert told[0] == ("pass", "{p2} cannot place the two basket patches and passes.")
    assert told[-1] == ("end", f"The game is over: {STUCK_REASON}, and the round was completed.")
    assert s.finished and s.turns == 3 and s.guangas[2][cell("B2")] == []
    for e in events:
        check_event(e)


def test_seats_with_nothing_allowed_pass_by_themselves():
    """No shells anywhere: seats 1 and 2 pass at once, and the game ends with seat 0's move."""
    s = stuck_at_seat_1(shells=(0, 0, 0))
    s, events = play(s, 0, "P1A2", "P2A3")
    assert s.finished and s.turns == 3 and s.stuck == 1
    kinds = [e.kind for e in events]
    assert kinds[-4:] == ["trigger", "pass", "score", "end"]  # (score: the secret orders revealed)
    assert events[-3].said.in_words() == "{p2} cannot place the two basket patches and passes."


def test_a_seat_that_cannot_place_claims_nothing_even_after_buying_a_patch():
    """Seat 2 cannot place, holds A01 Chullo's shape in red and a shell: the bought patch does not
    make the take possible, so there is still no take, hence no claim; the turn (and the game,
    the round being over) ends by itself."""
    s = stuck_at_seat_1()
    set_market(s, ["A01"])
    supply = s.guangas[0][cell("A1")]
    for name in ("A1", "A2", "A3"):
        supply.remove(RED_IN)
        s.guangas[2][cell(name)].append(RED_IN)
    s, _ = play(s, 0, "P1A2", "P2A3")
    assert G.to_move(s) == {2} and s.phase == "stuck"
    s, _ = play(s, 2, "S3B2")
    assert s.finished and s.claimed[2] == [] and s.markers["red"] == 2
    assert conserved(s)


def test_the_last_seat_that_cannot_place_ends_the_round_at_once():
    """When the seat that cannot place is the round's last, its pass completes the round."""
    s = stuck_at_seat_1(shells=(0, 0, 0))
    # seat 1 plays the turn that leaves the basket unusable; seat 2 is the one stuck
    s.turn = 1
    s, events = play(s, 1, "P1A2", "P2A3")
    assert s.finished and s.stuck == 2
    assert [e.kind for e in events][-3:] == ["pass", "score", "end"]  # (score: the orders revealed)
    assert s.end_reason == (
        "at the start of {p2}'s turn the basket patches could not be placed, and the round was completed"
    )


def test_end_now_ends_the_game_at_once_as_before():
    """cannot_place=end_now: the game ends at the start of seat 1's turn; seat 2 never plays."""
    s = stuck_at_seat_1(Stuck.END_NOW)
    s, events = play(s, 0, "P1A2", "P2A3")
    assert s.finished and s.turns == 1 and s.stuck is None
    assert s.end_reason == STUCK_REASON
    assert [e.kind for e in events][-1] == "end"
    assert not any(e.kind in ("trigger", "pass", "stuck") for e in events)
    assert G.legal_moves(s, 2) == []


def test_the_board_says_the_round_is_the_last():
    """Once a seat could not place, the view and the board in words say this round is the last,
    as they say it when the workshop ends the game."""
    s = stuck_at_seat_1()
    before = G.describe(G.view_for(s, None))
    s, _ = play(s, 0, "P1A2", "P2A3")
    view = G.view_for(s, 2)
    assert view.end_triggered and view.stuck == 1 and view.cannot_place == "finish_round"
    last = "The end is triggered: this round is the last."
    lines = [line.in_words() for section in G.describe(view) for line in section.lines]
    assert last in lines
    assert "{p2} cannot place the two basket patches; they may use shells, then pass" in lines  # no stoppers
    assert last not in [line.in_words() for section in before for line in section.lines]


@pytest.mark.parametrize(
    ("mode", "stoppers", "may"),
    [
        ("apprentice", False, "they may use shells, then pass"),
        ("apprentice", True, "they may use shells or stoppers, then pass"),
        ("beginner", True, "they may put stoppers, then pass"),
        ("master", False, "they may use shells, then pass"),
    ],
)
def test_a_seat_that_cannot_place_is_offered_in_words_only_what_its_game_has(mode, stoppers, may):
    """The board in words names what the stuck seat may try: shells (not in Beginner), stoppers
    (with the variant)."""
    s = stuck_at_seat_1()
    s, _ = play(s, 0, "P1A2", "P2A3")
    view = dataclasses.replace(G.view_for(s, 2), mode=mode, stoppers_variant=stoppers)
    lines = [line.in_words() for section in G.describe(view) for line in section.lines]
    assert f"{{p2}} cannot place the two basket patches; {may}" in lines


def test_saved_and_sampled_states_keep_the_option_and_the_stuck_seat():
    s = stuck_at_seat_1()
    s, _ = play(s, 0, "P1A2", "P2A3")
    back = G.from_dict(G.to_dict(s))
    assert back.config.cannot_place is Stuck.FINISH_ROUND and back.stuck == 1
    assert G.to_dict(back) == G.to_dict(s)
    old = G.to_dict(stuck_at_seat_1(Stuck.END_NOW))
    assert old["config"]["cannot_place"] == "end_now"
    del old["config"]["cannot_place"], old["stuck"]  # a save from before the option
    loaded = G.from_dict(old)
    assert loaded.config.cannot_place is Stuck.FINISH_ROUND and loaded.stuck is None
    import random

    sampled = determinize(G.view_for(s, 2), random.Random(1))
    assert sampled.config.cannot_place is Stuck.FINISH_ROUND and sampled.stuck == 1
    assert jsonable(G.view_for(sampled, 2)) == jsonable(G.view_for(s, 2))


def test_the_option_is_refused_in_solo():
    """Solo always ends at once: end_now there is refused, saying why; the default is accepted
    and changes nothing."""
    with pytest.raises(SetupError, match="for 2 to 4 players") as refused:
        config_from_options(G.Config, 1, {"cannot_place": "end_now"})
    assert refused.value.said.in_words(ES).startswith("no_puede_colocar es una opción para 2 a 4 jugadores")
    with pytest.raises(SetupError, match='one of finish_round, end_now, not "later"'):
        config_from_options(G.Config, 3, {"cannot_place": "later"})
    with pytest.raises(SetupError, match="cannot_place must be finish_round or end_now"):
        G.Config(players=3, cannot_place="later").validate()  # type: ignore[arg-type]
    assert config_from_options(G.Config, 1, {}).cannot_place is Stuck.FINISH_ROUND
    assert config_from_options(G.Config, 2, {"cannot_place": "end_now"}).cannot_place is Stuck.END_NOW


def test_the_options_words_are_translated():
    assert ES.gettext(G.WORDS["option.cannot_place.end_now"]) == (
        "la partida termina de inmediato cuando alguien no puede colocar"
    )
    assert ES.gettext(G.WORDS["option.cannot_place.finish_round"]) == (
        "se completa la ronda cuando alguien no puede colocar"
    )
    assert ES.has(G.Config.__dataclass_fields__["cannot_place"].metadata["help"])


def test_the_picture_tells_the_seat_that_cannot_place():
    """The board's status line for a seat that cannot place offers what an apprentice game without
    stoppers has (shells, not stoppers): in English and Spanish, a PNG."""
    from renderers.guanga import _header, render
    from renderers.translation import speaking

    s = stuck_at_seat_1()
    s, _ = play(s, 0, "P1A2", "P2A3")
    view = G.view_for(s, 2)
    assert view.phase == "stuck" and view.turn == 2  # Bea, without shells, has passed
    for language, said in (
        ("en", "Cleo cannot place: shells or pass"),
        ("es", "Cleo no puede colocar: conchas o pasar"),
    ):
        with speaking(language):
            status = "".join(text for text, _ in _header(view, ["Ana", "Bea", "Cleo"], None).status)
        assert status == said
        png = render(view, names=["Ana", "Bea", "Cleo"], language=language)
        assert png.startswith(b"\x89PNG")


REDS = [kind("red", symbol) for symbol in ("chakana", "inti", "amaru", "kuntur", "rombo")] * 2


def last_seat_stuck(vain_refreshes: int = 0):
    """Two players in apprentice (3 shells each): seat 0 places two patches and ends its turn
    with a basket of 8 red patches, so seat 1, the round's last, cannot place two patches that
    differ in colour.  The next ``vain_refreshes`` baskets of the pile are red too."""
    s = game(2, "apprentice")
    set_basket(s, [RED_CH, BLU_IN, *REDS[2:8]])
    s, _ = play(s, 0, "P1B3", "P2B4")
    set_basket(s, REDS[:8])
    for k in REDS[: 8 * vain_refreshes]:
        s.pile.remove(k)
        s.pile.append(k)  # the pile's top
    s, events = play(s, 0, "done")
    assert G.to_move(s) == {1} and s.phase == "stuck" and conserved(s)
    return s, events


def test_the_last_seat_that_cannot_place_is_told_the_game_ends():
    """Seat 1 is the round's last and has shells: the post says the game ends with the round."""
    s, events = last_seat_stuck()
    assert s.end_triggered and s.stuck == 1
    told = [(e.kind, e.said.in_words()) for e in events]
    assert told[-1] == (
        "trigger",
        "{p1} cannot place the two basket patches: the game ends when this round is complete.",
    )


def test_a_refresh_that_makes_the_take_possible_lifts_the_end():
    """Seat 1 refreshes the basket, now able to take two patches: the end is lifted and said,
    the turn is a normal one, and the game goes on to seat 0's next turn."""
    s, _ = last_seat_stuck()
    s, events = play(s, 1, "refresh")
    assert s.phase == "place1" and not s.end_triggered and s.stuck is None
    assert (
        "lifted",
        "{p1} can now place two basket patches: the game no longer ends with this round.",
    ) in [(e.kind, e.said.in_words()) for e in events]
    for e in events:
        check_event(e)
    moves = [m for m in legal_moves(s, 1) if type(m).__name__ == "Place"]
    s, _ = play(s, 1, str(moves[0]))
    s, _ = play(s, 1, str(next(m for m in legal_moves(s, 1) if type(m).__name__ == "Place")))
    s, _ = play(s, 1, "done")
    assert not s.finished and G.to_move(s) == {0} and s.turns == 2
    assert "The end is triggered: this round is the last." not in [
        line.in_words() for section in G.describe(G.view_for(s, None)) for line in section.lines
    ]


def test_a_vain_refresh_leaves_the_seat_stuck_and_another_may_free_it():
    """The first refresh draws 8 red patches again: the seat is still stuck and the end stands;
    the second makes the take possible and lifts it."""
    s, _ = last_seat_stuck(vain_refreshes=1)
    s, events = play(s, 1, "refresh")
    assert s.phase == "stuck" and s.end_triggered and s.stuck == 1 and s.shells[1] == 2
    assert "lifted" not in [e.kind for e in events]
    s, events = play(s, 1, "refresh")
    assert s.phase == "place1" and not s.end_triggered and s.shells[1] == 1
    assert [e.kind for e in events][-1] == "lifted"


def test_a_seat_that_stays_stuck_passes_and_the_game_ends():
    """After a vain refresh the seat passes: the end it triggered stands, and the round is over."""
    s, _ = last_seat_stuck(vain_refreshes=1)
    s, events = play(s, 1, "refresh", "done")
    assert s.finished and s.stuck == 1 and s.turns == 2
    assert [e.kind for e in events][-3:] == ["pass", "score", "end"]  # (score: the orders revealed)
    assert s.end_reason == (
        "at the start of {p1}'s turn the basket patches could not be placed, and the round was completed"
    )
