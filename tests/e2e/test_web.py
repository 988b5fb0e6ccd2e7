"""The web pages end to end: the bot against the Discord stand-in with its web side on, games
played through Discord, and the pages opened in a real headless Chromium (Playwright driving
Debian's ``chromium``; ``.ci/run`` installs it when missing): one Chromium for the browser tests of
a test process, this file's and tests/web's, each test in browser contexts of its own.

Checked: every page loads without a console error; step navigation by click, keyboard and the
move list shows the right board; a running game's page follows a move played in Discord; no
page, script or response holds a secret of any seat (every string a seat's view holds that the
spectator's does not, collected at that moment); a wrong token gets 404; axe-core finds no
serious or critical violation; screenshots at phone width (390 px) and desktop width are taken
(into the test's folder, and into ``$WEB_SCREENSHOTS`` when set, to be looked at).
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import pytest_asyncio

from bot.app import EXTENSIONS
from bot.texts import number
from tests.e2e.players import is_board
from tests.standin.fixtures import started_standin
from tests.web import conftest as web_tests
from tests.web.conftest import BROWSER_TESTS

ALL = (*EXTENSIONS, "tests.support.nim_cog")

# The test process's one Chromium (``chromium``, tests/conftest.py), as tests/web's tests use it;
# the tests and the stand-in run in the browser's event loop.  Each test opens its own browser
# contexts, closed after it: nothing one test did is seen by the next.
pytestmark = BROWSER_TESTS


@pytest_asyncio.fixture(loop_scope="session")
async def standin(discord_errors, discord_error_loggers, standin_options):
    """The Discord stand-in (tests/standin/fixtures.py), in the shared browser's event loop."""
    async for stand_in in started_standin(discord_errors, discord_error_loggers, standin_options):
        yield stand_in


def leaves(value: Any, out: set[str]) -> set[str]:
    """Every string inside ``value`` (a view: dataclasses, mappings, sequences)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        for k, v in value.items():
            leaves(k, out)
            leaves(v, out)
    elif isinstance(value, list | tuple | set | frozenset):
        for v in value:
            leaves(v, out)
    elif isinstance(value, str):
        out.add(value)
    return out


def secrets_of(session) -> set[str]:
    """Every secret of the game now: what some seat's view holds and the spectator's does not."""
    engine, state = session.engine, session.state
    public = leaves(engine.view_for(state, None), set())
    found: set[str] = set()
    for seat in range(len(session.names())):
        found |= leaves(engine.view_for(state, seat), set()) - public
    return {s for s in found if len(s) >= 2}


def holds(text: str, secret: str) -> bool:
    return re.search(rf"(?<![\w]){re.escape(secret)}(?![\w])", text) is not None


class Browser:
    """One page in Chromium that records console errors and every response's body."""

    def __init__(self, context):
        self.context = context
        self.errors: list[str] = []
        self.bodies: list[tuple[str, bytes]] = []

    async def open(self, url: str, *, width: int = 1280, height: int = 900):
        page = await self.context.new_page()
        await page.set_viewport_size({"width": width, "height": height})
        page.on(
            "console", lambda m: self.errors.append(f"{m.text} {m.location}") if m.type == "error" else None
        )
        page.on("pageerror", lambda e: self.errors.append(str(e)))

        async def record(response) -> None:
            try:
                self.bodies.append((response.url, await response.body()))
            except Exception:  # an event stream has no body to read
                self.bodies.append((response.url, b""))

        page.on("response", record)
        reply = await page.goto(url)
        assert reply is not None and reply.status == 200, (url, reply and reply.status)
        return page

    def leaked(self, secrets: set[str]) -> list[tuple[str, str]]:
        out = []
        for url, body in self.bodies:
            if urlsplit(url).path.endswith(".png"):
                continue  # pictures are checked through the view they are drawn from
            text = body.decode("utf-8", "replace")
            out.extend((url, s) for s in secrets if holds(text, s))
        return out


async def audit(page) -> list[str]:
    """axe-core's serious and critical violations on ``page``."""
    return [
        f"{v['id']}: {v['help']} ({len(v['nodes'])} nodes)"
        for v in await web_tests.axe_violations(page)
        if v.get("impact") in ("serious", "critical")
    ]


async def at_step(page, step: int) -> None:
    """Wait until the page shows ``step`` (a locator: the pages' CSP allows no evaluated script)."""
    await page.locator(f"#game[data-step='{step}']").wait_for(timeout=10000)


async def board_src(page) -> str:
    return str(await page.get_attribute("#board", "src"))


def keep_copy(path: Path) -> None:
    assert path.stat().st_size > 1000
    keep = os.environ.get("WEB_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(keep) / path.name)


async def shot(page, tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.png"
    await page.screenshot(path=str(path), full_page=True)
    keep_copy(path)


async def status_of(url: str) -> tuple[int, dict[str, str]]:
    async with aiohttp.ClientSession() as http, http.get(url) as reply:
        await reply.read()
        return reply.status, dict(reply.headers)


async def test_a_game_page_in_chromium(standin, bot_factory, tmp_path, chromium):
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL, http_port=0, web_pages=True)) as bot:
        await standin.wait_synced()
        bot.sessions.new_seed = lambda: 4
        lobby = await standin.slash(alice, chan, "guanga new", thread=False, mode="apprentice", players=2)
        await standin.click(bob, lobby.message, "Join")
        await standin.click(alice, lobby.message, "Start")
        await standin.next_message(chan, is_board)
        session = await bot.sessions.core.in_channel(chan.id)
        for user in (alice, bob):
            order = session.state.orders_dealt[session.seat_of(user.id).seat][1]
            await (await standin.slash(user, chan, "guanga move", move=f"keep {order}")).original()
        await standin.settle()
        session = await bot.sessions.core.in_channel(chan.id)
        assert session.row.told_through == 2

        # The link is in what the bot says: here, the private export of a running game.
        reply = await (await standin.slash(carol_or(standin, "carol"), chan, "game export")).original()
        found = re.search(r"http://127\.0\.0\.1:\d+/g/[\w-]+", reply.content)
        assert found, reply.content
        url = found.group(0)
        base = url.split("/g/")[0]
        secrets = secrets_of(session)
        assert {"O1", "O10"} <= secrets, secrets  # each seat's kept order (seed 4)

        status, headers = await status_of(url)
        assert status == 200
        csp = headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
        assert headers["X-Frame-Options"] == "DENY" and headers["Referrer-Policy"] == "no-referrer"
        assert (await status_of(url[:-2] + "zz"))[0] == 404  # a wrong token
        assert (await status_of(base + "/g/"))[0] == 404  # no listing
        assert (await status_of(url + "?move=99"))[0] == 400
        assert (await status_of(url + "/board/99.png"))[0] == 404

        context = await chromium.new_context(locale="en-GB")
        browser = Browser(context)
        page = await browser.open(url)
        assert await page.get_attribute("html", "lang") == "en"
        assert "Guanga" in await page.title()
        assert (await board_src(page)).endswith("/board/2.png")
        assert await page.evaluate("document.getElementById('board').naturalWidth") > 0
        text = await page.inner_text("main")
        assert "Keys, on the board or the move list: ← and →" in text and "built-in method" not in text
        assert await audit(page) == []
        await shot(page, tmp_path, "game-desktop")

        # Click: back one move; the keyboard: back again, then End.
        await page.click("nav.steps a[rel=prev]")
        await at_step(page, 1)
        assert (await board_src(page)).endswith("/board/1.png")
        assert "move=1" in page.url
        spanish = str(await page.get_attribute("a[hreflang=es]", "href"))
        assert spanish.endswith("?move=1&lang=es"), spanish  # the language link keeps the move
        await page.keyboard.press("ArrowLeft")
        await at_step(page, 0)
        assert (await board_src(page)).endswith("/board/0.png")
        await page.keyboard.press("End")
        await at_step(page, 2)
        # The move list: each step a link.
        await page.click("ol.moves a[data-step='1']")
        await at_step(page, 1)
        await page.keyboard.press("End")
        await at_step(page, 2)
        # From the keyboard, a link keeps the focus once its step is shown (the part of
        # the page it is in is replaced): Enter on it again steps again.
        await page.focus("nav.steps a[rel=prev]")
        await page.keyboard.press("Enter")
        await at_step(page, 1)
        assert await page.evaluate("document.activeElement.getAttribute('rel')") == "prev"
        await page.keyboard.press("Enter")
        await at_step(page, 0)
        await page.focus("ol.moves a[data-step='2']")
        await page.keyboard.press("Enter")
        await at_step(page, 2)
        assert await page.evaluate("document.activeElement.dataset.step") == "2"
        assert await page.evaluate("document.activeElement.closest('ol.moves') !== null")

        # A move played in Discord: the open page follows it.
        moved = await bot.sessions.core.in_channel(chan.id)
        (seat,) = moved.to_move()
        user = alice if moved.by_seat(seat).user_id == alice.id else bob
        before = moved.row.told_through
        while True:
            legal = await bot.sessions.play.legal_moves(chan.id, user.id)
            await (await standin.slash(user, chan, "guanga move", move=legal[0])).original()
            await standin.settle()
            moved = await bot.sessions.core.in_channel(chan.id)
            if moved.row.told_through > before or moved.status != "active":
                break
            (seat,) = moved.to_move()
            user = alice if moved.by_seat(seat).user_id == alice.id else bob
        now = moved.row.told_through
        await page.locator(f"#game[data-shown='{now}'][data-step='{now}']").wait_for(timeout=20000)
        assert (await board_src(page)).endswith(f"/board/{now}.png")
        secrets |= secrets_of(moved)

        # Phone width, and Spanish.
        phone = await browser.open(url + "?lang=es", width=390, height=844)
        assert await phone.get_attribute("html", "lang") == "es"
        assert "Esta partida se está jugando" in await phone.inner_text("main")
        assert await audit(phone) == []
        await shot(phone, tmp_path, "game-phone-es")

        assert browser.errors == []
        assert browser.leaked(secrets) == []


def carol_or(standin, name: str):
    """A spectator (someone who is not seated)."""
    return standin.add_user(name)


async def fire(bot) -> None:
    """Fire every due job, and those they set for now (the next round after a deadline)."""
    while await bot.scheduler.run_due():
        pass


async def test_a_league_page_in_chromium(standin, bot_factory, table_clock, tmp_path, chromium):
    """A single-elimination P'achakuna cup of four, its rounds finished by the computer at their
    deadlines, ranked by the organiser's tiebreaks (Sonneborn-Berger, then most wins); its page
    (linked from /league standings) shows the standings with those tiebreaks' columns in that
    order, the rounds with links to their games, the bracket and the champion."""

    chan = standin.channel("games")
    owner = standin.owner
    people = standin.add_users("ana", "beto", "cusi", "<b>dora</b>")
    extensions = ALL  # the league cog is one of them
    async with standin.run_client(bot_factory(extensions, http_port=0, web_pages=True)) as bot:
        await standin.wait_synced()
        created = await standin.slash(
            owner,
            chan,
            "league create",
            name="Llama <cup>",
            game="pachakuna",
            format="elimination",
            players=2,
            days=1,
            tiebreaks="Sonneborn-Berger, most wins",
        )
        assert "Llama" in created.message.content
        await standin.settle()
        league = (await bot.store.leagues.of_server(standin.guild.id))[0]
        assert await bot.store.db.one(
            "SELECT token FROM web_links WHERE kind = 'league' AND ref = ?", league.id
        )
        for user in people:
            await (await standin.slash(user, chan, "league join")).original()
        await (await standin.slash(owner, chan, "league start")).original()
        await fire(bot)
        for _ in range(2):
            table_clock.advance(86400)
            await fire(bot)
        league = await bot.store.leagues.league(league.id)
        assert league.status == "finished"

        standings = await standin.slash(people[0], chan, "league standings")
        picture, _ = await standings.followups(2)
        found = re.search(r"http://127\.0\.0\.1:\d+/l/[\w-]+", picture.content)
        assert found, picture.content
        url = found.group(0)
        assert (await status_of(url[:-2] + "zz"))[0] == 404

        browser = Browser(await chromium.new_context(locale="es-ES"))
        page = await browser.open(url)
        assert await page.get_attribute("html", "lang") == "es"  # the browser's language
        text = await page.inner_text("main")
        assert "Llama <cup>" in text and "<b>dora</b>" in text.lower()  # names are text, never markup
        assert await page.locator("main b").count() == 0
        # The organiser's tiebreaks head their columns, in their order (no column of wins
        # beside "most wins"; the rating, not a tiebreak here, keeps its own).
        heads = await page.locator("#standings-h + div th").all_inner_texts()
        assert heads[2:] == [
            "Puntos",
            "Partidas jugadas",
            "Rondas libres",
            "Sonneborn-Berger",
            "Más victorias",
            "Valoración",
            "Desde la ronda anterior",
        ]
        assert "Desempates, en orden: SB: Sonneborn-Berger, Gan: más victorias" in text
        assert await page.locator("#standings-h + div tbody tr").count() == 4
        cells = [
            await row.locator("td").all_inner_texts()
            for row in await page.locator("#standings-h + div tbody tr").all()
        ]
        expected = [
            [number(s.row.tiebreaks["sonneborn_berger"]), str(s.row.wins)]
            for s in await bot.leagues.standings(league)
        ]
        assert [row[5:7] for row in cells] == expected
        assert sum(int(row[6]) for row in cells) == 3  # the cup's three games, each won
        assert "Se lleva el título" in text
        assert await page.locator("#bracket-h").count() == 1
        games = page.locator("#rounds-h ~ ul a")
        assert await games.count() == 3  # two semi-finals and the final
        assert await audit(page) == []
        await shot(page, tmp_path, "league-desktop-es")
        # A 360 px phone in Spanish: every table's longer headings fit or scroll in their
        # own region; the page itself never scrolls sideways.
        narrow = await browser.open(url, width=360, height=800)
        await fits_width(narrow, 360)
        assert await audit(narrow) == []
        phone = await browser.open(url + "?lang=en", width=390, height=844)
        assert "Standings" in await phone.inner_text("main")
        assert await audit(phone) == []
        await shot(phone, tmp_path, "league-phone")
        # A game's link from the league's page opens that game at its end.
        await phone.locator("#rounds-h ~ ul a").first.click()
        await phone.locator("#game").wait_for()
        assert "P'achakuna" in await phone.title()
        assert await phone.locator("ol.moves li").count() > 1
        assert await audit(phone) == []
        await shot(phone, tmp_path, "league-game-phone")
        assert browser.errors == []


LONG_NAME = "Bartholomäusvonwolfeschlegelstei"  # one word, as long as a Discord name may be (32)


async def fits_width(page, width: int) -> None:
    """Nothing on ``page`` is wider than the window (no sideways scrolling)."""
    assert await page.evaluate("document.documentElement.scrollWidth") <= width


async def test_a_profile_page_and_a_server_turning_its_pages_off(standin, bot_factory, tmp_path, chromium):
    """/game stats links the person's profile in this server; /game web (Manage Server) turns the
    server's pages off (every link 404, posts carry none) and on again.  A name of one long word
    wraps on a 360 px phone, in the game's and the profile's pages."""

    from tests.e2e.conftest import nim_to_the_end

    alice, bob = standin.add_users("alice", LONG_NAME)
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL, http_port=0, web_pages=True)) as bot:
        await standin.wait_synced()
        session = await nim_to_the_end(standin, bot, chan, alice, bob)
        stats = await (await standin.slash(bob, chan, "game stats", player=alice)).original()
        found = re.search(r"http://127\.0\.0\.1:\d+/p/[\w-]+", stats.content)
        assert found, stats.content
        profile = found.group(0)
        bob_profile = await bot.page_link("person", bob.id, standin.guild.id)
        game = await bot.page_link("game", session.id, standin.guild.id)
        assert game is not None
        await standin.settle()
        card = next(m for m in standin.messages(chan) if m.content.startswith("**Results**"))
        assert card.content.endswith(f"On the web: {game}")  # the results card links the game

        browser = Browser(await chromium.new_context(locale="en-US"))
        page = await browser.open(profile, width=360, height=800)
        text = await page.inner_text("main")
        assert "Alice's games" in text and "Nim" in text and ("1st" in text or "2nd" in text)
        assert await page.locator("#finished-h ~ div tbody tr").count() == 1
        assert await page.locator("main a").count() == 0  # a profile links no game
        assert await audit(page) == []
        await fits_width(page, 360)
        await shot(page, tmp_path, "profile-phone")
        played = await browser.open(game, width=360, height=800)
        assert LONG_NAME in await played.inner_text("#players-h + table")
        await fits_width(played, 360)
        long = await browser.open(bob_profile, width=360, height=800)
        assert f"{LONG_NAME}'s games" in await long.inner_text("h1")
        await fits_width(long, 360)
        assert browser.errors == []

        refused = await (await standin.slash(alice, chan, "game web", pages="off")).original()
        assert "Only members with Manage Server" in refused.content
        assert (await status_of(profile))[0] == 200
        turned = await (await standin.slash(standin.owner, chan, "game web", pages="off")).original()
        assert "web pages are off" in turned.content
        for url in (profile, game, game + "/board/1.png", game + "/events"):
            assert (await status_of(url))[0] == 404, url
        stats = await (await standin.slash(bob, chan, "game stats", player=alice)).original()
        assert "/p/" not in stats.content  # no link while the pages are off
        back = await (await standin.slash(standin.owner, chan, "game web", pages="links")).original()
        assert "open to whoever holds their link" in back.content
        assert (await status_of(profile))[0] == 200 and (await status_of(game))[0] == 200
        shown = await (await standin.slash(alice, chan, "game web")).original()
        assert "open to whoever holds their link" in shown.content


async def against_the_computer(standin, user, chan, *, piles: int) -> None:
    """A Nim game of ``user`` and a computer opened in ``chan`` and started (its first board posted)."""
    lobby = await standin.slash(user, chan, "nim new", thread=False, piles=piles)
    await standin.click(user, lobby.message, "Add computer")
    await standin.click(user, lobby.message, "Start")
    await standin.next_message(chan, is_board)


async def test_game_stats_links_the_page_of_someone_with_no_rating(standin, bot_factory, tmp_path, chromium):
    """/game stats linked a person's page only beside their ratings: someone who finished only a
    game against the computer (not rated), or who is playing their first game, had a page that
    nothing in the bot linked to.  Now it is linked whenever it exists: the first lists the game
    and says nothing is rated yet; the second's says, in either language on a 390 px phone, that
    no game is finished yet.  Someone the server knows nothing of gets no link (their page would
    be the 404 page)."""

    alice, bob, carol = standin.add_users("alice", "bob", "carol")
    chan, general = standin.channel("games"), standin.channel("general")
    async with standin.run_client(bot_factory(ALL, http_port=0, web_pages=True)) as bot:
        await standin.wait_synced()
        await against_the_computer(standin, alice, chan, piles=1)
        await (await standin.slash(alice, chan, "game resign")).original()
        await against_the_computer(standin, bob, general, piles=3)
        await standin.settle()
        assert (await bot.sessions.core.in_channel(general.id)).status == "active"

        links = {}
        for who in (alice, bob, carol):
            stats = await (await standin.slash(carol, chan, "game stats", player=who)).original()
            assert "has no rated games on this server yet." in stats.content, stats.content
            found = re.search(r"http://127\.0\.0\.1:\d+/p/[\w-]+", stats.content)
            links[who.name] = found and found.group(0)
        assert links["carol"] is None  # never seated here: no page, so no link
        assert links["alice"] and links["bob"], links

        browser = Browser(await chromium.new_context(locale="en-GB"))
        page = await browser.open(links["alice"], width=390, height=844)
        text = await page.inner_text("main")
        assert "Alice's games" in text and "No rated games yet" in text, text
        assert await page.locator("#finished-h ~ div tbody tr").count() == 1
        for lang, said in (
            ("en", "No finished games yet."),
            ("es", "Aún no hay partidas terminadas."),
        ):
            page = await browser.open(f"{links['bob']}?lang={lang}", width=390, height=844)
            assert said in await page.inner_text("#finished-h + p")
            assert await page.locator("table").count() == 0  # no empty table
            assert await audit(page) == [], lang
            await fits_width(page, 390)
            await shot(page, tmp_path, f"profile-unplayed-phone-{lang}")
        assert browser.errors == []
