"""What the terminal table prints is plain text: a refusal repeats what was typed as it was typed
(not escaped for Discord) and shows no Discord markup around its examples."""

from __future__ import annotations

import io

import pytest

from bot.terminal import main as local_main
from bot.terminal.prompt import plain


def run(argv, typed: str = ""):
    out, err = io.StringIO(), io.StringIO()
    code = local_main(argv, io.StringIO(typed), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    ("game", "typed"),
    [
        ("guacamole", "<b>"),
        ("guacamole", "**bold**"),
        ("guanga", "a_b_c"),
        ("pachakuna", "\\"),
        ("tiwanaku", "[x]"),
        ("nowa_gwinea", "@everyone"),
    ],
)
def test_a_refused_move_is_repeated_as_typed(game, typed):
    code, out, err = run([game, "--no-images", "--no-export", "--seed", "3"], f"{typed}\nquit\n")
    assert code == 0 and not err
    refusal = out.split("to play>")[1]
    assert f'"{typed}" is not a' in refusal
    assert "\\" not in refusal.replace(typed, "")


def test_a_refusal_shows_its_example_without_code_marks():
    """Guacamole's "like `prep 5T`" reads "like prep 5T" at the terminal."""
    code, out, _ = run(["guacamole", "--no-images", "--no-export", "--seed", "3"], "prep 10A\nquit\n")
    assert code == 0
    refusal = out.split("to play>")[1]
    assert "like prep 5T." in refusal and "`" not in refusal


def test_plain_keeps_escaped_characters_and_drops_markup():
    assert plain('"\\*\\*x\\*\\*" is **not** a move, like `r1+2`') == '"**x**" is not a move, like r1+2'
    assert plain('"\\\\x00" and "\\<@1>" and "\\_a\\_"') == '"\\x00" and "<@1>" and "_a_"'


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (None, 'cannot set up Tiwanaku: unknown option "max_turns"; this game\'s options are: board'),
        ("es", 'no se puede preparar Tiwanaku: opción desconocida: "max_turns"'),
    ],
)
def test_an_unknown_option_is_named_as_typed(language, expected):
    """An option of another game is refused naming it as typed ("max_turns", not "max\\_turns")."""
    argv = ["tiwanaku", "--no-images", "--option", "max_turns=40"]
    code, out, err = run(argv + (["--language", language] if language else []))
    assert code == 2 and not out
    assert expected in err and "\\" not in err
