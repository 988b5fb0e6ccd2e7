"""Trust, end to end: server-only commands, forged and odd values, the bot's permissions,
nothing acknowledged as "unchanged" after a commit, /game list and the log per reader,
and a damaged game kept on its own."""

from __future__ import annotations

import math
import re

import pytest

from bot import export
from bot.app import EXTENSIONS
from bot.surface.channels import SERVERS_ONLY
from engines.core import rng_for
from tests.e2e.conftest import damage
from tests.e2e.forge import forged_click, forged_select, forged_slash
from tests.e2e.players import to_move
from tests.standin import UsageError
from tests.standin.model import (
    ATTACH_FILES,
    EMBED_LINKS,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
)
from tests.support import nim

ALL = (*EXTENSIONS, "tests.support.nim_cog")


def is_board(message) -> bool:
    return bool(message.files) and not message.ephemeral


async def answer(result):
    """The final text of an interaction's answer (after a deferral, the filled-in message)."""
    return (await result.original()).content if result.deferred else result.content


async def lobby_with(standin, chan, host, guest, **options):
    """A Nim lobby of two, full once the guest joins (the host is pinged about it)."""
    lobby = await standin.slash(host, chan, "nim new", thread=False, **options)
    await standin.click(guest, lobby.message, "Join")
    ping = await standin.next_message(chan, lambda m: "your Nim table is full" in m.content)
    assert host.id in ping.pinged
    return lobby


async def started(standin, bot, chan, host, guest):
    """A Nim game of two started in ``chan``: its session, who is to move and a move they may play."""
    lobby = await lobby_with(standin, chan, host, guest)
    await standin.click(host, lobby.message, "Start")
    await standin.next_message(chan, is_board)
    mover, session = await to_move(bot, chan, (host, guest))
    return session, mover, str(nim.legal_moves(session.state, session.seat_of(mover.id).seat)[0])


async def test_every_command_is_server_only(standin, bot_factory):
    """Every command is synced for servers only (contexts [0], dm_permission false)."""
    async with standin.run_client(bot_factory(ALL)):
        await standin.wait_synced()
        synced = standin.commands[standin.guild.id]
        assert {c["name"] for c in synced} >= {"game", "nim", "guanga", "pachakuna", "guacamole"}
        for command in synced:
            assert command.get("contexts") == [0], command["name"]
            assert command.get("dm_permission") is False, command["name"]
        new = next(o for o in standin.command("pachakuna")["options"] if o["name"] == "new")
        max_turns = next(o for o in new["options"] if o["name"] == "max_turns")
        assert [c["value"] for c in max_turns["choices"]] == [0, 40, 60, 80, 100, 150, 200]


async def test_forged_custom_ids_from_another_channel_change_nothing(standin, bot_factory):
    """Buttons and menus whose session lives in another channel are refused; nothing changes."""
    alice, bob, mallory = standin.add_users("alice", "bob", "mallory")
    games, general = standin.channel("games"), standin.channel("general")
    standin.set_permissions(games, mallory, deny=VIEW_CHANNEL)
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        lobby = await lobby_with(standin, games, alice, bob)
        sid = (await bot.sessions.core.in_channel(games.id)).id
        here = await standin.say(mallory, general, "hello")
        r = await forged_click(standin, mallory, general, f"pk:lobby:join:{sid}", here)
        assert "does not belong to a game in this channel" in await answer(r)
        assert [s.user_id for s in (await bot.sessions.core.get(sid)).seats] == [alice.id, bob.id]
        standin.skip_messages(games)
        await standin.click(alice, lobby.message, "Start")
        await standin.next_message(games, is_board)
        session = await bot.sessions.core.get(sid)
        move = str(nim.legal_moves(session.state, next(iter(session.to_move())))[0])
        for custom_id in (f"pk:turn:{sid}", f"pk:hand:{sid}", f"pk:mv:{sid}:{session.version}:{move}"):
            r = await forged_click(standin, alice, general, custom_id, here)
            assert "does not belong" in await answer(r), custom_id
        r = await forged_select(
            standin, alice, general, f"pk:pick:{sid}:{session.version}", [f"m:{move}"], here
        )
        assert "does not belong" in await answer(r)
        r = await forged_select(standin, alice, general, f"pk:pick:{sid}:{session.version}", ["p:A"], here)
        assert "does not belong" in await answer(r)
        assert (await bot.sessions.core.get(sid)).version == session.version


async def test_session_ids_beyond_64_bits_are_answered_cleanly(standin, bot_factory):
    """A custom_id naming session 2**64 or more gets an answer, and nothing is logged as an error."""
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()):
        await standin.wait_synced()
        here = await standin.say(alice, chan, "hi")
        for custom_id in (
            f"pk:lobby:join:{2**64}",
            f"pk:turn:{2**63}",
            f"pk:hand:{10**40}",
            f"pk:mv:{2**64}:{2**70}:A1",
        ):
            r = await forged_click(standin, alice, chan, custom_id, here)
            assert "does not belong" in await answer(r), custom_id


@pytest.mark.parametrize("hours", [math.nan, math.inf, -1.0, 1e9, pytest.param(10**400, id="10**400")])
async def test_odd_timer_values_are_refused_and_nothing_is_posted(standin, bot_factory, hours):
    """/game timer with NaN, infinite, negative or huge hours (a whole number past any float too):
    a clear refusal, no channel message."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        lobby = await lobby_with(standin, chan, alice, bob)
        await standin.click(alice, lobby.message, "Start")
        await standin.next_message(chan, is_board)
        before = [m.id for m in standin.messages(chan) if not m.ephemeral]
        r = await forged_slash(standin, alice, chan, "game timer", hours=hours)
        text = await answer(r)
        assert text.startswith("⚠️ The option hours must be a number from 0 to 720 (got "), text
        assert [m.id for m in standin.messages(chan) if not m.ephemeral] == before
        assert (await bot.sessions.core.in_channel(chan.id)).row.timer_seconds is None


async def test_zero_players_and_unknown_choices_get_clear_answers(standin, bot_factory):
    """players=0 is refused (no lobby opens); a choice value the command does not offer is answered."""
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        r = await forged_slash(standin, alice, chan, "nim new", thread=False, players=0)
        assert "players must be a whole number from 1 to 4 (got 0)" in await answer(r)
        assert await bot.sessions.core.in_channel(chan.id) is None
        r = await forged_slash(standin, alice, chan, "game ratings", game="chess")
        text = await answer(r)
        assert '"chess"' in text and "guacamole" in text
        r = await forged_slash(standin, alice, chan, "guanga new", thread=False, mode="grandmaster")
        assert '"grandmaster"' in await answer(r) and await bot.sessions.core.in_channel(chan.id) is None
        r = await forged_slash(standin, alice, chan, "guacamole new", thread=False, dishes_per_turn=7)
        assert "dishes_per_turn must be one of 1, 2, 3, 0 (no limit) (got 7)" in await answer(r)
        r = await forged_slash(standin, alice, chan, "pachakuna new", thread=False, max_turns=-3)
        assert "max_turns must be one of 0 (no limit), 40, 60, 80, 100, 150, 200 (got -3)" in await answer(r)
        assert await bot.sessions.core.in_channel(chan.id) is None


async def test_bot_permissions_are_checked_at_new_and_at_start(standin, bot_factory):
    """Without Attach Files (or Send Messages, or Send Messages in Threads in a thread) the bot
    refuses to open or start a game there, naming what it lacks."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    thread = standin.guild.threads[0]
    parent = standin.channel(thread.parent_id)
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        standin.set_permissions(chan, standin.bot_user, deny=ATTACH_FILES)
        r = await standin.slash(alice, chan, "nim new", thread=False)
        assert r.ephemeral and "Attach Files" in r.content
        assert await bot.sessions.core.in_channel(chan.id) is None
        standin.set_permissions(chan, standin.bot_user)
        lobby = await lobby_with(standin, chan, alice, bob)
        standin.set_permissions(chan, standin.bot_user, deny=SEND_MESSAGES)
        r = await standin.click(alice, lobby.message, "Start")
        assert "Send Messages" in await answer(r)
        assert "The table is full" in standin.message(lobby.message.id).content
        assert (await bot.sessions.core.in_channel(chan.id)).status == "lobby"
        r = await standin.slash(alice, chan, "game start")
        assert "Send Messages" in await answer(r)
        standin.set_permissions(chan, standin.bot_user)
        await standin.click(alice, lobby.message, "Start")
        assert (await bot.sessions.core.in_channel(chan.id)).status == "active"
        standin.set_permissions(chan, standin.bot_user, deny=ATTACH_FILES)
        r = await standin.slash(alice, chan, "game board")
        assert "Attach Files" in await answer(r)
        standin.set_permissions(parent, standin.bot_user, deny=SEND_MESSAGES_IN_THREADS)
        r = await standin.slash(alice, thread, "nim new")
        assert r.ephemeral and "Send Messages in Threads" in r.content and "thread" in r.content


async def test_a_failure_after_start_is_never_called_unchanged(standin, bot_factory, discord_errors):
    """The board post fails after the start was committed: the starter hears the game started and how
    to post the board; the lobby message is not overwritten."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        lobby = await lobby_with(standin, chan, alice, bob)
        standin.inject("POST /channels/*/messages", status=503, times=1)
        r = await standin.click(alice, lobby.message, "Start")
        assert r.type == 7 and "started" in r.content
        (follow,) = await r.followups(1)
        assert (
            follow.ephemeral and "The game has started" in follow.content and "/game board" in follow.content
        )
        assert "unchanged" not in follow.content
        assert "started" in standin.message(lobby.message.id).content
        assert (await bot.sessions.core.in_channel(chan.id)).status == "active"


async def test_game_list_names_only_channels_the_asker_can_view(standin, bot_factory):
    """/game list leaves out games in channels the asking member cannot view (by role or by member)."""
    alice, bob, carol = standin.add_users("alice", "bob", "carol")
    hidden_role = standin.add_role("outsiders")
    dave = standin.add_user("dave", roles=[hidden_role])
    games, general = standin.channel("games"), standin.channel("general")
    thread = standin.guild.threads[0]
    standin.set_permissions(games, alice, deny=VIEW_CHANNEL)
    standin.set_permissions(games, hidden_role, deny=VIEW_CHANNEL)
    async with standin.run_client(bot_factory()):
        await standin.wait_synced()
        await answer(await standin.slash(bob, games, "nim new", thread=False))
        await answer(await standin.slash(carol, thread, "nim new"))
        await standin.settle()
        for user in (alice, dave):
            text = await answer(await standin.slash(user, general, "game list"))
            assert f"<#{thread.id}>" in text and f"<#{games.id}>" not in text and "Bob" not in text
        text = await answer(await standin.slash(carol, general, "game list"))
        assert f"<#{thread.id}>" in text and f"<#{games.id}>" in text


async def test_log_and_channel_show_each_reader_what_they_may_see(standin, bot_factory):
    """Guanga: a kept order is in its keeper's /game log only; others and the channel read that an
    order was kept."""
    alice, bob, carol = standin.add_users("alice", "bob", "carol")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        lobby = await standin.slash(alice, chan, "guanga new", thread=False, mode="apprentice", players=2)
        await standin.click(bob, lobby.message, "Join")
        await standin.click(alice, lobby.message, "Start")
        session = await bot.sessions.core.in_channel(chan.id)
        order = session.state.orders_dealt[session.seat_of(alice.id).seat][1]
        done = await standin.slash(alice, chan, "guanga move", move=f"keep {order}")
        assert order in (await done.original()).content
        mine = await answer(await standin.slash(alice, chan, "game log"))
        assert f"keep {order}" in mine
        for reader in (bob, carol):
            text = await answer(await standin.slash(reader, chan, "game log"))
            assert order not in text and "kept a secret order" in text
            status = await answer(await standin.slash(reader, chan, "game status"))
            assert order not in status
        await standin.settle()
        public = [m.content for m in standin.messages(chan) if not m.ephemeral]
        assert public and not any(order in text for text in public)


@pytest.mark.parametrize("discord_error_loggers", [("discord",)])  # the bot's own log is checked below
async def test_a_damaged_game_is_listed_and_others_keep_their_deadlines(
    standin, bot_factory, table_clock, caplog
):
    """One game's saved state is unreadable: it is listed as damaged and skipped; another game's
    deadline still fires and its board is posted."""
    alice, bob = standin.add_users("alice", "bob")
    games = standin.channel("games")
    thread = standin.guild.threads[0]
    make = bot_factory()
    async with standin.run_client(make) as bot:
        await standin.wait_synced()
        for chan in (games, thread):
            lobby = await lobby_with(standin, chan, alice, bob)
            await standin.click(alice, lobby.message, "Start")
            await bot.sessions.clocks.set_timer(chan.id, alice.id, 3600, can_manage=False)
        # the first boards posted (each post holds its game's board job while it posts): none is
        # left half way when the clock jumps past its hold
        await standin.settle()
        await bot.front.catchup.drain()
        broken = await bot.sessions.core.in_channel(games.id)
        damage(bot, broken.id)
        table_clock.advance(3600)  # the hour has passed (without waiting for it)
        assert len(await bot.store.jobs.pending("deadline")) == 2
        standin.skip_messages(thread)
        standin.skip_messages(games)
        now = table_clock.time()
        warnings = [j for j in await bot.store.jobs.pending("clock_warning") if j.due_at <= now]
        # both deadlines handled: one acted, the damaged one is skipped (and any 80 % warning due)
        assert await bot.scheduler.run_due() == 2 + len(warnings)
        assert await bot.store.jobs.pending("deadline") != []  # the healthy game's next deadline
        await standin.next_message(thread, lambda m: is_board(m) and "Time is up" in m.content)
        assert not [m for m in standin.messages(games) if is_board(m) and "Time is up" in m.content]
        text = await answer(await standin.slash(alice, thread, "game list"))
        assert "damaged" in text and f"<#{thread.id}>" in text
        r = await standin.slash(alice, games, "game status")
        assert "damaged" in await answer(r)
        r = await standin.slash(alice, games, "game abandon")
        assert "abandoned" in (await answer(r)).lower()
        assert await bot.sessions.core.in_channel(games.id) is None
        boards = [m for m in standin.messages(games) if is_board(m)]
        assert boards and not boards[-1].components  # the abandoned game's board lost its buttons
    errors = [r for r in caplog.records if r.levelname == "ERROR" and r.name.startswith(("bot", "cogs"))]
    assert len(errors) == 1 and "is damaged" in errors[0].getMessage()


async def test_a_command_from_a_dm_is_refused_and_reads_no_server(standin, bot_factory):
    """Discord does not offer the commands in a DM with the bot; an interaction that comes from
    one anyway (an old client's cached command) is answered in words and lists nothing."""
    alice, bob = standin.add_users("alice", "bob")
    games = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)):
        await standin.wait_synced()
        await lobby_with(standin, games, alice, bob)
        dm = standin.dm(alice)
        with pytest.raises(UsageError, match=r"does not offer /game in a DM with the bot, only in a server"):
            await standin.slash(alice, dm, "game list")
        for path in ("game list", "game status", "nim new"):
            r = await forged_slash(standin, alice, dm, path)
            text = await answer(r)
            assert text == SERVERS_ONLY, (path, text)
            assert r.ephemeral or r.message.channel is dm, path
        assert {m.content for m in standin.messages(dm)} == {SERVERS_ONLY}  # no lobby of #games shown


# ------------------------------------------------------------------ hidden information


SECRET_PEEK = re.compile(r"peek\W*A1|under A1", re.I)


async def play_as(standin, bot, chan, people, game: str, moves: int, skip=lambda seat, move: False) -> None:
    """``moves`` moves by the computer player for whichever person is to move (by ``/<game> move``);
    moves ``skip`` refuses are replaced by the first legal move it allows."""
    session = await bot.sessions.core.in_channel(chan.id)
    module = session.engine
    for i in range(moves):
        if session.status != "active":
            return
        seated = {session.seat_of(p.id).seat: p for p in people if not session.seat_of(p.id).computer}
        ready = sorted(set(session.to_move()) & set(seated))
        if not ready:
            return
        seat = ready[0]
        legal = list(module.legal_moves(session.state, seat))
        move = module.computer_move(module.view_for(session.state, seat), legal, rng_for(0, game, i))
        if skip(seat, str(move)):
            move = next(m for m in legal if not skip(seat, str(m)))
        r = await (await standin.slash(seated[seat], chan, f"{game} move", move=str(move))).original()
        assert "You played" in r.text, r.text
        session = await bot.sessions.core.get(session.id)


async def test_a_peek_kept_for_good_stays_kept_after_the_end(standin, bot_factory):
    """Tiwanaku, seed 0: alice peeks at A1, bob resigns; the export a spectator posts, the log and
    the history (for the spectator and for bob) never say where she peeked, and the export replays."""
    alice, bob, sam = standin.add_users("alice", "bob", "sam")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        bot.sessions.new_seed = lambda: 0
        await standin.wait_synced()
        lobby = await standin.slash(alice, chan, "tiwanaku new", thread=False, players=2)
        await standin.click(bob, lobby.message, "Join")
        await standin.click(alice, lobby.message, "Start")
        await standin.next_message(chan, is_board)
        session = await bot.sessions.core.in_channel(chan.id)
        mine = session.seat_of(alice.id).seat
        for _ in range(60):  # until alice may peek at A1 (nobody peeks before)
            session = await bot.sessions.core.get(session.id)
            if mine in session.to_move() and "peek:A1" in await bot.sessions.play.legal_moves(
                chan.id, alice.id
            ):
                break
            await play_as(standin, bot, chan, (alice, bob), "tiwanaku", 1, lambda s, m: m.startswith("peek"))
        r = await (await standin.slash(alice, chan, "tiwanaku move", move="peek:A1")).original()
        assert "under A1" in r.text, r.text
        peeked = await bot.sessions.store.history.move_count(session.id)
        await answer(await standin.slash(bob, chan, "game resign"))
        assert (await bot.sessions.core.get(session.id)).status == "finished"

        done = await (await standin.slash(sam, chan, "game export")).original(timeout=90)
        assert "posted" in done.content
        post = await standin.next_message(chan, lambda m: m.files and "exported by" in m.content, timeout=30)
        text = bytes(post.files[0]).decode()
        assert SECRET_PEEK.search(text) is None, "the export says where alice peeked"
        data = export.load(text)
        assert data["moves"][peeked - 1]["move"] is None and data["moves"][peeked - 1]["secret"] == "peek"
        steps = list(export.replay(data))
        assert steps[peeked - 1].secret and len(steps) == peeked

        for reader in (sam, bob):  # bob resigned: he reads as a spectator
            log = (await (await standin.slash(reader, chan, "game log", count=50)).original()).content
            assert "looks at the disc in secret" in log and SECRET_PEEK.search(log) is None, log
            page = await (await standin.slash(reader, chan, "game history", move=peeked)).original()
            assert "hidden from you" in page.content and SECRET_PEEK.search(page.content) is None
        log = (await (await standin.slash(alice, chan, "game log", count=50)).original()).content
        assert "peek:A1" in log  # alice may read her own peek


async def test_a_player_who_resigned_reads_the_game_as_a_spectator(standin, bot_factory):
    """Three-player Guacamole: carol resigns; her hand, her "My view", the Play button, status,
    log and history show her what a spectator (dave) sees, never the hand the computer now holds."""
    alice, bob, carol, dave = standin.add_users("alice", "bob", "carol", "dave")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        bot.sessions.new_seed = lambda: 3
        await standin.wait_synced()
        lobby = await standin.slash(alice, chan, "guacamole new", thread=False, players=3)
        await standin.click(bob, lobby.message, "Join")
        await standin.click(carol, lobby.message, "Join")
        await standin.click(alice, lobby.message, "Start")
        await standin.next_message(chan, is_board)
        await play_as(standin, bot, chan, (alice, bob, carol), "guacamole", 12)
        r = await (await standin.slash(carol, chan, "game hand")).original()
        assert "Your view of **Guacamole**" in r.content and r.files  # while she plays, her hand
        await answer(await standin.slash(carol, chan, "game resign"))
        await play_as(standin, bot, chan, (alice, bob), "guacamole", 12)
        session = await bot.sessions.core.in_channel(chan.id)
        assert session.status == "active" and session.seat_of(carol.id).resigned
        theirs = session.seat_of(carol.id).seat
        rows = await bot.sessions.store.history.moves(session.id)
        assert any(r.seat == theirs and r.by_computer for r in rows)  # the computer played her seat

        hand = await (await standin.slash(carol, chan, "game hand")).original()
        assert "You resigned from this game" in hand.content and not hand.files
        here = await standin.say(carol, chan, "hi")
        for custom_id in (f"pk:dmv:{session.id}", f"pk:hand:{session.id}", f"pk:turn:{session.id}"):
            shown = await (await forged_click(standin, carol, chan, custom_id, here)).original()
            assert "Your view" not in shown.content and not shown.files, custom_id
        for command, options in (
            ("game status", {}),
            ("game log", {"count": 50}),
            ("game history", {"move": 3}),
            ("game history", {}),
        ):
            answers = []
            for reader in (carol, dave):
                shown = await (await standin.slash(reader, chan, command, **options)).original()
                answers.append(shown.content)
            assert answers[0] == answers[1], f"/{command} {options} shows carol more than a spectator"


async def test_another_game_s_commands_play_nothing_here(standin, bot_factory):
    """In a Nim game's channel, ``/guanga move`` with a move legal in Nim, ``/nowa_gwinea gwinea`` and
    ``/guacamole draw`` are refused, naming the command that plays here, and change nothing; those
    commands' autocomplete offers none of Nim's moves; ``/nim move`` still plays."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        session, mover, move = await started(standin, bot, chan, alice, bob)
        posted = [m.id for m in standin.messages(chan) if not m.ephemeral]
        for path, values in (
            ("guanga move", {"move": move}),
            ("nowa_gwinea gwinea", {}),
            ("guacamole draw", {"source": "deck"}),
        ):
            r = await standin.slash(mover, chan, path, **values)
            text = await answer(r)
            assert r.ephemeral and text.startswith("⚠️ The game in this channel is Nim"), text
            assert "`/nim move`" in text, text
        assert (await bot.sessions.core.in_channel(chan.id)).version == session.version
        assert [m.id for m in standin.messages(chan) if not m.ephemeral] == posted
        assert await standin.autocomplete(mover, chan, "guacamole move", "move", move="") == []
        assert await standin.autocomplete(mover, chan, "tiwanaku divine", "guess", guess="") == []
        assert [c["value"] for c in await standin.autocomplete(mover, chan, "nim move", "move", move="")]
        played = await answer(await standin.slash(mover, chan, "nim move", move=move))
        assert played.startswith(f"You played `{move}`"), played
        assert (await bot.sessions.core.in_channel(chan.id)).version > session.version


async def test_an_export_is_not_posted_where_its_game_could_not_be_seen(standin, bot_factory):
    """A finished game of a channel only its players can view, exported with ``game:`` from a
    channel everyone views, comes to the asker alone, and nothing is posted there; exported in its
    own channel it is posted there, and a game of a channel everyone views is posted anywhere."""
    alice, bob = standin.add_users("alice", "bob")
    general, staff = standin.channel("general"), standin.channel("games")
    standin.set_permissions(staff, standin.guild.everyone, deny=VIEW_CHANNEL)
    for member in (alice, bob, standin.bot_user):
        standin.set_permissions(staff, member, allow=VIEW_CHANNEL)
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        numbers = []
        for chan in (staff, general):
            lobby = await lobby_with(standin, chan, alice, bob)
            await standin.click(alice, lobby.message, "Start")
            await standin.next_message(chan, is_board)
            numbers.append((await bot.sessions.core.in_channel(chan.id)).id)
            await answer(await standin.slash(alice, chan, "game abandon"))
        secret, open_game = numbers
        await standin.settle()
        posted = [m.id for m in standin.messages(general) if not m.ephemeral]
        r = await standin.slash(alice, general, "game export", game=secret)
        text = await answer(r)
        assert r.ephemeral and "not everyone here can view" in text, text
        assert [f.filename for f in (await r.original()).files] == [f"nim-game{secret}.json"]
        assert [m.id for m in standin.messages(general) if not m.ephemeral] == posted
        r = await standin.slash(alice, staff, "game export", game=secret)
        assert "Export posted" in await answer(r)
        await standin.next_message(staff, lambda m: "exported by" in m.content and not m.ephemeral)
        r = await standin.slash(alice, staff, "game export", game=open_game)
        assert "Export posted" in await answer(r)
        await standin.next_message(staff, lambda m: "exported by" in m.content and not m.ephemeral)


async def test_an_undo_where_the_bot_cannot_post_is_refused_and_asks_nothing(standin, bot_factory):
    """/game undo in a channel where the bot may not send messages names the permission it lacks,
    stores no request (none waits, unseen, on the other player) and logs no error; once the
    permission is back, the same command asks in the channel."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        session, mover, move = await started(standin, bot, chan, alice, bob)
        await answer(await standin.slash(mover, chan, "nim move", move=move))
        standin.set_permissions(chan, standin.bot_user, deny=SEND_MESSAGES)
        await standin.settle()
        text = await answer(await standin.slash(mover, chan, "game undo"))
        assert text.startswith("⚠️ I am missing Send Messages in this channel"), text
        assert await bot.sessions.store.history.undo_request(session.id) is None
        standin.set_permissions(chan, standin.bot_user, allow=SEND_MESSAGES)
        await standin.settle()
        assert "Asked" in await answer(await standin.slash(mover, chan, "game undo"))
        await standin.next_message(chan, lambda m: "asks to take back" in m.content and m.buttons)


@pytest.mark.parametrize("discord_error_loggers", [("discord",)])  # the bot logs the refused post
async def test_an_undo_request_discord_refuses_to_post_is_not_kept(standin, bot_factory):
    """Discord refuses the undo request's message (a 503): the asker hears that nobody was asked,
    and no request is kept that nobody could see or answer."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        session, mover, move = await started(standin, bot, chan, alice, bob)
        await answer(await standin.slash(mover, chan, "nim move", move=move))
        standin.inject("POST /channels/*/messages", status=503, times=1)
        text = await answer(await standin.slash(mover, chan, "game undo"))
        assert "Discord refused to post your request in the game's channel (503), so nobody was asked" in text
        assert await bot.sessions.store.history.undo_request(session.id) is None


async def test_a_move_the_bot_could_not_show_is_refused_and_the_game_waits(standin, bot_factory):
    """The bot loses Attach Files (or Send Messages) in a running game's channel: a move is refused,
    naming the permission and that nothing was played; the game is as it was, nobody is told of a
    turn nobody can see, and once the permission is back the same move plays and posts its board.
    Embed Links, which a board does not use, holds no move back."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        session, mover, move = await started(standin, bot, chan, alice, bob)
        for denied, name in ((ATTACH_FILES, "Attach Files"), (SEND_MESSAGES, "Send Messages")):
            standin.set_permissions(chan, standin.bot_user, deny=denied)
            await standin.settle()
            posted = len([m for m in standin.messages(chan) if not m.ephemeral])
            r = await standin.slash(mover, chan, "nim move", move=move)
            text = await answer(r)
            assert r.ephemeral and text.startswith(
                f"⚠️ Nothing was played: I am missing {name} in this channel"
            )
            assert "a server admin can grant it to my role" in text, text
            assert (await bot.sessions.core.in_channel(chan.id)).version == session.version
            assert len([m for m in standin.messages(chan) if not m.ephemeral]) == posted
        general = standin.channel("general")  # no game there: that is what is said first
        standin.set_permissions(general, standin.bot_user, deny=ATTACH_FILES)
        await standin.settle()
        text = await answer(await standin.slash(mover, general, "nim move", move=move))
        assert text.startswith("⚠️ There is no game in this channel"), text
        standin.set_permissions(chan, standin.bot_user, deny=EMBED_LINKS)
        await standin.settle()
        text = await answer(await standin.slash(mover, chan, "nim move", move=move))
        assert text.startswith(f"You played `{move}`"), text
        await standin.next_message(chan, is_board)
        assert (await bot.sessions.core.in_channel(chan.id)).version == session.version + 1


async def test_a_resignation_whose_board_discord_refuses_names_the_missing_permission(standin, bot_factory):
    """The bot loses Attach Files after the game started; a player resigns: the resignation stands,
    and the answer names the permission the board's post lacked (not only "missing permissions"),
    in the reader's language."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        lobby = await lobby_with(standin, chan, alice, bob)
        await standin.click(alice, lobby.message, "Start")
        await standin.next_message(chan, is_board)
        standin.set_permissions(chan, standin.bot_user, deny=ATTACH_FILES)
        await standin.settle()
        bob.locale = "es-ES"
        text = await answer(await standin.slash(bob, chan, "game resign"))
        assert text.startswith(
            "⚠️ Te rendiste, pero Discord rechazó mi mensaje: me falta Adjuntar archivos aquí"
        ), text
        session = await bot.sessions.core.latest(chan.id)
        assert next(s for s in session.seats if s.user_id == bob.id).resigned


@pytest.mark.parametrize("discord_error_loggers", [("discord",)])  # the refused post is logged
async def test_a_move_whose_board_discord_refuses_says_so_truly(standin, bot_factory):
    """Discord refuses the board's post after a move was recorded (a 503): the mover heard that
    "Discord refused the board image", whatever it refused; now they hear the move was recorded,
    the error Discord gave, and how to post the board again."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        session, mover, move = await started(standin, bot, chan, alice, bob)
        standin.inject("POST /channels/*/messages", status=503, times=1)
        text = await answer(await standin.slash(mover, chan, "nim move", move=move))
        assert text == (
            f"⚠️ Your move `{move}` was recorded, but Discord refused the message (503). Once that is "
            "fixed, /game board posts the board again."
        ), text
        assert (await bot.sessions.core.in_channel(chan.id)).version == session.version + 1
