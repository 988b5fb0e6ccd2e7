"""The score chart on a game's page: each line ends in a letter of its own (two names starting
with the same letter get different ones), the end labels never sit on one another (two seats
ending on the same score are drawn apart), and a screen reader reads its words once."""

from __future__ import annotations

import re

import engines
from bench.history import store_game, whole_game
from bot.storage import ResultRow
from tests.table.test_web_pages import serve


async def test_each_line_has_a_letter_of_its_own_and_the_labels_do_not_overlap(service):
    played, final = whole_game("guacamole", 3, 3)  # p1 and p2 end on 23 points, p3 on 27
    sid = await store_game(service, "guacamole", 3, 3, played, final)
    outcome = engines.get("guacamole").load().outcome(final)
    await service.store.games.finish(
        sid,
        status="finished",
        reason="end",
        outcome=outcome.to_dict(),
        results=[ResultRow(s, s + 1, outcome.scores[s], 1 + s, False) for s in range(3)],
    )
    assert sorted(outcome.scores) == [23, 23, 27]
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        html = await (await client.get(f"/g/{token}")).text()
        labels = re.findall(r'<text x="([\d.]+)" y="([\d.]+)"[^>]*>(\S+) (\d+)</text>', html)
        assert len(labels) == 3, labels
        letters = [letter for _, _, letter, _ in labels]
        assert len(set(letters)) == 3, letters  # the names are p1, p2 and p3
        ys = sorted(float(y) for _, y, _, _ in labels)
        assert all(b - a >= 14 for a, b in zip(ys, ys[1:], strict=False)), ys
        # The chart's words name each seat with its letter, so that the letters can be read; a
        # screen reader reads them once, from the paragraph (the picture is hidden from it).
        svg = re.search(r'<svg class="chart"[^>]*>', html).group(0)
        assert 'aria-hidden="true"' in svg and "aria-label" not in svg, svg
        words = re.search(r"</svg>\s*<p>([^<]*)</p>", html).group(1)
        assert words.startswith("Scores over")
        for letter in letters:
            assert f"({letter})" in words, words
    finally:
        await client.close()
