"""League texts too long for one Discord message are read whole: a text is posted in several
messages cut where a line ends (a bracket round too long for one message is written over several
lines, each naming the round), and the sign-up post, one message edited as people sign up, ends
its list of names with how many more there are, where the whole list is."""

from __future__ import annotations

import pytest

from bot.league import texts
from bot.league.season import Rounds
from bot.league.service import LeagueService
from bot.texts import MESSAGE_LIMIT, pieces
from languages import language
from tests.league.test_service import new_league, started_with

# 80 players, each name 32 characters long: more than one message of any league text about them.
NAMES = {7000 + i: f"Wayra Quispe Mamani Condori {i:04d}" for i in range(80)}


@pytest.fixture
def leagues(service):
    return LeagueService(service.store, service)


def test_a_long_text_is_cut_where_its_lines_end():
    lines = [f"Table {i}: " + "x" * 90 for i in range(60)]  # about 6,000 characters
    cut = pieces("\n".join(lines))
    assert len(cut) == 4 and all(len(p) <= MESSAGE_LIMIT for p in cut)
    assert [line for p in cut for line in p.split("\n")] == lines  # every line whole, in order
    assert pieces("short") == ["short"]


def test_a_line_longer_than_a_message_is_cut_between_its_items():
    items = [f"item {i:03d} " + "y" * 40 for i in range(100)]
    cut = pieces("; ".join(items))
    assert all(len(p) <= MESSAGE_LIMIT for p in cut) and len(cut) == 3
    assert all(p.endswith(";") for p in cut[:-1]) and "; ".join(cut).replace(";;", ";") == "; ".join(items)


async def test_the_bracket_of_80_long_names_is_written_whole(leagues):
    league = await started_with(
        leagues, NAMES, name="Big cup", game="nim", format="elimination", group_size=2
    )
    await leagues.open_round(league.id, 1)
    league = await leagues.store.leagues.league(league.id)
    rounds = Rounds(leagues, posts=None, scheduler=None)
    for t in (language("en"), language("es")):
        _, text = await rounds.bracket_post(league, t)
        assert len(text) > MESSAGE_LIMIT  # it was cut at 2,000 characters, losing the last names
        sent = pieces(text)
        assert len(sent) > 1 and all(len(p) <= MESSAGE_LIMIT for p in sent)
        assert all(name in "\n".join(sent) for name in NAMES.values())
        first_round = [
            line
            for line in text.splitlines()
            if line.startswith(t.gettext("Round {round}: {matches}", round=1, matches=""))
        ]
        assert len(first_round) > 1, text  # the first round (64 matches) over several lines, each naming it
        words = await rounds.round_text(league, t)
        assert all(name in "\n".join(pieces(words)) for name in NAMES.values())


async def test_the_signup_post_of_80_long_names_ends_with_how_many_more(leagues):
    league = await new_league(leagues, name="Big swiss", game="nim", format="swiss", group_size=2, rounds=3)
    for t, more in ((language("en"), "… and {n} more (/league standings lists everyone)"),):
        text = texts.signup_text(league, list(NAMES.values()), t)
        assert len(text) <= MESSAGE_LIMIT
        last = text.splitlines()[-1]
        assert last.startswith("Signed up (80): Wayra Quispe Mamani Condori 0000, ")
        shown = sum(name in last for name in NAMES.values())
        assert 30 < shown < 80 and last.endswith(more.format(n=80 - shown)), last  # was cut mid-name
    texto = texts.signup_text(league, list(NAMES.values()), language("es"))
    assert len(texto) <= MESSAGE_LIMIT and texto.splitlines()[-1].startswith("Inscripciones (80): ")
    assert texto.endswith("(la lista completa, en /liga posiciones)"), texto[-200:]
    few = texts.signup_text(league, list(NAMES.values())[:3], language("en"))
    assert few.splitlines()[-1] == "Signed up (3): " + ", ".join(list(NAMES.values())[:3])
