"""``/queue ...``: wait in the server's queue for a game; the queue forms tables of people whose
wishes agree (see :mod:`bot.queue`).  Answers are private, in the asker's language; the tables are
opened in the queue channel a server manager chose with ``/queue channel``."""

from __future__ import annotations

import discord
from discord import app_commands

import engines
from bot import i18n
from bot.app import PukllayBot
from bot.queue.match import MAX_AVOID
from bot.queue.service import QueueService
from bot.queue.wishes import DEFAULT_WAIT_HOURS, MAX_COMPUTERS, MAX_WAIT_HOURS, options_in_full
from bot.sessions import Refusal
from bot.storage.queue import QueueEntry
from bot.surface import written
from bot.surface.channels import bot_lacks_for_threads, permission_list
from bot.surface.gamecog import FrontCog
from bot.surface.queue import ConfirmButton
from bot.surface.replies import guarded, reply
from bot.texts import game_option_words
from cogs.table import GAME_NAMES
from engines.core import said_n
from languages import Language

GAMES = [
    app_commands.Choice(name=g.title, value=g.name) for g in engines.GAMES.values() if g.name in GAME_NAMES
]
PACES = [
    app_commands.Choice(name="Live: played now, no clock", value="live"),
    app_commands.Choice(name="Daily: a day per move", value="daily"),
    app_commands.Choice(name="Either (default)", value="any"),
]
RATED = [
    app_commands.Choice(name="Rated", value="rated"),
    app_commands.Choice(name="Unrated", value="unrated"),
    app_commands.Choice(name="Either (default)", value="any"),
]
LISTED = 10
"""The most people /queue list names (the answer stays within Discord's 2,000 characters)."""
STARTS = [
    app_commands.Choice(name="When everyone confirms (default)", value="confirm"),
    app_commands.Choice(name="At once", value="now"),
]


def wishes(entry: QueueEntry, t: Language) -> str:
    """A person's wishes in a line: game, player counts, pace, computers, rated, since when."""
    counts = ", ".join(str(c) for c in entry.counts)
    pace = {"live": t.gettext("live"), "daily": t.gettext("daily")}.get(entry.pace, t.gettext("any pace"))
    rated = {"rated": t.gettext("rated"), "unrated": t.gettext("unrated")}.get(
        entry.rated, t.gettext("rated or not")
    )
    computers = (
        t.ngettext("up to {n} computer", "up to {n} computers", entry.computers)
        if entry.computers
        else t.gettext("no computers")
    )
    line = t.gettext(
        "**{name}**: {game}, {counts} players, {pace}, {computers}, {rated}, waiting since <t:{since}:R>",
        name=written.name(entry.name),
        game=engines.get(entry.game).title,
        counts=counts,
        pace=pace,
        computers=computers,
        rated=rated,
        since=int(entry.joined_at),
    )
    chosen = game_option_words(entry.game, options_in_full(entry.game, entry.options, max(entry.counts)), t)
    if chosen:  # the game's defaults go unsaid, as in a lobby
        line += " " + t.gettext("(options: {options})", options="; ".join(chosen))
    if entry.table_id is not None:
        line += " " + t.gettext("(a table is waiting for confirmations)")
    return line


@app_commands.guild_only()
class QueueCog(FrontCog, group_name="queue", group_description="Wait for a game; the queue forms tables"):
    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ConfirmButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ConfirmButton)

    @property
    def service(self) -> QueueService:
        if self.bot.queue is None:
            raise RuntimeError("the bot has not been set up yet (setup_hook makes its queue)")
        return self.bot.queue

    @app_commands.command(name="join", description="Wait in this server's queue for a game")
    @app_commands.describe(
        game="The game to play",
        players="The player counts you accept, computers included: 3, 2-4 or 2,4 (default: all)",
        pace="Live (played now) or daily (a day per move)",
        computers=f"How many computer seats you accept (0 to {MAX_COMPUTERS}; default 0)",
        rated="Rated or unrated (default: either)",
        max_wait=f"Hours to wait at most (1 to {MAX_WAIT_HOURS}; default {DEFAULT_WAIT_HOURS})",
        start="Start when everyone confirms, or at once",
        options="Options as name=value, e.g. mode=master (Guanga's master mode); default: the game's own",
    )
    @app_commands.choices(game=GAMES, pace=PACES, rated=RATED, start=STARTS)
    @guarded()
    async def join(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        players: app_commands.Range[str, 1, 40] | None = None,
        pace: app_commands.Choice[str] | None = None,
        computers: app_commands.Range[int, 0, MAX_COMPUTERS] = 0,
        rated: app_commands.Choice[str] | None = None,
        max_wait: app_commands.Range[int, 1, MAX_WAIT_HOURS] = DEFAULT_WAIT_HOURS,
        start: app_commands.Choice[str] | None = None,
        options: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        t = i18n.private(interaction)
        guild_id = interaction.guild_id
        if guild_id is None:
            raise Refusal("the queue belongs to a server; use it in one of its channels")
        entry = await self.service.join(
            guild_id=guild_id,
            user_id=interaction.user.id,
            name=interaction.user.display_name,
            game=game.value,
            players=players,
            pace=pace.value if pace else "any",
            computers=computers,
            rated=rated.value if rated else "any",
            max_wait_hours=max_wait,
            at_once=start is not None and start.value == "now",
            options=options,
        )
        waiting = len([e for e in await self.service.store.queue.entries(guild_id) if e.table_id is None])
        text = t.ngettext(
            "You wait in the queue ({n} person waiting): {wishes}. You are pinged when a table forms; "
            "/queue leave leaves.",
            "You wait in the queue ({n} people waiting): {wishes}. You are pinged when a table forms; "
            "/queue leave leaves.",
            waiting,
            wishes=wishes(entry, t),
        )
        held = await self.service.held_back(guild_id, interaction.user.id, game.value)
        if held is not None:  # the gate would not seat them now: say why, and what lets them in
            text += "\n" + t.gettext(
                "You cannot be seated yet: {reason}. You keep your place in the queue meanwhile.",
                reason=held.in_words(t),
            )
        await reply(interaction, text)
        await self.service.match(guild_id)

    @app_commands.command(name="leave", description="Leave this server's queue")
    @guarded()
    async def leave(self, interaction: discord.Interaction) -> None:
        t = i18n.private(interaction)
        assert interaction.guild_id is not None  # the tree refuses interactions outside servers
        await self.service.leave(interaction.guild_id, interaction.user.id)
        await reply(interaction, t.gettext("You have left the queue."))

    @app_commands.command(name="list", description="Who waits in this server's queue, and for what")
    @guarded()
    async def list(self, interaction: discord.Interaction) -> None:
        t = i18n.private(interaction)
        assert interaction.guild_id is not None
        entries = await self.service.store.queue.entries(interaction.guild_id)
        if not entries:
            text = t.gettext("Nobody waits in this server's queue. /queue join to be the first.")
        else:
            lines = [t.ngettext("{n} person in the queue:", "{n} people in the queue:", len(entries))]
            lines += [f"{i}. {wishes(e, t)}" for i, e in enumerate(entries[:LISTED], 1)]
            if len(entries) > LISTED:
                more = len(entries) - LISTED
                lines.append(t.ngettext("... and {n} more.", "... and {n} more.", more))
            place = next((i for i, e in enumerate(entries, 1) if e.user_id == interaction.user.id), 0)
            if place > LISTED:  # the asker's own place, wherever it is
                lines.append(
                    t.gettext("Your place: {line}", line=f"{place}. {wishes(entries[place - 1], t)}")
                )
            text = "\n".join(lines)
        avoided = await self.service.store.queue.avoided(interaction.user.id)
        if avoided:  # only the asker's own list, only to them; first, so that a long queue is what is clipped
            mine = t.ngettext(
                "You avoid {n} person: {people}.",
                "You avoid {n} people: {people}.",
                len(avoided),
                people=" ".join(f"<@{u}>" for u in avoided),
            )
            text = f"{mine}\n{text}"
        await reply(interaction, text)

    @app_commands.command(name="avoid", description="Never be seated with someone by the queue")
    @app_commands.describe(person=f"The person to avoid (at most {MAX_AVOID}; nobody is told)")
    @guarded()
    async def avoid(self, interaction: discord.Interaction, person: discord.User) -> None:
        t = i18n.private(interaction)
        await self.service.avoid(interaction.user.id, person.id)
        await reply(
            interaction,
            t.gettext(
                "The queue never seats you with {person}. Nobody else sees your list.",
                person=written.name(person.display_name),
            ),
        )

    @app_commands.command(name="unavoid", description="Take someone off your avoid list")
    @app_commands.describe(person="The person to take off your list")
    @guarded()
    async def unavoid(self, interaction: discord.Interaction, person: discord.User) -> None:
        t = i18n.private(interaction)
        await self.service.unavoid(interaction.user.id, person.id)
        await reply(
            interaction, t.gettext("You no longer avoid {person}.", person=written.name(person.display_name))
        )

    @app_commands.command(name="channel", description="The channel where the queue opens its tables")
    @app_commands.describe(channel="Choose it (Manage Server); leave out to see which it is")
    @guarded()
    async def channel(
        self, interaction: discord.Interaction, channel: discord.TextChannel | None = None
    ) -> None:
        t = i18n.private(interaction)
        guild_id = interaction.guild_id
        assert guild_id is not None
        store = self.service.store
        if channel is not None:
            if not interaction.permissions.manage_guild:
                raise Refusal("only someone with Manage Server can choose the queue channel")
            missing = bot_lacks_for_threads(channel)
            if missing:  # its tables could not open there: nobody would ever be seated
                raise Refusal(
                    said_n(
                        len(missing),
                        "I am missing {permissions} in {channel}, where the queue opens its tables in "
                        "threads; a server admin can grant it to my role, or choose another channel",
                        "I am missing {permissions} in {channel}, where the queue opens its tables in "
                        "threads; a server admin can grant them to my role, or choose another channel",
                        permissions=permission_list(missing),
                        channel=channel.mention,
                    )
                )
            await store.queue.set_channel(guild_id, channel.id)
            await reply(
                interaction, t.gettext("The queue opens its tables in {channel}.", channel=channel.mention)
            )
            await self.service.match(guild_id)
            return
        chosen = await store.queue.channel(guild_id)
        if chosen is None:
            text = t.gettext(
                "No queue channel is set; someone with Manage Server sets one with /queue channel."
            )
        else:
            text = t.gettext("The queue opens its tables in {channel}.", channel=f"<#{chosen}>")
        await reply(interaction, text)


async def setup(bot: PukllayBot) -> None:
    await bot.add_cog(QueueCog(bot))
