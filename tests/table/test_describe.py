"""The board in words: the table's text for a game's sections (headings, one item a line, the
private part last under its own heading, the reader's language), and the terminal's
``describe``.  Its messages within Discord's limit: tests/table/test_message_pieces.py."""

from __future__ import annotations

import io

import pytest

from bot.describe import PRIVATE_HEADING, lines_of, sections_for
from bot.terminal import main as local_main
from engines.core import Section, said, said_n
from languages import language
from tests.support import nim
from tests.support.nim_spanish import nim_in_spanish  # noqa: F401 (a fixture)

SECTIONS = [
    Section(said("Your secret"), (said("secret number {secret}", secret=123),), private=True),
    Section(said("Turn"), (said("{p0} to move", p0="{p0}"),)),
    Section(
        said("Piles"),
        (
            said_n(3, "pile {pile}: {n} stone", "pile {pile}: {n} stones", pile="A"),
            said_n(1, "pile {pile}: {n} stone", "pile {pile}: {n} stones", pile="B"),
        ),
    ),
]


def test_headings_items_and_the_private_part_after_the_public_one():
    assert lines_of(SECTIONS, names=["Ana", "Bob"]) == [
        "**Turn**",
        "- Ana to move",
        "",
        "**Piles**",
        "- pile A: 3 stones",
        "- pile B: 1 stone",
        "",
        f"**{PRIVATE_HEADING}**",
        "**Your secret**",
        "- secret number 123",
    ]


def test_no_private_heading_without_a_private_section():
    lines = lines_of([s for s in SECTIONS if not s.private])
    assert PRIVATE_HEADING not in " ".join(lines)
    assert lines[:2] == ["**Turn**", "- P1 to move"]  # seats without names read P1, P2...


@pytest.mark.usefixtures("nim_in_spanish")
def test_in_the_readers_language():
    lines = lines_of(SECTIONS, language("es"), ["Ana", "Bob"])
    assert lines == [
        "**Turno**",
        "- le toca a Ana",
        "",
        "**Montones**",
        "- montón A: 3 piedras",
        "- montón B: 1 piedra",
        "",
        "**Solo tú puedes ver esto**",
        "**Tu secreto**",
        "- número secreto 123",
    ]


def test_a_spectator_never_gets_a_private_section():
    state = nim.new_game(nim.Config(players=2), 2, seed=4)
    assert [s.private for s in sections_for(nim, state, None)] == [False, False]
    mine = sections_for(nim, state, 1)
    assert [s.private for s in mine] == [False, False, True]
    secret = str(state.secrets[1])
    assert secret in " ".join(lines_of(mine))
    assert str(state.secrets[0]) not in " ".join(lines_of(mine))


def run(argv, typed):
    out, err = io.StringIO(), io.StringIO()
    code = local_main(argv, io.StringIO(typed), out, err)
    return code, out.getvalue(), err.getvalue()


def test_the_terminal_describes_the_board_to_the_player_to_move():
    code, out, err = run(["nim", "--no-images", "--no-export", "--seed", "3"], "describe\nquit\n")
    assert code == 0 and not err
    state = nim.new_game(nim.Config(players=2), 2, seed=3)
    said_now = out.split("P1 to play>")[1]
    assert "  Turn\n  - P1 to move\n" in said_now  # plain text: no ** marks
    assert "**" not in said_now
    for pile, n in zip("ABC", state.piles, strict=True):
        assert f"- pile {pile}: {n} stones" in said_now
    assert (
        said_now.index("Piles")
        < said_now.index("Only you can see this")
        < said_now.index(f"- secret number {state.secrets[0]}")
    )
    assert str(state.secrets[1]) not in out  # the other seat's secret is never said


def test_the_terminal_says_the_last_move_in_words():
    state = nim.new_game(nim.Config(players=2), 2, seed=3)
    move = str(nim.legal_moves(state, 0)[0])
    code, out, err = run(
        ["nim", "--no-images", "--no-export", "--seed", "3"], f"describe\n{move}\ndescribe\nquit\n"
    )
    assert code == 0 and not err
    first, second = out.split("P1 to play>")[1], out.split("P2 to play>")[1]
    assert "Last action" not in first
    assert f"  Turn\n  - Last action: P1 took {move[1:]} from pile {move[0]}\n" in second


@pytest.mark.usefixtures("nim_in_spanish")
def test_the_terminal_describes_in_spanish_with_its_spanish_word():
    code, out, err = run(
        ["nim", "--no-images", "--no-export", "--seed", "3", "--language", "es"], "describir\nsalir\n"
    )
    assert code == 0 and not err
    assert "describir (el tablero en palabras)" in out
    assert "  Montones\n  - montón A:" in out and "Solo tú puedes ver esto" in out
    assert "Piles" not in out
