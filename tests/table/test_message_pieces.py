"""One way to put a long text in Discord messages (:func:`bot.texts.pieces`, cut by
:func:`bot.markup.cuts`), for every text the table sends in several: the board in words
(``/game describe``), a rules guide, a league's bracket, round and check-in.  Each message is
filled before the next starts, cut where a line ends; a line longer than a message is read whole,
going on in the next, and starts in the room the message before it leaves when that saves a
message; a blank line (between a text's parts) never starts or ends a message.  The text's
Discord markdown is kept whole: no cut falls inside a mention or a link, and a span cut in two
(bold, italic, code, a code block, a quote) is closed at the end of one message and opened again
at the start of the next."""

from __future__ import annotations

import re
from functools import cache

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot import describe
from bot.league.names import shown
from bot.league.texts import round_lines
from bot.markup import cuts
from bot.texts import MESSAGE_LIMIT, pieces
from engines import guacamole
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


def test_a_long_line_starts_in_the_room_left_when_that_saves_a_message():
    """A line longer than a message was always cut to a full message of its own, even with room
    left in the one before; now its first part fills that room (cut as ever: after an item or a
    word, leaving at least half of the room) when the line then takes fewer messages."""
    line = "aaaa bbbb cccc dddd eeee ffff"  # 29 characters
    assert pieces(f"heading\n{line}", limit=20) == ["heading\naaaa bbbb", "cccc dddd eeee ffff"]
    # was ["heading", "aaaa bbbb cccc dddd", "eeee ffff"]
    assert pieces(f"heading\n{line}\nend", limit=20) == ["heading\naaaa bbbb", "cccc dddd eeee ffff", "end"]
    # no room worth half of it: "heading" + "aaaa" would not take fewer messages for the line
    assert pieces(f"a long heading\n{line}", limit=20) == [
        "a long heading",
        "aaaa bbbb cccc dddd",
        "eeee ffff",
    ]


@pytest.mark.parametrize("ended", [False, True])
def test_the_board_in_words_reads_a_line_longer_than_a_message_whole(monkeypatch, ended):
    """``/game describe``: a line longer than a message (a long list of cards, say) was cut with
    an ellipsis, losing its tail; it goes on in the next message now, cut after a comma, its first
    part under its section's heading (in one message less than starting a new one)."""
    cards = ", ".join(f"card {i:03d}" for i in range(210))  # 2,098 characters
    sections = [Section(said("Turn"), (said("P1 to move"),)), Section(said("Hand"), (said(cards),))]
    monkeypatch.setattr(describe, "sections_for", lambda *_, **__: sections)
    session, _ = session_for("nim", 2, 1)
    if ended:
        monkeypatch.setattr(describe, "ended_early", lambda *_: "This game was abandoned.")
    top, second = describe.described(session, None)
    assert all(len(m) <= MESSAGE_LIMIT for m in (top, second))
    heads = ("**This game was abandoned.**\n\n" if ended else "") + "**Turn**\n- P1 to move\n\n**Hand**\n"
    first = top.removeprefix(heads)
    assert top.startswith(heads) and first.startswith("- card 000, ") and first.endswith(",")
    assert "…" not in first + second and f"{first} {second}" == f"- {cards}"  # read whole, cut after a comma


# ------------------------------------------------------------------ markdown kept whole

SPAN_KINDS = ("**", "__", "~~", "||", "*", "_")
TOKENS = (
    "<@123456789012345678>",
    "<#987654321098765432>",
    "<:llama:112233445566778899>",
    "<t:1700000000:f>",
    "https://example.com/rounds/7",
    "\\*",
    "\\_",
    "\\|",
)
"""What no cut may fall inside: a mention, a channel, a custom emoji, a time, a link, an escape."""


def left_open(piece: str) -> str | None:
    """What ``piece`` leaves open, read as the texts below write markdown (None: nothing): a code
    block, inline code, or a bold, italic, underline, strike or spoiler span (each with some text
    in it; a span may hold others, of another kind)."""
    body = re.sub(r"```[a-z]*\n.*?\n```", "c", piece, flags=re.S)  # (code: a letter, to the spans)
    if "```" in body:
        return "a code block"
    body = re.sub(r"`[^`]+`", "c", body)
    if "`" in body:
        return "inline code"
    body = re.sub(r"\\[*_~|]", "e", body)

    @cache
    def ends(i: int, closer: str | None) -> frozenset[int]:
        """Where text from ``i`` made of letters and whole spans may end, followed by ``closer``
        (None: the end of the piece)."""
        out: set[int] = set()
        j = i
        while True:
            if body.startswith(closer, j) if closer else j == len(body):
                out.add(j)
            if j == len(body):
                break
            if body[j] not in "*_~|":
                j += 1
                continue
            for kind in SPAN_KINDS:
                if body.startswith(kind, j):
                    for k in ends(j + len(kind), kind):
                        if k > j + len(kind):
                            out |= ends(k + len(kind), closer)
            break
        return frozenset(out)

    return None if len(body) in ends(0, None) else "a span"


WORDS = st.text(alphabet="abcdefghijklmnop", min_size=1, max_size=9)
LEAVES = st.one_of(
    WORDS,
    WORDS,
    st.sampled_from(TOKENS),
    st.lists(WORDS, min_size=1, max_size=4).map(lambda words: "`" + " ".join(words) + "`"),
)


@st.composite
def inline(draw: st.DrawFn, depth: int = 2, outer: str = "") -> str:
    """Words, tokens and code, in spans up to ``depth`` deep (none inside one of its own kind's
    family: no ``*`` in ``**``), separated by a space, ``, ``, ``; `` or nothing (but for ``_``,
    which needs a word's edge, and after a link, which would take in what follows)."""
    items = []
    for _ in range(draw(st.integers(1, 6))):
        kinds = [k for k in SPAN_KINDS if k[0] not in outer]
        if depth and draw(st.integers(0, 3)) == 0:
            kind = draw(st.sampled_from(kinds))
            items.append(kind + draw(inline(depth - 1, outer + kind[0])) + kind)
        else:
            items.append(draw(LEAVES))
    out = items[0]
    for item in items[1:]:
        glue = draw(st.sampled_from([" ", " ", ", ", "; ", ""]))
        glued = "_" in out[-1] + item[0] or out.endswith(TOKENS[4])  # (a link would run on)
        out += " " if not glue and glued else glue
        out += item
    return out


@st.composite
def marked_texts(draw: st.DrawFn) -> str:
    """Lines of :func:`inline` markdown, some quoted (``> ``), and fenced code blocks (whose
    ``*`` and ``_`` are plain), between line breaks or blank lines."""
    blocks = []
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(["line", "line", "line", "quote", "code"]))
        if kind == "code":
            code = st.text(alphabet="abc *_=", min_size=1, max_size=30).filter(str.strip)
            lines = draw(st.lists(code, min_size=1, max_size=6))
            blocks.append(draw(st.sampled_from(["```", "```py"])) + "\n" + "\n".join(lines) + "\n```")
        else:
            blocks.append(("> " if kind == "quote" else "") + draw(inline()))
    text = blocks[0]
    for block in blocks[1:]:
        text += draw(st.sampled_from(["\n", "\n", "\n\n"])) + block
    return text


@settings(max_examples=300)
@given(marked_texts(), st.integers(60, 400))
def test_every_piece_is_within_the_limit_with_its_markdown_whole(text, limit):
    """Every message fits, closes every span it opens and opens every span it goes on with, and
    holds each mention, link and escape whole."""
    out = pieces(text, limit)
    assert all(len(piece) <= limit for piece in out)
    assert [(piece, left_open(piece)) for piece in out if left_open(piece)] == []
    for token in set(TOKENS):
        assert sum(piece.count(token) for piece in out) == text.count(token), token


@settings(max_examples=300)
@given(marked_texts(), st.integers(60, 400))
def test_the_pieces_are_the_text_with_markers_added_at_the_cuts(text, limit):
    """Each message is a stretch of the text with markers added at a cut only: at the end of one,
    the closing markers of the spans open there, innermost first (a code block's line break and
    three backticks); at the start of the next the same spans opened again, outermost first (a
    quote's ``> ``, a code block's backticks with its language tag and a line break).  What lies
    between two messages, or before the first or after the last, is white space only (the spaces
    at a cut in a line, the line break at a cut between lines, blank lines)."""
    found = cuts(text, limit)
    assert pieces(text, limit) == [c.opened + text[c.start : c.end] + c.closed for c in found]
    gaps = [text[: found[0].start], text[found[-1].end :]]
    gaps += [text[a.end : b.start] for a, b in zip(found, found[1:], strict=False)]
    assert all(not gap.strip() for gap in gaps)
    assert found[0].opened == "" and found[-1].closed == ""
    for a, b in zip(found, found[1:], strict=False):
        quote = re.match(r"(>>> |> )?", b.opened)[0]  # type: ignore[index]  # (it always matches)
        if not text[: b.start].endswith("\n") and re.search(r"(^|\n)> [^\n]*$", text[: b.start]):
            assert quote == "> "  # a quoted line goes on quoted
        opened = re.sub(r"```[a-z]*\n", "```", b.opened.removeprefix(quote))
        markers = re.findall(r"\n```|\*\*|__|~~|\|\||[*_`]", a.closed)
        assert "".join(reversed(markers)).replace("\n```", "```") == opened
    for token in set(TOKENS):
        for at in (m.start() for m in re.finditer(re.escape(token), text)):
            assert any(c.start <= at and at + len(token) <= c.end for c in found), (token, at)


def test_a_bracket_of_long_bold_names_keeps_each_name_bold():
    """A bracket round's line of bold names, each longer than a message (names of 32 characters,
    their markdown escaped, at a 40-character limit standing for Discord's 2,000): a cut inside a
    name closes its bold in one message and opens it again in the next, where it left
    ``**Wayra \\*Quispe\\*`` open in one and ``Mamani\\_00\\_Condori**`` with a stray ``**`` in
    the next; an escape (``\\*``) is no marker."""
    names = [shown(f"Wayra *Quispe* Mamani_{i:02d}_Condori") for i in range(8)]
    matches = [f"**{a}** v **{b}**" for a, b in zip(names[::2], names[1::2], strict=True)]
    text = "\n".join(["**Big cup: bracket**", *round_lines(1, matches, limit=1000)])
    out = pieces(text, 40)
    assert all(len(piece) <= 40 for piece in out)
    assert [piece for piece in out if left_open(piece)] == []
    assert out[:4] == [
        "**Big cup: bracket**",
        "Round 1: **Wayra \\*Quispe\\***",
        "**Mamani\\_00\\_Condori** v",
        "**Wayra \\*Quispe\\* Mamani\\_01\\_Condori**",  # (whole: exactly 40 characters)
    ]


def test_a_rules_guide_keeps_its_code_whole():
    """A rules guide (Guacamole's, with its moves in inline code) cut at a small limit, and a
    guide with a fenced code block longer than a message: a code span cut in two is closed and
    opened again; the block is closed at the end of each message and opened again, with its
    language tag, at the start of the next.  The block starts a message of its own where the
    lines before it fill at least half of one."""
    out = pieces(guacamole.RULES_HELP, 50)
    assert all(len(piece) <= 50 for piece in out) and len(out) > 20
    assert [piece for piece in out if left_open(piece)] == []
    lines = [f"{n}. prep {n}T  # card {n} into your zone" for n in range(1, 9)]  # 35 characters each
    moves = "\n".join(lines)
    short = pieces(f"**Moves**, as you type them:\n```py\n{moves}\n```\nThen `done`.", 120)
    assert [len(piece) <= 120 for piece in short] == [True] * 4 and not any(map(left_open, short))
    assert short[0] == "**Moves**, as you type them:\n```py\n" + "\n".join(lines[:2]) + "\n```"
    assert short[1] == "```py\n" + "\n".join(lines[2:5]) + "\n```" and short[3] == "Then `done`."
    intro = "**Moves**, as you type them in the move command or its menus:"  # (more than half of 120)
    long = pieces(f"{intro}\n```py\n{moves}\n```\nThen `done`.", 120)
    assert long[0] == intro and long[1].startswith("```py\n1. prep 1T") and long[1].endswith("\n```")
    assert long[-1].startswith("```py\n7. prep 7T") and long[-1].endswith("zone\n```\nThen `done`.")
    assert [left_open(piece) for piece in long] == [None] * 4


def test_no_cut_falls_inside_a_mention_a_time_or_a_link():
    """A run with no space in the second half of a message was cut mid-word wherever the limit
    fell, also inside a mention, a time or a link (``<@1234`` and ``5678>``: no ping, no name);
    now before it."""
    assert pieces("a" * 20 + "<@123456789012345678>", 30) == ["a" * 20, "<@123456789012345678>"]
    assert pieces("ends:<t:1700000000:f>,", 20) == ["ends:", "<t:1700000000:f>,"]
    link = "https://example.com/league/7/round/2"
    assert pieces(f"On the web:{link}", 40) == ["On the web:", link]
    assert pieces("name\\*\\*\\*", 6) == ["name\\*", "\\*\\*"]  # (an escape is not cut from its character)


def test_a_quote_goes_on_quoted():
    """A quoted line cut in two goes on quoted in the next message (``> ``), and a quote of the
    rest of the message (``>>> ``) is quoted again at the start of the next."""
    line = "> " + " ".join(f"word{i}" for i in range(12))
    assert pieces(line, 40) == [
        "> word0 word1 word2 word3 word4 word5",
        "> word6 word7 word8 word9 word10 word11",
    ]
    block = ">>> " + "\n".join(f"line {i}" for i in range(8))
    assert pieces(block, 30) == [
        ">>> line 0\nline 1\nline 2",
        ">>> line 3\nline 4\nline 5",
        ">>> line 6\nline 7",
    ]


def test_markers_without_a_match_are_plain_text():
    """An asterisk or underscore that opens nothing (a list's ``* ``, ``2 * 3``, ``snake_case``, an
    unmatched ``**``) is plain text, as Discord shows it: nothing is added at a cut near it."""
    for text in (
        "* item one two three four",
        "2 * 3 = 6 and 2 * 4 = 8",
        "max_turns is 0 and fruit_for_all on",
    ):
        out = pieces(text, 20)
        assert " ".join(out) == text, out
    assert pieces("**a b c d e f g h", 8) == ["**a b c", "d e f g", "h"]


ODD = st.sampled_from([*"ab *_~|`\\<>@#:t/\n> ,;\r\u2028é", "https://", "```", "**"])


@settings(max_examples=500)
@given(st.lists(ODD, max_size=80).map("".join), st.integers(1, 40))
@example("\ra", 1)  # (gave ["", "a"]: a cut forced in white space)
def test_odd_text_never_gives_an_empty_or_a_too_long_message(text, limit):
    """Whatever the text (markers that match nothing, white space of any kind, a limit smaller
    than the markers), every message has something in it and fits; a text of white space only
    comes as it is, cut to the limit."""
    out = pieces(text, limit)
    assert all(len(piece) <= limit for piece in out)
    assert out == [text[:limit]] if not text.strip() else all(piece.strip() for piece in out)
