"""Links that lead nowhere: a game's step links at either end of the game (First and Back at the
start, Forward and Last at the end), and the link to the page's own language at the top of every
page.  They were links a keyboard still reached with Tab, and Enter on one loaded the page it was
on.  They are now disabled links, with no address: Tab passes them by, a click does nothing, with
the page's script and without it, and a screen reader still hears them as disabled links."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

import languages
from bench.history import store_game
from tests.league.test_service import GUILD
from tests.support.played import whole_game
from tests.table.test_web_pages import serve
from tests.web.conftest import BROWSER_TESTS, LAYOUT_ONLY
from tests.web.test_league_and_person_pages import audit, first_round_played

pytestmark = [*BROWSER_TESTS, LAYOUT_ONLY]

MOVES = 6
FOCUSED = """() => { const e = document.activeElement;
  return [e.tagName, e.textContent.trim(), e.getAttribute('aria-disabled'), e.closest('nav.steps') !== null]; }"""


async def tab_stops(page) -> list[list]:
    """Each control the Tab key reaches on ``page``, all the way round (from its heading to its end,
    then from its top): its tag, its text, its ``aria-disabled`` and whether it is a step link."""
    await page.locator("h1").click()  # the focus on the page itself
    stops: list[list] = []
    for _ in range(200):
        await page.keyboard.press("Tab")
        now = await page.evaluate(FOCUSED)
        if now in stops:
            return stops
        if now[0] != "BODY":  # past the end, the focus leaves the page before it comes round
            stops.append(now)
    raise AssertionError(f"the Tab key never came round: {stops}")


async def steps_reached(page) -> list[str]:
    stops = await tab_stops(page)
    assert not [s for s in stops if s[2] is not None], stops  # nothing disabled takes the focus
    assert any(s[1].startswith("Skip") for s in stops) and any(s[0] == "SUMMARY" for s in stops), stops
    return [s[1] for s in stops if s[3]]


async def documents_loaded_by(page, action) -> list[str]:
    """The pages (documents) ``action`` makes the browser load."""
    loaded: list[str] = []

    def seen(request) -> None:
        if request.resource_type == "document":
            loaded.append(request.url)

    page.on("request", seen)
    try:
        await action()
        await page.locator("h1").click()  # a round trip to the page: a load begun is seen by now
    finally:
        page.remove_listener("request", seen)
    return loaded


async def leads_nowhere(page, link) -> None:
    """``link`` is a disabled link with no address, which a click (as a script or an assistive
    technology sends one) leaves where it was: no page loaded."""
    url = page.url
    assert await link.get_attribute("aria-disabled") == "true"
    assert await link.get_attribute("role") == "link"  # said as a link, a disabled one
    assert await link.get_attribute("href") is None
    assert await documents_loaded_by(page, lambda: link.dispatch_event("click")) == []
    assert page.url == url


async def disabled_do_nothing(page, names: tuple[str, ...], step: int) -> None:
    """Each of the step links ``names`` leads nowhere (:func:`leads_nowhere`); the page still shows
    ``step``."""
    for name in names:
        await leads_nowhere(page, page.locator("nav.steps a", has_text=name))
    assert await page.get_attribute("#game", "data-step") == str(step)


@asynccontextmanager
async def game_page(service, chromium, move: int, **options) -> AsyncIterator[tuple[object, str]]:
    """A Guanga game of :data:`MOVES` moves, its page opened at ``move`` in English (``options``:
    the browser context's); the page and its address without the move."""
    played, final = whole_game("guanga", 2, 5)
    sid = await store_game(service, "guanga", 2, 5, played[:MOVES], final)
    pages, client = await serve(service)
    try:
        address = str(client.make_url(f"/g/{await pages.links.token('game', sid)}"))
        page = await (await chromium.new_context(locale="en-GB", **options)).new_page()
        await page.goto(f"{address}?move={move}")
        yield page, address
    finally:
        pages.close()
        await client.close()


@pytest.mark.parametrize("script", [True, False], ids=["script", "no-script"])
async def test_the_step_links_that_lead_nowhere_take_no_focus_and_no_click(service, chromium, script):
    async with game_page(service, chromium, 0, java_script_enabled=script) as (page, _):
        assert await steps_reached(page) == ["Forward ▶", "Last »"]
        await disabled_do_nothing(page, ("First", "Back"), 0)
        assert not script or await audit(page) == []  # axe-core runs as the page's script
        # To the last move: by the page's script, or by loading the link's page without it.
        await page.click("nav.steps a:has-text('Last')")
        await page.locator(f"#game[data-step='{MOVES}']").wait_for()
        assert await steps_reached(page) == ["« First", "◀ Back"]
        await disabled_do_nothing(page, ("Forward", "Last"), MOVES)
        assert not script or await audit(page) == []
        # The links between the ends lead where they say.
        await page.click("nav.steps a[rel=prev]")
        await page.locator(f"#game[data-step='{MOVES - 1}']").wait_for()
        assert await steps_reached(page) == ["« First", "◀ Back", "Forward ▶", "Last »"]


async def test_a_step_link_that_comes_to_lead_nowhere_hands_the_focus_to_the_nearest_one(service, chromium):
    """Enter on Back one move after the start shows the start, where Back is disabled: the focus
    goes to Forward (the nearest step link that still leads somewhere) rather than to nowhere,
    and Enter there steps forward again, the focus kept; likewise Forward one move before the end
    hands the focus to Back."""
    async with game_page(service, chromium, 1) as (page, address):
        for where, step, now in (("rel=prev", 0, "Forward ▶"), ("rel=next", 1, "Forward ▶")):
            await page.focus(f"nav.steps a[{where}]")
            await page.keyboard.press("Enter")
            await page.locator(f"#game[data-step='{step}']").wait_for()
            assert (await page.evaluate(FOCUSED))[1:] == [now, None, True], where
        await page.goto(f"{address}?move={MOVES - 1}")
        await page.focus("nav.steps a[rel=next]")
        await page.keyboard.press("Enter")
        await page.locator(f"#game[data-step='{MOVES}']").wait_for()
        assert (await page.evaluate(FOCUSED))[1:] == ["◀ Back", None, True]
        await page.keyboard.press("Enter")
        await page.locator(f"#game[data-step='{MOVES - 1}']").wait_for()


async def test_the_link_to_the_pages_own_language_takes_no_focus_and_no_click(service, chromium):
    """On a game's page, a league's and a person's, in each language: Tab reaches the other
    language's link and never the one of the language the page is in (which only loaded the page
    again), marked as the current one and disabled."""
    played, final = whole_game("guanga", 2, 5)
    sid = await store_game(service, "guanga", 2, 5, played[:MOVES], final)
    _, league = await first_round_played(service, "Own language", {801: "Ana", 802: "Beto"})
    pages, client = await serve(service)
    try:
        addresses = [
            f"/g/{await pages.links.token('game', sid)}",
            f"/l/{await pages.links.token('league', league.id)}",
            f"/p/{await pages.links.token('person', 801, GUILD)}",
        ]
        names = {code: languages.language(code).name for code in languages.available()}
        assert len(names) >= 2, names
        page = await (await chromium.new_context(locale="en-GB")).new_page()
        for address in addresses:
            for lang, own in (("", "en"), *((code, code) for code in names)):
                await page.goto(str(client.make_url(address + (f"?lang={lang}" if lang else ""))))
                stops = [s[1] for s in await tab_stops(page)]
                assert names[own] not in stops, (address, lang, stops)
                assert [n for n in names.values() if n in stops] == [n for c, n in names.items() if c != own]
                current = page.locator("ul.langs a[aria-current=true]")
                assert await current.inner_text() == names[own]
                assert await current.get_attribute("href") is None
                await leads_nowhere(page, current)
            assert await audit(page) == [], address
    finally:
        pages.close()
        await client.close()
