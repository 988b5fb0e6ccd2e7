"""A league's standings picture: its alt text keeps the players' names as they wrote them (the
standings' markdown is taken out, not the ``__`` or ``**`` of a name)."""

from __future__ import annotations

import pytest

from bot.league.season import Rounds
from bot.league.service import LeagueService
from bot.league.texts import signup_text
from languages import language
from tests.league.test_service import new_league


@pytest.fixture
def leagues(service):
    return LeagueService(service.store, service)


async def test_the_standings_alt_text_keeps_the_names_as_written(leagues):
    league = await new_league(leagues, name="Nim swiss", game="nim", format="swiss", group_size=2, rounds=3)
    names = {501: "__zoe__", 502: "bo**b", 503: "`tick`", 504: "dee"}
    for uid, name in names.items():
        await leagues.join(league, uid, name)
    league, _ = await leagues.start(league)
    text, picture = await Rounds(leagues, posts=None, scheduler=None).standings_post(league, "round 1")
    assert "**" in text  # the text beside the picture has its own markdown
    for name in names.values():
        assert name in picture.alt, picture.alt
    assert "Nim swiss" in picture.alt and "**Nim swiss**" not in picture.alt


async def test_the_standings_text_escapes_the_names_and_the_alt_text_keeps_them(leagues):
    """The text beside the picture is a Discord message: a name's ``**`` or ``||`` is escaped there
    (it would bold or hide the rest of the standings), and shows as written in the alt text."""
    league = await new_league(leagues, name="Nim swiss", game="nim", format="swiss", group_size=2, rounds=3)
    names = {501: "**zoe", 502: "||bob", 503: "dee\\", 504: "# eve"}
    for uid, name in names.items():
        await leagues.join(league, uid, name)
    league, _ = await leagues.start(league)
    text, picture = await Rounds(leagues, posts=None, scheduler=None).standings_post(league, "round 1")
    for name in ("\\*\\*zoe", "\\|\\|bob", "dee\\\\", "\\# eve"):
        assert name in text, text
    for name in names.values():
        assert name in picture.alt, picture.alt
    assert "\\" not in picture.alt.replace("dee\\", ""), picture.alt


async def test_the_signup_message_escapes_the_names_signed_up(leagues):
    league = await new_league(leagues, name="Nim swiss", game="nim", format="swiss", group_size=2, rounds=3)
    text = signup_text(league, ["**zoe", "bo_b_"])
    assert "Signed up (2): \\*\\*zoe, bo\\_b\\_" in text, text


async def test_the_bracket_and_round_texts_escape_the_names(leagues):
    """``/league round`` and the bracket's text are Discord messages: a name's ``**`` or ``||`` is
    escaped there; the bracket picture's alt text keeps the names as written."""
    league = await new_league(leagues, name="Nim cup", game="nim", format="elimination", group_size=2)
    names = {501: "**zoe", 502: "||bob", 503: "dee\\", 504: "# eve"}
    for uid, name in names.items():
        await leagues.join(league, uid, name)
    league, _ = await leagues.start(league)
    await leagues.open_round(league.id, 1)
    league = await leagues.store.leagues.league(league.id)
    rounds = Rounds(leagues, posts=None, scheduler=None)
    picture, text = await rounds.bracket_post(league)
    words = await rounds.round_text(league)
    for shown in ("\\*\\*zoe", "\\|\\|bob", "dee\\\\", "\\# eve"):
        assert shown in text, text
        assert shown in words, words
    for name in names.values():
        assert name in picture.alt, picture.alt


async def test_the_signup_answer_escapes_the_name(leagues):
    league = await new_league(leagues, name="Nim swiss", game="nim", format="swiss", group_size=2, rounds=3)
    answer = await leagues.join(league, 501, "||zoe")
    assert answer.startswith("\\|\\|zoe signed up for Nim swiss (1 player)"), answer


@pytest.mark.parametrize("form", ["swiss", "elimination"])
async def test_the_pictures_alt_text_keeps_a_marked_league_name_as_written(leagues, form):
    """A league named with markdown: the standings' and the bracket's texts write its name
    escaped (they are Discord messages), and the pictures' alt text, which is plain, keeps it as
    written, with no escaping backslash left in it."""
    marked = "**Cup* __x"
    options = {"rounds": 3} if form == "swiss" else {}
    league = await new_league(leagues, name=marked, game="nim", format=form, group_size=2, **options)
    for uid, name in {501: "zoe", 502: "bob", 503: "dee", 504: "eve"}.items():
        await leagues.join(league, uid, name)
    league, _ = await leagues.start(league)
    await leagues.open_round(league.id, 1)
    league = await leagues.store.leagues.league(league.id)
    rounds = Rounds(leagues, posts=None, scheduler=None)
    text, standings = await rounds.standings_post(league, "round 1")
    shown = "\\*\\*Cup\\* \\_\\_x"
    assert shown in text, text
    alts = [standings.alt]
    if form == "elimination":
        bracket, words = await rounds.bracket_post(league)
        assert shown in words, words
        alts.append(bracket.alt)
    for alt in alts:
        assert marked in alt and "\\" not in alt, alt


async def test_the_bracket_text_says_a_place_not_decided_yet_in_words(leagues):
    """The text below the bracket picture (what a screen reader reads) names a later round's place
    whose player is not known yet as the league's web page does, "to be decided" ("por decidir"),
    in the reader's language; it wrote a bare "?"."""
    league = await new_league(leagues, name="Nim cup", game="nim", format="elimination", group_size=2)
    for uid, name in {501: "zoe", 502: "bob", 503: "dee"}.items():
        await leagues.join(league, uid, name)
    league, _ = await leagues.start(league)
    await leagues.open_round(league.id, 1)
    league = await leagues.store.leagues.league(league.id)
    rounds = Rounds(leagues, posts=None, scheduler=None)
    _, text = await rounds.bracket_post(league)
    first, final = text.splitlines()[1:]
    assert first.startswith("Round 1: ") and " v bye" in first, text
    assert final.startswith("Round 2: ") and "to be decided" in final and "?" not in final, text
    _, texto = await rounds.bracket_post(league, language("es"))
    assert "por decidir" in texto.splitlines()[-1] and "?" not in texto, texto


async def test_the_standings_text_gives_no_rating_to_a_player_without_one_as_the_picture_does(
    leagues, monkeypatch
):
    """The text below the standings picture is that picture for a screen reader: a player with no
    rated game has a dash for a rating there, as in the picture's column, not a rating of 0."""
    league = await new_league(leagues, name="Nim swiss", game="nim", format="swiss", group_size=2, rounds=3)
    for uid, name in {501: "zoe", 502: "bob"}.items():
        await leagues.join(league, uid, name)
    league, _ = await leagues.start(league)

    async def rated(_league):  # zoe has a rated game of Nim on the server; bob none
        return {501: 15.0}

    monkeypatch.setattr(leagues, "rating_map", rated)
    monkeypatch.setattr(leagues.draw, "rating_map", rated)
    rounds = Rounds(leagues, posts=None, scheduler=None)
    for code, rtg in (("en", "Rtg"), ("es", "Val")):
        text, _ = await rounds.standings_post(league, "round 1", language(code))
        zoe, bob = (next(line for line in text.splitlines() if name in line) for name in ("zoe", "bob"))
        assert zoe.endswith(f"{rtg} {language(code).number(15.0)}") and bob.endswith(f"{rtg} –"), text
