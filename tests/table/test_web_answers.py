"""The pages' answers to what a visitor may send by hand or by accident: steps that are not
numbers as ``int`` reads them, addresses no route matches, methods other than GET and HEAD; the
cache headers of running and ended games; and a database that stops answering.  Each answer is a
page of the site, in the reader's language, with the right status, and nothing in the log but a
warning."""

from __future__ import annotations

import html as markup
import logging
import re

import pytest
from yarl import URL

import engines
from bench.history import store_game
from bot.sessions.model import stored
from tests.support.played import whole_game
from tests.table.test_web_pages import serve


def errors(caplog) -> list[str]:
    """The bot's and the web server's errors and tracebacks (asyncpg's pool logs its own retries)."""
    return [
        f"{r.name}: {r.getMessage()}"
        for r in caplog.records
        if (r.levelno >= logging.ERROR or r.exc_info) and not r.name.startswith("asyncpg")
    ]


async def guanga(service, moves: int = 8):
    played, final = whole_game("guanga", 2, 4)
    return await store_game(service, "guanga", 2, 4, played[:moves], final)


async def test_steps_that_are_not_plain_numbers_are_refused(service, caplog):
    """``str.isdigit`` takes ``²`` (which ``int`` refuses) and a number too long for ``int``:
    both were a 500 and a traceback."""
    sid = await guanga(service)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        for raw in ("²", "٣", "9" * 5000, "0" * 10 + "1"):
            reply = await client.get(f"/g/{token}", params={"move": raw})
            assert reply.status == 400, raw
            assert "move must be a number from 0 to 8" in await reply.text()
            board = await client.get(f"/g/{token}/board/{raw}.png")
            assert board.status == 404, raw
            assert board.content_type == "text/html"
        assert (await client.get(f"/g/{token}", params={"move": "08"})).status == 200
    finally:
        pages.close()
        await client.close()
    assert errors(caplog) == []


async def test_unknown_addresses_and_methods_get_the_sites_page(service, caplog):
    sid = await guanga(service)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        for path in ("/", "/favicon.ico", f"/g/{token}/board/", f"/G/{token}", "/x" * 500):
            reply = await client.get(path, headers={"Accept-Language": "es"})
            assert reply.status == 404, path
            assert reply.content_type == "text/html", path
            text = await reply.text()
            assert '<html lang="es">' in text and "<h1>Aquí no hay nada</h1>" in text, path
            assert reply.headers["Cache-Control"] == "no-store"
        for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
            reply = await client.request(method, f"/g/{token}")
            assert reply.status == 405, method
            assert reply.headers["Allow"] == "GET, HEAD"
            text = await reply.text()
            assert "<h1>These pages only read</h1>" in text and "GET (or HEAD)" in text, method
            assert f'href="/g/{token}?lang=es"' in text  # the page itself, in Spanish (not a 404)
        head = await client.head(f"/g/{token}")
        assert head.status == 200
    finally:
        pages.close()
        await client.close()
    assert errors(caplog) == []


async def test_a_pages_address_with_a_slash_at_its_end_leads_to_the_page(service):
    """``/g/TOKEN/`` (a link pasted with a slash at its end), and a league's or a person's, is
    sent on to the page's own address, its query kept; other addresses ending in a slash still
    find nothing, and no redirect leads off the site."""
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", await guanga(service))
        for asked, page in (
            (f"/g/{token}/", f"/g/{token}"),
            (f"/g/{token}//?lang=es&move=3", f"/g/{token}?lang=es&move=3"),
            ("/l/some-league/", "/l/some-league"),
            ("/p/some-person/?lang=es", "/p/some-person?lang=es"),
        ):
            reply = await client.get(asked, allow_redirects=False)
            assert reply.status == 301, asked
            assert reply.headers["Location"] == page, asked
            assert reply.headers["Content-Security-Policy"], asked
        followed = await client.get(f"/g/{token}/?lang=es")
        assert followed.status == 200 and '<html lang="es">' in await followed.text()
        assert str(followed.url).endswith(f"/g/{token}?lang=es")
        for asked in ("/g/", "/g//", "/g//l/evil/", f"/g/{token}/board/", "/x/abc/", "/static/web.js/"):
            reply = await client.get(asked, allow_redirects=False)
            assert reply.status == 404, asked
        refused = await client.post(f"/g/{token}/", allow_redirects=False)
        assert refused.status != 301
    finally:
        pages.close()
        await client.close()


async def test_a_running_game_is_asked_again_and_an_ended_one_kept(service):
    sid = await guanga(service, 40)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        page = await client.get(f"/g/{token}")
        assert page.headers["Cache-Control"] == "no-cache"
        assert page.headers["Vary"] == "Accept-Language"  # English or Spanish at one address
        board = await client.get(f"/g/{token}/board/3.png")
        assert board.headers["Cache-Control"] == "private, max-age=60"
        assert board.headers["Vary"] == "Accept-Language"
        assert (await client.get(f"/g/{token}?move=99")).headers["Cache-Control"] == "no-store"
        assert (await client.get(f"/g/{token}x")).headers["Cache-Control"] == "no-store"

        await service.store.games.finish(
            sid, status="abandoned", reason="abandoned", outcome=None, results=[]
        )
        page = await client.get(f"/g/{token}")
        assert page.headers["Cache-Control"] == "private, max-age=300"
        board = await client.get(f"/g/{token}/board/3.png")
        assert board.headers["Cache-Control"] == "private, max-age=86400"
    finally:
        pages.close()
        await client.close()


async def test_a_page_asked_again_unchanged_is_not_sent_twice(service):
    """A page, a board and a static file carry an ``ETag``; asked again with it, the answer is
    304 with no body and the same cache headers, until the game moves on."""
    sid = await guanga(service, 20)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        for path in (f"/g/{token}", f"/g/{token}/board/3.png", f"/g/{token}?lang=es", "/static/web.css"):
            first = await client.get(path)
            tag = first.headers["ETag"]
            assert first.status == 200 and re.fullmatch(r'"[0-9a-f]{24}"', tag), (path, tag)
            again = await client.get(path, headers={"If-None-Match": f'"other", W/{tag}'})
            assert again.status == 304 and await again.read() == b"", path
            assert again.headers["ETag"] == tag, path
            assert again.headers["Cache-Control"] == first.headers["Cache-Control"], path
            assert (await client.get(path, headers={"If-None-Match": '"other"'})).status == 200, path
        english = (await client.get(f"/g/{token}")).headers["ETag"]
        spanish = await client.get(f"/g/{token}", headers={"If-None-Match": english, "Accept-Language": "es"})
        assert spanish.status == 200 and '<html lang="es">' in await spanish.text()  # another page

        await service.store.games.finish(
            sid, status="abandoned", reason="abandoned", outcome=None, results=[]
        )
        moved = await client.get(f"/g/{token}", headers={"If-None-Match": english})
        assert moved.status == 200 and moved.headers["ETag"] != english  # the page changed
        refused = await client.get(f"/g/{token}?move=99", headers={"If-None-Match": "*"})
        assert refused.status == 400 and "ETag" not in refused.headers  # a step past the last
    finally:
        pages.close()
        await client.close()


@pytest.mark.parametrize("database", ["postgres"], indirect=True)
async def test_a_database_that_does_not_answer_gets_a_503_page(service, database, request, caplog):
    """PostgreSQL refuses the bot's connections (an SQLite file, once opened, keeps answering):
    a page is a 503 that says to try again, an open event stream ends, and the log has a warning
    per page (its address without its token) and no traceback; once the database is back, so are
    the pages."""
    cluster = request.getfixturevalue("pg_cluster")
    name = database.target.split("@/", 1)[1].split("?", 1)[0]
    sid = await guanga(service)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        stream = await client.get(f"/g/{token}/events")
        await stream.content.readuntil(b"\n\n")  # retry
        await cluster.admin(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
        await cluster.admin(
            f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'"
        )
        try:
            for path in (f"/g/{token}?lang=es", f"/g/{token}/board/2.png", "/l/" + token, "/p/" + token):
                reply = await client.get(path)
                assert reply.status == 503, path
                assert reply.headers["Retry-After"] == "30" and reply.headers["Cache-Control"] == "no-store"
                text = await reply.text()
                assert "try again in a minute" in text or "inténtalo de nuevo" in text, text
                assert f'href="{path.split("?")[0]}?lang=' in text  # the same page, in a language
            await stream.content.read()  # to its end: the stream ends (with a warning, no traceback)
            assert stream.content.at_eof()
        finally:
            await cluster.admin(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
        for _ in range(50):
            if (await client.get(f"/g/{token}")).status == 200:
                break
        else:
            raise AssertionError("the page did not come back with the database")
    finally:
        pages.close()
        await client.close()
    assert errors(caplog) == []
    warned = [r.getMessage() for r in caplog.records if r.name == "bot.web.pages"]
    assert any(w.startswith("could not serve /g/…/board/2.png:") for w in warned), warned
    # The log never holds a page's token: whoever reads it could open the page.
    assert [r.getMessage() for r in caplog.records if token in r.getMessage()] == []


async def test_a_lobby_follows_its_start_and_one_closed_unplayed_says_so(service, caplog):
    """A lobby's page waits for the start (its event stream says when the game begins); a lobby
    everyone left is over, not "not started yet", and shows no board."""
    lobby = await service.lobby.create("guanga", guild_id=1, channel_id=77, host_id=1, host_name="ana")
    await service.lobby.join(77, 2, "beto")
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", lobby.id)
        html = await (await client.get(f"/g/{token}")).text()
        assert "This game has not started yet" in html
        assert f'data-events="/g/{token}/events?at=' in html
        stream = await client.get(f"/g/{token}/events")
        await stream.content.readuntil(b"\n\n")  # retry
        await service.lobby.start(77, 1)
        seen = b""
        while b"event: move" not in seen:
            seen += await stream.content.readuntil(b"\n\n")
        stream.close()
        assert "This game has not started yet" not in await (await client.get(f"/g/{token}")).text()

        closed = await service.lobby.create("guanga", guild_id=1, channel_id=78, host_id=3, host_name="cusi")
        await service.lobby.leave(78, 3)
        token = await pages.links.token("game", closed.id)
        reply = await client.get(f"/g/{token}")
        html = await reply.text()
        assert reply.status == 200 and reply.headers["Cache-Control"] == "private, max-age=300"
        assert "not started yet" not in html and 'data-events=""' in html
        assert '<h2 id="result-h">Result</h2>\n<p>Nobody wins (everyone left the lobby).</p>' in html, html
        assert 'id="board"' not in html
        es = await (await client.get(f"/g/{token}?lang=es")).text()
        assert '<h2 id="result-h">Resultado</h2>\n<p>No gana nadie (no quedó nadie en la sala).</p>' in es, es
    finally:
        pages.close()
        await client.close()
    assert errors(caplog) == []


@pytest.mark.parametrize(
    ("reason", "spanish"),
    [
        ("a player could not be seated", "no se pudo sentar a una persona"),
        ("a player left the queue", "alguien dejó la cola"),
        ("not everyone confirmed the queue's table", "alguien no confirmó la mesa de la cola"),
    ],
)
async def test_a_queue_table_closed_unplayed_says_why_in_the_readers_language(service, reason, spanish):
    """The lobby of a queue's table closed before its start (bot/queue's reasons) says why in Spanish
    too, not in the words stored."""
    closed = await service.lobby.create("guanga", guild_id=1, channel_id=79, host_id=3, host_name="cusi")
    await service.lobby.close_lobby(closed.id, reason)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", closed.id)
        html = await (await client.get(f"/g/{token}")).text()
        assert f"<p>Nobody wins ({reason}).</p>".replace("'", "&#39;") in html, html
        es = await (await client.get(f"/g/{token}?lang=es")).text()
        assert f"<p>No gana nadie ({spanish}).</p>" in es, es
    finally:
        pages.close()
        await client.close()


async def test_a_game_not_installed_says_it_cannot_be_shown_in_the_readers_words(service, database):
    """A game of a title this build does not have (its options known by their stored names only)
    is damaged: its page says so, and why, as ``/game status`` does, in the reader's language,
    with no line of raw option names and values in English."""
    sid = await guanga(service)
    await database.execute("UPDATE sessions SET game = 'xiangqi' WHERE id = ?", sid)
    service.core.states.clear()
    service.core.copies.clear()
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        for lang, said, why in (
            (
                "en",
                "This game cannot be shown: the table cannot read it.",
                "Why: no game called &#39;xiangqi&#39; is installed.",
            ),
            (
                "es",
                "Esta partida no se puede mostrar: la mesa no puede leerla.",
                "Motivo: no hay instalado ningún juego llamado &#39;xiangqi&#39;.",
            ),
        ):
            reply = await client.get(f"/g/{token}?lang={lang}")
            html = await reply.text()
            assert reply.status == 200 and f"<p>{said}</p>" in html, html
            assert f'<p class="damage">{why}</p>' in html, html  # as /game status words it
            assert 'class="options"' not in html and "beginner" not in html and "finish_round" not in html, (
                html
            )
    finally:
        pages.close()
        await client.close()


async def test_an_ended_games_event_stream_ends_at_once(service):
    """An ended game has nothing more to tell: its stream ends at once (it polled the database
    every second for as long as the reader kept it open); a HEAD gets the headers alone (a
    stream's first line written to a HEAD broke the reader's connection)."""
    sid = await guanga(service)
    await service.store.games.finish(sid, status="abandoned", reason="abandoned", outcome=None, results=[])
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        stream = await client.get(f"/g/{token}/events")
        assert stream.status == 200
        assert (await stream.content.readuntil(b"\n\n")).startswith(b"retry: 2000\nid: ")
        assert await stream.content.readany() == b""  # the end, not ": waiting" every second
        head = await client.head(f"/g/{token}/events")
        assert head.status == 200
        running = await pages.links.token("game", await guanga(service))
        head = await client.head(f"/g/{running}/events")  # a HEAD gets the headers, no stream
        assert head.status == 200 and head.headers["Content-Type"] == "text/event-stream"
        assert (await client.get(f"/g/{running}")).status == 200
    finally:
        pages.close()
        await client.close()


async def test_a_stream_connected_again_tells_what_changed_while_it_was_away(service):
    """A phone that slept drops its event stream, and the browser connects again with the id of
    the last point it heard of: the moves told and the end reached meanwhile are told at once
    (the page stayed on its old board, and on "being played" after the game ended)."""
    played, final = whole_game("guanga", 2, 4)
    sid = await store_game(service, "guanga", 2, 4, played[:8], final)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        stream = await client.get(f"/g/{token}/events")
        first = (await stream.content.readuntil(b"\n\n")).decode()
        stream.close()
        heard = re.search(r"^id: (.+)$", first, re.M).group(1)  # the page's point: 8 moves told
        module = engines.get("guanga").load()
        version = (await service.core.reread(sid)).version
        await service.store.games.record_moves(
            sid, version, [stored(p) for p in played[8:12]], module.to_dict(final)
        )
        untold = await client.get(f"/g/{token}/events")
        said = (await untold.content.readuntil(b"\n\n")).decode()
        untold.close()
        assert re.search(r"^id: (.+)$", said, re.M).group(1) == heard  # moves not told change no id
        await service.store.games.set_board_message(sid, 2, 12)  # … then 12, while it was away
        stream = await client.get(f"/g/{token}/events", headers={"Last-Event-ID": heard})
        await stream.content.readuntil(b"\n\n")  # retry, and the id of now
        assert await stream.content.readuntil(b"\n\n") == b"event: move\ndata: 12\n\n"
        stream.close()
        await service.store.games.finish(
            sid, status="abandoned", reason="abandoned", outcome=None, results=[]
        )
        stream = await client.get(f"/g/{token}/events", headers={"Last-Event-ID": heard})
        await stream.content.readuntil(b"\n\n")
        assert await stream.content.readuntil(b"\n\n") == b"event: move\ndata: 12\n\n"
        assert await stream.content.readany() == b""  # an ended game: then the stream ends
        # Connected again with nothing changed, or with an id it did not write: nothing to tell.
        ended = (await (await client.get(f"/g/{token}/events")).content.readuntil(b"\n\n")).decode()
        for last in (re.search(r"^id: (.+)$", ended, re.M).group(1), "x", "1.2.3", "9" * 40):
            now = (await client.get(f"/g/{token}/events", headers={"Last-Event-ID": last})).content
            await now.readuntil(b"\n\n")
            assert await now.readany() == b"", last
    finally:
        pages.close()
        await client.close()


async def test_a_move_told_before_the_pages_stream_opens_is_told_at_once(service):
    """The page's event stream starts from the point the page was written at (its address says
    which): a move the channel is told of between the page's load and the stream's opening is
    told at once, not only with the next move; moves not told yet change nothing, and the point
    of a running game names no count of them."""
    played, final = whole_game("guanga", 2, 4)
    sid = await store_game(service, "guanga", 2, 4, played[:8], final)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        html = await (await client.get(f"/g/{token}")).text()
        events = markup.unescape(re.search(r'data-events="([^"]+)"', html).group(1))
        assert events.startswith(f"/g/{token}/events"), events
        module = engines.get("guanga").load()
        version = (await service.core.reread(sid)).version
        await service.store.games.record_moves(
            sid, version, [stored(p) for p in played[8:12]], module.to_dict(final)
        )
        again = await (await client.get(f"/g/{token}")).text()
        assert markup.unescape(re.search(r'data-events="([^"]+)"', again).group(1)) == events  # untold
        quiet = await client.get(events)
        await quiet.content.readuntil(b"\n\n")  # retry, and the id of now
        assert await quiet.content.readuntil(b"\n\n") == b": waiting\n\n"  # nothing told since
        quiet.close()
        await service.store.games.set_board_message(sid, 2, 12)  # the channel is told of 12
        stream = await client.get(events)
        await stream.content.readuntil(b"\n\n")
        assert await stream.content.readuntil(b"\n\n") == b"event: move\ndata: 12\n\n"
        stream.close()
    finally:
        pages.close()
        await client.close()


async def test_the_language_links_keep_the_move_shown(service):
    """Switching to Spanish at move 3 shows move 3 in Spanish, not the latest move."""
    sid = await guanga(service)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        html = await (await client.get(f"/g/{token}?move=3")).text()
        assert f'href="/g/{token}?move=3&amp;lang=es" hreflang="es"' in html
        es = await (await client.get(f"/g/{token}?move=3&lang=es")).text()
        assert '<html lang="es">' in es and 'data-step="3"' in es
        assert f'href="/g/{token}?move=3&amp;lang=en" hreflang="en"' in es
        latest = await (await client.get(f"/g/{token}")).text()
        assert f'href="/g/{token}?lang=es" hreflang="es"' in latest
        missing = await (await client.get("/g/nothing-here-at-all-xyz?move=3")).text()
        # A 404's links lead to the same 404 in the other language (the site's root is one too).
        assert 'href="/g/nothing-here-at-all-xyz?move=3&amp;lang=es" hreflang="es"' in missing
    finally:
        pages.close()
        await client.close()


async def test_a_wrong_links_page_links_itself_in_the_other_language(service):
    """A 404's language links led to the site's root, itself a 404 with nothing to say of the
    address asked for: they lead to that address in the other language, which answers the same
    404 in it, every character of the address written safely into the link, and never off the
    site (``//host`` and ``/\\host`` are addresses a browser reads as another site's)."""
    pages, client = await serve(service)
    root = client.make_url("/")
    try:
        for written, link in (
            ("/g/nothing-here", "/g/nothing-here?lang=es"),
            ("/g/nothing-here?move=3&x=%22%3E", "/g/nothing-here?move=3&amp;lang=es"),
            ("/g/wrong%3Fmove=1%23top/board/1.png", "/g/wrong%3Fmove=1%23top/board/1.png?lang=es"),
            ("/g/%22%3E%3Cb%3Ebold%3C/b%3E", "/g/%22%3E%3Cb%3Ebold%3C/b%3E?lang=es"),
            ("/p/a%20b%C3%A9", "/p/a%20b%C3%A9?lang=es"),
            ("/%2Fexample.org/x", "/%2Fexample.org/x?lang=es"),
            ("//example.org/x", "/%2Fexample.org/x?lang=es"),
            ("/%5Cexample.org", "/%5Cexample.org?lang=es"),
        ):
            asked = root.with_path(written.partition("?")[0], encoded=True)
            asked = asked.with_query(written.partition("?")[2]) if "?" in written else asked
            reply = await client.session.get(asked, allow_redirects=False)
            assert reply.status == 404, written
            html = await reply.text()
            assert '<html lang="en">' in html and "<h1>Nothing here</h1>" in html, written
            assert f'<a href="{link}" hreflang="es"' in html, (written, html)
            assert "<b>" not in html and 'href="/?' not in html, written
            followed = await client.session.get(root.join(URL(markup.unescape(link), encoded=True)))
            assert followed.status == 404, written
            assert str(followed.url).startswith(str(root)), written
            spanish = await followed.text()
            assert '<html lang="es">' in spanish and "<h1>Aquí no hay nada</h1>" in spanish, written
            assert f'<a href="{link.replace("lang=es", "lang=en")}" hreflang="en"' in spanish, written
    finally:
        pages.close()
        await client.close()


async def test_a_refused_step_links_back_to_the_game(service):
    """The 400 page said what was wrong, but its only links (the languages') asked for the same
    bad step again: it links the game at its latest move, in the language the reader chose."""
    sid = await guanga(service)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        for query, link, words in (
            (
                "?move=99",
                f'<a href="/g/{token}">The game at its latest move</a>',
                "<p>The move must be a number from 0 to 8, not 99</p>",
            ),
            (
                "?move=abc&lang=es",
                f'<a href="/g/{token}?lang=es">La partida en su última jugada</a>',
                "<p>La jugada debe ser un número de 0 a 8, no abc</p>",  # a sentence, as the page's others
            ),
        ):
            reply = await client.get(f"/g/{token}{query}")
            assert reply.status == 400
            html = await reply.text()
            assert words in html and link in html, html
            back = await client.get(re.search(r'<a href="(/g/[^"]+)">', html).group(1))
            assert back.status == 200
        # A 404 has no game to go back to: its only link there is its own, in the other language.
        missing = await (await client.get("/g/nothing-here")).text()
        assert re.findall(r'<a href="(/g/[^"]*)"', missing) == ["/g/nothing-here?lang=es"]
    finally:
        pages.close()
        await client.close()


async def test_a_refused_step_shows_what_was_given_safely(service, caplog):
    """``?move=%00`` put a NUL byte into the 400 page and ``?move=%ff`` a replacement character
    (the bytes were no UTF-8): the page shows such a value as it was written in the address, and
    a long one cut with an ellipsis."""
    sid = await guanga(service)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        for raw, shown in (
            ("%00", "%00"),
            ("%ff", "%FF"),
            ("%1b%5b31m", "%1B%5B31m"),
            ("abc", "abc"),
            ("²", "²"),
        ):
            reply = await client.get(f"/g/{token}?move={raw}")
            assert reply.status == 400, raw
            text = await reply.text()
            assert f"move must be a number from 0 to 8, not {shown}</p>" in text, (
                raw,
                re.findall("not [^<]*<", text),
            )
            assert "\x00" not in text and "\ufffd" not in text and "\x1b" not in text, raw
        long = "x" * 50
        text = await (await client.get(f"/g/{token}?move={long}")).text()
        assert f"not {'x' * 19}…</p>" in text, text
    finally:
        pages.close()
        await client.close()
    assert errors(caplog) == []
