"""The web pages served from a stored game, on both back ends (no Discord): what a spectator may
read at every step, a move kept secret for good, a running game cut where the channel was told,
refusals of bad input, the headers and the rate limit."""

from __future__ import annotations

import asyncio
import hashlib
import re

import jinja2
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

import engines
from bench.history import store_game
from bot.history import History
from bot.sessions.model import stored
from bot.storage import ResultRow
from bot.web.pages import Pages
from bot.web.server import HEADERS, RateLimit, client_address
from tests.support.played import whole_game


def peeking_game():
    """A two-player Tiwanaku game played to its end by the computer, with at least one peek
    (seeds tried in order: the same game on every run)."""
    for seed in range(1, 40):
        played, final = whole_game("tiwanaku", 2, seed)
        if any(p.move.startswith("peek:") for p in played):
            return seed, played, final
    raise AssertionError("no peek in 40 games")


async def record_end(service, sid: int, game: str, final):
    """The stored ``game`` ``sid`` recorded as finished in ``final``, seat s placed s + 1 (its
    user id s + 1); its outcome."""
    outcome = engines.get(game).load().outcome(final)
    seats = range(len(outcome.scores))
    await service.store.games.finish(
        sid,
        status="finished",
        reason="end",
        outcome=outcome.to_dict(),
        results=[ResultRow(s, s + 1, outcome.scores[s], 1 + s, False) for s in seats],
    )
    return outcome


class CompiledOnce(jinja2.BytecodeCache):
    """The pages' templates compiled once per test process and kept in memory: each test's
    :class:`Pages` makes an environment of its own (as the bot does once), which would compile
    every template it renders again.  Jinja reads a kept template's code only while its source is
    the same (a checksum), and every environment here is ``bot.web.pages.environment()``'s."""

    def __init__(self) -> None:
        self.codes: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self.codes:
            bucket.bytecode_from_string(self.codes[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.codes[bucket.key] = bucket.bytecode_to_string()


COMPILED = CompiledOnce()


def pages_of(service, **options) -> Pages:
    """The pages of ``service`` (``options``: :class:`Pages`'s), their templates compiled once per
    test process (:class:`CompiledOnce`)."""
    pages = Pages(service, History(service), **options)
    pages.env.bytecode_cache = COMPILED
    return pages


async def serve(service, limit=None):
    pages = pages_of(service, poll=0.01)
    app = web.Application(middlewares=[])
    limit = limit or RateLimit(rate=1000, burst=10000)

    @web.middleware
    async def guard(request, handler):
        wait = limit.allow(limit.address(request))
        if wait:
            return pages.too_many(request, 1)
        return await handler(request)

    app.middlewares.append(guard)

    async def strict(request, reply):
        reply.headers.update(HEADERS)

    app.on_response_prepare.append(strict)
    pages.add_routes(app)
    client = TestClient(TestServer(app))
    await client.start_server()
    return pages, client


async def test_a_finished_game_never_shows_a_move_kept_secret_for_good(service):
    seed, played, final = peeking_game()
    sid = await store_game(service, "tiwanaku", 2, seed, played, final)
    await record_end(service, sid, "tiwanaku", final)
    peeks = {p.move for p in played if p.move.startswith("peek:")}
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        reply = await client.get(f"/g/{token}")
        assert reply.status == 200
        html = await reply.text()
        total = len(played)
        assert f'data-shown="{total}"' in html
        assert 'data-events=""' in html  # an ended game is not followed
        assert html.count("<li value=") == total + 1  # the start and every move
        steps = sorted({i + 1 for i, p in enumerate(played) if p.move.startswith("peek:")} | {0, total})
        for step in steps:
            page = await (await client.get(f"/g/{token}?move={step}")).text()
            assert "sees crop" not in page, step  # the peeker's own line
            for secret in peeks:
                assert secret not in page, (step, secret)
        assert "looks at the disc in secret" in html  # that a peek happened is public
        # The chart of a finished game, and the players' places.
        assert "<polyline" in html and "1st" in html
    finally:
        await client.close()


async def test_a_running_game_shows_what_the_channel_was_told(service):
    played, final = whole_game("guanga", 2, 4)
    sid = await store_game(service, "guanga", 2, 4, played[:8], final)  # the channel heard of 8 moves
    module = engines.get("guanga").load()
    version = (await service.core.reread(sid)).version
    await service.store.games.record_moves(
        sid, version, [stored(p) for p in played[8:12]], module.to_dict(final)
    )
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        html = await (await client.get(f"/g/{token}")).text()
        assert 'data-shown="8"' in html and 'data-step="8"' in html
        assert 'data-events="/g/' in html  # a running game follows its moves
        refused = await client.get(f"/g/{token}?move=9")
        assert refused.status == 400
        assert "move must be a number from 0 to 8, not 9" in await refused.text()
        for bad in ("abc", "-1", "1e3", "9" * 40):
            reply = await client.get(f"/g/{token}", params={"move": bad})
            assert reply.status == 400, bad
        assert (await client.get(f"/g/{token}/board/9.png")).status == 404
        png = await client.get(f"/g/{token}/board/8.png")
        assert png.status == 200 and (await png.read())[:8] == b"\x89PNG\r\n\x1a\n"
        assert png.headers["Content-Security-Policy"] == HEADERS["Content-Security-Policy"]
        # Spanish from the browser's language, or ?lang=.
        es = await client.get(f"/g/{token}", headers={"Accept-Language": "fr;q=0.9, es-419;q=0.8, en;q=0.1"})
        assert '<html lang="es">' in await es.text()
        en = await client.get(f"/g/{token}?lang=en", headers={"Accept-Language": "es"})
        assert '<html lang="en">' in await en.text()
        # A move lands and the channel is told: the event stream says so.
        stream = await client.get(f"/g/{token}/events")
        assert stream.headers["Content-Type"] == "text/event-stream"
        assert stream.headers["X-Accel-Buffering"] == "no"  # a proxy that buffers passes each event on
        await stream.content.readuntil(b"\n\n")  # retry
        await service.store.games.set_board_message(sid, 2, 12)
        seen = b""
        while b"event: move" not in seen:
            seen += await stream.content.readuntil(b"\n\n")
        assert b"data: 12" in seen
        stream.close()
    finally:
        pages.close()
        await client.close()


async def test_an_open_stream_tells_nothing_once_its_server_turns_pages_off(service):
    """A page's event stream opened while the server showed its pages: once the server turns them
    off (its pages are 404s from then on), the next move is not told (neither its number nor the
    game's status); the stream ends."""
    played, final = whole_game("guanga", 2, 4)
    sid = await store_game(service, "guanga", 2, 4, played[:8], final)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        stream = await client.get(f"/g/{token}/events")
        await stream.content.readuntil(b"\n\n")  # retry
        await pages.links.set_pages(1, "off")
        assert (await client.get(f"/g/{token}")).status == 404
        await service.store.games.set_board_message(sid, 2, 10)
        async with asyncio.timeout(30):  # (a guard: the stream ends at its next look)
            rest = await stream.content.read()
        assert b"event: move" not in rest and b"data: 10" not in rest, rest
        stream.close()
    finally:
        pages.close()
        await client.close()


async def test_a_404_for_a_long_address_leads_its_language_links_to_the_root(service):
    """A 404's language links lead to the address asked for while it could be a page's, and to the
    site's root (the same 404 in the other language) once it is longer than any page's: the asked
    address is not written out again, once a language, at up to the 8 KB of a request line."""
    pages, client = await serve(service)
    try:
        short = "/g/" + "x" * 40
        reply = await client.get(short)
        assert reply.status == 404
        assert f'<a href="{short}?lang=es" hreflang="es"' in await reply.text()
        for long in ("/g/" + "y" * 5000, "/" + "é" * 100):  # 5,002 characters; 600 percent-encoded
            reply = await client.get(long)
            assert reply.status == 404
            text = await reply.text()
            assert '<a href="/?lang=es" hreflang="es"' in text
            assert "yyyyyyyyyy" not in text and "%C3%A9" not in text
            assert len(text.encode()) < 4000
            root = await client.get("/?lang=es")  # where the link leads: the 404, in Spanish
            assert root.status == 404 and '<html lang="es">' in await root.text()
    finally:
        await client.close()


async def test_wrong_tokens_and_servers_that_turned_pages_off_find_nothing(service):
    played, final = whole_game("guanga", 2, 4)
    sid = await store_game(service, "guanga", 2, 4, played[:4], final)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        assert (await client.get(f"/g/{token}")).status == 200
        for path in (f"/g/{token[:-1]}", "/g/", "/g", "/l/x", "/p/" + token, f"/l/{token}", "/static/../x"):
            reply = await client.get(path)
            assert reply.status == 404, path
            # Nothing of the game, its token only in the link to the same address in Spanish.
            text = await reply.text()
            asked = f'<a href="{reply.url.raw_path}?lang=es" hreflang="es"'
            assert text.count(asked) == 1, path
            assert token not in text.replace(asked, ""), path
        for method in ("POST", "PUT", "DELETE"):
            assert (await client.request(method, f"/g/{token}")).status == 405
        await pages.links.set_pages(1, "off")
        assert (await client.get(f"/g/{token}")).status == 404
        assert (await client.get(f"/g/{token}/board/1.png")).status == 404
        assert await pages.link("game", sid, 1, "https://x.example") is None
        await pages.links.set_pages(1, "links")
        assert await pages.link("game", sid, 1, "https://x.example") == f"https://x.example/g/{token}"
    finally:
        await client.close()


async def test_an_address_over_its_allowance_waits(service):
    played, final = whole_game("guanga", 2, 4)
    sid = await store_game(service, "guanga", 2, 4, played[:2], final)
    now = [0.0]
    pages, client = await serve(service, RateLimit(rate=1, burst=3, now=lambda: now[0]))
    try:
        token = await pages.links.token("game", sid)
        for _ in range(3):
            assert (await client.get(f"/g/{token}/board/0.png")).status == 200
        over = await client.get(f"/g/{token}?lang=es")
        assert over.status == 429 and over.headers["Retry-After"] == "1"
        text = await over.text()
        assert "Demasiadas peticiones" in text
        assert f'href="/g/{token}?lang=en"' in text  # the page asked for, once the wait is over
        now[0] += 1.0  # a second later: one more
        assert (await client.get(f"/g/{token}")).status == 200
        assert (await client.get(f"/g/{token}")).status == 429
    finally:
        await client.close()


def test_the_address_behind_a_local_proxy_is_the_forwarded_one():
    both = "203.0.113.9, 198.51.100.7"
    assert client_address("127.0.0.1", both) == "198.51.100.7"  # what the proxy saw, not what was sent
    assert client_address("::1", "198.51.100.7") == "198.51.100.7"
    assert client_address("192.0.2.4", both) == "192.0.2.4"  # a remote peer cannot pose as another
    assert client_address("127.0.0.1", "") == "127.0.0.1"
    assert client_address("127.0.0.1", "not-an-address") == "127.0.0.1"
    assert client_address(None, both) == "?"


@pytest.mark.parametrize("name", ["web.js", "web.css", "icon.svg"])
async def test_static_files(service, name):
    pages, client = await serve(service)
    try:
        reply = await client.get(f"/static/{name}")
        assert reply.status == 200 and reply.headers["X-Content-Type-Options"] == "nosniff"
        body = await reply.text()
        assert re.search(r"eval\(|innerHTML|document\.write", body) is None
    finally:
        await client.close()


async def test_an_abandoned_game_keeps_its_secrets_out_of_the_chart(service):
    """Guanga's kept orders count in its scores only once the game has ended by its rules: the
    chart of a game abandoned before that follows the public view (the points its board shows,
    an order left out), not the results card's series (which would give the orders' points away)."""
    played, final = whole_game("guanga", 2, 4)
    sid = await store_game(service, "guanga", 2, 4, played[:40], final)
    await service.store.games.finish(sid, status="abandoned", reason="abandoned", outcome=None, results=[])
    module = engines.get("guanga").load()
    state = module.new_game(module.Config(), 2, 4)
    for record in played[:40]:
        state, _ = module.apply_move(state, record.seat, module.parse_move(record.move))
    public = module.view_for(state, None).scores
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        html = await (await client.get(f"/g/{token}")).text()
        assert 'data-shown="40"' in html
        # Each line's label: its letter, then its last points.
        last = re.findall(r'font-weight="bold">\w+ (-?\d+)</text>', html)
        assert sorted(int(x) for x in last) == sorted(public), (last, public)
    finally:
        await client.close()


@pytest.mark.parametrize(
    ("header", "chosen"),
    [
        ("es;q=0, en", "en"),
        ("es;q=0, fr", "en"),  # Spanish refused, French not spoken: English, not Spanish
        ("es-419;q=0.0, fr;q=0.5", "en"),
        ("es;q=0.000", "en"),
        ("es;q=abc", "en"),  # a quality that is not a number does not choose a language
        ("es;q=2", "en"),  # nor one past 1
        ("fr, es;q=0.3", "es"),
        ("en;q=0, es;q=0.5", "es"),
    ],
)
def test_a_language_the_browser_refuses_is_never_chosen(header, chosen):
    from aiohttp.test_utils import make_mocked_request

    from bot.web.pages import reader_language

    request = make_mocked_request("GET", "/", headers={"Accept-Language": header})
    assert reader_language(request).code == chosen


async def test_a_page_links_its_script_and_style_by_their_digest(service):
    """A page links each static file by a digest of the bytes it was written for: that address is
    kept a year (a new version has a new address, so a browser never runs an old script with a
    new page); the bare address, or an old digest, an hour."""
    played, final = whole_game("guanga", 2, 4)
    sid = await store_game(service, "guanga", 2, 4, played[:4], final)
    pages, client = await serve(service)
    try:
        html = await (await client.get(f"/g/{await pages.links.token('game', sid)}")).text()
        linked = dict(re.findall(r'"/static/([\w.]+)\?v=([0-9a-f]{12})"', html))
        assert sorted(linked) == ["icon.svg", "web.css", "web.js"]
        for name, digest in linked.items():
            reply = await client.get(f"/static/{name}?v={digest}")
            body = await reply.read()
            assert digest == hashlib.sha256(body).hexdigest()[:12]
            assert reply.headers["Cache-Control"] == "public, max-age=31536000, immutable"
            for other in (f"/static/{name}", f"/static/{name}?v=000000000000"):
                reply = await client.get(other)
                assert await reply.read() == body and reply.headers["Cache-Control"] == "public, max-age=3600"
    finally:
        await client.close()


async def test_a_game_page_names_the_options_the_game_is_played_with(service):
    """The page says which variant is played, as /game status does (P'achakuna on plan B with a
    turn limit here), in the reader's language; a game with the defaults reads "standard rules"."""
    variant = await service.lobby.create(
        "pachakuna", guild_id=1, channel_id=71, host_id=1, host_name="Ana", seed=3,
        options={"board": "B", "max_turns": 40},
    )  # fmt: skip
    await service.lobby.join(71, 2, "Beto")
    await service.lobby.start(71, 1)
    plain = await service.lobby.create(
        "guacamole", guild_id=1, channel_id=72, host_id=1, host_name="Ana", seed=3
    )
    pages, client = await serve(service)
    try:
        html = await (await client.get(f"/g/{await pages.links.token('game', variant.id)}")).text()
        assert '<p class="options">Options: assembly plan B; stop after 40 turns</p>' in html
        spanish = await client.get(f"/g/{await pages.links.token('game', variant.id)}?lang=es")
        assert '<p class="options">Opciones: plan de montaje B; ' in await spanish.text()
        lobby = await (await client.get(f"/g/{await pages.links.token('game', plain.id)}")).text()
        assert '<p class="options">Options: standard rules</p>' in lobby
    finally:
        await client.close()
