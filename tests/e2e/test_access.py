"""Who may do what, end to end: a league is nobody's business who cannot view its channel, only a
player of a finished game starts its rematch, and text people typed (nicknames, league names)
never pings anyone."""

from __future__ import annotations

import inspect
import pkgutil

import discord
from discord import app_commands

import cogs.league
from bot.surface.checkin import CheckinButton
from cogs.league.noshows import OverdueButton
from cogs.league.pairing import ReviewPublish, ReviewSwap
from cogs.league.seasons import SignupButton
from tests.e2e.conftest import BASE_EXTENSIONS, nim_to_the_end
from tests.e2e.forge import Crafted, forged_click
from tests.e2e.leagues import fire
from tests.e2e.players import is_board
from tests.e2e.test_threads import open_in_thread
from tests.standin.model import VIEW_CHANNEL

EXTENSIONS = (*BASE_EXTENSIONS, "cogs.league")
MANAGE_GUILD = 1 << 5

# The league commands that name no league: creating one (in the asker's own channel) and the
# server's organiser role.  Every other league command takes a ``league`` and must be refused to
# someone who cannot view that league's channel; a new command belongs in one group or the other.
NAMES_NO_LEAGUE = {"league create", "league settings organiser_role"}
# Values for the other required options of the commands tried below (a new required option
# must be given one here).
OTHER_OPTIONS = {
    "member",
    "top",
    "minimum",
    "action",
    "round",
    "rounds",
    "player",
    "other",
    "first",
    "second",
}


def leaf_commands(node: dict, prefix: str) -> dict[str, dict]:
    """The synced command's leaves (subcommands), by their full path."""
    subs = [o for o in node.get("options") or [] if o["type"] in (1, 2)]
    if not subs:
        return {prefix: node}
    out: dict[str, dict] = {}
    for sub in subs:
        out |= leaf_commands(sub, f"{prefix} {sub['name']}")
    return out


async def answer(result) -> str:
    return (await result.original()).content if result.deferred else result.content


async def test_a_league_is_refused_to_whoever_cannot_view_its_channel(standin, bot_factory):
    """Every league command naming the league (or leaving it out), its sign-up buttons, the league
    autocomplete and /game ratings' seasons treat the league as absent for a member denied View
    Channel on its channel, even one who may run leagues; one who can view it gets it."""
    owner = standin.owner
    ana, beto = standin.add_users("ana", "beto")
    organisers = standin.add_role("organisers", MANAGE_GUILD)
    mallory = standin.add_user("mallory", roles=[organisers])
    hall, general = standin.channel("games"), standin.channel("general")
    standin.set_permissions(hall, mallory, deny=VIEW_CHANNEL)
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        created = await standin.slash(
            owner,
            hall,
            "league create",
            name="Hidden cup",
            game="pachakuna",
            format="swiss",
            players=2,
            rounds=1,
        )
        signup = created.message
        for user in (ana, beto):
            await standin.click(user, signup, "Join")
        league = (await bot.store.leagues.of_server(standin.guild.id))[0]

        # The commands, from the cog and as Discord holds them, are the same set.
        cog = bot.get_cog("LeagueCog")
        from_cog = {
            c.qualified_name: c for c in cog.walk_app_commands() if isinstance(c, app_commands.Command)
        }
        assert set(from_cog) == set(leaf_commands(standin.command("league"), "league"))
        tried = {path for path, c in from_cog.items() if any(p.name == "league" for p in c.parameters)}
        assert tried | NAMES_NO_LEAGUE == set(from_cog) and not tried & NAMES_NO_LEAGUE
        values = {
            "member": ana,
            "top": 2,
            "minimum": 80,
            "action": "add",
            "round": 1,
            "rounds": 1,
            "player": ana,
            "other": beto,
            "first": ana,
            "second": beto,
        }
        assert set(values) == OTHER_OPTIONS
        here = await standin.say(mallory, general, "hello")
        players = [p.user_id for p in await bot.store.leagues.league_players(league.id)]
        for path in sorted(tried):
            required = {p.name for p in from_cog[path].parameters if p.required}
            assert required <= OTHER_OPTIONS, (path, required)
            options = {name: values[name] for name in required}
            for named in ({"league": "Hidden cup"}, {}):
                r = await standin.slash(mallory, general, path, **options, **named)
                text = await answer(r)
                assert "no league" in text, (path, named, text)
                assert not [m for m in standin.messages(general) if not m.ephemeral and m is not here], path
        for action in ("join", "leave"):
            custom_id = f"pk:lg:{action}:{league.id}"
            assert SignupButton.__discord_ui_compiled_template__.fullmatch(custom_id)
            r = await forged_click(standin, mallory, general, custom_id, here)
            assert "cannot view" in await answer(r), action
        for action in ("remind", "sub", "decide"):
            custom_id = f"pk:lg:od:{action}:{league.id}:1"
            assert OverdueButton.__discord_ui_compiled_template__.fullmatch(custom_id)
            r = await forged_click(standin, mallory, general, custom_id, here)
            assert "cannot view" in await answer(r), action
        custom_id = f"pk:lg:in:{league.id}:1"  # a round's Check in button
        assert CheckinButton.__discord_ui_compiled_template__.fullmatch(custom_id)
        r = await forged_click(standin, mallory, general, custom_id, here)
        assert "cannot view" in await answer(r)
        # The review step's controls (on a message only the organiser sees, but a click can be forged).
        publish = f"pk:lgrv:pub:{league.id}:1"
        assert ReviewPublish.__discord_ui_compiled_template__.fullmatch(publish)
        r = await forged_click(standin, mallory, general, publish, here)
        assert "cannot view" in await answer(r)
        swap = f"pk:lgrv:swap:{league.id}:1"
        assert ReviewSwap.__discord_ui_compiled_template__.fullmatch(swap)
        data = {
            "custom_id": swap,
            "component_type": 5,
            "values": [str(ana.id), str(beto.id)],
            "resolved": standin._resolved([ana, beto], general),
        }
        crafted = Crafted(here, {"type": 5, "id": 1, "custom_id": swap, "min_values": 2, "max_values": 2})
        r = await standin._interact(3, mallory, general, data, message=crafted, label="forged swap")
        assert "cannot view" in await answer(r)
        # Users the select does not resolve (a forged one), or not two of them: answered in words.
        for values in ([str(ana.id), "123"], [str(ana.id)], ["x", "y"]):
            forged = {"custom_id": swap, "component_type": 5, "values": values}
            r = await standin._interact(
                3, standin.owner, general, forged, message=crafted, label="forged swap"
            )
            assert r.ephemeral and "⚠️" in await answer(r), values
        # Every button the league cog's modules define was tried above.
        modules = [cogs.league] + [
            getattr(cogs.league, m.name) for m in pkgutil.iter_modules(cogs.league.__path__)
        ]
        buttons = {
            f"{module.__name__}.{name}"
            for module in modules
            for name, cls in inspect.getmembers(module, inspect.isclass)
            if issubclass(cls, discord.ui.DynamicItem) and cls.__module__ == module.__name__
        }
        assert buttons == {
            f"{cls.__module__}.{cls.__name__}"
            for cls in (SignupButton, OverdueButton, ReviewPublish, ReviewSwap)
        }
        assert [p.user_id for p in await bot.store.leagues.league_players(league.id)] == players
        assert (await bot.store.leagues.league(league.id)).status == "signup"
        for path in sorted(tried):
            offered = await standin.autocomplete(mallory, general, path, "league", league="")
            assert offered == [], path
            shown = await standin.autocomplete(beto, general, path, "league", league="")
            assert [c["value"] for c in shown] == ["Hidden cup"], path
        seasons = await standin.autocomplete(mallory, general, "game ratings", "season", game="pachakuna")
        assert seasons == []
        r = await standin.slash(mallory, general, "game ratings", game="pachakuna", season="Hidden cup")
        assert "not a P'achakuna season" in (text := await answer(r)) and "seasons: none yet" in text
        # Someone who can view the channel gets the league from elsewhere too.
        r = await standin.slash(beto, general, "league round", league="Hidden cup")
        assert "has no round open yet" in await answer(r)
        assert len(await standin.autocomplete(beto, general, "game ratings", "season", game="pachakuna")) == 1


async def test_only_a_player_of_the_finished_game_starts_its_rematch(standin, bot_factory):
    """A spectator pressing Rematch is told who may, and no lobby opens; a player opens it, and
    only the other player is pinged."""
    alice, bob, carol = standin.add_users("alice", "bob", "carol")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        session = await nim_to_the_end(standin, bot, chan, alice, bob)
        card = await standin.next_message(chan, lambda m: "**Results**" in m.content)
        refused = await (await standin.click(carol, card, "Rematch")).original()
        assert refused.ephemeral
        assert f"Only the players of game #{session.id} can start its rematch" in refused.content
        assert await bot.sessions.core.in_channel(chan.id) is None
        assert not [m for m in standin.messages(chan) if "rematch of game" in m.content]
        await standin.click(bob, card, "Rematch")
        lobby = await standin.next_message(chan, lambda m: "rematch of game" in m.content)
        assert lobby.pinged == {alice.id}
        assert (await bot.sessions.core.in_channel(chan.id)).row.host_id == bob.id
        # Once the lobby is open, the spectator is still refused by this button (Join is for all).
        again = await (await standin.click(carol, card, "Rematch")).original()
        assert "anyone may press Join" in again.content
        assert [s.user_id for s in (await bot.sessions.core.in_channel(chan.id)).seats] == [bob.id]


async def test_text_people_typed_pings_nobody(standin, bot_factory, table_clock):
    """Nicknames and a league name holding a user mention, a role mention and @everyone: the lobby,
    its thread, the full-table ping, the first board, the league's sign-up, its round
    announcement and the game's greeting notify exactly whom each means to, nobody else."""
    owner = standin.owner
    victim = standin.add_user("victim")
    crew = standin.add_role("crew", mentionable=True)
    ops = standin.add_role("ops")
    standin.add_users("deckhand", roles=[crew, ops])
    sneaky = f"<@{victim.id}> @everyone <@&{ops.id}>"  # ops is not mentionable; the bot may ping it
    ana, beto = standin.add_users("ana", "beto")
    standin.set_nick(ana, f"<@{victim.id}> @here")  # nicknames hold 32 characters at most
    standin.set_nick(beto, f"<@&{crew.id}>@everyone")
    games = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        # A Nim game in a thread of its own.
        opened, thread = await open_in_thread(standin, games, ana)
        await standin.click(beto, opened, "Join")
        full = await standin.next_message(thread, lambda m: "table is full" in m.content)
        assert full.pinged == {ana.id}
        await standin.click(ana, opened, "Start")
        board = await standin.next_message(thread, is_board)
        session = await bot.sessions.core.in_channel(thread.id)
        players = {s.user_id for s in session.seats if not s.computer}
        assert board.pinged == players == {ana.id, beto.id}  # the first board pings every player

        # A league whose name holds the same, with the two of them signed up.
        created = await standin.slash(
            owner, games, "league create", name=sneaky, game="pachakuna", format="swiss", players=2, rounds=1
        )
        assert created.message.pinged == set()
        await standin.click(ana, created.message, "Join")
        await (await standin.slash(beto, games, "league join")).original()
        await (await standin.slash(owner, games, "league start")).original()
        before = {t.id for t in standin.guild.threads}
        standin.skip_messages(games)
        await fire(bot)
        announce = await standin.next_message(games, lambda m: "is open until" in m.content)
        assert announce.pinged == set()
        (table,) = [t for t in standin.guild.threads if t.id not in before]
        greeting = next(m for m in standin.messages(table) if "your P'achakuna game" in m.content)
        assert greeting.pinged == {ana.id, beto.id}

        # Over everything the bot sent: nobody but the players was ever notified, no role, no @everyone.
        sent = [m for m in standin.all_messages() if m.author.id == standin.bot_user.id]
        assert len(sent) > 8
        for message in sent:
            assert message.pinged <= {ana.id, beto.id}, message.content
            assert not message.pinged_roles and not message.pinged_everyone, message.content
        # The names were shown all the same (in the lobby, the sign-up, the announcement).
        for where in (opened, created.message, announce):
            assert str(victim.id) in standin.message(where.id).content
