"""The score chart on a game's page as a phone draws it: its end labels about as large as on a wide
screen (they were about 8 px on a 360 px phone, the chart drawn at 55% of its size), each inside
the chart, none on another, each just right of its line's end and in their lines' order."""

from __future__ import annotations

import pytest

from bench.history import store_game
from tests.support.played import whole_game
from tests.table.test_web_pages import record_end, serve
from tests.web.conftest import BROWSER_TESTS, LAYOUT_ONLY
from tests.web.test_league_and_person_pages import audit

pytestmark = BROWSER_TESTS

LABELS = """() => {
  const chart = document.querySelector('svg.chart'), box = chart.getBoundingClientRect();
  const scale = box.width / chart.viewBox.baseVal.width;
  return [[box.left, box.top, box.right, box.bottom],
          [...chart.querySelectorAll('text')].map(t => {
            const r = t.getBoundingClientRect();
            return [parseFloat(getComputedStyle(t).fontSize) * scale, r.left, r.top, r.right, r.bottom];
          }),
          [...chart.querySelectorAll('polyline')].map(p => {
            const end = p.points.getItem(p.points.numberOfItems - 1);
            return [box.left + end.x * scale, box.top + end.y * scale];
          })];
}"""


@LAYOUT_ONLY
@pytest.mark.parametrize(
    ("game", "players", "seed"),
    [
        ("guacamole", 3, 3),  # two seats end on 23
        ("guacamole", 6, 1),
        ("nowa_gwinea", 4, 5),  # three seats end on nought, far below the leader (whose label left the chart)
    ],
)
async def test_the_charts_labels_can_be_read_on_a_phone_and_never_overlap(
    service, chromium, game, players, seed
):
    played, final = whole_game(game, players, seed)
    sid = await store_game(service, game, players, seed, played, final)
    await record_end(service, sid, game, final)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        for width, least in ((360, 12.0), (400, 12.0), (1000, 14.0)):
            context = await chromium.new_context(viewport={"width": width, "height": 800}, locale="en-GB")
            page = await context.new_page()
            await page.goto(str(client.make_url(f"/g/{token}")))
            box, labels, ends = await page.evaluate(LABELS)
            assert len(labels) == len(ends) == players
            for size, left, top, right, bottom in labels:
                assert size >= least, (width, size)
                assert box[0] <= left and right <= box[2] and box[1] <= top and bottom <= box[3], (width, box)
            for a, (_, *one) in enumerate(labels):
                for _, *other in labels[a + 1 :]:
                    apart = (
                        one[2] <= other[0] or other[2] <= one[0] or one[3] <= other[1] or other[3] <= one[1]
                    )
                    assert apart, (width, one, other)
            for (_, left, *_), (x, _) in zip(labels, ends, strict=True):
                assert 0 < left - x < 12, (width, left, x)  # just right of its line's end
            # Down the chart, the labels come in the order of their lines' ends (a tie by seat).
            by_label = sorted(range(players), key=lambda i: (labels[i][2], i))
            assert by_label == sorted(range(players), key=lambda i: (round(ends[i][1], 1), i)), width
            assert await audit(page) == [], width
            await context.close()
    finally:
        pages.close()
        await client.close()
