"""A bye the pairing gives shows in the standings: beside the player's games in the text below the
standings picture and in the web page's column of byes, with a line saying what a bye is.  A
round sat out for attendance (a bye asked for, a missed check-in) is not counted there: those are
listed apart, with why."""

from __future__ import annotations

import dataclasses
import re

import pytest

from bot.league.presence import Attendance
from bot.league.season import Rounds
from bot.league.service import LeagueService
from languages import language
from tests.league.test_service import DAY, counter, new_league, open_games
from tests.league.test_web_page import cells
from tests.table.test_web_pages import serve


@pytest.fixture
def leagues(service):
    return LeagueService(service.store, service)


async def one_round_with_a_bye(leagues, store, clock):
    """Six players of Nim, one asking a bye in round 1: the five left give the pairing's bye to
    one of them.  The league, the names, who had the pairing's bye and who asked for one."""
    league = await new_league(
        leagues, name="Nim byes", game="nim", format="swiss", group_size=2, rounds=3, days=1, seed=4
    )
    names = {uid: f"n{uid}" for uid in range(601, 607)}
    for uid, name in names.items():
        await leagues.join(league, uid, name)
    await Attendance(leagues).ask_bye(league, 601, 1)
    league, _ = await leagues.start(league)
    opened = await leagues.open_round(league.id, 1)
    assert len(opened.byes) == 1 and 601 not in opened.byes
    await open_games(leagues, opened, names, counter(6000))
    clock.advance(DAY)
    await leagues.round_deadline(league.id, 1)
    return await store.leagues.league(league.id), names, opened.byes[0], 601


async def test_the_standings_text_counts_the_pairings_byes_and_says_what_a_bye_is(leagues, service, clock):
    league, names, bye, asked = await one_round_with_a_bye(leagues, service.store, clock)
    rounds = Rounds(leagues, posts=None, scheduler=None)
    text, _ = await rounds.standings_post(league, "round 1")
    lines = text.splitlines()

    def line_of(uid):
        return next(line for line in lines if f" {names[uid]}:" in line)

    assert ": 1 point, 0 games played, 1 bye, 0 wins;" in line_of(bye), text
    assert " bye" not in line_of(asked), text  # asked for: listed below with why, not as a bye
    assert all(" bye" not in line_of(u) for u in names if u not in (bye, asked)), text
    assert (
        "Bye: a round the pairing had no table for the player (the field did not divide into tables);"
        " it scores 1 point." in lines
    ), text
    texto, _ = await rounds.standings_post(league, "ronda 1", language("es"))
    assert "0 partidas jugadas, 1 ronda libre, 0 victorias" in texto, texto
    assert (
        "Ronda libre: una ronda en la que el emparejamiento dejó a alguien sin mesa (la cantidad de participantes"
        in texto
    ), texto


async def test_the_standings_text_has_no_bye_legend_when_nobody_had_a_bye(leagues, service, clock):
    league = await new_league(
        leagues, name="Nim even", game="nim", format="swiss", group_size=2, rounds=2, days=1, seed=4
    )
    for uid in range(611, 615):
        await leagues.join(league, uid, f"n{uid}")
    league, _ = await leagues.start(league)
    text, _ = await Rounds(leagues, posts=None, scheduler=None).standings_post(league, "round 1")
    assert "Bye" not in text and " bye" not in text, text


async def test_the_web_page_counts_only_the_pairings_byes_and_explains_them(leagues, service, clock):
    league, names, bye, asked = await one_round_with_a_bye(leagues, service.store, clock)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("league", league.id)
        html = await (await client.get(f"/l/{token}")).text()
        head = html.split('id="standings-h"', 1)[1].split("</tr>", 1)[0]
        column = re.findall(r"<th[^>]*>(.*?)</th>", head).index("Byes")
        byes = {row[1]: row[column] for row in cells(html, "standings-h")}
        assert byes[names[bye]] == "1" and byes[names[asked]] == "0", byes
        assert "the field did not divide into tables" in html
        round_one = html.split("<h3>Round 1</h3>", 1)[1].split("</ul>", 1)[0]
        assert f"Bye asked for: {names[asked]} (0.5 points)" in round_one  # listed with why
    finally:
        pages.close()
        await client.close()


async def test_a_brackets_bye_is_explained_as_a_bye_into_the_next_round(leagues, service):
    league = await new_league(leagues, name="Nim cup", game="nim", format="elimination", group_size=2)
    for uid in range(621, 624):  # three players in a bracket of four: the top seed has a bye
        await leagues.join(league, uid, f"n{uid}")
    league, _ = await leagues.start(league)
    opened = await leagues.open_round(league.id, 1)
    assert len(opened.byes) == 1
    text, _ = await Rounds(leagues, posts=None, scheduler=None).standings_post(opened.league, "round 1")
    assert ", 1 bye, " in text, text
    assert text.endswith(
        "Bye into the next round: the bracket had no opponent for the player that round; it scores 1 point."
    ), text


async def test_the_standings_picture_marks_the_pairings_byes_beside_the_name(leagues, service, clock):
    """The picture showed a bye's point beside "0 games" with nothing to say why; the name cell now
    counts the pairing's byes ("n603 (1 bye)", in Spanish "(1 ronda libre)"), beside the other
    marks, and a bye asked for is not one of them."""
    import io

    from PIL import Image

    from bot.league import texts, tiebreaks
    from renderers import league as pictures
    from renderers.translation import speaking

    league, names, bye, asked = await one_round_with_a_bye(leagues, service.store, clock)
    rows = await leagues.standings(league)
    order = tiebreaks.stored_order(league.tiebreaks)
    lines = {
        int(s.row.player): line for s, line in zip(rows, texts.picture_lines(rows, {}, order), strict=True)
    }
    assert lines[bye].byes == 1 and lines[asked].byes == 0
    with speaking("en"):
        assert pictures.shown_name(lines[bye]) == f"{names[bye]} (1 bye)"
        assert pictures.shown_name(lines[asked]) == names[asked]
        both = dataclasses.replace(lines[bye], dropped=True, no_shows=2)
        assert pictures.shown_name(both) == f"{names[bye]} (dropped, 2 no-shows, 1 bye)"
    with speaking("es"):
        assert pictures.shown_name(lines[bye]) == f"{names[bye]} (1 ronda libre)"
        assert pictures.shown_name(both) == f"{names[bye]} (baja, 2 incomparecencias, 1 ronda libre)"
    _, picture = await Rounds(leagues, posts=None, scheduler=None).standings_post(league, "round 1")
    image = Image.open(io.BytesIO(picture.data))
    assert image.format == "PNG" and image.height > 0
