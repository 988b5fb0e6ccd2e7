"""A name with a bracketed qualifier ("P2 (cpu, normal)", "Sub (for Cusi)") takes the English
possessive on the name itself: the texts read "P2's llama 1 (Black)" and "Sub's turn", where
they read "P2 (cpu, normal)'s llama 1 (Black)", in every game's sentences (named by
:func:`engines.core.name_seats`).  The name stays whole everywhere else, and in Spanish ("Llama 1
(Negro) de P2 (máquina, normal)")."""

from __future__ import annotations

import io

from bot.terminal import main as local_main
from engines.core import name_seats, possessive

NAMES = ["P1", "P2 (cpu, normal)"]


def test_a_seats_possessive_leaves_out_its_qualifier():
    assert name_seats("{p1}'s dish 1 is valid again.", NAMES) == "P2's dish 1 is valid again."
    assert name_seats("{p0} took a card from {p1}'s hand.", NAMES) == "P1 took a card from P2's hand."
    text = "{p1} was still building when {p0} called: {p1}'s village scores as it stands."
    assert name_seats(text, NAMES) == (
        "P2 (cpu, normal) was still building when P1 called: P2's village scores as it stands."
    )
    assert name_seats("{p1}'s turn", ["a", "b (c) (d)"]) == "b (c)'s turn"  # one qualifier, the last
    assert name_seats("{p1} moved", NAMES) == "P2 (cpu, normal) moved"  # not a possessive
    assert name_seats("{p1}'s turn") == "P2's turn"


def test_a_qualifier_that_tells_two_seats_apart_stays():
    names = ["Ana (EU)", "Ana (US)", "Beto (cpu, easy)"]
    assert name_seats("{p0}'s turn; {p1}'s hand; {p2}'s dish", names) == (
        "Ana (EU)'s turn; Ana (US)'s hand; Beto's dish"
    )
    assert name_seats("{p1}'s turn", ["Ana", "Ana (cpu, easy)"]) == "Ana (cpu, easy)'s turn"


def test_a_name_that_is_only_a_bracket_or_has_none_is_kept():
    assert [possessive(n) for n in ("(Ana)", "Ana", "Ana(x)", "Ana (x) y", "")] == [
        "(Ana)",
        "Ana",
        "Ana(x)",
        "Ana (x) y",
        "",
    ]


def test_the_board_in_words_names_a_computers_llama_as_english_reads_it():
    """P'achakuna's board in words, in the terminal, with a computer at P2."""
    for lang, asked, llama in [
        ("en", "describe\nquit", "  P2's llama 1 (Black) on village 55 (white)\n"),
        ("es", "describir\nsalir", "  Llama 1 (Negro) de P2 (máquina, normal) en la aldea 55 (blanco)\n"),
    ]:
        out = io.StringIO()
        args = [
            "pachakuna",
            "--computer",
            "1",
            "--seed",
            "3",
            "--no-images",
            "--no-export",
            "--language",
            lang,
        ]
        assert local_main(args, io.StringIO(f"{asked}\n"), out) == 0
        assert llama in out.getvalue(), out.getvalue()
        assert ")'s" not in out.getvalue()
