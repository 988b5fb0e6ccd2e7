"""The web side's storage: capability links (one token per game, league or person) and each
server's choice for its pages, on both back ends (migration 021, ``web_links`` and
``web_servers``).

A token is :func:`secrets.token_urlsafe` of :data:`TOKEN_BYTES` bytes, made once per thing and
kept: :meth:`WebLinks.token` makes it when first asked (at the game's or league's making, or
lazily for a row older than the web side) and returns the same one ever after, also when two
processes ask at once.  :meth:`WebLinks.find` is the only way back from a token, by exact
match; there is no listing.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from bot.storage.base import fits, many
from bot.storage.store import Store

Kind = Literal["game", "league", "person"]
KINDS: tuple[Kind, ...] = ("game", "league", "person")
TOKEN_BYTES = 18
"""144 random bits: 24 URL-safe characters."""

PAGES = ("links", "off")
"""A server's choices: pages open to whoever holds a link (the default), or none served."""


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def looks_like_token(text: str) -> bool:
    """Whether ``text`` could be a token at all (checked before the database is asked)."""
    return 16 <= len(text) <= 64 and all(c.isalnum() or c in "-_" for c in text)


@dataclass(frozen=True)
class FinishedGame:
    session_id: int
    game: str
    finished_at: str | None
    place: int
    score: float | None
    resigned: bool
    ran_out: bool = False  # ranked last because their time ran out (the computer took the seat)


class WebLinks:
    """Tokens and server choices, read and written through ``store`` (either back end)."""

    def __init__(self, store: Store):
        self.db = store.db

    async def token(self, kind: Kind, ref: int, scope: int = 0) -> str:
        """The token of the ``kind`` numbered ``ref`` (a person: in server ``scope``), made now if
        it has none yet."""
        if kind not in KINDS or not fits(ref) or not fits(scope) or scope < 0:
            raise ValueError(f"no link for {kind} {ref}")
        found = "SELECT token FROM web_links WHERE kind = ? AND scope = ? AND ref = ?"
        row = await self.db.one(found, kind, scope, ref)
        if row is not None:
            return str(row["token"])
        await self.db.change(
            "INSERT INTO web_links (kind, scope, ref, token, created_at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (kind, scope, ref) DO NOTHING",
            kind,
            scope,
            ref,
            new_token(),
            self.db.clock.stamp(),
        )
        row = await self.db.the_row(found, kind, scope, ref)
        return str(row["token"])

    async def tokens(self, kind: Kind, refs: Sequence[int]) -> dict[int, str]:
        """The tokens of many ``kind`` (not persons), those missing made now: ref -> token."""
        wanted = sorted({r for r in refs if fits(r)})
        if kind not in KINDS or kind == "person":
            raise ValueError(f"no links for many {kind}")
        found: dict[int, str] = {}
        for start in range(0, len(wanted), 500):
            part = wanted[start : start + 500]
            rows = await self.db.all(
                "SELECT ref, token FROM web_links WHERE kind = ? AND scope = 0 AND ref IN ("
                + ", ".join("?" * len(part))
                + ")",
                kind,
                *part,
            )
            found.update({int(r["ref"]): str(r["token"]) for r in rows})
        missing = [r for r in wanted if r not in found]
        if missing:
            stamp = self.db.clock.stamp()
            await self.db.transact(
                many(
                    "INSERT INTO web_links (kind, scope, ref, token, created_at) VALUES (?, 0, ?, ?, ?)"
                    " ON CONFLICT (kind, scope, ref) DO NOTHING",
                    [(kind, r, new_token(), stamp) for r in missing],
                )
            )
            for r in missing:
                found[r] = await self.token(kind, r)
        return found

    async def find(self, kind: Kind, token: str) -> int | None:
        """What ``token`` opens, if it is a ``kind``'s token (else None)."""
        found = await self.find_scoped(kind, token)
        return found[1] if found is not None else None

    async def find_scoped(self, kind: Kind, token: str) -> tuple[int, int] | None:
        """(scope, ref) of what ``token`` opens, if it is a ``kind``'s token (else None)."""
        if not looks_like_token(token):
            return None
        row = await self.db.one("SELECT scope, ref FROM web_links WHERE kind = ? AND token = ?", kind, token)
        return (int(row["scope"]), int(row["ref"])) if row is not None else None

    async def finished_games(self, guild_id: int, user_id: int, *, limit: int = 100) -> list[FinishedGame]:
        """The games ``user_id`` finished in server ``guild_id``, newest first.  A result ranked
        last for leaving (``results.resigned``) is a resignation when the seat resigned, else the
        seat's time ran out."""
        if not fits(guild_id) or not fits(user_id):
            return []
        rows = await self.db.all(
            "SELECT s.id, s.game, s.finished_at, r.place, r.score, r.resigned, st.resigned AS seat_resigned"
            " FROM results r JOIN sessions s ON s.id = r.session_id"
            " LEFT JOIN seats st ON st.session_id = r.session_id AND st.seat = r.seat"
            " WHERE r.user_id = ? AND s.guild_id = ? AND s.status = 'finished'"
            " ORDER BY s.id DESC LIMIT ?",
            user_id,
            guild_id,
            limit,
        )
        found = []
        for r in rows:
            last = bool(r["resigned"])
            ran_out = last and r["seat_resigned"] is not None and not r["seat_resigned"]
            found.append(
                FinishedGame(
                    int(r["id"]),
                    str(r["game"]),
                    r["finished_at"],
                    int(r["place"]),
                    None if r["score"] is None else float(r["score"]),
                    last and not ran_out,
                    ran_out,
                )
            )
        return found

    async def finished_count(self, guild_id: int, user_id: int) -> int:
        """How many games ``user_id`` finished in server ``guild_id`` (those
        :meth:`finished_games` lists, however many that is)."""
        if not fits(guild_id) or not fits(user_id):
            return 0
        row = await self.db.one(
            "SELECT COUNT(*) AS n FROM results r JOIN sessions s ON s.id = r.session_id"
            " WHERE r.user_id = ? AND s.guild_id = ? AND s.status = 'finished'",
            user_id,
            guild_id,
        )
        return int(row["n"]) if row is not None else 0

    async def name_of(self, guild_id: int, user_id: int) -> str | None:
        """The name ``user_id`` last played under in server ``guild_id`` (None: never seated)."""
        if not fits(guild_id) or not fits(user_id):
            return None
        row = await self.db.one(
            "SELECT st.display_name FROM seats st JOIN sessions s ON s.id = st.session_id"
            " WHERE st.user_id = ? AND s.guild_id = ? ORDER BY s.id DESC LIMIT 1",
            user_id,
            guild_id,
        )
        return str(row["display_name"]) if row is not None else None

    async def pages(self, guild_id: int) -> str:
        """The server's choice: ``links`` (the default) or ``off``."""
        if not fits(guild_id):
            return "off"
        row = await self.db.one("SELECT pages FROM web_servers WHERE guild_id = ?", guild_id)
        return str(row["pages"]) if row is not None else "links"

    async def set_pages(self, guild_id: int, pages: str) -> None:
        if pages not in PAGES:
            raise ValueError(f"pages must be one of {', '.join(PAGES)}, not {pages!r}")
        await self.db.change(
            "INSERT INTO web_servers (guild_id, pages, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET pages = excluded.pages,"
            " updated_at = excluded.updated_at",
            guild_id,
            pages,
            self.db.clock.stamp(),
        )
