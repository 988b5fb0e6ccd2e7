"""People and settings: a person's notices, time away, locale and palette (the same in every server),
and each server's language, palette and league organiser role.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.storage.base import Concern, PersonRow, fits, person_of


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

    async def save_person(self, person: PersonRow) -> None:
        stamp = self.clock.stamp()
        await self.db.change(
            "INSERT INTO people (user_id, notify, remind_hours, time_zone, quiet_start, quiet_end,"
            " dm_failed, away_since, away_until, away_reason, away_year, away_days_used, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify,"
            " remind_hours = excluded.remind_hours, time_zone = excluded.time_zone,"
            " quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end,"
            " dm_failed = excluded.dm_failed, away_since = excluded.away_since,"
            " away_until = excluded.away_until, away_reason = excluded.away_reason,"
            " away_year = excluded.away_year, away_days_used = excluded.away_days_used,"
            " updated_at = excluded.updated_at",
            person.user_id,
            person.notify,
            person.remind_hours,
            person.time_zone,
            person.quiet_start,
            person.quiet_end,
            int(person.dm_failed),
            person.away_since,
            person.away_until,
            person.away_reason,
            person.away_year,
            person.away_days_used,
            stamp,
        )

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
        changed = await self.db.change(
            "INSERT INTO people (user_id, locale, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale"
            " WHERE people.locale IS NULL OR people.locale <> excluded.locale",
            user_id,
            locale,
            self.clock.stamp(),
        )
        return changed == 1

    async def set_contrast(self, user_id: int, on: bool) -> None:
        """Choose the palette of the person's private pictures (their other settings untouched)."""
        await self.db.change(
            "INSERT INTO people (user_id, contrast, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET contrast = excluded.contrast,"
            " updated_at = excluded.updated_at",
            user_id,
            int(on),
            self.clock.stamp(),
        )

    async def server_language(self, guild_id: int) -> str | None:
        """The language a server chose with ``/game language`` (``None``: its own Discord language)."""
        if not fits(guild_id):
            return None
        row = await self.db.one("SELECT language FROM server_settings WHERE guild_id = ?", guild_id)
        return row["language"] if row else None

    async def set_server_language(self, guild_id: int, language: str | None) -> None:
        """Choose the language of a server's public messages and images (``None``: back to its own)."""
        stamp = self.clock.stamp()
        await self.db.change(
            "INSERT INTO server_settings (guild_id, language, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language,"
            " updated_at = excluded.updated_at",
            guild_id,
            language,
            stamp,
        )

    async def server_contrast(self, guild_id: int) -> bool:
        """Whether a server chose the high-contrast palette for its public pictures (``/game contrast``)."""
        if not fits(guild_id):
            return False
        row = await self.db.one("SELECT contrast FROM server_settings WHERE guild_id = ?", guild_id)
        return bool(row["contrast"]) if row else False

    async def set_server_contrast(self, guild_id: int, on: bool) -> None:
        """Choose the palette of a server's public pictures (its language untouched)."""
        await self.db.change(
            "INSERT INTO server_settings (guild_id, contrast, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET contrast = excluded.contrast,"
            " updated_at = excluded.updated_at",
            guild_id,
            int(on),
            self.clock.stamp(),
        )

    async def organiser_role(self, guild_id: int) -> int | None:
        rows = await self.db.all("SELECT organiser_role_id FROM league_settings WHERE guild_id = ?", guild_id)
        return rows[0][0] if rows else None

    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None:
        stamp = self.clock.stamp()
        await self.db.change(
            "INSERT INTO league_settings (guild_id, organiser_role_id, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET organiser_role_id = excluded.organiser_role_id,"
            " updated_at = excluded.updated_at",
            guild_id,
            role_id,
            stamp,
        )
