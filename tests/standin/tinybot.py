"""A tiny discord.py bot that exercises everything the stand-in offers; used by the stand-in's own tests."""

from __future__ import annotations

import asyncio
import io
import re

import discord
from discord import app_commands
from PIL import Image

MOVES = ["A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2"]


def png(width: int = 32, height: int = 16) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(buf, "PNG")
    return buf.getvalue()


class JoinButton(discord.ui.DynamicItem[discord.ui.Button], template=r"lobby:join:(?P<lobby>\d+)"):
    """A persistent button: it works on old messages after a restart."""

    def __init__(self, lobby: int):
        super().__init__(
            discord.ui.Button(
                label="Join", style=discord.ButtonStyle.primary, custom_id=f"lobby:join:{lobby}"
            )
        )
        self.lobby = lobby

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match):
        return cls(int(match["lobby"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"{interaction.user.name} joined lobby {self.lobby}")


class PickView(discord.ui.View):
    def __init__(self, options: int = 3):
        super().__init__(timeout=None)
        self.pick.options = [discord.SelectOption(label=f"Option {i}", value=f"v{i}") for i in range(options)]

    @discord.ui.select(custom_id="pick", placeholder="Pick one")
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(content=f"picked {select.values[0]}", view=None)

    @discord.ui.button(label="Later", custom_id="pick:later")
    async def later(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()  # a deferred update: the edit lands on this message
        await interaction.edit_original_response(content="decide later")

    @discord.ui.button(label="Cancel", custom_id="pick:cancel", style=discord.ButtonStyle.secondary)
    async def cancel(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message("cancelled", ephemeral=True)


class SecretView(discord.ui.View):
    def __init__(self):
        super().__init__(timeout=None)

    @discord.ui.button(label="Show again", custom_id="secret:again")
    async def again(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message(f"still {interaction.user.name}'s secret", ephemeral=True)


class NameModal(discord.ui.Modal, title="Your name"):
    name = discord.ui.TextInput(label="Name", custom_id="name", max_length=20)
    note = discord.ui.TextInput(
        label="Note", custom_id="note", required=False, style=discord.TextStyle.paragraph
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {self.name.value} ({self.note.value or 'no note'})")


class ColourModal(discord.ui.Modal, title="Colour"):
    colour = discord.ui.Label(
        text="Colour",
        component=discord.ui.Select(
            custom_id="colour", options=[discord.SelectOption(label=c, value=c) for c in ("red", "blue")]
        ),
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        assert isinstance(self.colour.component, discord.ui.Select)
        await interaction.response.send_message(f"colour {self.colour.component.values[0]}", ephemeral=True)


class Layout(discord.ui.LayoutView):
    """A components-v2 message: text, and a button in a container."""

    def __init__(self):
        super().__init__(timeout=None)
        button = discord.ui.Button(label="Poke", custom_id="layout:poke")
        button.callback = self.poke
        self.add_item(discord.ui.Container(discord.ui.TextDisplay("# Board"), discord.ui.ActionRow(button)))

    async def poke(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("poked", ephemeral=True)


class BadView(discord.ui.View):
    """Views that break Discord's limits (discord.py does not check them all itself)."""

    def __init__(self, kind: str):
        super().__init__(timeout=None)
        if kind == "select26":
            s = discord.ui.Select(
                custom_id="big", options=[discord.SelectOption(label=str(i)) for i in range(25)]
            )
            s.options.append(discord.SelectOption(label="25"))  # appended past discord.py's own check
            self.add_item(s)
        elif kind == "longid":
            self.add_item(discord.ui.Button(label="x", custom_id="x" * 100))
            self.children[0].custom_id = "y" * 101  # type: ignore[attr-defined]


class Game(app_commands.Group, name="game", description="Play the game"):
    admin = app_commands.Group(name="admin", description="Game administration")

    @app_commands.command(description="Join the game")
    async def join(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"{interaction.user.name} joined")

    @app_commands.command(description="Make a move")
    @app_commands.describe(move="the move, like B3", count="how many times")
    async def move(
        self,
        interaction: discord.Interaction,
        move: str,
        count: app_commands.Range[int, 1, 5] = 1,
        target: discord.Member | None = None,
    ) -> None:
        who = f" at {target.name}" if target else ""
        await interaction.response.send_message(f"{interaction.user.name} played {move} x{count}{who}")

    @move.autocomplete("move")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=m, value=m) for m in MOVES if m.startswith(current.upper())][:25]

    @admin.command(description="Reset the game")
    async def reset(self, interaction: discord.Interaction, hard: bool = False) -> None:
        await interaction.response.send_message(f"reset hard={hard}", ephemeral=True)


class TinyBot(discord.Client):
    def __init__(self, connector, *, intents: discord.Intents | None = None, **options):
        options.setdefault("guild_ready_timeout", 0.01)
        super().__init__(intents=intents or discord.Intents.default(), connector=connector, **options)
        self.tree = app_commands.CommandTree(self)
        self.gate = asyncio.Event()  # tests open it to let a waiting command go on
        self.tree.add_command(Game())
        self._add_commands()

    async def setup_hook(self) -> None:
        self.add_dynamic_items(JoinButton)
        self.add_view(PickView())
        await self.tree.sync()

    def _add_commands(self) -> None:
        tree = self.tree

        @tree.command(description="Open a lobby")
        async def lobby(interaction: discord.Interaction, number: int) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(JoinButton(number))
            await interaction.response.send_message(f"Lobby {number}", view=view)

        @tree.command(description="Pick an option")
        async def pick(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Pick:", view=PickView())

        @tree.command(description="Show the board")
        async def board(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            image = await asyncio.to_thread(png)
            await interaction.followup.send("the board", file=discord.File(io.BytesIO(image), "board.png"))
            await interaction.followup.send("and again", file=discord.File(io.BytesIO(image), "board2.png"))

        @tree.command(description="A picture in the first answer, replaced on a click")
        async def picture(interaction: discord.Interaction) -> None:
            view = discord.ui.View(timeout=None)
            button = discord.ui.Button(label="Bigger", custom_id="picture:bigger")

            async def bigger(click: discord.Interaction) -> None:
                image = png(64, 32)
                await click.response.edit_message(
                    content="bigger", attachments=[discord.File(io.BytesIO(image), "big.png")], view=None
                )

            button.callback = bigger
            view.add_item(button)
            await interaction.response.send_message(
                "small", file=discord.File(io.BytesIO(png()), "small.png"), view=view
            )

        @tree.command(description="A secret")
        async def secret(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(
                f"{interaction.user.name}'s secret is 42", ephemeral=True, view=SecretView()
            )

        @tree.command(description="Think, then answer")
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer()
            await self.gate.wait()
            await interaction.edit_original_response(content="done thinking")

        @tree.command(description="Your name")
        async def name(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(NameModal())

        @tree.command(description="Post in the channel")
        async def say(interaction: discord.Interaction, text: str) -> None:
            await interaction.response.defer(ephemeral=True)
            await interaction.channel.send(text)
            await interaction.followup.send("posted", ephemeral=True)

        @tree.command(description="Open a table in a new thread")
        async def table(interaction: discord.Interaction, name: str) -> None:
            thread = await interaction.channel.create_thread(
                name=name, type=discord.ChannelType.public_thread
            )
            await thread.send(f"welcome to {name}")
            await interaction.response.send_message(f"opened {thread.mention}")

        @tree.command(description="Pick a colour in a modal")
        async def colour(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(ColourModal())

        @tree.command(description="A components-v2 message")
        async def layout(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(view=Layout())

        @tree.command(description="Fail with an exception")
        async def crash(interaction: discord.Interaction) -> None:
            raise RuntimeError("kaboom")

        @tree.command(description="Break a rule")
        @app_commands.choices(
            kind=[
                app_commands.Choice(name=k, value=k)
                for k in ("select26", "longid", "twice", "late", "long", "empty")
            ]
        )
        async def bad(interaction: discord.Interaction, kind: str, extra: str | None = None) -> None:
            if kind in ("select26", "longid"):
                await interaction.response.send_message("bad view", view=BadView(kind))
            elif kind == "twice":
                await interaction.response.send_message("one")
                # a second, independent responder (as when two handlers answer the same interaction)
                await discord.InteractionResponse(interaction).send_message("two")
            elif kind == "late":
                await self.gate.wait()
                await interaction.response.send_message("too late")
            elif kind == "long":
                await interaction.response.send_message("x" * 2001)
            elif kind == "empty":
                await interaction.response.send_message("")

        @tree.command(description="Only in servers")
        @app_commands.guild_only()
        async def serveronly(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("in a server")

        @tree.command(description="Wherever the user is")
        @app_commands.allowed_installs(guilds=True, users=True)
        @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
        async def anywhere(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"here, in context {interaction.context}")

        @tree.command(description="Pick a number")
        async def number(interaction: discord.Interaction, n: int) -> None:
            await interaction.response.send_message(f"number {n}")

        @number.autocomplete("n")
        async def number_choices(interaction: discord.Interaction, current: str):
            # A bug on purpose: text values offered for an INTEGER option.
            return [app_commands.Choice(name="one", value="1")]

        @bad.autocomplete("extra")
        async def bad_extra(interaction: discord.Interaction, current: str):
            return [app_commands.Choice(name=f"c{i}", value=f"c{i}") for i in range(26)]
