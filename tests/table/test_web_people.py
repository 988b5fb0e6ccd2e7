"""A person's page for someone who finished games but has no rating (only games between two or
more people are rated): it says so, instead of saying they finished no game above the list of
the games they finished.  A game they left is marked as the game's page marks it: resigned, or
their time ran out."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from bench.history import store_game
from tests.support.played import whole_game
from tests.table.test_clocks import CH, move, no_table_moves, run_out, started  # noqa: F401
from tests.table.test_web_pages import record_end, serve


async def test_finished_games_without_a_rating(service):
    played, final = whole_game("pachakuna", 2, 3)
    sid = await store_game(service, "pachakuna", 2, 3, played, final)
    await record_end(service, sid, "pachakuna", final)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("person", 1, 1)
        for lang, rated, finished in (
            ("en", "No rated games yet", "No finished games yet"),
            ("es", "Aún no hay partidas puntuadas", "Aún no hay partidas terminadas"),
        ):
            html = await (await client.get(f"/p/{token}?lang={lang}")).text()
            ratings = html.split('id="ratings-h"', 1)[1].split("</section>", 1)[0]
            games = html.split('id="finished-h"', 1)[1].split("</section>", 1)[0]
            assert rated in ratings and finished not in ratings, ratings
            assert "<td>P&#39;achakuna</td>" in games
    finally:
        await client.close()


@pytest.mark.usefixtures("no_table_moves")
async def test_a_seat_whose_time_ran_out_is_not_called_resigned(service, clock):
    """The results keep one mark for a seat ranked last, whether its person resigned or their time
    ran out (the computer took the seat); the person's page said "resigned" for both, where the
    game's page and the results card say "time ran out"."""
    session, late, at = await run_out(service, clock, people=2)
    session, _ = await service.clocks.answer_timeout(session.id, late.seat, at, "computer", None)
    while session.status == "active":
        session = await move(service, session)
    resigned = await started(service)  # a second game: the other resigns from it
    await service.seats.resign(CH, 2)
    assert (await service.core.get(resigned.id)).status == "finished"
    pages, client = await serve(service)
    try:
        for user, mark in ((late.user_id, "(time ran out)"), (2, "(resigned)")):
            token = await pages.links.token("person", user, 1)
            html = await (await client.get(f"/p/{token}")).text()
            games = html.split('id="finished-h"', 1)[1].split("</section>", 1)[0]
            rows = {int(n): row for n, row in re.findall(r"<td>Nim</td><td>(\d+)</td>(.*?)</tr>", games)}
            if user == late.user_id:
                assert "(time ran out)" in rows[session.id] and "resigned" not in rows[session.id], rows
            else:
                assert "(resigned)" in rows[resigned.id] and "time ran out" not in rows[resigned.id], rows
            assert mark in games
        es = await (
            await client.get(f"/p/{await pages.links.token('person', late.user_id, 1)}?lang=es")
        ).text()
        assert "(sin tiempo)" in es and "(se rindió)" not in es
    finally:
        await client.close()


async def test_the_day_a_game_ended_is_written_as_the_readers_language_writes_a_date(service, clock):
    """Not the stored ``2027-03-05`` (day and month in an order neither language writes): the
    day, the month's name and the year, with the machine's date kept in ``<time datetime>``."""
    clock.set(datetime(2027, 3, 5, 23, 30, tzinfo=UTC).timestamp())
    played, final = whole_game("pachakuna", 2, 3)
    sid = await store_game(service, "pachakuna", 2, 3, played, final)
    await record_end(service, sid, "pachakuna", final)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("person", 1, 1)
        for lang, day in (("en", "5 Mar 2027"), ("es", "5 de marzo de 2027")):
            html = await (await client.get(f"/p/{token}?lang={lang}")).text()
            games = html.split('id="finished-h"', 1)[1].split("</section>", 1)[0]
            assert f'<td><time datetime="2027-03-05">{day}</time></td>' in games, games
            assert "2027-03-05<" not in games
    finally:
        await client.close()


async def test_a_profile_with_more_games_than_it_lists_says_how_many_more(service):
    """The list of finished games stops at the newest hundred; the page says so under it, with
    how many older games it leaves out (it said only that the latest hundred are listed), so that
    a reader neither takes the list for every game nor has to guess how many are missing."""
    played, final = whole_game("pachakuna", 2, 3)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("person", 1, 1)
        for count in range(1, 103):
            sid = await store_game(service, "pachakuna", 2, 3, played[:2], final)
            await record_end(service, sid, "pachakuna", final)
            if count < 100:
                continue
            for lang, said in (
                ("en", {101: "1 older game is not.", 102: "2 older games are not."}),
                ("es", {101: "falta 1 partida más antigua.", 102: "faltan 2 partidas más antiguas."}),
            ):
                html = await (await client.get(f"/p/{token}?lang={lang}")).text()
                games = html.split('id="finished-h"', 1)[1].split("</section>", 1)[0]
                assert games.count("<td>P&#39;achakuna</td>") == 100
                head = {
                    "en": "Only the latest 100 are listed: ",
                    "es": "Solo se muestran las 100 más recientes: ",
                }
                if count == 100:
                    assert head[lang] not in games, (count, lang)
                else:
                    assert f"<p>{head[lang]}{said[count]}</p>" in games, (count, lang, games[-300:])
            assert f"<td>{sid}</td>" in games  # the newest first
    finally:
        await client.close()


async def signed_up_only(service, user_id: int, name: str) -> None:
    """``name`` (``user_id``) signed up to a Nim league of the test server that has not begun: in
    no game there."""
    from bot.league.service import LeagueService
    from tests.league.test_service import new_league

    leagues = LeagueService(service.store, service)
    league = await new_league(
        leagues, name="Soon", game="nim", format="swiss", group_size=2, rounds=1, days=1, seed=3
    )
    await leagues.join(league, user_id, name)


async def test_someone_with_no_finished_game_has_a_page_and_someone_unknown_none(service):
    """Signed up to a league whose games have not begun, a person has finished no game in the
    server: their link leads to their page, which says they have no rated and no finished games
    (it was the 404 page).  A person the server knows nothing of, or knows only in another server,
    still gets the 404 page, as a wrong token does."""
    from tests.league.test_service import GUILD

    await signed_up_only(service, 701, "Sumaq")
    pages, client = await serve(service)
    try:
        token = await pages.links.token("person", 701, GUILD)
        for lang, title, rated, finished in (
            ("en", "Sumaq&#39;s games", "No rated games yet", "No finished games yet."),
            ("es", "Partidas de Sumaq", "Aún no hay partidas puntuadas", "Aún no hay partidas terminadas."),
        ):
            reply = await client.get(f"/p/{token}?lang={lang}")
            html = await reply.text()
            assert reply.status == 200, lang
            assert f"<h1>{title}</h1>" in html, html
            ratings = html.split('id="ratings-h"', 1)[1].split("</section>", 1)[0]
            games = html.split('id="finished-h"', 1)[1].split("</section>", 1)[0]
            assert rated in ratings and "<table>" not in ratings
            assert f"<p>{finished}</p>" in games and "<table>" not in games
        for unknown in (
            await pages.links.token("person", 702, GUILD),  # never seated, rated nor signed up here
            await pages.links.token("person", 701, GUILD + 1),  # known in another server only
            token[:-1] + ("A" if token[-1] != "A" else "B"),  # no such link
        ):
            reply = await client.get(f"/p/{unknown}")
            assert reply.status == 404, unknown
            assert "Sumaq" not in await reply.text()
        await pages.links.set_pages(GUILD, "off")
        assert (await client.get(f"/p/{token}")).status == 404
    finally:
        pages.close()
        await client.close()


async def test_a_rating_is_written_with_one_decimal_as_the_standings_write_it(service, monkeypatch):
    """A person's rating reads as the league standings and ``/me`` write it, with one decimal
    ("4.0"), where it read "4" for a whole number."""
    from bot.web import people
    from tests.table.test_ratings import GUILD, play_nim

    await play_nim(service, 30, [10, 20])
    monkeypatch.setattr(people, "shown_or_start", lambda mu, sigma: 4.0)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("person", 10, GUILD)
        for lang, written in (("en", "<td>4.0</td>"), ("es", "<td>4,0</td>")):
            html = await (await client.get(f"/p/{token}?lang={lang}")).text()
            ratings = html.split('id="ratings-h"', 1)[1].split("</section>", 1)[0]
            assert written in ratings, ratings
    finally:
        pages.close()
        await client.close()
