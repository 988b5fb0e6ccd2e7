"""League names: normalised when stored, compared by look, shown with markdown escaped."""

from __future__ import annotations

import re

from bot.league import names


def test_invisible_and_bidirectional_characters_are_removed():
    assert names.normalise("Liga\u200b") == "Liga"
    assert names.normalise("\u200fLiga") == "Liga"
    assert names.normalise("\u202eLi\u2066ga\u2069\ufeff") == "Liga"
    assert names.normalise("  Liga \t de\n Lima\u2028 ") == "Liga de Lima"
    assert names.normalise("\x00Li\x07ga\x7f") == "Liga"


def test_only_invisible_characters_leave_nothing():
    assert names.normalise("\u200b\u200c\u200d\u2060\ufeff") == ""
    assert names.normalise("\u200f \u200e\u00a0") == ""


def test_nfkc_folds_look_alike_forms():
    assert names.normalise("Ｌｉｇａ") == "Liga"  # full width
    assert names.normalise("Liga ①") == "Liga 1"
    assert names.normalise("ﬁesta") == "fiesta"


def test_look_alike_names_share_a_key_and_others_do_not():
    assert names.key("Liga") == names.key("liga\u200b") == names.key("\u200fＬＩＧＡ") == names.key(" liga ")
    assert names.key("Liga 4") != names.key("Liga 5")
    assert names.key("Ñandú") == names.key("ñandú") != names.key("nandu")


def test_markdown_and_mentions_are_escaped_for_messages():
    assert names.shown("**Liga** ~~4~~ ||x|| # big") == r"\*\*Liga\*\* \~\~4\~\~ \|\|x\|\| \# big"
    assert names.shown("<@123> @everyone") == r"\<\@123\> \@everyone"
    assert names.shown("Liga de Lima") == "Liga de Lima"
    assert names.shown("a\\b") == "a\\\\b"


BLOCK = re.compile(r"^(?:[-*] |\d+\. |#{1,3} |-# |>{1,3} )")
"""How a line Discord formats as a block starts: a list's item (``-``, ``*``, ``1.``), a heading,
a subtext (``-#``) or a quote."""


def test_a_name_starting_a_line_starts_no_list_heading_or_quote():
    for name in ("1. Ana", "12. Ana", "- Ana", "* Ana", "# Ana", "### Ana", "-# Ana", "> Ana", ">>> Ana"):
        line = f"{names.shown(name)} joined."
        assert not BLOCK.match(line), line
        assert re.sub(r"\\([^A-Za-z0-9\s])", r"\1", line) == f"{name} joined."  # reads as typed
    assert names.shown("Ana 1. B") == "Ana 1. B"  # a number inside a name starts nothing
