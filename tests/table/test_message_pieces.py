"""One way to put a long text in Discord messages (:func:`bot.texts.pieces`), for every text
the table sends in several: the board in words (``/game describe``), a rules guide, a league's
bracket, round and check-in.  Each message is filled before the next starts, cut where a line
ends; a line longer than a message is read whole, going on in the next; a blank line (between
a text's parts) never starts or ends a message."""

from __future__ import annotations

import pytest

from bot import describe
from bot.texts import MESSAGE_LIMIT, pieces
from engines.core import Section, said
from tests.table.test_turn_posts import session_for


def test_messages_split_at_line_boundaries_within_the_limit():
    lines = [f"- item {i:03d} " + "x" * 40 for i in range(100)]  # 52 characters each
    out = pieces("\n".join(lines), limit=2000)
    assert len(out) > 1 and all(len(m) <= 2000 for m in out)
    assert "\n".join(out).split("\n") == lines  # every line whole, in order, none lost
    assert len(out[0]) > 2000 - 53  # each message is filled before the next one starts
    assert pieces("a\nb", limit=3) == ["a\nb"]
    assert pieces("a\nb", limit=2) == ["a", "b"]


def test_a_blank_line_never_starts_or_ends_a_message():
    assert pieces("**A**\n- 1\n\n**B**\n- 2", limit=9) == ["**A**\n- 1", "**B**\n- 2"]
    assert pieces("**A**\n- 1\n\n**B**", limit=10) == ["**A**\n- 1", "**B**"]  # (the blank fits)
    assert pieces("aa\n\nb", limit=2) == ["aa", "b"]  # was ["aa", "\nb"]: a message opening blank
    assert pieces("\n\nA\n\n", limit=5) == ["A"]
    assert pieces("**A**\n\n**B**", limit=20) == ["**A**\n\n**B**"]  # inside a message it stays


def test_a_guide_is_cut_between_lines_and_a_line_longer_than_a_message_where_it_must():
    assert pieces("ab\ncd", limit=5) == ["ab\ncd"]
    assert pieces("ab\ncd\nef", limit=5) == ["ab\ncd", "ef"]
    assert pieces("abcdefg\nhi", limit=3) == ["abc", "def", "g", "hi"]
    assert pieces("", limit=3) == [""]
    assert pieces("abcdef", limit=3) == ["abc", "def"]  # no empty message after a cut line
    assert pieces("abcdef\nx", limit=3) == ["abc", "def", "x"]
    text = "\n".join(f"line {n} " + "x" * (n * 37 % 300) for n in range(200))
    parts = pieces(text)
    assert all(len(p) <= 2000 for p in parts) and "\n".join(parts) == text and len(parts) > 1


def test_a_line_longer_than_a_message_is_read_whole_cut_at_a_word():
    long = "- " + " ".join(["word"] * 600)  # 2,999 characters
    first, rest = pieces(long)
    assert len(first) <= 2000 and first.endswith("word") and not first.endswith("…")
    assert f"{first} {rest}" == long  # nothing lost: the line goes on in the next message


def test_a_long_line_s_first_part_fills_the_message_before_it():
    """The line's parts are packed as lines are: its first part goes under a short heading when
    it fits there, its last with the lines that follow."""
    items = "; ".join(f"m{i}" for i in range(6))  # "m0; m1; m2; m3; m4; m5" (22 characters)
    assert pieces(f"R\n{items}\nend", limit=13) == ["R\nm0; m1; m2;", "m3; m4; m5", "end"]
    assert pieces(f"{items}\nx", limit=13) == ["m0; m1; m2;", "m3; m4; m5\nx"]
    assert pieces(f"Round\n{items}", limit=13) == ["Round", "m0; m1; m2;", "m3; m4; m5"]


@pytest.mark.parametrize("ended", [False, True])
def test_the_board_in_words_reads_a_line_longer_than_a_message_whole(monkeypatch, ended):
    """``/game describe``: a line longer than a message (a long list of cards, say) was cut with
    an ellipsis, losing its tail; it goes on in the next message now, cut after a comma."""
    cards = ", ".join(f"card {i:03d}" for i in range(210))  # 2,098 characters
    sections = [Section(said("Turn"), (said("P1 to move"),)), Section(said("Hand"), (said(cards),))]
    monkeypatch.setattr(describe, "sections_for", lambda *_, **__: sections)
    session, _ = session_for("nim", 2, 1)
    if ended:
        monkeypatch.setattr(describe, "ended_early", lambda *_: "This game was abandoned.")
    heads, first, second = describe.described(session, None)
    assert all(len(m) <= MESSAGE_LIMIT for m in (heads, first, second))
    assert (
        heads == ("**This game was abandoned.**\n\n" if ended else "") + "**Turn**\n- P1 to move\n\n**Hand**"
    )
    assert first.startswith("- card 000, ") and first.endswith(",") and "…" not in first + second
    assert f"{first} {second}" == f"- {cards}"  # read whole, cut after a comma
