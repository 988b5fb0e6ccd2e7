"""A player's name holding a right-to-left override (U+202E, never closed) keeps the page's own words
after it in order, as the browser draws them: a league's round line ("Table 1: Eve (2nd) · game
#1"), a person's heading ("Eve's games") and a game's move list ("Eve took 1 from pile A").  Each
name is isolated (:func:`languages.bidi.isolated`); before, the override ran on to the end of its
line, and those words were drawn backwards ("1# emag · (dn2)").  A right-to-left name without
controls (Hebrew) sits beside them."""

from __future__ import annotations

from tests.league.test_service import DAY, GUILD
from tests.table.test_web_pages import serve
from tests.web.conftest import BROWSER_TESTS, LAYOUT_ONLY
from tests.web.test_league_and_person_pages import first_round_played

pytestmark = [*BROWSER_TESTS, LAYOUT_ONLY]

OVERRIDE = "\u202eEve"
NAMES = {901: "שרה", 902: "Bob", 903: OVERRIDE, 904: "Dan"}

# The left edge of each character of ``needle`` in the first element matching ``sel`` whose text
# holds it (its text nodes read in order, across the element's children).
EDGES = """([sel, needle]) => {
  for (const el of document.querySelectorAll(sel)) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let node, text = '', nodes = [];
    while ((node = walker.nextNode())) { nodes.push([node, text.length]); text += node.data; }
    const at = text.indexOf(needle);
    if (at < 0) continue;
    const xs = [];
    for (let i = at; i < at + needle.length; i++) {
      const [n, start] = nodes.filter(([n, s]) => s <= i).pop();
      const r = document.createRange(); r.setStart(n, i - start); r.setEnd(n, i - start + 1);
      xs.push(r.getBoundingClientRect().left);
    }
    return xs;
  }
  return null;
}"""


async def words_after_the_name(page, sel: str) -> list[tuple[str, list[float]]]:
    """Each element matching ``sel`` whose text names :data:`OVERRIDE`: the words after the name
    to the element's end, and their characters' left edges as drawn."""
    found = []
    for text in await page.locator(sel).all_text_contents():
        if OVERRIDE in text:
            after = text.split(OVERRIDE, 1)[1].lstrip("\u2069").rstrip()
            found.append((after, await page.evaluate(EDGES, [sel, after])))
    assert found, sel
    return found


async def test_a_name_with_a_right_to_left_override_keeps_the_words_after_it_in_order(
    service, clock, chromium
):
    leagues, league = await first_round_played(service, "Bidi", NAMES)
    clock.advance(DAY)
    await leagues.round_deadline(league.id, 1)  # the places: "(2nd)" after each name
    (played,) = [
        g.session_id for g in await service.store.leagues.league_games(league.id) if 903 in g.players
    ]
    pages, client = await serve(service)
    context = await chromium.new_context(viewport={"width": 1000, "height": 740})
    try:
        page = await context.new_page()
        drawn = []
        for kind, ref, sel in (
            ("league", (league.id,), "#rounds-h ~ ul li"),
            ("person", (903, GUILD), "h1"),
            ("game", (played,), "ol.moves li"),
        ):
            token = await pages.links.token(kind, *ref)
            await page.goto(str(client.make_url(f"/{kind[0]}/{token}")))
            drawn += await words_after_the_name(page, sel)
        backwards = [(after, xs) for after, xs in drawn if xs != sorted(xs)]
        assert backwards == [], backwards
        # the round's line, the heading, then the moves Eve made
        assert drawn[0][0].endswith("#1") and drawn[1][0] == "'s games" and len(drawn) > 2, drawn
    finally:
        await context.close()
        pages.close()
        await client.close()
