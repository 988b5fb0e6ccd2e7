"""The score chart on a game's page: each line ends in a letter of its own (two names starting
with the same letter get different ones), the end labels never sit on one another (two seats
ending on the same score are drawn apart), and a screen reader reads its words once."""

from __future__ import annotations

import re

from bench.history import store_game
from tests.support.played import whole_game
from tests.table.test_web_pages import record_end, serve


async def test_each_line_has_a_letter_of_its_own_and_the_labels_do_not_overlap(service):
    played, final = whole_game("guacamole", 3, 3)  # p1 and p2 end on 23 points, p3 on 27
    sid = await store_game(service, "guacamole", 3, 3, played, final)
    outcome = await record_end(service, sid, "guacamole", final)
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


def contrast_on_white(colour: str) -> float:
    """WCAG's contrast ratio of ``colour`` (``#rrggbb``) against white."""

    def linear(channel: str) -> float:
        c = int(channel, 16) / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(colour[i : i + 2]) for i in (1, 3, 5))
    return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05)


async def test_six_lines_and_their_labels_can_be_read_on_the_charts_white(service):
    """The end labels are 14 px text (4.5:1 from the white they are drawn on, for WCAG AA), the
    lines graphics (3:1); each seat's colour is the one the results card draws its line in.  Five
    of the six labels were too light for their size (orange and sky blue about 2.3:1, too light
    even for a line)."""
    from renderers.colours import seat_colour

    played, final = whole_game("guacamole", 6, 1)
    sid = await store_game(service, "guacamole", 6, 1, played, final)
    await record_end(service, sid, "guacamole", final)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        html = await (await client.get(f"/g/{token}")).text()
        assert "background: #fff" in (await (await client.get("/static/web.css")).text()).split(".chart")[1]
        lines = re.findall(r'<polyline [^>]*stroke="(#[0-9a-f]{6})"', html)
        labels = re.findall(r'<text [^>]*fill="(#[0-9a-f]{6})"', html)
        assert len(lines) == len(labels) == 6
        assert [label for label in labels if contrast_on_white(label) < 4.5] == []
        assert [line for line in lines if contrast_on_white(line) < 3.0] == []
        for seat, (line, label) in enumerate(zip(lines, labels, strict=True)):
            assert line == label == "#{:02x}{:02x}{:02x}".format(*seat_colour(seat))
    finally:
        await client.close()
