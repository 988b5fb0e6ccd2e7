"""People and settings: a person's notices, time away, locale and palette (the same in every server),
and each server's language, palette and league organiser role.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.storage.base import Body, Concern, PersonRow, fits, one, person_of, run, upsert

SAVED = (
    "notify, remind_hours, time_zone, quiet_start, quiet_end, away_since, away_until, away_reason, away_year,"
    " away_days_used"
).split(", ")
"""The settings :meth:`People.save_person` writes (the locale, the palette and the note of a failed
direct message have their own)."""
NEW_LOCALE = "people.locale IS NULL OR people.locale <> excluded.locale"
SAVE_AWAY = upsert("away_periods", "user_id, since", "user_id, since, until")
"""A time away kept in the history: a new one, or its end moved by ``/me back``."""
KEEP_FIRST_INTERVAL = (
    "INSERT INTO remind_changes (user_id, since, hours) VALUES (?, 0, ?) ON CONFLICT DO NOTHING"
)
"""The interval a person had before their first change, kept from time 0 (once)."""
SAVE_INTERVAL = upsert("remind_changes", "user_id, since", "user_id, since, hours")


class People(Concern):
    """People's settings and servers' settings."""

    async def person(self, user_id: int) -> PersonRow:
        """A person's settings (the defaults when they never set any)."""
        row = await self.db.one("SELECT * FROM people WHERE user_id = ?", user_id) if fits(user_id) else None
        return person_of(row) if row else PersonRow(user_id)

    async def several(self, user_ids: Iterable[int]) -> dict[int, PersonRow]:
        """Several people's settings in one query (defaults for those without a row)."""
        ids = sorted({u for u in user_ids if fits(u)})
        found: dict[int, PersonRow] = {}
        if ids:
            marks = ", ".join("?" for _ in ids)
            rows = await self.db.all(f"SELECT * FROM people WHERE user_id IN ({marks})", *ids)
            found = {r["user_id"]: person_of(r) for r in rows}
        return {u: found.get(u, PersonRow(u)) for u in ids}

    async def save_person(self, person: PersonRow, before: PersonRow | None = None) -> None:
        """Write the person's settings; their time away, if any, is kept in the history of their
        times away too (:meth:`away_periods`), and a new reminder interval in the history of their
        intervals (:meth:`intervals`), in the same transaction.

        With ``before`` (the settings as read, which ``person`` changes), only the settings that
        differ from it are written: a change made meanwhile to the others (another ``/me`` command,
        in this process or another) is kept.  A failed direct message, noted by its own writer
        (:meth:`set_dm_failed`), is never written here."""
        changed = [c for c in SAVED if before is None or getattr(person, c) != getattr(before, c)]
        sql = upsert("people", "user_id", ", ".join(["user_id", *changed, "updated_at"]))
        values = [getattr(person, c) for c in changed]
        now = self.clock.time()

        def body() -> Body[None]:
            if "remind_hours" in changed:
                stored = yield from one("SELECT remind_hours FROM people WHERE user_id = ?", person.user_id)
                had = PersonRow(person.user_id).remind_hours if stored is None else int(stored[0])
                if had != person.remind_hours:  # kept with its time: earlier turns keep their allowance
                    yield from run(KEEP_FIRST_INTERVAL, person.user_id, had)
                    yield from run(SAVE_INTERVAL, person.user_id, now, person.remind_hours)
            yield from run(sql, person.user_id, *values, self.clock.stamp())
            if person.away_since is not None and person.away_until is not None:
                yield from run(SAVE_AWAY, person.user_id, person.away_since, person.away_until)

        await self.db.transact(body())

    async def away_periods(self, user_ids: Iterable[int]) -> dict[int, list[tuple[float, float]]]:
        """Every time away these people took, oldest first, as ``(since, until)`` (a person with
        none is left out)."""
        return await self._histories("away_periods", "until", user_ids)

    async def intervals(self, user_ids: Iterable[int]) -> dict[int, list[tuple[float, int]]]:
        """Every reminder interval these people chose, as ``(since, hours)`` oldest first, the first
        from time 0 (a person who never changed theirs is left out: their setting holds throughout)."""
        rows = await self._histories("remind_changes", "hours", user_ids)
        return {user: [(since, int(hours)) for since, hours in kept] for user, kept in rows.items()}

    async def _histories(
        self, table: str, column: str, user_ids: Iterable[int]
    ) -> dict[int, list[tuple[float, float]]]:
        """The rows of a person's history ``table`` (keyed by ``user_id, since``) for these people,
        as ``(since, column)`` oldest first (both numbers); a person with none is left out."""
        ids = sorted({u for u in user_ids if fits(u)})
        found: dict[int, list[tuple[float, float]]] = {}
        if ids:
            marks = ", ".join("?" for _ in ids)
            rows = await self.db.all(
                f"SELECT user_id, since, {column} FROM {table} WHERE user_id IN ({marks}) ORDER BY user_id, since",
                *ids,
            )
            for user, since, value in rows:
                found.setdefault(user, []).append((float(since), float(value)))
        return found

    async def set_dm_failed(self, user_id: int, failed: bool) -> bool:
        """Note (or clear) that a DM to the person failed; True when the flag changed."""
        stamp = self.clock.stamp()
        if failed:
            sql = (
                "INSERT INTO people (user_id, dm_failed, updated_at) VALUES (?, 1, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET dm_failed = 1, updated_at = excluded.updated_at"
                " WHERE people.dm_failed = 0"
            )
            changed = await self.db.change(sql, user_id, stamp)
        else:
            changed = await self.db.change(
                "UPDATE people SET dm_failed = 0, updated_at = ? WHERE user_id = ? AND dm_failed = 1",
                stamp,
                user_id,
            )
        return changed == 1

    async def set_locale(self, user_id: int, locale: str) -> bool:
        """Keep the Discord locale of the person's latest interaction (their settings otherwise
        untouched; a person without a row gets one with the defaults); True when it changed."""
        if not fits(user_id):
            return False
        sql = upsert("people", "user_id", "user_id, locale, updated_at", keep="updated_at", where=NEW_LOCALE)
        return await self.db.change(sql, user_id, locale, self.clock.stamp()) == 1

    async def set_contrast(self, user_id: int, on: bool) -> None:
        """Choose the palette of the person's private pictures (their other settings untouched)."""
        sql = upsert("people", "user_id", "user_id, contrast, updated_at")
        await self.db.change(sql, user_id, int(on), self.clock.stamp())

    async def server_language(self, guild_id: int) -> str | None:
        """The language a server chose with ``/game language`` (``None``: its own Discord language)."""
        if not fits(guild_id):
            return None
        row = await self.db.one("SELECT language FROM server_settings WHERE guild_id = ?", guild_id)
        return row["language"] if row else None

    async def set_server_language(self, guild_id: int, language: str | None) -> None:
        """Choose the language of a server's public messages and images (``None``: back to its own)."""
        await self._server_setting("server_settings", "language", guild_id, language)

    async def server_contrast(self, guild_id: int) -> bool:
        """Whether a server chose the high-contrast palette for its public pictures (``/game contrast``)."""
        if not fits(guild_id):
            return False
        row = await self.db.one("SELECT contrast FROM server_settings WHERE guild_id = ?", guild_id)
        return bool(row["contrast"]) if row else False

    async def set_server_contrast(self, guild_id: int, on: bool) -> None:
        """Choose the palette of a server's public pictures (its language untouched)."""
        await self._server_setting("server_settings", "contrast", guild_id, int(on))

    async def organiser_role(self, guild_id: int) -> int | None:
        """The role whose members may run the server's leagues (``/league settings``), if any."""
        rows = await self.db.all("SELECT organiser_role_id FROM league_settings WHERE guild_id = ?", guild_id)
        return rows[0][0] if rows else None

    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None:
        await self._server_setting("league_settings", "organiser_role_id", guild_id, role_id)

    async def _server_setting(self, table: str, column: str, guild_id: int, value: object) -> None:
        """Set one of a server's settings, its others untouched."""
        sql = upsert(table, "guild_id", f"guild_id, {column}, updated_at")
        await self.db.change(sql, guild_id, value, self.clock.stamp())
