"""A person's page for someone who finished games but has no rating (only games between two or
more people are rated): it says so, instead of saying they finished no game above the list of
the games they finished."""

from __future__ import annotations

import engines
from bench.history import store_game, whole_game
from bot.storage import ResultRow
from tests.table.test_web_pages import serve


async def test_finished_games_without_a_rating(service):
    played, final = whole_game("pachakuna", 2, 3)
    sid = await store_game(service, "pachakuna", 2, 3, played, final)
    outcome = engines.get("pachakuna").load().outcome(final)
    await service.store.games.finish(
        sid,
        status="finished",
        reason="end",
        outcome=outcome.to_dict(),
        results=[ResultRow(s, s + 1, outcome.scores[s], 1 + s, False) for s in range(2)],
    )
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
