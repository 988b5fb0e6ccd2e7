"""``/game ...``: what every game shares (join, leave, start, status, board, hand, log...).

Every text about a game comes from :mod:`bot.public`, which shows each reader
only what that reader may see; ``/game list`` names only games in channels
and threads the asker can view.
"""

from __future__ import annotations

import discord
from discord import app_commands

import engines
from bot import i18n, movetexts, texts
from bot.app import PukllayBot
from bot.describe import described
from bot.league.seasons import season_label, season_named, seasons
from bot.ratings import shown_or_start
from bot.sessions import MAX_TIMER_HOURS, Refusal, Session, SessionService, damaged_text
from bot.storage.web import WebLinks
from bot.surface import written
from bot.surface.channels import can_view, can_view_channel, channel_of, check_permissions
from bot.surface.gamecog import FrontCog
from bot.surface.replies import guarded, reply
from bot.texts import clip, number
from cogs.league.base import organises_league
from engines.core import DEFAULT_LEVEL, LEVELS, said
from languages import ENGLISH, N_, Language


def record(games: int, wins: int, t: Language = ENGLISH) -> str:
    """``1 game, 1 win``, in ``t``."""
    return t.gettext(
        "{games}, {wins}",
        games=t.ngettext("{n} game", "{n} games", games),
        wins=t.ngettext("{n} win", "{n} wins", wins),
    )


def games_lines(t: Language = ENGLISH) -> list[str]:
    """One line per game installed, in ``t``: its title, the command that opens it, its players."""
    return [
        t.ngettext(
            "**{game}**: `/{name} new`, {n} player",
            "**{game}**: `/{name} new`, {n} players",
            g.min_players,
            game=g.title,
            name=g.name,
        )
        if g.min_players == g.max_players
        else t.gettext(
            "**{game}**: `/{name} new`, {least}-{most} players",
            game=g.title,
            name=g.name,
            least=g.min_players,
            most=g.max_players,
        )
        for g in engines.available().values()
    ]


SERVER_LANGUAGE = "server"  # /game language's choice for "the server's own Discord language"

GAME_NAMES = ("guanga", "tiwanaku", "pachakuna", "nowa_gwinea", "guacamole")


async def managers_only(interaction: discord.Interaction, refusal: str) -> bool:
    """Whether a server setting is refused to the asker (who lacks Manage Server); if so,
    ``refusal`` is the private answer."""
    if interaction.permissions.manage_guild:
        return False
    await reply(interaction, "⚠️ " + refusal)
    return True


@app_commands.guild_only()
class GameCommands(
    FrontCog, group_name="game", group_description="Join, watch and manage the game in this channel"
):
    @property
    def sessions(self) -> SessionService:
        return self.bot.ready_sessions()

    @app_commands.command(name="join", description="Take a seat in the lobby in this channel")
    @guarded()
    async def join(self, interaction: discord.Interaction) -> None:
        await self.front.lobby.act(interaction, None, "join", from_button=False)

    @app_commands.command(
        name="leave", description="Leave the lobby in this channel (use resign once it started)"
    )
    @guarded()
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.front.lobby.act(interaction, None, "leave", from_button=False)

    @app_commands.command(name="computer", description="Seat a computer player in the lobby")
    @app_commands.describe(level="How strong it plays: easy, normal (the default) or strong")
    @app_commands.choices(level=[app_commands.Choice(name=lv, value=lv) for lv in LEVELS])
    @guarded()
    async def computer(
        self, interaction: discord.Interaction, level: app_commands.Choice[str] | None = None
    ) -> None:
        chosen = level.value if level is not None else DEFAULT_LEVEL
        await self.front.lobby.act(interaction, None, "cpu", from_button=False, level=chosen)

    @app_commands.command(name="start", description="Start the game in this channel with the players seated")
    @guarded()
    async def start(self, interaction: discord.Interaction) -> None:
        await self.front.lobby.act(interaction, None, "start", from_button=False)

    @app_commands.command(name="status", description="Who is playing, whose turn it is, and the options")
    @guarded()
    async def status(self, interaction: discord.Interaction) -> None:
        session = await self.sessions.core.latest(channel_of(interaction))
        if session.status == "lobby" and not session.damaged:
            await reply(interaction, await self.front.lobby.text(session, i18n.private(interaction)))
            return
        session = await self.sessions.logbook.with_holders(session)  # whom a substitute plays for
        moves = await self.sessions.logbook.moves_played(session)
        logged = [] if session.damaged else await self.sessions.logbook.log(session, last=1)
        last = logged[-1] if logged else None
        t = i18n.private(interaction)
        away = await self.front.notifier.away_statuses(session, t)
        await reply(
            interaction,
            texts.status_text(
                written.session(session),
                moves,
                last,
                session.reader_of(interaction.user.id),
                away,
                await self.front.notifier.time_left(session, t),
                t,
            ),
        )

    async def with_board(self, interaction: discord.Interaction) -> Session:
        """This channel's latest game, refused unless it has a board to show."""
        session = await self.sessions.core.latest(channel_of(interaction))
        if session.damaged:
            raise Refusal(damaged_text(session))
        if session.status == "lobby":
            raise Refusal("the game has not started yet; the lobby is above")
        if session.state is None:
            raise Refusal("that game ended before it started; there is no board to show")
        return session

    @app_commands.command(name="board", description="Post the board of this channel's game again")
    @guarded()
    async def board(self, interaction: discord.Interaction) -> None:
        session = await self.with_board(interaction)
        check_permissions(interaction)
        t = await self.front.look.language(session)
        if session.status == "active":
            header = f"**{session.info.title}**"
        else:
            header = t.gettext(
                "**{game}** (game #{number}, as it ended)", game=session.info.title, number=session.id
            )
        await self.front.boards.post_board(session, header=header, ping=False, again=True)
        await reply(interaction, i18n.private(interaction).gettext("Board posted."))

    @app_commands.command(
        name="describe",
        description="The board in words for a screen reader, with your own part (only you see it)",
    )
    @guarded()
    async def describe(self, interaction: discord.Interaction) -> None:
        found = await self.with_board(interaction)
        session = written.session(await self.sessions.logbook.with_holders(found))
        t = i18n.private(interaction)
        records = await self.sessions.logbook.log(session, last=1)
        last = texts.last_action(session, records, t)
        number = records[-1].number if records else None
        first, *more = described(session, session.reader_of(interaction.user.id), t, last, number)
        await reply(interaction, first)
        for text in more:
            await interaction.followup.send(text, ephemeral=True)

    @app_commands.command(
        name="hand", description="Your private view: hand, secret order or village (only you see it)"
    )
    @guarded()
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.front.menus.show_hand(interaction)

    @app_commands.command(name="log", description="The recent moves of the game in this channel")
    @app_commands.describe(count="How many recent moves to show (1-50)")
    @guarded()
    async def log(self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 50] = 15) -> None:
        session = await self.sessions.core.latest(channel_of(interaction))
        if session.damaged:
            raise Refusal(damaged_text(session))
        records = await self.sessions.logbook.log(session, last=count)
        reader = session.reader_of(interaction.user.id)
        session = await self.sessions.logbook.with_holders(session)  # whose each move was then
        await reply(
            interaction,
            movetexts.log_text(written.session(session), records, reader, i18n.private(interaction)),
        )

    @app_commands.command(
        name="history", description="Browse a game move by move (only you see it); finished games too"
    )
    @app_commands.describe(
        game="The game's number (from /game status); default: the game in this channel",
        move="The move to open at (0 is the start); default: the latest",
    )
    @guarded()
    async def history(
        self,
        interaction: discord.Interaction,
        game: app_commands.Range[int, 1, 2**53 - 1] | None = None,
        move: app_commands.Range[int, 0, 10**6] | None = None,
    ) -> None:
        await self.front.pages.show(interaction, game, move)

    @app_commands.command(
        name="export", description="The game as a JSON file (only you see it until the game has ended)"
    )
    @app_commands.describe(game="The game's number (from /game status); default: the game in this channel")
    @guarded()
    async def export(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1, 2**53 - 1] | None = None
    ) -> None:
        await self.front.export.post(interaction, game)

    @app_commands.command(
        name="undo", description="Ask to take back your last move (the other players must agree)"
    )
    @guarded()
    async def undo(self, interaction: discord.Interaction) -> None:
        await self.front.undo.ask(interaction)

    @app_commands.command(name="resign", description="Leave the running game; the computer takes your seat")
    @guarded()
    async def resign(self, interaction: discord.Interaction) -> None:
        result = await self.sessions.seats.resign(channel_of(interaction), interaction.user.id)
        self.front.replies.committed(interaction, said("You resigned"))
        await self.front.boards.announce(result)
        await reply(interaction, i18n.private(interaction).gettext("You resigned."))

    @app_commands.command(
        name="abandon",
        description="End the game in this channel without a result (host, league organiser or Manage Channels)",
    )
    @guarded()
    async def abandon(self, interaction: discord.Interaction) -> None:
        perms = interaction.permissions
        store = self.sessions.store
        session = await self.sessions.seats.abandon(
            channel_of(interaction),
            interaction.user.id,
            can_manage=bool(perms and perms.manage_channels),
            organises=lambda league_id: organises_league(store, interaction, league_id),
        )
        self.front.replies.committed(interaction, said("The game was abandoned"))
        # the abandon's own line, told with the game's end, once across processes (or kept for the
        # board job's try, should the channel refuse it)
        line = said(texts.ABANDONED_BY, game=session.info.title, player=interaction.user.mention)
        await self.front.boards.tell_abandoned(session, (line,))
        await reply(interaction, i18n.private(interaction).gettext("Game abandoned."))

    @app_commands.command(
        name="timer",
        description="Set how long players have to move (host, league organiser or Manage Channels)",
    )
    @app_commands.describe(hours="Hours each turn may take before the table acts (0 turns the timer off)")
    @guarded()
    async def timer(
        self, interaction: discord.Interaction, hours: app_commands.Range[float, 0, MAX_TIMER_HOURS]
    ) -> None:
        perms = interaction.permissions
        store = self.sessions.store
        session = await self.sessions.clocks.set_timer(
            channel_of(interaction),
            interaction.user.id,
            hours * 3600,
            can_manage=bool(perms and perms.manage_channels),
            organises=lambda league_id: organises_league(store, interaction, league_id),
        )

        def say(t: Language) -> str:
            if hours:
                return t.gettext(
                    "Turn timer set: {hours} h. When it runs out the table acts: a round ends where the game "
                    "says so, otherwise the computer moves for whoever is late.",
                    hours=t.number(hours),
                )
            return t.gettext("Turn timer off.")

        async def warnings() -> None:  # the new timer's 80 % warning (the old one's is void)
            if session.status == "active" and not session.damaged:
                await self.front.waits.arm(session)
                await self.front.undo.clock_changed(session)

        await self.front.boards.settled(
            interaction, session, said("The turn timer was changed"), say, then=warnings
        )

    @app_commands.command(
        name="clock",
        description="Choose the game's clock, per move or a time bank (host, league organiser, Manage Channels)",
    )
    @app_commands.describe(clock="move:24h (each turn), bank:3d+12h (a bank plus an increment), or off")
    @guarded()
    async def clock(self, interaction: discord.Interaction, clock: app_commands.Range[str, 1, 40]) -> None:
        perms = interaction.permissions
        store = self.sessions.store
        session = await self.sessions.clocks.set_clock(
            channel_of(interaction),
            interaction.user.id,
            clock,
            can_manage=bool(perms and perms.manage_channels),
            organises=lambda league_id: organises_league(store, interaction, league_id),
        )
        spec = session.clock

        def say(t: Language) -> str:
            if spec is None:
                return t.gettext("This game has no clock now.")
            text = t.gettext(
                "Clock set: `{clock}`, {meaning}. When someone's time runs out, the others are asked "
                "whether the computer plays that seat, to give more time, or to abandon.",
                clock=spec.text,
                meaning=spec.describe(t),
            )
            if session.status == "active":
                text = " ".join((text, t.gettext("Everyone starts afresh from now.")))
            return text

        async def lobby() -> None:  # a lobby's message shows the clock
            if session.status == "lobby":
                await self.front.lobby.refresh(session)
            elif session.status == "active" and not session.damaged:
                await self.front.waits.arm(session)  # the new clock's 80 % warnings (the old ones are void)
                await self.front.undo.clock_changed(session)

        await self.front.boards.settled(
            interaction, session, said("The game's clock was changed"), say, then=lobby
        )

    @app_commands.command(
        name="return", description="Take your seat back from the computer after your time ran out (once)"
    )
    @guarded()
    async def return_(self, interaction: discord.Interaction) -> None:
        session = await self.sessions.seats.return_seat(channel_of(interaction), interaction.user.id)
        await self.front.boards.settled(
            interaction,
            session,
            said("You took your seat back"),
            lambda t: t.gettext(
                "{player} took their seat back from the computer and plays it from their next turn.",
                player=interaction.user.mention,
            ),
            N_("Your seat is yours again; you play it from your next turn. This works once per game."),
        )

    @app_commands.command(
        name="mine",
        description="Your games and lobbies in every server, where it is your turn first (private)",
    )
    @guarded()
    async def mine(self, interaction: discord.Interaction) -> None:
        await reply(
            interaction, await self.front.reminders.mine(interaction.user.id, i18n.private(interaction))
        )

    @app_commands.command(
        name="list", description="The games being played or waiting for players in this server"
    )
    @guarded()
    async def list(self, interaction: discord.Interaction) -> None:
        sessions = await self.sessions.core.live(interaction.guild_id)
        visible = [s for s in sessions if self.can_view(interaction, s)]
        await reply(
            interaction, texts.list_text([written.session(s) for s in visible], i18n.private(interaction))
        )

    can_view = staticmethod(can_view)

    @app_commands.command(name="ratings", description="The server's league table for a game")
    @app_commands.describe(
        game="Which game's ratings to show",
        season="A league's own season table, which started fresh (leave out for all time)",
    )
    @app_commands.choices(
        game=[
            app_commands.Choice(name=g.title, value=g.name)
            for g in engines.GAMES.values()
            if g.name in GAME_NAMES
        ]
    )
    @guarded()
    async def ratings(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        season: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        store = self.sessions.store
        t = i18n.private(interaction)
        meaning = t.gettext(texts.RATING_MEANING)
        if season is not None and interaction.guild_id is not None:
            league = await season_named(
                store,
                interaction.guild_id,
                game.value,
                season,
                lambda x: can_view_channel(interaction, x.channel_id),
            )
            rows = await store.ratings.season_leaderboard(league.id)
            head = t.gettext(
                "**{game}**: ratings in the season {season}, which started fresh. A rating is {meaning} "
                "(skill minus three times its uncertainty).",
                game=game.name,
                season=league.shown,
                meaning=meaning,
            )
            empty = t.gettext(
                "No rated games in the season {season} yet (two people or more).", season=league.shown
            )
        else:
            rows = await store.ratings.leaderboard(interaction.guild_id, game.value)
            head = t.gettext(
                "**{game}**: ratings on this server, all time. A rating is {meaning} "
                "(skill minus three times its uncertainty).",
                game=game.name,
                meaning=meaning,
            )
            empty = t.gettext("No rated {game} games here yet (two people or more).", game=game.name)
        if not rows:
            await reply(interaction, empty)
            return
        lines = [head]
        for i, r in enumerate(rows, 1):
            lines.append(
                f"{i}. {written.name(r.name)}: {number(shown_or_start(r.mu, r.sigma), t)} "
                f"({record(r.games, r.wins, t)})"
            )
        await reply(interaction, clip("\n".join(lines)))

    @ratings.autocomplete("season")
    async def season_choices(self, interaction: discord.Interaction, current: str):
        store = self.sessions.store
        game = getattr(interaction.namespace, "game", None)
        if interaction.guild_id is None or not isinstance(game, str):
            return []
        found = await seasons(
            store,
            interaction.guild_id,
            game,
            current,
            lambda x: can_view_channel(interaction, x.channel_id),
        )
        t = i18n.private(interaction)
        return [app_commands.Choice(name=season_label(x, t), value=str(x.id)) for x in found[:25]]

    @app_commands.command(name="stats", description="A player's ratings and record on this server")
    @app_commands.describe(player="Whose record to show (default: yours)")
    @guarded()
    async def stats(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        who = player or interaction.user
        t = i18n.private(interaction)
        rows = await self.sessions.store.ratings.ratings_of(interaction.guild_id, who.id)
        # Their page lists the games they finished here, rated or not (a game against the
        # computers only is not), and says so when they have none yet: linked whenever it exists.
        url = await self.bot.page_link("person", who.id, interaction.guild_id)
        web = [t.gettext("On the web: {url}", url=url)] if url else []
        if not rows:
            none = t.gettext(
                "{player} has no rated games on this server yet.", player=written.name(who.display_name)
            )
            await reply(interaction, "\n".join([none, *web]))
            return
        lines = [f"**{written.name(who.display_name)}**"]
        for name, r in rows.items():
            lines.append(
                f"{engines.title(name)}: {number(shown_or_start(r.mu, r.sigma), t)} ({record(r.games, r.wins, t)})"
            )
        lines.append(t.gettext("A rating is {meaning}.", meaning=t.gettext(texts.RATING_MEANING)))
        await reply(interaction, "\n".join([*lines, *web]))

    @app_commands.command(name="games", description="The games Pukllay hosts")
    async def games(self, interaction: discord.Interaction) -> None:
        t = i18n.private(interaction)
        lines = games_lines(t)
        await reply(interaction, "\n".join(lines) or t.gettext("No games are installed."))

    @app_commands.command(
        name="language", description="The language of this server's boards and public messages"
    )
    @app_commands.describe(choose="Change it (Manage Server); leave out to see which it is")
    @app_commands.choices(
        choose=[
            *i18n.language_choices(),
            app_commands.Choice(name="The server's own Discord language", value=SERVER_LANGUAGE),
        ]
    )
    @guarded()
    async def language(
        self, interaction: discord.Interaction, choose: app_commands.Choice[str] | None = None
    ) -> None:
        t = i18n.private(interaction)
        store = self.sessions.store
        guild_id = interaction.guild_id or 0
        if choose is not None:
            if await managers_only(
                interaction,
                t.gettext(
                    "Only members with Manage Server can choose the server's language; "
                    "{/game language} without an option shows it."
                ),
            ):
                return
            await store.people.set_server_language(
                guild_id, None if choose.value == SERVER_LANGUAGE else choose.value
            )
        chosen = await store.people.server_language(guild_id)
        shown = i18n.public(chosen, interaction.guild_locale)
        name = t.name_of(shown.code)
        if chosen:
            text = t.gettext(
                "This server's boards and public messages are in {language}, as chosen with {/game language}.",
                language=name,
            )
        else:
            text = t.gettext(
                "This server's boards and public messages are in {language}, the server's own Discord "
                "language. Private answers are in each person's Discord language.",
                language=name,
            )
        await reply(interaction, text)

    @app_commands.command(
        name="contrast", description="The high-contrast palette for this server's boards and pictures"
    )
    @app_commands.describe(high="Turn it on or off (Manage Server); leave out to see which it is")
    @guarded()
    async def contrast(self, interaction: discord.Interaction, high: bool | None = None) -> None:
        t = i18n.private(interaction)
        store = self.sessions.store
        guild_id = interaction.guild_id or 0
        if high is not None:
            if await managers_only(
                interaction,
                t.gettext(
                    "Only members with Manage Server can choose the server's palette; "
                    "{/game contrast} without an option shows it."
                ),
            ):
                return
            await store.people.set_server_contrast(guild_id, high)
        if await store.people.server_contrast(guild_id):
            text = t.gettext(
                "This server's boards and pictures use the high-contrast palette. "
                "Your private pictures follow your own choice: {/me contrast}."
            )
        else:
            text = t.gettext(
                "This server's boards and pictures use the standard palette. "
                "Your private pictures follow your own choice: {/me contrast}."
            )
        await reply(interaction, text)

    @app_commands.command(name="web", description="This server's web pages of its games, leagues and players")
    @app_commands.describe(
        pages="Share them by link or turn them off (Manage Server); leave out to see which"
    )
    @app_commands.choices(
        pages=[
            app_commands.Choice(name="shared by link", value="links"),
            app_commands.Choice(name="off", value="off"),
        ]
    )
    @guarded()
    async def web(self, interaction: discord.Interaction, pages: str | None = None) -> None:
        t = i18n.private(interaction)
        links = WebLinks(self.sessions.store)
        guild_id = interaction.guild_id or 0
        if pages is not None:
            if await managers_only(
                interaction,
                t.gettext(
                    "Only members with Manage Server can turn the server's web pages on or off; "
                    "{/game web} without an option shows the setting."
                ),
            ):
                return
            await links.set_pages(guild_id, pages)
        if await links.pages(guild_id) == "off":
            text = t.gettext(
                "This server's web pages are off: no page of its games, leagues or players is served, "
                "and the bot's posts carry no link to one."
            )
        else:
            text = t.gettext(
                "This server's games, leagues and players have web pages, open to whoever holds their "
                "link (an address no one can guess); the bot's posts carry the links."
            )
        if not self.bot.settings.web_pages:
            text += " " + t.gettext(
                "This bot serves no web pages at all now: its operator turns them on with WEB_PAGES."
            )
        await reply(interaction, text)


async def setup(bot: PukllayBot) -> None:
    await bot.add_cog(GameCommands(bot))
