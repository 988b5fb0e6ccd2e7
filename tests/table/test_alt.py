"""Alt text fits Discord's 1,024 characters, cut at a sentence, plain (no markdown, no mentions)."""

from __future__ import annotations

from bot import alt
from bot.surface.attach import picture


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
