"""The bot removed from a server (an admin kicks it, or takes the app out): Discord tells it with
GUILD_DELETE, and from then on refuses it everything there (403 Missing Access).  Nobody can play
the server's games any more, so they end without a result, as when their channel is deleted,
their clocks and reminders with them; another server's games go on."""

from __future__ import annotations

import discord
import pytest

from bot.sessions.seats import SERVER_GONE
from bot.surface.removal import serves
from bot.texts import end_reason
from tests.e2e.conftest import BASE_EXTENSIONS
from tests.e2e.leagues import DAY, EXTENSIONS, fire, started_league
from tests.e2e.players import handled, settled
from tests.e2e.test_threads import bank_game, play_to_the_end
from tests.standin import UsageError
from tests.standin.model import ATTACH_FILES
from tests.support.polling import until

CUP = dict(game="pachakuna", format="swiss", players=2, rounds=1, days=1)


async def ready(bot) -> None:
    """The bot read its READY (discord.py dispatches ``on_ready`` as it marks itself ready, in
    one step) and its handler ran to its end."""
    await until(bot.is_ready, "the bot's READY")
    await handled("ready")


async def removed(standin, bot, guild) -> None:
    """``guild`` removes the bot once the bot has answered everything asked so far; the bot reads
    the event (the server leaves its cache, and the handler's task starts, in one step), and its
    handler runs to its end."""
    await settled(standin)
    standin.remove_bot(guild)
    await until(lambda: bot.get_guild(guild.id) is None, "the bot reading its removal")
    await handled("guild_remove")
    await settled(standin)


def asked_there(standin, guild, since: int) -> list:
    """The requests the bot made since the ``since``-th that name one of ``guild``'s channels or
    threads."""
    places = {str(c.id) for c in [*guild.channels, *guild.threads]}
    return [r for r in standin.requests[since:] if any(p in r for p in places)]


async def test_a_server_that_removes_the_bot_ends_its_games_and_their_clocks_and_not_anothers(
    standin, bot_factory, table_clock
):
    """In the first server: a game with a bank of a day and reminders, in its thread, and a lobby
    in another channel; in a second server, a running game.  The first server removes the bot: its
    game and its lobby end without a result (why is kept, in words on the game's pages), their
    deadline goes; two days later neither a clock nor a reminder has tried to post anything there
    or sent anyone a word about it, and the second server's game still runs, after a restart too."""
    alice, bob = standin.add_users("alice", "bob")
    other = standin.add_guild("Second server")
    for user in (alice, bob):
        standin.join(user, other)
    chan, lounge, there = standin.channel("games"), standin.channel("general"), other.channel("games")
    async with standin.run_client(bot_factory((*BASE_EXTENSIONS, "cogs.me"), dev_guild_id=None)) as bot:
        await standin.wait_synced()
        for user in (alice, bob):
            await (await standin.slash(user, chan, "me notify", where="dm", reminders=6)).original()
        _, thread, game = await bank_game(standin, bot, chan, alice, bob)
        await (await standin.slash(bob, lounge, "nim new", thread=False)).original()
        lobby = await bot.sessions.core.in_channel(lounge.id)
        _, _, elsewhere = await bank_game(standin, bot, there, alice, bob)
        assert await bot.store.jobs.job("deadline", str(game.id)) is not None

        await removed(standin, bot, standin.guild)
        requests = len(standin.requests)  # (what the bot does from now on)
        dms = {user.id: len(standin.messages(standin.dm(user))) for user in (alice, bob)}
        for ended in (game, lobby):
            session = await bot.sessions.core.get(ended.id)
            assert session.status == "abandoned" and session.row.end_reason == SERVER_GONE
            assert end_reason(session) == "abandoned: the bot was removed from its server"
        assert await bot.store.games.live_sessions(standin.guild.id) == []
        assert await bot.store.jobs.job("deadline", str(game.id)) is None
        assert (await bot.sessions.core.get(elsewhere.id)).status == "active"

        table_clock.advance(2 * 86400)
        await bot.scheduler.run_due()
        await settled(standin)
        tried = [r for r in standin.requests[requests:] if str(thread.id) in r or str(lounge.id) in r]
        assert tried == []  # nothing tried where the bot no longer is
        for user in (alice, bob):
            news = standin.messages(standin.dm(user))[dms[user.id] :]
            assert [m.content for m in news if str(thread.id) in m.content] == []
        assert (await bot.sessions.core.get(elsewhere.id)).status == "active"
        assert standin.violations == []

    async with standin.run_client(bot_factory((*BASE_EXTENSIONS, "cogs.me"), dev_guild_id=None)) as bot:
        await standin.wait_synced()  # started again: READY lists only the server it is still in
        assert bot.get_guild(standin.guild.id) is None and bot.get_guild(other.id) is not None
        await settled(standin)
        assert (await bot.sessions.core.get(elsewhere.id)).status == "active"
        assert standin.violations == []


async def test_a_finished_games_thread_in_a_server_that_removed_the_bot_is_not_archived_later(
    standin, bot_factory, table_clock
):
    """A game played to its end keeps its thread open an hour (the ``archive`` job); the server
    removes the bot meanwhile: the job goes, and an hour later nothing is tried there."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        _, thread, game = await bank_game(standin, bot, chan, alice, bob)
        await play_to_the_end(standin, bot, thread, (alice, bob))
        await bot.front.catchup.drain()  # the archive job is armed after the last board
        assert await bot.store.jobs.job("archive", str(game.id)) is not None
        await removed(standin, bot, standin.guild)
        assert await bot.store.jobs.job("archive", str(game.id)) is None
        assert (await bot.sessions.core.get(game.id)).status == "finished"  # its result stands
        requests = len(standin.requests)
        table_clock.advance(3600)
        assert await bot.scheduler.run_due() == 0
        assert standin.requests[requests:] == [] and not thread.archived


async def test_a_server_that_removes_the_bot_empties_its_queue(standin, bot_factory, table_clock):
    """Ana and Dora wait for a Guacamole table of three they will confirm; Fatima joins ready to
    start, so a table of the three forms and waits for the two to confirm (its lobby opened);
    Beto waits for P'achakuna.  The server removes the bot: the table is not played, nobody is
    left waiting, no job of its queue is left; a day later nothing was tried there and nobody
    was written to (not of an expired wait, nor of a table not confirmed)."""
    names = ("ana", "dora", "fatima", "beto")
    people = dict(zip(names, standin.add_users(*names), strict=True))
    chan = standin.channel("games")
    wishes = {
        "ana": dict(game="guacamole", players="3", pace="daily", start="confirm", max_wait=2),
        "dora": dict(game="guacamole", players="3", start="confirm", max_wait=2),
        "fatima": dict(game="guacamole", players="2-3", start="now", max_wait=2),
        "beto": dict(game="pachakuna", start="now", max_wait=2),
    }
    async with standin.run_client(bot_factory((*BASE_EXTENSIONS, "cogs.queue"))) as bot:
        await standin.wait_synced()
        await (await standin.slash(standin.owner, chan, "queue channel", channel=chan)).original()
        for name, wish in wishes.items():
            table_clock.advance(60)
            answer = await (await standin.slash(people[name], chan, "queue join", **wish)).original()
            assert "You wait in the queue" in answer.content, answer.content
            await bot.front.replies.idle()  # the queue matches after answering
        (table,) = await bot.store.queue.tables()
        assert len(await bot.store.queue.seated(table.id)) == 3
        assert len(await bot.store.queue.entries(standin.guild.id)) == 4

        await removed(standin, bot, standin.guild)
        requests = len(standin.requests)  # (what the bot does from now on)
        dms = {user.id: len(standin.messages(standin.dm(user))) for user in people.values()}
        assert await bot.store.queue.entries(standin.guild.id) == []
        assert (await bot.store.queue.table(table.id)).status == "returned"
        for kind in ("queue_expire", "queue_confirm", "queue_back"):
            assert await bot.store.jobs.pending(kind) == [], kind
        assert await bot.store.games.live_sessions(standin.guild.id) == []  # the table's lobby

        table_clock.advance(86400)
        await bot.scheduler.run_due()
        await settled(standin)
        assert asked_there(standin, standin.guild, requests) == []
        assert {u.id: len(standin.messages(standin.dm(u))) for u in people.values()} == dms
        assert standin.violations == []


async def test_an_outage_of_a_server_ends_nothing(standin, bot_factory):
    """GUILD_DELETE with ``unavailable`` is an outage of Discord's, not a removal: the game goes on."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        _, thread, game = await bank_game(standin, bot, chan, alice, bob)
        await standin._conn_for(chan).dispatch(
            "GUILD_DELETE", {"id": str(standin.guild.id), "unavailable": True}
        )
        await until(lambda: bot.get_guild(standin.guild.id).unavailable, "the server unavailable")
        await settled(standin)
        assert (await bot.sessions.core.get(game.id)).status == "active"


async def test_the_stand_in_refuses_a_bot_removed_from_a_server_everything_there(standin, bot_factory):
    """As Discord: the removal's GUILD_DELETE carries no ``unavailable``; then the server's channels
    and the server itself answer 403 Missing Access (code 50001), its events stop, its members have
    none of the bot's commands there (its global ones; those registered in the server are dropped),
    and one who shares no other server with the bot takes no direct message from it (403, 50007)."""
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(dev_guild_id=None)) as bot:
        await standin.wait_synced()
        assert standin.bot_in(standin.guild)
        await removed(standin, bot, standin.guild)
        assert bot.get_guild(standin.guild.id) is None and not standin.bot_in(standin.guild)
        events = standin._conn.seq
        standin.set_role_permissions(standin.guild.everyone, 0)  # (GUILD_ROLE_UPDATE, were it in)
        await standin.settle()
        assert standin._conn.seq == events
        for call in (
            bot.get_partial_messageable(chan.id).send("hello"),
            bot.fetch_channel(chan.id),
            bot.fetch_guild(standin.guild.id),
        ):
            with pytest.raises(discord.Forbidden) as refused:
                await call
            assert refused.value.code == 50001
        with pytest.raises(UsageError, match="not in the guild"):
            await standin.slash(alice, chan, "nim new")
        with pytest.raises(discord.Forbidden) as refused:  # no server shared with the bot any more
            await (await bot.fetch_user(alice.id)).send("hello")
        assert refused.value.code == 50007
        assert standin.violations == []


async def test_a_server_that_removes_the_bot_cancels_its_leagues_and_not_anothers(
    standin, bot_factory, table_clock
):
    """In the first server, a league whose first round is open (a game in its thread, its deadline
    a day away) and a league still taking sign-ups; in a second server, a running league of its own.
    The first server removes the bot: both its leagues are cancelled, with their jobs, and the open
    game ends without a result; two days later (past the round's deadline) nothing was tried there,
    nobody was told anything of them, and the second server's league played its round out."""
    alice, bob = standin.add_users("alice", "bob")
    other = standin.add_guild("Second server")
    for user in (alice, bob):
        standin.join(user, other)
    chan, there = standin.channel("games"), other.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS, dev_guild_id=None)) as bot:
        await standin.wait_synced()
        await started_league(standin, chan, (alice, bob), name="Quick", **CUP)
        await started_league(standin, there, (alice, bob), name="Far", **CUP)
        await fire(bot)
        created = await standin.slash(standin.owner, chan, "league create", name="Later", **CUP)
        assert "Later" in created.message.content, created.message.content
        quick, later = sorted(await bot.store.leagues.of_server(standin.guild.id), key=lambda x: x.id)
        (far,) = await bot.store.leagues.of_server(other.id)
        (game,) = await bot.store.leagues.league_games(quick.id, 1)
        (far_game,) = await bot.store.leagues.league_games(far.id, 1)
        assert (await bot.sessions.core.get(game.session_id)).status == "active"

        await removed(standin, bot, standin.guild)
        requests = len(standin.requests)  # (what the bot does from now on)
        dms = {user.id: len(standin.messages(standin.dm(user))) for user in (alice, bob, standin.owner)}
        for league in (quick, later):
            assert (await bot.store.leagues.league(league.id)).status == "cancelled"
        session = await bot.sessions.core.get(game.session_id)
        assert session.status == "abandoned" and session.row.end_reason == SERVER_GONE
        assert await bot.store.games.live_sessions(standin.guild.id) == []
        mine = {str(quick.id), str(later.id), f"{quick.id}:1"}
        assert [(j.kind, j.key) for j in await bot.store.jobs.pending() if j.key in mine] == []

        table_clock.advance(2 * DAY)
        await fire(bot)
        await settled(standin)
        assert asked_there(standin, standin.guild, requests) == []
        for user in (alice, bob, standin.owner):
            news = standin.messages(standin.dm(user))[dms[user.id] :]
            assert [m.content for m in news if "Quick" in m.content or "Later" in m.content] == []
        assert (await bot.store.leagues.league(far.id)).status == "finished"
        assert (await bot.sessions.core.get(far_game.session_id)).status == "finished"
        assert standin.violations == []


async def test_a_server_that_removed_the_bot_while_it_was_stopped_is_told_by_the_next_ready(
    standin, bot_factory, table_clock
):
    """The bot stops with a game, a league and someone in the queue in the first server and a game
    in a second; the first server removes it meanwhile (Discord tells a stopped bot nothing).  Its
    next READY does not list the server: what went on there ends as at the event (the game and the
    league's game without a result, the league cancelled, the queue emptied), nothing is tried
    there, and the second server's game goes on."""
    alice, bob, cora = standin.add_users("alice", "bob", "cora")
    other = standin.add_guild("Second server")
    for user in (alice, bob):
        standin.join(user, other)
    chan, there = standin.channel("games"), other.channel("games")
    extensions = (*EXTENSIONS, "cogs.queue")
    async with standin.run_client(bot_factory(extensions, dev_guild_id=None)) as bot:
        await standin.wait_synced()
        _, _, game = await bank_game(standin, bot, chan, alice, bob)
        _, _, elsewhere = await bank_game(standin, bot, there, alice, bob)
        await started_league(standin, chan, (alice, bob), name="Quick", **CUP)
        await fire(bot)
        (league,) = await bot.store.leagues.of_server(standin.guild.id)
        await (await standin.slash(standin.owner, chan, "queue channel", channel=chan)).original()
        joined = await standin.slash(cora, chan, "queue join", game="pachakuna", start="now", max_wait=2)
        assert "You wait in the queue" in (await joined.original()).content
        await settled(standin)

    standin.remove_bot(standin.guild)
    requests = len(standin.requests)
    async with standin.run_client(bot_factory(extensions, dev_guild_id=None)) as bot:
        await ready(bot)
        session = await bot.sessions.core.get(game.id)
        assert session.status == "abandoned" and session.row.end_reason == SERVER_GONE
        assert await bot.store.games.live_sessions(standin.guild.id) == []  # the league's game too
        assert (await bot.store.leagues.league(league.id)).status == "cancelled"
        assert await bot.store.queue.entries(standin.guild.id) == []
        assert (await bot.sessions.core.get(elsewhere.id)).status == "active"
        table_clock.advance(2 * DAY)
        await fire(bot)
        await settled(standin)
        assert asked_there(standin, standin.guild, requests) == []
        assert standin.violations == []


async def test_a_process_serving_another_shard_ends_nothing_of_a_server_its_ready_does_not_list(
    standin, bot_factory
):
    """READY lists only the servers of the shards a process serves: a process serving the other
    shard of two, whose READY does not list the game's server, leaves its game alone."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        _, _, game = await bank_game(standin, bot, chan, alice, bob)
        await settled(standin)
    other = 1 - standin.shard_of(standin.guild, 2)
    async with standin.run_client(bot_factory(shard_count=2, shard_ids=(other,))) as bot:
        await ready(bot)
        assert bot.get_guild(standin.guild.id) is None and not serves(bot, standin.guild.id)
        assert await bot.servers_left() == []
        assert (await bot.sessions.core.get(game.id)).status == "active"


@pytest.mark.parametrize("stopped", [False, True], ids=["running", "stopped"])
async def test_a_finished_games_refused_board_is_not_tried_again_once_the_server_removed_the_bot(
    standin, bot_factory, table_clock, stopped
):
    """Bob resigns while the bot lacks Attach Files: the game is over, its last board refused and
    to be tried again every ten minutes (the host told by direct message).  The server removes the
    bot (while it runs, or while it is stopped: its next READY tells it): the tries go, and a week
    later nothing was tried there and the host got no word of it."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    make = bot_factory(dev_guild_id=None)  # (commands everywhere: a bot started again without that server)
    async with standin.run_client(make) as bot:
        await standin.wait_synced()
        _, thread, game = await bank_game(standin, bot, chan, alice, bob)
        standin.set_permissions(chan, standin.bot_user, deny=ATTACH_FILES)
        await standin.settle()
        answer = await (await standin.slash(bob, thread, "game resign")).original()
        assert "Discord refused my post" in answer.content
        await bot.front.catchup.drain()
        assert (await bot.sessions.core.get(game.id)).status == "finished"
        assert await bot.store.jobs.job("board", str(game.id)) is not None
        if not stopped:
            await removed(standin, bot, standin.guild)
            await refused_board_gone(standin, bot, table_clock, thread, alice, game)
    if stopped:
        standin.remove_bot(standin.guild)
        async with standin.run_client(make) as bot:
            await ready(bot)
            await refused_board_gone(standin, bot, table_clock, thread, alice, game)


async def refused_board_gone(standin, bot, table_clock, thread, host, game) -> None:
    """The game's refused board is tried no more: its job is gone, and for a week nothing is
    tried in its thread nor written to its host."""
    assert await bot.store.jobs.job("board", str(game.id)) is None
    requests, dms = len(standin.requests), len(standin.messages(standin.dm(host)))
    for _ in range(8):
        table_clock.advance(86400)
        await bot.scheduler.run_due()
    await settled(standin)
    assert [r for r in standin.requests[requests:] if str(thread.id) in r] == []
    assert len(standin.messages(standin.dm(host))) == dms
    assert standin.violations == []


async def test_invited_again_to_its_dev_server_the_bot_registers_its_commands_there_again(
    standin, bot_factory
):
    """The bot's commands live in its ``DEV_GUILD_ID`` server alone; the server removes it, which
    drops them, and invites it again: the bot registers them there at once (before, only at its next
    start), and a game can be started."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        await removed(standin, bot, standin.guild)
        assert standin.commands.get(standin.guild.id) is None
        syncs = standin.syncs
        standin.invite_bot(standin.guild)
        # (discord.py tells on_guild_join once it has the new server's members: after a request)
        await until(lambda: standin.syncs > syncs, "the commands registered again")
        await handled("guild_join")
        assert standin.syncs == syncs + 1 and standin.commands.get(standin.guild.id)
        _, _, game = await bank_game(standin, bot, chan, alice, bob)
        assert (await bot.sessions.core.get(game.id)).status == "active"
        assert standin.violations == []
