"""The read-only pages: a game, a league, a person, each at an address that carries its token.

``GET /g/{token}``: a game at one step (``?move=N``, default the latest a spectator may see), its
moves, players, result and score chart; ``/g/{token}/board/{N}.png`` the public board after move
N; ``/g/{token}/events`` server-sent events: ``move`` when the channel is told of a new move (or
the game ends), so that the page follows a running game.  ``GET /l/{token}``: a league.
``GET /p/{token}``: a person's public profile.  ``/static/web.js`` and ``/static/web.css``.

A page's address with a slash at its end is sent on to the address without it.  A wrong token,
a server that turned its pages off and a thing that no longer exists all get the same 404, and there is no listing: an address is found only from its link.  Every page is in
the reader's language: ``?lang=`` if given, else the browser's ``Accept-Language``.
No Discord here; the server (:mod:`bot.web.server`) adds the headers and the rate limit.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from importlib import resources
from urllib.parse import quote, unquote

import jinja2
from aiohttp import web

import languages
from bot.history import History
from bot.sessions import Session, SessionService
from bot.storage.web import Kind, WebLinks
from bot.web.game import Games
from bot.web.people import People
from bot.web.standings import Leagues
from bot.web.words import words
from languages import Language

log = logging.getLogger(__name__)

PREFIX: dict[str, tuple[str, Kind]] = {
    "game": ("g", "game"),
    "league": ("l", "league"),
    "person": ("p", "person"),
}
STATIC = {"web.js": "text/javascript", "web.css": "text/css", "icon.svg": "image/svg+xml"}
STAMPED = "public, max-age=31536000, immutable"  # a static file asked for by its digest
BOARD_CACHE = 128  # boards kept (PNG bytes), by game, version, step and language
POLL_SECONDS = 1.0  # how often a page's event stream looks for a new move
UNAVAILABLE_WITHIN = 2.0  # a page that failed: how long the database may take to answer a ping
UNAVAILABLE_RETRY = 30  # seconds a reader is asked to wait while the database does not answer
STEP_DIGITS = 9  # a step is at most this many digits (no game has a billion moves)

CHANGING = "no-cache"
"""A running game's page, a league's, a person's: the browser asks again each time (it may still
keep a copy to show when going back)."""
ENDED = "private, max-age=300"
"""An ended game's page, which changes no more (the browser only: each page is one link's)."""
ENDED_BOARD = "private, max-age=86400"
"""An ended game's board at one step, which never changes."""
RUNNING_BOARD = "private, max-age=60"
"""A running game's board at one step: the same picture, but its last action may say more once
the game has ended."""
REFUSED = "no-store"
"""A refusal (400, 404, 405, 429, 503): the link may work later (a server turns its pages back
on, the database answers again)."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def revalidated(request: web.Request, reply: web.StreamResponse) -> web.StreamResponse:
    """A page or picture (200, whole bytes) gets an ``ETag``, a digest of its bytes; when the
    browser's ``If-None-Match`` names it already (it asks again about a copy it keeps), the answer
    is ``304 Not Modified`` with the same headers and no body, so an unchanged page is not sent
    twice.  Event streams and refusals pass as they are."""
    if type(reply) is not web.Response or reply.status != 200 or not isinstance(reply.body, bytes):
        return reply
    tag = '"' + hashlib.blake2b(reply.body, digest_size=12).hexdigest() + '"'
    reply.headers["ETag"] = tag
    asked = request.headers.get("If-None-Match", "")
    known = {part.strip().removeprefix("W/") for part in asked.split(",")}
    if tag not in known and "*" not in known:
        return reply
    kept = {name: reply.headers[name] for name in ("ETag", "Cache-Control", "Vary") if name in reply.headers}
    return web.Response(status=304, headers=kept)


def step_number(raw: str) -> int | None:
    """``raw`` (a step in an address) as a number, if it is one written in ASCII digits, at most
    :data:`STEP_DIGITS` of them (``str.isdigit`` also accepts ``²``, which ``int`` refuses, and
    ``int`` refuses more than 4,300 digits)."""
    if not raw.isascii() or not raw.isdigit() or len(raw) > STEP_DIGITS:
        return None
    return int(raw)


GIVEN_SHOWN = 20
"""How many characters of a refused value a page shows back."""


def given_value(request: web.Request, name: str) -> str:
    """The value of the query's ``name`` as a refusal may show it back: as decoded when every
    character of it is printable, else as the address wrote it (``%00`` for a NUL byte, ``%ff``
    for a byte that is no UTF-8, which decoding would turn into a replacement character); cut to
    :data:`GIVEN_SHOWN` characters with an ellipsis."""
    value = request.query.get(name, "")
    if not value.isprintable() or "\ufffd" in value:
        query = request.raw_path.partition("?")[2]
        written = [v for k, _, v in (p.partition("=") for p in query.split("&")) if unquote(k) == name]
        value = quote(written[0] if written else value, safe="%!$'()*+,-./:;=?@_~")
    return value if len(value) <= GIVEN_SHOWN else value[: GIVEN_SHOWN - 1] + "…"


LINKED_LONGEST = 200
"""The longest path a page's language links lead back to.  Every page's address is far shorter
(``/g/TOKEN/board/STEP.png``): a longer one is a 404 whatever its language, so its language links
lead to the site's root, the same 404 in the other language, rather than write out an address of
up to 8 KB (aiohttp's limit on a request line) once per language."""


def linked_path(path: str) -> str:
    """``path`` (an address's path, as decoded) written for a link back to it: every character that
    is not plain in a path percent-encoded (a ``?`` or ``#`` that was ``%3F`` or ``%23``, a quote, a
    backslash, a space, a letter outside ASCII), and a leading ``//`` written ``/%2F``, so that the
    link always leads to this site and never to a host the address named (``//example.org``); the
    site's root for a path longer than :data:`LINKED_LONGEST` as written."""
    written = quote(path, safe="/:@!$&'()*+,;=")
    if len(written) > LINKED_LONGEST:
        return "/"
    if not written.startswith("/"):
        written = "/" + written
    if written.startswith("//"):
        written = "/%2F" + written[2:]
    return written


def without_token(path: str) -> str:
    """``path`` as the log may show it: a page's token left out (``/g/…/board/3.png``), since
    whoever holds a token may read its page, and logs travel further than links."""
    parts = path[:200].split("/", 3)
    if len(parts) >= 3 and parts[0] == "" and parts[1] in ("g", "l", "p") and parts[2]:
        parts[2] = "…"
    return "/".join(parts)[:80]


def speaks(code: str, spoken: tuple[str, ...]) -> bool:
    """Whether ``code`` (``es``, ``es-419``, ``fr``) names a language the bot speaks (``normalise``
    alone would read an unknown one as English)."""
    code = code.strip().replace("-", "_")
    return code in spoken or code.split("_", 1)[0].lower() in spoken


Seen = tuple[int, str, int]
"""A game's point as its event stream follows it: moves told, status, version."""


def changed(before: Seen, now: Seen) -> bool:
    """Whether a spectator may see more at ``now`` than at ``before``: more moves told, another
    status, or, outside a running game, any change (a lobby's players); a running game's own
    version moves with moves the channel has not been told of yet, which stay unsaid."""
    return now[:2] != before[:2] or (now[1] != "active" and now != before)


def event_id(at: Seen) -> str:
    """``at`` as an event's id; a running game's without its version, which moves with the moves
    not told yet (how many a turn or a hidden round has so far is no spectator's to count)."""
    told, status, version = at
    return f"{told}.{status}.{0 if status == 'active' else version}"


def seen_at(raw: str) -> Seen | None:
    """An event id as :func:`event_id` wrote it (a browser sends it back), else None."""
    told, _, rest = raw.partition(".")
    status, _, version = rest.partition(".")
    if step_number(told) is None or step_number(version) is None or not status.isalpha():
        return None
    return int(told), status, int(version)


def reader_language(request: web.Request) -> Language:
    """``?lang=`` when it names a language the bot speaks, else the first of the browser's
    ``Accept-Language`` that it speaks, else English.  A language given ``q=0`` is one the
    browser refuses (RFC 9110), and one whose quality is not a number from 0 to 1 is ignored:
    neither is ever chosen."""
    spoken = languages.available()
    asked = request.query.get("lang", "")
    if asked and speaks(asked, spoken):
        return languages.language(asked)
    ranked: list[tuple[float, str]] = []
    for part in request.headers.get("Accept-Language", "").split(",")[:20]:
        code, _, rest = part.strip().partition(";")
        quality = 1.0
        if rest.strip().startswith("q="):
            try:
                quality = float(rest.strip()[2:])
            except ValueError:
                quality = 0.0
            if not 0.0 <= quality <= 1.0:  # also NaN
                quality = 0.0
        if code and quality > 0.0:
            ranked.append((quality, code))
    for _, code in sorted(ranked, key=lambda pair: -pair[0]):
        if speaks(code, spoken):
            return languages.language(code)
    return languages.ENGLISH


def tied(text: str) -> str:
    """``text`` with its last word, when that is a number (``9``, ``#9``), kept on the line of the
    word before it (a no-break space between them): a heading or a link that wraps on a phone
    never leaves its number alone on a line ("Guacamole, partida n.º" above a lone "9")."""
    head, space, last = str(text).rstrip().rpartition(" ")
    if space and head and any(c.isdigit() for c in last):
        return f"{head}\u00a0{last}"
    return str(text)


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("bot.web", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["fill"] = lambda text, **values: str(text).format_map(values)
    env.filters["tied"] = tied
    return env


class Pages:
    """The pages' routes, for the bot's session service, history and links."""

    def __init__(
        self,
        service: SessionService,
        history: History,
        *,
        poll: float = POLL_SECONDS,
    ):
        self.service = service
        self.links = WebLinks(service.store)
        self.games = Games(service, history)
        self.leagues = Leagues(service.store, service)
        self.people = People(service.store, self.links)
        self.env = environment()
        self.poll = poll
        self._boards: OrderedDict[tuple[int, int, int, str], bytes] = OrderedDict()
        self._static = {
            name: resources.files("bot.web").joinpath("static", name).read_bytes() for name in STATIC
        }
        # Each file's address carries a digest of its bytes: a page links the files it was
        # written for, so a browser never runs an old script or style sheet with a new page.
        self._stamps = {name: hashlib.sha256(data).hexdigest()[:12] for name, data in self._static.items()}
        self.env.globals["static"] = lambda name: f"/static/{name}?v={self._stamps[name]}"
        self.closing = asyncio.Event()

    def add_routes(self, app: web.Application) -> None:
        app.middlewares.append(self.answers)
        app.router.add_get("/g/{token}", self.game)
        app.router.add_get("/g/{token}/board/{step}.png", self.board)
        app.router.add_get("/g/{token}/events", self.events)
        app.router.add_get("/l/{token}", self.league)
        app.router.add_get("/p/{token}", self.person)
        app.router.add_get("/static/{name}", self.static)

    async def link(self, kind: str, ref: int, guild_id: int, base: str) -> str | None:
        """The page's address under ``base`` (its token made now if need be), or None when the
        server ``guild_id`` turned its pages off, or when a person has no page there (the server
        knows nothing of them: the link would lead to the 404 page)."""
        if kind not in PREFIX or await self.links.pages(guild_id) != "links":
            return None
        if kind == "person" and await self.people.name(guild_id, ref) is None:
            return None
        scope = guild_id if kind == "person" else 0  # a person's page is theirs in one server
        token = await self.links.token(PREFIX[kind][1], ref, scope)
        return f"{base.rstrip('/')}/{PREFIX[kind][0]}/{token}"

    def close(self) -> None:
        """End every open event stream (the server is stopping)."""
        self.closing.set()

    # ----------------------------------------------------------------- answers

    def render(
        self,
        request: web.Request,
        template: str,
        status: int = 200,
        *,
        here: str | None = None,
        cache: str | None = None,
        **values: object,
    ) -> web.Response:
        """``template`` for the reader's language; the language links lead to ``here`` (default:
        the address asked for, at the move it shows, also from a refusal (400, 404, 405, 429, 503):
        a 404's lead to the same 404 in the other language, as a refusal that may pass leads to the
        page it refused for now).  ``cache`` is its ``Cache-Control`` (default: :data:`CHANGING`, a
        refusal's :data:`REFUSED`); the page varies with the browser's language."""
        t = reader_language(request)
        lang = request.query.get("lang", "")
        body = self.env.get_template(template).render(
            w=words(t),
            lang=t.code,
            keep=f"lang={t.code}" if lang else "",
            languages=[(code, languages.language(code).name) for code in languages.available()],
            path=linked_path(request.path) if here is None else here,
            kept=f"move={quote(request.query['move'][:20])}&"
            if here is None and "move" in request.query
            else "",
            **values,
        )
        reply = web.Response(text=body, status=status, content_type="text/html", charset="utf-8")
        reply.headers["Cache-Control"] = cache or (REFUSED if status >= 400 else CHANGING)
        reply.headers["Vary"] = "Accept-Language"
        return reply

    @web.middleware
    async def answers(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """The pages' own answers where aiohttp would write a line of English: an address no
        route matches (404), a method other than GET and HEAD (405, with ``Allow``); and 503
        while the database does not answer (one warning in the log, no traceback)."""
        try:
            return revalidated(request, await handler(request))
        except web.HTTPMethodNotAllowed as exc:
            reply = self.render(request, "missing.html", status=405, kind="not_allowed")
            reply.headers["Allow"] = ", ".join(sorted(exc.allowed_methods))
            return reply
        except web.HTTPNotFound:
            page = self.without_slash(request)
            if page is not None:
                raise web.HTTPMovedPermanently(page, headers={"Cache-Control": REFUSED}) from None
            return self.missing(request)
        except web.HTTPException:
            raise
        except Exception:
            problem = await self.service.store.ping(timeout=UNAVAILABLE_WITHIN)
            if problem is None:
                raise  # not the database: a fault of the pages, logged with its traceback
            log.warning(
                "could not serve %s: the database does not answer (%s)", without_token(request.path), problem
            )
            reply = self.render(request, "missing.html", status=503, kind="unavailable")
            reply.headers["Retry-After"] = str(UNAVAILABLE_RETRY)
            return reply

    @staticmethod
    def without_slash(request: web.Request) -> str | None:
        """A page's address written with a slash at its end (``/g/TOKEN/``, a link pasted
        with one): the page's own address (the query kept), else None."""
        parts = request.path.rstrip("/").split("/")
        if request.method not in ("GET", "HEAD") or not request.path.endswith("/"):
            return None
        if len(parts) != 3 or parts[0] or not parts[2]:
            return None
        if parts[1] not in ("g", "l", "p"):
            return None
        query = request.query_string
        return f"/{parts[1]}/{quote(parts[2], safe='')}" + (f"?{query}" if query else "")

    def missing(self, request: web.Request) -> web.Response:
        return self.render(request, "missing.html", status=404, kind="not_found")

    def too_many(self, request: web.Request, wait: int) -> web.Response:
        reply = self.render(request, "missing.html", status=429, kind="too_many")
        reply.headers["Retry-After"] = str(wait)
        return reply

    def refused(self, request: web.Request, text: str, back: str | None = None) -> web.Response:
        """400 with why (``text``), and a link ``back`` to the page asked for without the bad
        part (the language kept), where there is one."""
        if back is not None and "lang" in request.query:
            back = f"{back}?lang={reader_language(request).code}"
        return self.render(request, "missing.html", status=400, kind="bad_request", text=text, back=back)

    async def session_of(self, token: str) -> Session | None:
        ref = await self.links.find("game", token)
        if ref is None:
            return None
        session = await self.service.core.get(ref)
        if session is None or session.row.guild_id is None:
            return None
        if await self.links.pages(session.row.guild_id) != "links":
            return None
        return session

    def step_of(self, request: web.Request, shown: int, t: Language) -> int | str | None:
        """The step asked for: None (the latest), a number, or why it is refused."""
        raw = request.query.get("move")
        if raw is None or raw == "":
            return None
        step = step_number(raw)
        if step is None or step > shown:
            return t.gettext(
                "The move must be a number from 0 to {shown}, not {given}",
                shown=shown,
                given=given_value(request, "move"),
            )
        return step

    # ----------------------------------------------------------------- a game

    async def game(self, request: web.Request) -> web.Response:
        session = await self.session_of(request.match_info["token"])
        if session is None:
            return self.missing(request)
        t = reader_language(request)
        shown = await self.games.shown(session) if session.state is not None and not session.damaged else 0
        step = self.step_of(request, shown, t)
        if isinstance(step, str):
            return self.refused(request, step, back=f"/g/{request.match_info['token']}")
        page = await self.games.page(session, step, t)
        cache = ENDED if page.status in ("finished", "abandoned", "unplayed") else CHANGING
        # The point the page shows, for its event stream to tell what changed after it.
        at = event_id((session.row.told_through, session.status, session.version))
        return self.render(
            request, "game.html", cache=cache, page=page, token=request.match_info["token"], at=at
        )

    async def board(self, request: web.Request) -> web.Response:
        session = await self.session_of(request.match_info["token"])
        step = step_number(request.match_info["step"])
        if session is None or session.state is None or session.damaged or step is None:
            return self.missing(request)
        if step > await self.games.shown(session):
            return self.missing(request)
        t = reader_language(request)
        key = (session.id, session.version, step, t.code)
        png = self._boards.get(key)
        if png is None:
            png = await self.games.board(session, step, t)
            if png is None:
                return self.missing(request)
            self._boards[key] = png
            while len(self._boards) > BOARD_CACHE:
                self._boards.popitem(last=False)
        else:
            self._boards.move_to_end(key)
        cache = ENDED_BOARD if session.status in ("finished", "abandoned") else RUNNING_BOARD
        return web.Response(
            body=png, content_type="image/png", headers={"Cache-Control": cache, "Vary": "Accept-Language"}
        )

    async def events(self, request: web.Request) -> web.StreamResponse:
        """``move`` (its data: the moves now shown) each time a spectator may see more of the game
        than at the point its page was written (``?at=``, an event id) or its browser last heard
        of (``Last-Event-ID``, when it connects again); the stream ends when the game does, or when
        the server stops."""
        session = await self.session_of(request.match_info["token"])
        if session is None:
            return self.missing(request)
        # (X-Accel-Buffering: nginx passes each event on at once even where proxy_buffering is on)
        headers = {
            "Content-Type": "text/event-stream",
            "Cache-Control": "no-store",
            "X-Accel-Buffering": "no",
        }
        reply = web.StreamResponse(headers=headers)
        await reply.prepare(request)
        if request.method == "HEAD":
            return reply  # the headers alone: a stream written to a HEAD breaks the connection
        try:
            last = request.headers.get("Last-Event-ID") or request.query.get("at", "")
            await self.stream(session, reply, last)
        except ConnectionResetError:  # the reader went away
            pass
        except Exception:
            problem = await self.service.store.ping(timeout=UNAVAILABLE_WITHIN)
            if problem is None:
                raise
            # The stream ends; the browser asks again after its retry and gets the 503 page.
            log.warning("ended an event stream: the database does not answer (%s)", problem)
        return reply

    async def stream(self, session: Session, reply: web.StreamResponse, last: str = "") -> None:
        """Each change a spectator may see, as ``move``, with its point in the game as the event's
        id; ``last``: the id of the point the page was written at, or the one the browser saw
        before its connection dropped (a phone that slept), and a game changed since then is told
        at once (a move that landed between the page's load and its stream's opening, or while
        the phone slept: the page would otherwise stay as it was).  A server that turns its pages
        off meanwhile is asked before each change is told: the stream ends untold, as its pages
        are 404s from then on."""
        stored = await self.service.store.games.session(session.id) or session.row  # as it is now
        seen = (stored.told_through, stored.status, stored.version)
        await reply.write(f"retry: 2000\nid: {event_id(seen)}\n\n".encode())
        before = seen_at(last)
        if before is not None and changed(before, seen):
            await reply.write(f"event: move\ndata: {seen[0]}\n\n".encode())
        if stored.status not in ("active", "lobby"):
            return  # an ended game tells nothing more
        while not self.closing.is_set():
            try:
                await asyncio.wait_for(self.closing.wait(), self.poll)
            except TimeoutError:
                pass
            if self.closing.is_set():
                break
            row = await self.service.store.games.session(session.id)
            if row is None:
                break
            now = (row.told_through, row.status, row.version)
            if changed(seen, now):
                if row.guild_id is None or await self.links.pages(row.guild_id) != "links":
                    break  # the server turned its pages off meanwhile: nothing more is told
                seen = now
                await reply.write(f"id: {event_id(now)}\nevent: move\ndata: {row.told_through}\n\n".encode())
                if row.status not in ("active", "lobby"):
                    break
            else:
                await reply.write(b": waiting\n\n")

    # ----------------------------------------------------------------- a league, a person

    async def league(self, request: web.Request) -> web.Response:
        ref = await self.links.find("league", request.match_info["token"])
        row = await self.service.store.leagues.league(ref) if ref is not None else None
        if row is None or await self.links.pages(row.guild_id) != "links":
            return self.missing(request)
        t = reader_language(request)

        async def game_links(session_ids: list[int]) -> dict[int, str]:
            return {
                ref: f"/g/{token}" for ref, token in (await self.links.tokens("game", session_ids)).items()
            }

        page = await self.leagues.page(row.id, t, game_links)
        if page is None:
            return self.missing(request)
        return self.render(request, "league.html", page=page)

    async def person(self, request: web.Request) -> web.Response:
        found = await self.links.find_scoped("person", request.match_info["token"])
        if found is None or await self.links.pages(found[0]) != "links":
            return self.missing(request)
        page = await self.people.page(found[0], found[1], reader_language(request))
        if page is None:
            return self.missing(request)
        return self.render(request, "person.html", page=page)

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC:
            return self.missing(request)
        # The address a page links (its digest) is kept a year; any other, an hour.
        stamped = request.query.get("v") == self._stamps[name]
        return web.Response(
            body=self._static[name],
            content_type=STATIC[name],
            headers={"Cache-Control": STAMPED if stamped else "public, max-age=3600"},
        )
