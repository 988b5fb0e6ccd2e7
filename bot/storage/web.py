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
from typing import Literal

from bot.storage.base import Store, fits, run, single

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


class WebLinks:
    """Tokens and server choices, read and written through ``store`` (either back end)."""

    def __init__(self, store: Store):
        self.store = store

    async def token(self, kind: Kind, ref: int) -> str:
        """The token of the ``kind`` numbered ``ref``, made now if it has none yet."""
        if kind not in KINDS or not fits(ref):
            raise ValueError(f"no link for {kind} {ref}")
        row = await self.store._one("SELECT token FROM web_links WHERE kind = ? AND ref = ?", kind, ref)
        if row is not None:
            return str(row["token"])
        await self.store._transact(
            single(
                run(
                    "INSERT INTO web_links (kind, ref, token, created_at) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (kind, ref) DO NOTHING",
                    kind,
                    ref,
                    new_token(),
                    self.store.clock.stamp(),
                )
            )
        )
        row = await self.store._one("SELECT token FROM web_links WHERE kind = ? AND ref = ?", kind, ref)
        return str(row["token"])

    async def find(self, kind: Kind, token: str) -> int | None:
        """What ``token`` opens, if it is a ``kind``'s token (else None)."""
        if not looks_like_token(token):
            return None
        row = await self.store._one("SELECT ref FROM web_links WHERE kind = ? AND token = ?", kind, token)
        return int(row["ref"]) if row is not None else None

    async def pages(self, guild_id: int) -> str:
        """The server's choice: ``links`` (the default) or ``off``."""
        if not fits(guild_id):
            return "off"
        row = await self.store._one("SELECT pages FROM web_servers WHERE guild_id = ?", guild_id)
        return str(row["pages"]) if row is not None else "links"

    async def set_pages(self, guild_id: int, pages: str) -> None:
        if pages not in PAGES:
            raise ValueError(f"pages must be one of {', '.join(PAGES)}, not {pages!r}")
        await self.store._transact(
            single(
                run(
                    "INSERT INTO web_servers (guild_id, pages, updated_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (guild_id) DO UPDATE SET pages = excluded.pages,"
                    " updated_at = excluded.updated_at",
                    guild_id,
                    pages,
                    self.store.clock.stamp(),
                )
            )
        )
