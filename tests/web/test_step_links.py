"""A game's step links at either end of the game: First and Back at the start, Forward and Last at
the end, lead nowhere, and were greyed links a keyboard still reached with Tab (and Enter on one
reloaded the page).  They are now disabled links, with no address: Tab passes them by, a click
does nothing, with the page's script and without it, and a screen reader still hears them as
links that are disabled."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from bench.history import store_game, whole_game
from tests.table.test_web_pages import serve
from tests.web.conftest import BROWSER_TESTS, LAYOUT_ONLY
from tests.web.test_league_and_person_pages import audit

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


async def disabled_do_nothing(page, names: tuple[str, ...], step: int) -> None:
    """Each of the step links ``names`` is a disabled link with no address that a click (as a
    script or an assistive technology sends one) leaves the page as it was, at ``step``."""
    url = page.url
    for name in names:
        link = page.locator("nav.steps a", has_text=name)
        assert await link.get_attribute("aria-disabled") == "true", name
        assert await link.get_attribute("role") == "link", name  # said as a link, a disabled one
        assert await link.get_attribute("href") is None, name
        assert await documents_loaded_by(page, lambda link=link: link.dispatch_event("click")) == [], name
        assert page.url == url
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
