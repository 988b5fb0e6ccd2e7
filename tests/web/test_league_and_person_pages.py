"""A league's page and a person's, as a phone shows them and as axe-core audits them: tables wider
than the screen scroll in a region of their own (the page itself never sideways), and each such
region is a landmark distinct from the part of the page it is in."""

from __future__ import annotations

import random

from bot.league.service import LeagueService
from tests.league.test_service import DAY, GUILD, counter, new_league, open_games, play_out
from tests.table.test_web_pages import serve
from tests.web.conftest import BROWSER_TESTS, LAYOUT_ONLY, axe_violations

pytestmark = BROWSER_TESTS


async def audit(page) -> list[str]:
    return [f"{v['id']}: {v['help']} ({v['nodes'][0]['html'][:120]})" for v in await axe_violations(page)]


async def first_round_played(
    service, name: str, names: dict[int, str], *, channel: int = 50, format: str = "swiss"
) -> tuple[LeagueService, object]:
    """A two-round Swiss Nim league (or one of another ``format``) called ``name`` of ``names``
    (user id: name), in ``channel``, its first round played out (its deadline still to come):
    the league service and the league."""
    seeds = random.Random(4)
    service.new_seed = lambda: seeds.randrange(2**48)  # each game's deal: the same on every run
    leagues = LeagueService(service.store, service)
    league = await leagues.create(
        guild_id=GUILD, channel_id=channel, organiser_id=1, name=name, game="nim", format=format,
        group_size=2, rounds=2, days=1, seed=4,
    )  # fmt: skip
    for uid, player in names.items():
        await leagues.join(league, uid, player)
    league, _ = await leagues.start(league)
    opened = await leagues.open_round(league.id, 1)
    for session in await open_games(leagues, opened, names, counter(8000)):
        await play_out(service, session)
    return leagues, league


async def phone_pages(chromium, client, address: str, widths: tuple[int, ...]):
    """``address`` opened at each of ``widths`` in English, then Spanish: (width, language, page),
    the page's context closed once the caller moves on."""
    for width in widths:
        for lang in ("en", "es"):
            context = await chromium.new_context(viewport={"width": width, "height": 740}, locale=lang)
            try:
                page = await context.new_page()
                await page.goto(str(client.make_url(f"{address}?lang={lang}")))
                yield width, lang, page
            finally:
                await context.close()


async def test_a_league_and_a_person_on_a_phone(service, clock, chromium):
    names = {uid: f"Jugadora {uid} con un nombre largo" for uid in range(801, 805)}
    leagues, league = await first_round_played(service, "Nim on phones", names)
    clock.advance(DAY)
    await leagues.round_deadline(league.id, 1)
    pages, client = await serve(service)
    try:
        addresses = [
            f"/l/{await pages.links.token('league', league.id)}",
            f"/p/{await pages.links.token('person', 801, GUILD)}",
        ]
        for lang in ("en", "es"):
            context = await chromium.new_context(viewport={"width": 360, "height": 740}, locale=lang)
            page = await context.new_page()
            for address in addresses:
                reply = await page.goto(str(client.make_url(f"{address}?lang={lang}")))
                assert reply is not None and reply.status == 200, address
                assert await page.locator("table").count() >= 2, address  # standings, ratings; ratings, games
                body = await page.evaluate(
                    "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
                )
                wide = await page.evaluate(
                    "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).map(e => e.outerHTML.slice(0, 150))"
                )
                assert body[0] <= body[1], (address, body, wide)  # the page never scrolls sideways
                assert await audit(page) == [], (lang, address)
            await context.close()
    finally:
        pages.close()
        await client.close()


async def test_a_standings_row_keeps_its_name_in_view_while_the_table_scrolls(service, clock, chromium):
    """On a phone the standings are wider than the screen: scrolled to their last column (the
    tiebreaks), each row still shows whose it is, the name cell in view and on top."""
    leagues = LeagueService(service.store, service)
    league = await new_league(
        leagues, name="Narrow", game="guanga", format="swiss", group_size=2, rounds=2, days=1, seed=4
    )
    for uid in range(801, 805):
        await leagues.join(league, uid, f"Jugadora {uid}")
    pages, client = await serve(service)
    try:
        address = f"/l/{await pages.links.token('league', league.id)}?lang=es"
        context = await chromium.new_context(viewport={"width": 360, "height": 740}, locale="es")
        page = await context.new_page()
        await page.goto(str(client.make_url(address)))
        box = page.locator("[aria-labelledby=standings-h]")
        assert await box.evaluate("e => e.scrollWidth > e.clientWidth")  # it does scroll
        await box.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
        shown = await box.evaluate(
            """e => { const r = e.getBoundingClientRect();
              return [...e.querySelectorAll('tbody tr')].map(tr => {
                const c = tr.cells[1].getBoundingClientRect();
                const x = Math.max(c.left, r.left) + 4, y = c.top + c.height / 2;
                return [c.left >= r.left - 1 && c.left + 20 <= r.right,
                        tr.cells[1].contains(document.elementFromPoint(x, y))];
              }); }"""
        )
        assert shown == [[True, True]] * 4, shown
        await context.close()
    finally:
        pages.close()
        await client.close()


async def rated_game(service, game: str, seed: int, *, resigned: bool) -> int:
    """A two-player ``game`` stored and finished in server 1 (no moves needed for a profile):
    p1 (user 1) second with 123 points (ranked last for leaving if ``resigned``: their time ran
    out, as their seat did not resign), p2 first; both rated."""
    import engines
    from bench.history import store_game
    from bot.storage import ResultRow
    from engines.core import config_from_options

    module = engines.get(game).load()
    start = module.new_game(config_from_options(module.Config, 2, {}), 2, seed)
    sid = await store_game(service, game, 2, seed, [], start)
    await service.store.games.finish(
        sid,
        status="finished",
        reason="end",
        outcome=None,
        results=[ResultRow(1, 2, 130.0, 1, False), ResultRow(0, 1, 123.0, 2, resigned)],
        rated=True,
        names={1: "p1", 2: "p2"},
    )
    return sid


@LAYOUT_ONLY
async def test_a_persons_tables_fit_a_phone_with_every_column_and_heading(service, clock, chromium):
    """On a 360 px phone a person's tables show every column within the screen, their headings
    kept: in Spanish the ratings' last column (Victorias) lay past the edge of its box, to be
    scrolled to; with every game's title, a time that ran out and the longest date written out."""
    from datetime import UTC, datetime

    clock.set(datetime(2027, 9, 30, 12, 0, tzinfo=UTC).timestamp())
    for seed, game in enumerate(("guanga", "tiwanaku", "pachakuna", "nowa_gwinea", "guacamole")):
        await rated_game(service, game, seed + 1, resigned=game == "guanga")
    pages, client = await serve(service)
    try:
        address = f"/p/{await pages.links.token('person', 1, 1)}"
        async for width, lang, page in phone_pages(chromium, client, address, (360, 400)):
            boxes = await page.evaluate(
                """[...document.querySelectorAll('main .wide')].map(box => {
                  const table = box.querySelector('table');
                  return [box.getAttribute('aria-labelledby'), table.getBoundingClientRect().width,
                          box.clientWidth, table.tHead.rows[0].cells.length,
                          table.tBodies[0].rows[0].cells.length];
                })"""
            )
            assert [b[0] for b in boxes] == ["ratings-h", "finished-h"], boxes
            for name, table, box, headings, cells in boxes:
                assert table <= box + 0.5, (width, lang, name, table, box)  # no column past the edge
                assert headings == cells, (name, headings, cells)
            rows = await page.locator("#finished-h ~ div tbody tr").count()
            assert rows == 5 and await page.locator("#ratings-h ~ div tbody tr").count() == 5
            body = await page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
            assert body[0] <= body[1], body
            assert await audit(page) == [], (width, lang)
    finally:
        pages.close()
        await client.close()


async def test_the_page_of_someone_with_no_finished_game_on_a_phone(service, chromium):
    """Signed up to a league not begun: on a 360 px phone their page says they have no rated and
    no finished games, with no empty table, nothing wider than the screen, and nothing axe-core
    finds wrong."""
    from tests.table.test_web_people import signed_up_only

    await signed_up_only(service, 701, "Jugadora con un nombre largo")
    pages, client = await serve(service)
    try:
        address = f"/p/{await pages.links.token('person', 701, GUILD)}"
        for lang, said in (("en", "No finished games yet."), ("es", "Aún no hay partidas terminadas.")):
            context = await chromium.new_context(viewport={"width": 360, "height": 740}, locale=lang)
            page = await context.new_page()
            reply = await page.goto(str(client.make_url(f"{address}?lang={lang}")))
            assert reply is not None and reply.status == 200
            assert said in await page.inner_text("main")
            assert await page.locator("table").count() == 0
            body = await page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
            assert body[0] <= body[1], body
            assert await audit(page) == [], lang
            await context.close()
    finally:
        pages.close()
        await client.close()


@LAYOUT_ONLY
async def test_a_leagues_season_ratings_fit_a_phone_with_every_column(service, clock, chromium):
    """The season's ratings (five columns) fit a 390 px phone, as a person's tables do: a name of
    one long word kept the table wider than the screen, and the last columns (games, wins) lay past
    its edge with nothing to show they were there.  The name now wraps inside its cell."""
    names = {uid: f"Bartholomäusvonwolfeschlegel{uid}" for uid in range(801, 805)}
    _, league = await first_round_played(service, "Long names", names)
    pages, client = await serve(service)
    try:
        address = f"/l/{await pages.links.token('league', league.id)}"
        async for width, lang, page in phone_pages(chromium, client, address, (360, 390)):
            box = page.locator("[aria-labelledby=ratings-h]")
            table, inside, headings = await box.evaluate(
                """box => { const t = box.querySelector('table');
                  return [t.getBoundingClientRect().width, box.clientWidth,
                          t.tHead.rows[0].cells.length]; }"""
            )
            assert headings == 5 and await box.locator("tbody tr").count() == 4
            assert table <= inside + 0.5, (width, lang, table, inside)  # no column past the edge
            assert await audit(page) == [], (width, lang)
    finally:
        pages.close()
        await client.close()


async def edge_shade(box) -> float:
    """How much darker than the paper the last 3 px of ``box`` (a scrolling region) are, from a
    screenshot of it: at their lightest (a shade darkens the whole edge; a row's rule or a letter
    crossing it, only some of it)."""
    from io import BytesIO

    from PIL import Image

    picture = Image.open(BytesIO(await box.screenshot())).convert("L")
    width, height = picture.size
    lightest = picture.crop((width - 3, 2, width, height - 2)).getextrema()[1]  # inside the box's rounding
    return 252.0 - lightest  # the paper, #fdfcf8, in grey


@LAYOUT_ONLY
async def test_the_standings_on_a_phone_show_their_columns_and_a_shade_while_more_lie_past_the_edge(
    service, clock, chromium
):
    """On a 390 px phone the standings' name column (kept in view while the table scrolls) took
    most of the screen, leaving room for about one column at a time, and nothing showed that more
    columns lay past the edge.  The name column now wraps its names within a third or so of the
    screen, and the box's right edge is shaded while there is more to scroll to (and not once
    scrolled to the end, nor beside a table that fits)."""
    names = {uid: f"Bartholomäusvonwolfeschlegel{uid} Jugadora" for uid in range(801, 805)}
    _, league = await first_round_played(service, "Long names", names)
    pages, client = await serve(service)
    try:
        address = f"/l/{await pages.links.token('league', league.id)}"
        async for _, lang, page in phone_pages(chromium, client, address, (390,)):
            box = page.locator("[aria-labelledby=standings-h]")
            name, inside, cut = await box.evaluate(
                """box => { const cells = [...box.querySelectorAll('tbody td:nth-child(2)')];
                  return [cells[0].getBoundingClientRect().width, box.clientWidth,
                          cells.filter(c => c.scrollWidth > c.clientWidth).length]; }"""
            )
            assert name <= 0.45 * inside and cut == 0, (lang, name, inside, cut)
            assert await box.evaluate("e => e.scrollWidth > e.clientWidth")  # more columns past the edge
            assert await edge_shade(box) > 8, lang
            await box.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
            assert await edge_shade(box) < 2, lang  # scrolled to the end: nothing more to show
            assert await edge_shade(page.locator("[aria-labelledby=ratings-h]")) < 2, lang  # it fits
            assert await audit(page) == [], lang
    finally:
        pages.close()
        await client.close()
