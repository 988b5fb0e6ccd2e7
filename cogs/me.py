"""``/me ...``: a person's own settings, the same in every server (turn notices, reminders, quiet hours).

Every answer is private and in the asker's Discord language."""

from __future__ import annotations

import asyncio
import dataclasses

import discord
from discord import app_commands

from bot import i18n, notices, profiles, waits
from bot.app import PukllayBot
from bot.i18n import slash_choices
from bot.notices import MAX_REMIND_HOURS, SettingError
from bot.profiles import words as profile_words
from bot.storage import PersonRow
from bot.surface import direct, written
from bot.surface.attach import picture
from bot.surface.gamecog import FrontCog
from bot.surface.replies import guarded, reply, sentence
from bot.time import jobs
from languages import Language
from renderers import profile as profile_picture

PLACES = slash_choices("me notify", "where")


@app_commands.guild_only()
class MeCog(FrontCog, group_name="me", group_description="Your own settings, the same in every server"):
    @app_commands.command(name="show", description="Show your settings: notices, reminders, quiet hours")
    @guarded()
    async def show(self, interaction: discord.Interaction) -> None:
        person = await self.front.look.service.store.people.person(interaction.user.id)
        await reply(interaction, await self.settings_text(person, i18n.private(interaction)))

    async def settings_text(self, person: PersonRow, t: Language) -> str:
        """The person's settings in words, with their digest hour and time away."""
        store = self.front.look.service.store
        hour = (await store.waits.settings(person.user_id)).digest_hour
        return notices.settings_text(person, t, digest_hour=hour, now=store.clock.time())

    @app_commands.command(
        name="notify", description="Choose where your turn notices go and how often to remind you"
    )
    @app_commands.describe(
        where="Where turn notices go",
        reminders=f"Remind you every this many hours while it is your turn (0: never; at most {MAX_REMIND_HOURS})",
        time_zone="Your time zone, e.g. Europe/Madrid (for quiet hours)",
        quiet="Hours with no direct messages, in your time zone, e.g. 22-7 (or off)",
    )
    @app_commands.choices(where=PLACES)
    @guarded()
    async def notify(
        self,
        interaction: discord.Interaction,
        where: app_commands.Choice[str] | None = None,
        reminders: app_commands.Range[int, 0, MAX_REMIND_HOURS] | None = None,
        time_zone: app_commands.Range[str, 1, 64] | None = None,
        quiet: app_commands.Range[str, 1, 20] | None = None,
    ) -> None:
        t = i18n.private(interaction)
        store = self.front.look.service.store
        person = await store.people.person(interaction.user.id)
        changes: dict = {}
        try:
            if where is not None:
                changes["notify"] = notices.check_place(where.value)
            if reminders is not None:
                changes["remind_hours"] = notices.check_remind(reminders)
            if time_zone is not None:
                notices.zone(time_zone)
                changes["time_zone"] = time_zone
            if quiet is not None:
                changes["quiet_start"], changes["quiet_end"] = notices.parse_quiet(quiet)
        except SettingError as exc:
            refusal = t.gettext("{refusal} Nothing was changed.", refusal=sentence(exc.said(t)))
            await reply(interaction, f"⚠️ {refusal}")
            return
        if not changes:
            text = t.gettext("Nothing to change. {settings}", settings=await self.settings_text(person, t))
            await reply(interaction, text)
            return
        before, person = person, dataclasses.replace(person, **changes)
        await store.people.save_person(person, before)  # what changed only: a /me elsewhere keeps its own
        if self.bot.scheduler is not None:
            await self.front.reminders.changed(person)
            await direct.ends_held(self.front.notifier, person)
        await reply(interaction, t.gettext("Saved. {settings}", settings=await self.settings_text(person, t)))

    @app_commands.command(
        name="contrast", description="The high-contrast palette for the pictures only you receive"
    )
    @app_commands.describe(high="Turn it on or off; leave out to see which it is")
    @guarded()
    async def contrast(self, interaction: discord.Interaction, high: bool | None = None) -> None:
        t = i18n.private(interaction)
        store = self.front.look.service.store
        if high is not None:
            await store.people.set_contrast(interaction.user.id, high)
        if (await store.people.person(interaction.user.id)).contrast:
            text = t.gettext(
                "Your private pictures (your view, history pages, direct messages) use the "
                "high-contrast palette. Public boards follow the server's choice: {/game contrast}."
            )
        else:
            text = t.gettext(
                "Your private pictures (your view, history pages, direct messages) use the standard "
                "palette. Public boards follow the server's choice: {/game contrast}."
            )
        await reply(interaction, text)

    @app_commands.command(name="away", description="Take time away: your turn clocks pause in every game")
    @app_commands.describe(
        days="How many days (your yearly allowance is shown if this is too many)",
        reason="Why, shown to no one but you (optional)",
    )
    @guarded()
    async def away(
        self,
        interaction: discord.Interaction,
        days: app_commands.Range[int, 1, 366],
        reason: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        t = i18n.private(interaction)
        store = self.front.look.service.store
        now = store.clock.time()
        before = await store.people.person(interaction.user.id)
        try:
            person = notices.take_away(before, days, reason, now, self.bot.settings.away_days_per_year)
        except SettingError as exc:
            await reply(interaction, f"⚠️ {sentence(exc.said(t))}")
            return
        await store.people.save_person(person, before)  # kept in the history of times away the clocks read
        await direct.deadlines_again(
            self.front.notifier, person.user_id
        )  # the clocks stop: their deadlines move
        left = notices.away_days_left(person, now, self.bot.settings.away_days_per_year)
        text = t.ngettext(
            "You are away until {date}: your turn clocks are paused in every game and reminders stop; "
            "the others see it in {/game status} and on the boards. {n} day of time away is left this "
            "year. {/me back} ends it early.",
            "You are away until {date}: your turn clocks are paused in every game and reminders stop; "
            "the others see it in {/game status} and on the boards. {n} days of time away are left this "
            "year. {/me back} ends it early.",
            left,
            date=notices.away_date(person),
        )
        await reply(interaction, text)

    @app_commands.command(name="back", description="End your time away now; your turn clocks run again")
    @guarded()
    async def back(self, interaction: discord.Interaction) -> None:
        t = i18n.private(interaction)
        store = self.front.look.service.store
        now = store.clock.time()
        before = await store.people.person(interaction.user.id)
        try:
            person = notices.come_back(before, now)
        except SettingError as exc:
            await reply(interaction, f"⚠️ {sentence(exc.said(t))}")
            return
        await store.people.save_person(person, before)
        await direct.clocks_resume(self.front.notifier, person.user_id)
        await self.front.reminders.back(person.user_id, before.away_until)
        left = notices.away_days_left(person, now, self.bot.settings.away_days_per_year)
        text = t.ngettext(
            "Welcome back: your turn clocks run again. {n} day of time away is left this year.",
            "Welcome back: your turn clocks run again. {n} days of time away are left this year.",
            left,
        )
        await reply(interaction, text)
        if self.bot.queue is not None:  # the queues they wait in held them back while away
            await self.bot.queue.came_back(person.user_id)

    @app_commands.command(
        name="profile", description="Reliability and pace: turns on time, games kept, time to move, ratings"
    )
    @app_commands.describe(person="Whose profile (default: yours)")
    @guarded()
    async def profile(self, interaction: discord.Interaction, person: discord.User | None = None) -> None:
        who = person or interaction.user
        t = i18n.private(interaction)
        store = self.front.look.service.store
        found = await profiles.profile(store, who.id, interaction.guild_id)
        words = profile_words.text(written.name(who.display_name), found, t)
        contrast = (await store.people.person(interaction.user.id)).contrast
        data = await asyncio.to_thread(
            profile_picture.render,
            profile_words.card(who.display_name, found, t),
            language=t.code,
            contrast=contrast,
        )
        await reply(interaction, words, file=picture(data, "profile.png", words, [who.display_name]))

    @notify.autocomplete("time_zone")
    async def _zones(self, interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=z, value=z) for z in notices.zone_choices(current)]

    # ------------------------------------------------------------- fewer waits and following

    @app_commands.command(
        name="autoplay", description="Let the table play your move when it is your only legal one"
    )
    @app_commands.describe(on="Turn it on or off; leave out to see which it is")
    @guarded()
    async def autoplay(self, interaction: discord.Interaction, on: bool | None = None) -> None:
        t = i18n.private(interaction)
        store = self.front.look.service.store
        if on is not None:
            await store.waits.set_autoplay(interaction.user.id, on)
            if on:  # a forced move already waiting on them is played after the delay from now
                await self.front.waits.arm_person(interaction.user.id)
        if (await store.waits.settings(interaction.user.id)).autoplay:
            text = t.gettext(
                "Autoplay is on: when you have exactly one legal move, the table plays it for you {n} "
                "seconds after the board that gave it to you (in a league, only if the league allows it).",
                n=int(waits.AUTOPLAY_DELAY),
            )
        else:
            text = t.gettext(
                "Autoplay is off: you play every move yourself. /me autoplay on:True turns it on."
            )
        await reply(interaction, text)

    @app_commands.command(
        name="digest", description="Get your reminders once a day, at an hour you choose, as one list"
    )
    @app_commands.describe(at="The hour in your time zone, e.g. 18 or 18:00 (or off); leave out to see it")
    @guarded()
    async def digest(
        self, interaction: discord.Interaction, at: app_commands.Range[str, 1, 10] | None = None
    ) -> None:
        t = i18n.private(interaction)
        store = self.front.look.service.store
        if at is not None:
            try:
                hour = waits.parse_hour(at)
            except SettingError as exc:
                refusal = t.gettext("{refusal} Nothing was changed.", refusal=sentence(exc.said(t)))
                await reply(interaction, f"⚠️ {refusal}")
                return
            await store.waits.set_digest_hour(interaction.user.id, hour)
            if self.bot.scheduler is not None:  # the next reminder comes at the new time
                job = await store.jobs.job(jobs.REMIND, str(interaction.user.id))
                if job is not None:
                    person = await store.people.person(interaction.user.id)
                    now = store.clock.time()
                    due = await self.front.reminders.next_reminder(person, now)
                    if job.payload.get("held"):  # a turn notice quiet hours held back keeps its time
                        due = min(due, job.due_at)
                    await self.bot.scheduler.schedule(jobs.REMIND, job.key, due, job.payload)
        hour = (await store.waits.settings(interaction.user.id)).digest_hour
        await reply(interaction, waits.digest_settings(hour, t))

    @app_commands.command(
        name="follow", description="Be told by DM when someone starts a game in a server you share"
    )
    @app_commands.describe(person="Whom to follow")
    @guarded()
    async def follow(self, interaction: discord.Interaction, person: discord.Member) -> None:
        t = i18n.private(interaction)
        store = self.front.look.service.store
        if person.id == interaction.user.id or person.bot:
            await reply(interaction, "⚠️ " + t.gettext("You can follow other people, not yourself or a bot."))
            return
        following = await store.waits.following(interaction.user.id)
        if person.id not in following and len(following) >= waits.FOLLOWS_MOST:
            await reply(
                interaction,
                "⚠️ "
                + t.gettext(
                    "You follow {n} people, the most there may be; /me unfollow someone first.",
                    n=waits.FOLLOWS_MOST,
                ),
            )
            return
        await store.waits.follow(interaction.user.id, person.id, True)
        await reply(
            interaction,
            t.gettext(
                "You follow {name}: when they start a game in a server you share, you get a direct message "
                "(not in your quiet hours). /me unfollow stops it.",
                name=written.name(person.display_name),
            ),
        )

    @app_commands.command(name="unfollow", description="Stop being told when someone starts a game")
    @app_commands.describe(person="Whom to stop following")
    @guarded()
    async def unfollow(self, interaction: discord.Interaction, person: discord.User) -> None:
        t = i18n.private(interaction)
        store = self.front.look.service.store
        if await store.waits.follow(interaction.user.id, person.id, False):
            text = t.gettext("You no longer follow {name}.", name=written.name(person.display_name))
        else:
            text = t.gettext("You were not following {name}.", name=written.name(person.display_name))
        await reply(interaction, text)


async def setup(bot: PukllayBot) -> None:
    await bot.add_cog(MeCog(bot))
