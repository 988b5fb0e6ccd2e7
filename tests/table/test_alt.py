"""Alt text fits Discord's 1,024 characters, cut at a sentence, plain (no markdown, no mentions)."""

from __future__ import annotations

import random
from dataclasses import replace

from bot import alt, texts
from bot.describe import described
from bot.records import MoveRecord
from bot.surface.attach import picture
from engines.core import Event, config_from_options
from engines.guanga.rules import breakdown
from languages import language
from tests.guacamole.helpers import rig
from tests.table.test_guacamole_told_cards import CODE
from tests.table.test_turn_posts import session_for


def test_whole_sentences_that_fit_are_kept_and_the_rest_left_out():
    sentences = [f"Sentence number {i} says something." for i in range(100)]
    text = alt.fit(sentences)
    assert len(text) <= alt.LIMIT
    assert text.endswith("says something.")  # cut at a sentence, never inside one
    kept = text.count("Sentence number")
    assert text == " ".join(sentences[:kept]) and len(" ".join(sentences[: kept + 1])) > alt.LIMIT


def test_one_sentence_longer_than_the_limit_is_cut_at_a_word():
    text = alt.fit(["word " * 400])
    assert len(text) <= alt.LIMIT and text.endswith("word…")


def test_plain_drops_markdown_and_mentions_and_makes_lines_sentences():
    assert alt.plain("**League**: round 2\n<@123> won `A1`") == "League: round 2. Won A1."


def test_from_text_cuts_long_words_at_a_sentence():
    lines = "\n".join(f"{i}. Player {i}: {i} points, {i} games" for i in range(1, 200))
    text = alt.from_text(f"**Spring**: standings\n{lines}")
    assert len(text) <= alt.LIMIT and text.startswith("Spring: standings. 1. Player 1: 1 points")
    assert text.endswith("games.")


def test_every_attachment_made_carries_its_text_within_the_limit():
    assert picture(b"png", "board.png", "The board.").description == "The board."
    long = picture(b"png", "board.png", "A sentence of alt text. " * 100).description
    assert long is not None and len(long) <= alt.LIMIT and long.endswith("alt text.")


def test_a_guanga_boards_alt_text_gives_the_points_the_picture_shows():
    """Each player's points are drawn at the top of a Guanga board: its alt text says them too,
    as that picture shows them (a secret order counted only in its owner's own picture)."""
    session, module = session_for("guanga", 2, 3)
    rng = random.Random(1)
    state = module.new_game(config_from_options(module.Config, 2, {"mode": "apprentice"}), 2, 1)
    for _ in range(400):  # until a secret order counts for someone
        if any(breakdown(state, s, with_order=False) != breakdown(state, s) for s in range(2)):
            break
        seat = min(module.to_move(state))
        move = module.computer_move(module.view_for(state, seat), list(module.legal_moves(state, seat)), rng)
        state, _ = module.apply_move(state, seat, move)
    session.state = state
    hidden = [breakdown(state, s, with_order=False)["total"] for s in range(2)]
    shown = [breakdown(state, s)["total"] for s in range(2)]
    assert hidden != shown and module.outcome(state) is None
    public = alt.board(session, None, None)
    assert f"Scores: Alice {hidden[0]}, Bob {hidden[1]}." in public
    assert f"Puntos: Alice {hidden[0]}, Bob {hidden[1]}." in alt.board(session, None, None, language("es"))
    own = next(s for s in range(2) if hidden[s] != shown[s])
    mine = [shown[s] if s == own else hidden[s] for s in range(2)]
    assert f"Scores: Alice {mine[0]}, Bob {mine[1]}." in alt.board(session, own, None)


def test_players_moving_at_once_are_listed_as_a_sentence_lists_them():
    """In a round everyone plays at once, the alt text lists the players as a sentence does:
    "Alice, Bob and Carol" ("Alice, Bob y Carol"), not a bare list of commas."""
    session, _ = session_for("nowa_gwinea", 3, 5)
    assert "To play: Alice, Bob and Carol." in alt.board(session, None, None)
    assert "It is your turn (Alice, Bob and Carol to play)." in alt.board(session, 1, None)


def test_spanish_alt_text_agrees_the_verb_with_the_players_to_move():
    """Several players to move take the plural ("Les toca a Alice, Bob y Carol"); one, the
    singular ("Le toca a Alice"): the alt text is read aloud, and "le toca a Alice, Bob y Carol"
    is not Spanish."""
    es = language("es")
    session, _ = session_for("nowa_gwinea", 3, 5)
    assert "Les toca a Alice, Bob y Carol." in alt.board(session, None, None, es)
    assert "Es tu turno (les toca a Alice, Bob y Carol)." in alt.board(session, 1, None, es)
    session, _ = session_for("pachakuna", 2, 5)
    first = session.names()[min(session.engine.to_move(session.state))]
    assert f"Le toca a {first}." in alt.board(session, None, None, es)
    assert f"Es tu turno (le toca a {first})." in alt.board(
        session, min(session.engine.to_move(session.state)), None, es
    )


def test_a_boards_alt_text_names_the_variant_its_picture_shows():
    """A board's picture shows the variant in its header (Guanga's mode, P'achakuna's plan and
    turn limit): its alt text says it too, after the first sentence, in the reader's language;
    a game with the defaults and no option always said adds nothing."""
    session, _ = session_for("pachakuna", 2, 3)
    session.row = replace(session.row, options={"board": "B", "max_turns": 40})
    text = alt.board(session, None, None)
    assert text.startswith(
        f"P'achakuna, game #{session.id}: the board as everyone sees it. "
        "Options: assembly plan B; stop after 40 turns. "
    ), text
    assert "Opciones: plan de montaje B; " in alt.board(session, None, None, language("es"))
    guanga, _ = session_for("guanga", 2, 3)
    assert "Options: beginner mode." in alt.board(guanga, 0, None)
    plain, _ = session_for("guacamole", 2, 3)
    assert "Options" not in alt.board(plain, None, None)


def test_a_short_name_inside_a_word_gives_that_word_no_reason_to_stay_small():
    """A player named "t" left "the deck ran out." without its capital in alt text and on the
    web pages (the name was found inside "the"); where the name stands whole it is kept."""
    said = alt.sentences("the deck ran out. t drew a card.\nan and ann: 5 points", ["t", "an", "ann"])
    assert said == ["The deck ran out.", "t drew a card.", "an and ann: 5 points."]
    assert alt.plain("los dados: t lanzó", ["t"]) == "Los dados: t lanzó."


def test_a_guacamole_swaps_last_action_names_its_cards_in_words():
    """The last action a Guacamole board's alt text and its board in words (``/game describe``)
    give names the cards in words, as the turn post does ("3 Avocaldo", not "3P"), in English and
    Spanish; the log keeps the codes."""
    session, module = session_for("guacamole", 2, 7)
    state = rig(hands={0: ["5T", "3P"]}, prep={1: ["9O"]})
    records = []
    for number, move in enumerate(("prep 5T", "swap 3P p2z9O"), start=1):
        state, events = module.apply_move(state, 0, move)
        stored = tuple(Event.from_dict(e.to_dict()) for e in events)
        records.append(MoveRecord(0, move, False, stored, None, number))
    session.state = state
    assert "3P" in records[-1].events[0].text  # as the log keeps it
    for code, said in (
        ("en", "Alice swapped 3 Avocaldo from their hand with 9 Onion from Bob's preparation zone."),
        ("es", "Alice cambió 3 Avocaldo de su mano por 9 Onion de la zona de preparación de Bob."),
    ):
        t = language(code)
        last = texts.last_action(session, records, t)
        assert last == said
        board = alt.board(session, None, last, t)
        assert f": {said}" in board and not CODE.search(board), board
        words = "\n".join(described(session, None, t, last, records[-1].number))
        assert said in words, words
