"""``/gate ...``: who may sit at a table: a table's own gate (its host), a server's cap on running
games and its default gate (Manage Server), and what applies here.

Every answer is private and in the asker's Discord language; the refusals themselves come from
:func:`bot.profiles.admissible` when someone joins."""

from __future__ import annotations

import discord
from discord import app_commands

from bot import i18n, profiles
from bot.app import PukllayBot
from bot.profiles import reckon
from bot.profiles import words as profile_words
from bot.sessions import Refusal
from bot.storage.profiles import Gate, ServerGates
from bot.surface.channels import channel_of, server_permissions
from bot.surface.gamecog import FrontCog
from bot.surface.replies import guarded, reply
from engines.core import Said
from languages import Language

PACE_CHOICES = [
    app_commands.Choice(name="Any pace (no requirement)", value="any"),
    app_commands.Choice(name="Live: a median time to move of 15 minutes or less", value="live"),
    app_commands.Choice(name="Fast: a median of 4 hours or less", value="fast"),
    app_commands.Choice(name="Daily: a median of 24 hours or less", value="daily"),
]


def pace_of(choice: app_commands.Choice[str] | None, before: str | None) -> str | None:
    if choice is None:
        return before
    return None if choice.value == "any" else choice.value


def minimum_of(value: int | None, before: int | None) -> int | None:
    if value is None:
        return before
    return value or None


def server_words(gates: ServerGates, t: Language) -> str:
    if gates.cap is None:
        cap = t.gettext(
            "at most {extra} games running or waiting per person, plus one for each game they finished",
            extra=reckon.CAP_EXTRA,
        )
    elif gates.cap == 0:
        cap = t.gettext("no cap on running games")
    else:
        cap = t.ngettext(
            "at most {n} game running or waiting per person",
            "at most {n} games running or waiting per person",
            gates.cap,
        )
    default = profile_words.gate_text(gates.gate, t) or t.gettext("none")
    return t.gettext("This server: {cap}; tables that set no gate ask for: {gate}.", cap=cap, gate=default)


@app_commands.guild_only()
class GatesCog(
    FrontCog,
    group_name="gate",
    group_description="Who may sit at a table: reliability, pace and the cap on running games",
):
    @app_commands.command(
        name="table", description="Ask a minimum reliability or a pace of who joins this lobby"
    )
    @app_commands.describe(
        reliability="The least reliability in % (0: none; a new player has 80)",
        pace="The pace asked (the players' median time to move)",
    )
    @app_commands.choices(pace=PACE_CHOICES)
    @guarded()
    async def table(
        self,
        interaction: discord.Interaction,
        reliability: app_commands.Range[int, 0, 99] | None = None,
        pace: app_commands.Choice[str] | None = None,
    ) -> None:
        t = i18n.private(interaction)
        service = self.front.look.service
        store = service.store
        session = await service.core.in_channel(channel_of(interaction))
        if session is None or session.status != "lobby":
            raise Refusal(
                "there is no lobby here: a gate is set in a lobby's channel or thread, before the start"
            )
        perms = interaction.permissions  # in this channel (a thread's: its parent's), overwrites applied
        if interaction.user.id != session.row.host_id and not (perms and perms.manage_channels):
            raise Refusal("only the host (or someone with Manage Channels) sets this table's gate")
        before = await profiles.table_gate(store, session.id, session.row.guild_id)
        if reliability is not None or pace is not None:
            gate = Gate(minimum_of(reliability, before.reliability), pace_of(pace, before.pace))
            await store.profiles.set_table_gate(session.id, gate)
            await self.front.lobby.refresh(session)
            before = gate
        asked = profile_words.gate_text(before, t)
        if asked is None:
            await reply(
                interaction, t.gettext("This table asks nothing of who joins (beyond the server's cap).")
            )
        else:
            await reply(
                interaction,
                t.gettext(
                    "This table asks for {gate} of who joins from now on; those seated keep their seats.",
                    gate=asked,
                ),
            )

    @app_commands.command(
        name="server", description="This server's cap on running games per person and its default gate"
    )
    @app_commands.describe(
        cap="The most games running or waiting per person (0: no cap)",
        default_cap="True: back to the default cap (3, plus one per game finished)",
        reliability="The least reliability in % asked by tables that set none (0: none)",
        pace="The pace asked by tables that set none",
    )
    @app_commands.choices(pace=PACE_CHOICES)
    @guarded()
    async def server(
        self,
        interaction: discord.Interaction,
        cap: app_commands.Range[int, 0, 100] | None = None,
        default_cap: bool | None = None,
        reliability: app_commands.Range[int, 0, 99] | None = None,
        pace: app_commands.Choice[str] | None = None,
    ) -> None:
        t = i18n.private(interaction)
        store = self.front.look.service.store
        guild_id = interaction.guild_id
        if guild_id is None:
            raise Refusal("a server's gates are set in the server")
        gates = await store.profiles.server_gates(guild_id)
        if any(v is not None for v in (cap, default_cap, reliability, pace)):
            if not server_permissions(interaction).manage_guild:
                raise Refusal(
                    "only members with Manage Server can change the server's gates; /gate server without "
                    "an option shows them"
                )
            if cap is not None and default_cap:
                raise Refusal("give either cap or default_cap, not both")
            new_cap = None if default_cap else cap if cap is not None else gates.cap
            gates = ServerGates(
                new_cap,
                Gate(minimum_of(reliability, gates.gate.reliability), pace_of(pace, gates.gate.pace)),
            )
            await store.profiles.set_server_gates(guild_id, gates)
            await reply(interaction, server_words(gates, t))
            if self.bot.queue is not None:  # people the old gates held back may be seated now
                await self.bot.queue.match(guild_id)
            return
        await reply(interaction, server_words(gates, t))

    @app_commands.command(
        name="show", description="What applies to you here: the cap, this table's gate, your figures"
    )
    @guarded()
    async def show(self, interaction: discord.Interaction) -> None:
        t = i18n.private(interaction)
        service = self.front.look.service
        store = service.store
        server = await store.profiles.server_gates(interaction.guild_id)
        lines = [server_words(server, t)]
        session = await service.core.in_channel(channel_of(interaction))
        running = session is not None and session.status == "active"
        seated = full = False
        if session is not None and session.status == "lobby":
            seated = session.seat_of(interaction.user.id) is not None
            full = len(session.seats) >= session.row.max_players
            asked = profile_words.gate_text(
                await profiles.table_gate(store, session.id, session.row.guild_id), t
            )
            lines.append(
                t.gettext("This table asks for {gate}.", gate=asked)
                if asked
                else t.gettext("This table asks nothing.")
            )
            refused = await profiles.table_admissible(
                store, session.id, session.row.guild_id, interaction.user.id
            )
        else:  # a table that sets no gate of its own (a new one, the queue's) asks the server's
            refused = await profiles.admissible(
                store, interaction.guild_id, interaction.user.id, server.gate, whose="server"
            )
        if running:  # nobody joins a game under way: what the asker may do is take a seat elsewhere
            lines.append(
                t.gettext(
                    "This game has already started: its seats are taken, so no gate applies to it "
                    "(a gate is asked of who joins a lobby)."
                )
            )
        found = await profiles.profile(store, interaction.user.id)
        lines.append(t.gettext("You: {figures}.", figures=profile_words.short(found.figures, t)))
        lines.append(seat_words(refused, t, elsewhere=running, seated=seated, full=full))
        await reply(interaction, "\n".join(lines))


def seat_words(
    refused: Said | None, t: Language, *, elsewhere: bool = False, seated: bool = False, full: bool = False
) -> str:
    """Whether the asker may take a seat (``elsewhere``: at a new table of the server, asked in a
    game under way, whose own seats are taken; ``seated``: they sit at the lobby asked about
    already, its host too; ``full``: every seat of that lobby is taken)."""
    if seated:  # no gate is asked of a seat held: a gate changed since applies to who joins next
        return t.gettext("You already have a seat at this table.")
    if elsewhere:
        if refused is None:
            return t.gettext("At a new table in this server, you may take a seat.")
        return t.gettext(
            "At a new table in this server, you may not take a seat: {reason}.", reason=refused.in_words(t)
        )
    if full:
        return t.gettext("You may not take a seat: every seat at this table is taken.")
    if refused is None:
        return t.gettext("You may take a seat.")
    return t.gettext("You may not take a seat: {reason}.", reason=refused.in_words(t))


async def setup(bot: PukllayBot) -> None:
    await bot.add_cog(GatesCog(bot))
