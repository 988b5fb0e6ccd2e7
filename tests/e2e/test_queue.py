"""The queue that forms games, end to end: the real bot against the Discord stand-in, its clock
moved by the test.

Seven people join with mixed wishes and an avoid pair; after each arrival the queue forms what it
can, longest-waiting first.  The hand check (G: Guacamole, P: P'achakuna):

====== ===== ======= ====== ========= ====== ===========================================
who    game  players pace   computers start  after they join
====== ===== ======= ====== ========= ====== ===========================================
ana    G     3       daily  0         confirm avoids beto; nothing forms
beto   G     2-3     any    0         confirm ana avoids him: no table with her
cusi   P     2       live   0         now
dora   G     3       any    0         confirm ana + dora need a third (both want 3)
eloy   P     2       daily  0         now    cusi is live, eloy daily: no table
fatima G     2-3     any    0         now    **ana, dora, fatima** (3, daily): ana waited
                                              longest, so fatima joins her, not beto
gil    P     2       any    0         now    **cusi, gil** (2, live), started at once
====== ===== ======= ====== ========= ====== ===========================================

beto and eloy wait on.  The Guacamole table waits for ana's and dora's confirmations (fatima chose
to start at once); its Confirm button still works after a restart.  When dora does not confirm in
time, she leaves the queue (told), and ana and fatima wait again at their places: fatima and beto
then make a table of two (ana avoids beto).
"""

from __future__ import annotations

import asyncio

import pytest

from bot.queue.tables import CONFIRM_SECONDS, NOT_PLAYED
from tests.e2e.conftest import BASE_EXTENSIONS
from tests.e2e.forge import forged_click
from tests.e2e.players import is_board

EXTENSIONS = (*BASE_EXTENSIONS, "cogs.queue")
HOUR = 3600

WISHES = {
    "ana": dict(game="guacamole", players="3", pace="daily", start="confirm", max_wait=24),
    "beto": dict(game="guacamole", players="2-3", start="confirm", max_wait=24),
    "cusi": dict(game="pachakuna", pace="live", start="now", max_wait=24),
    "dora": dict(game="guacamole", players="3", start="confirm", max_wait=24),
    "eloy": dict(game="pachakuna", pace="daily", start="now", max_wait=2),
    "fatima": dict(game="guacamole", players="2-3", start="now", max_wait=24),
    "gil": dict(game="pachakuna", start="now", max_wait=24),
}


def new_threads(standin, before: set[int]) -> list:
    return [t for t in standin.guild.threads if t.id not in before]


async def seated_names(bot, thread) -> set[str]:
    session = await bot.sessions.core.latest(thread.id)
    return {s.name.lower() for s in session.seats if not s.computer}


async def queue_of_seven(standin, bot, chan, table_clock, people):
    """The seven join in order (a minute apart), ana avoiding beto; the threads opened after each."""
    owner = standin.owner
    ana, beto = people["ana"], people["beto"]
    refused = await (await standin.slash(ana, chan, "queue join", game="guacamole")).original()
    assert "no queue channel" in refused.content and "Manage Server" in refused.content
    nope = await (await standin.slash(ana, chan, "queue channel", channel=chan)).original()
    assert "Manage Server" in nope.content
    chosen = await (await standin.slash(owner, chan, "queue channel", channel=chan)).original()
    assert f"<#{chan.id}>" in chosen.content
    avoided = await (await standin.slash(ana, chan, "queue avoid", person=beto)).original()
    assert "never seats you with Beto" in avoided.content
    opened: dict[str, list] = {}
    for name, wishes in WISHES.items():
        before = {t.id for t in standin.guild.threads}
        table_clock.advance(60)
        answer = await (await standin.slash(people[name], chan, "queue join", **wishes)).original()
        assert answer.ephemeral and "You wait in the queue" in answer.content, answer.content
        await bot.front.replies.idle()  # the queue matches after answering
        opened[name] = new_threads(standin, before)
    return opened


async def test_a_queue_of_seven_forms_the_tables_a_hand_check_expects(standin, bot_factory, table_clock):
    chan = standin.channel("games")
    names = list(WISHES)
    people = dict(zip(names, standin.add_users(*names), strict=True))
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        opened = await queue_of_seven(standin, bot, chan, table_clock, people)
        assert {n: len(t) for n, t in opened.items()} == {
            "ana": 0,
            "beto": 0,
            "cusi": 0,
            "dora": 0,
            "eloy": 0,
            "fatima": 1,
            "gil": 1,
        }
        (guaca,) = opened["fatima"]
        (pacha,) = opened["gil"]
        assert await seated_names(bot, guaca) == {"ana", "dora", "fatima"}
        assert await seated_names(bot, pacha) == {"cusi", "gil"}
        # The P'achakuna table started at once (both chose so), live: no clock.
        live = await bot.sessions.core.latest(pacha.id)
        assert live.status == "active" and live.row.clock is None
        ping = standin.messages(pacha)[0]
        assert ping.pinged == {people["cusi"].id, people["gil"].id} and "live (no clock)" in ping.content
        assert any(is_board(m) for m in standin.messages(pacha))
        # The Guacamole table waits for confirmations, pinging its three people only.
        table = await bot.sessions.core.latest(guaca.id)
        assert table.status == "lobby" and table.row.max_players == 3 and table.row.clock == "move:1d"
        ask = next(m for m in standin.messages(guaca) if m.components)
        assert ask.pinged == {people[n].id for n in ("ana", "dora", "fatima")}
        assert "daily (a day per move)" in ask.content
        # /queue list: who waits for what; beto and eloy wait, the Guacamole three are held.
        listed = await (await standin.slash(people["beto"], chan, "queue list")).original()
        assert listed.ephemeral and "5 people in the queue" in listed.content
        assert "**Beto**" in listed.content and "**Eloy**" in listed.content
        assert listed.content.count("a table is waiting for confirmations") == 3
        assert "avoid" not in listed.content.lower()  # nobody else's avoid list is shown
        own = await (await standin.slash(people["ana"], chan, "queue list")).original()
        assert f"You avoid 1 person: <@{people['beto'].id}>" in own.content
        # Someone who is not at the table cannot confirm it.
        stranger = await (await standin.click(people["beto"], ask, "Confirm")).original()
        assert "not yours" in stranger.content

    # After a restart the Confirm button still works; the last confirmation starts the game.
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        first = await (await standin.click(people["ana"], ask, "Confirm")).original()
        assert "Confirmed" in first.content
        again = await (await standin.click(people["ana"], ask, "Confirm")).original()
        assert "already" in again.content
        assert (await bot.sessions.core.latest(guaca.id)).status == "lobby"
        last = await (await standin.click(people["dora"], ask, "Confirm")).original()
        assert "Everyone confirmed" in last.content
        await bot.front.replies.idle()
        started = await bot.sessions.core.latest(guaca.id)
        assert started.status == "active" and {s.name.lower() for s in started.seats} == {
            "ana",
            "dora",
            "fatima",
        }
        assert any(is_board(m) for m in standin.messages(guaca))
        assert not standin.message(ask.id).components  # the button goes once the game starts
        # the queue says the game started once, on its Confirm message; the lobby posts one first board
        assert started_lines(standin.message(ask.id)) == 1
        assert len([m for m in standin.messages(guaca) if is_board(m)]) == 1
        waiting = [e.user_id for e in await bot.store.queue.entries(standin.guild.id)]
        assert waiting == [people["beto"].id, people["eloy"].id]
        # eloy's two hours run out: he leaves the queue and is told by direct message.
        table_clock.advance(2 * HOUR)
        await bot.scheduler.run_due()
        (told,) = standin.messages(standin.dm(people["eloy"]))
        assert "no game of yours started within the 2 hours you chose" in told.content
        waiting = [e.user_id for e in await bot.store.queue.entries(standin.guild.id)]
        assert waiting == [people["beto"].id]


async def test_who_does_not_confirm_leaves_and_the_rest_wait_again_at_their_places(
    standin, bot_factory, table_clock
):
    chan = standin.channel("games")
    names = list(WISHES)
    people = dict(zip(names, standin.add_users(*names), strict=True))
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        opened = await queue_of_seven(standin, bot, chan, table_clock, people)
        (guaca,) = opened["fatima"]
        ask = next(m for m in standin.messages(guaca) if m.components)
        await standin.click(people["ana"], ask, "Confirm")
        await bot.front.replies.idle()
        before = {t.id for t in standin.guild.threads}
        (held,) = await bot.store.queue.tables("confirming")
        fatima = await bot.store.queue.entry(standin.guild.id, people["fatima"].id)
        assert held.confirm_by == fatima.joined_at + CONFIRM_SECONDS["daily"]  # formed when she joined
        table_clock.advance(held.confirm_by - table_clock.time() - 1)
        await bot.scheduler.run_due()
        assert (await bot.sessions.core.latest(guaca.id)).status == "lobby"  # not before its time
        table_clock.advance(1)
        await bot.scheduler.run_due()
        assert (await bot.sessions.core.latest(guaca.id)).status == "abandoned"
        assert "Not everyone confirmed in time (1 person did not)" in standin.message(ask.id).content
        assert not standin.message(ask.id).components
        (told,) = standin.messages(standin.dm(people["dora"]))
        assert "did not confirm" in told.content
        # ana and fatima wait again at their places; ana avoids beto, so beto and fatima sit together.
        (pair,) = new_threads(standin, before)
        assert await seated_names(bot, pair) == {"beto", "fatima"}
        entries = await bot.store.queue.entries(standin.guild.id)
        assert [e.user_id for e in entries] == [
            people[n].id for n in ("ana", "beto", "fatima")
        ]  # eloy's 2 h are over
        assert entries[0].joined_at < entries[1].joined_at  # ana kept her place, ahead of beto
        assert dora_gone(entries, people)
        # beto leaving declines the new table: fatima waits again, the lobby closes.
        left = await (await standin.slash(people["beto"], chan, "queue leave")).original()
        assert "left the queue" in left.content
        await bot.front.replies.idle()
        assert (await bot.sessions.core.latest(pair.id)).status == "abandoned"
        asked = next(m for m in standin.messages(pair) if "Confirm" in m.content)
        assert "Beto left the queue; the others wait in the queue again" in asked.content
        assert not asked.components
        entries = await bot.store.queue.entries(standin.guild.id)
        assert [e.user_id for e in entries] == [people[n].id for n in ("ana", "fatima")]
        assert all(e.table_id is None for e in entries)


def dora_gone(entries, people) -> bool:
    return people["dora"].id not in {e.user_id for e in entries}


async def test_a_long_queue_is_listed_in_part_and_an_empty_one_says_so(standin, bot_factory, table_clock):
    """Twelve people whose wishes never agree (five games, live or daily, rated or unrated): the
    list names the ten who waited longest and counts the rest; nobody is seated."""
    chan = standin.channel("games")
    users = standin.add_users(*(f"p{i:02}" for i in range(12)))
    classes = [
        (game, pace, rated)
        for game in ("guacamole", "tiwanaku", "guanga", "nowa_gwinea", "pachakuna")
        for pace in ("live", "daily")
        for rated in ("rated", "unrated")
    ]
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        empty = await (await standin.slash(users[0], chan, "queue list")).original()
        assert "Nobody waits in this server's queue" in empty.content
        # The channel is stored before anyone joins (the command answers after a private "thinking").
        await (await standin.slash(standin.owner, chan, "queue channel", channel=chan)).original()
        before = {t.id for t in standin.guild.threads}
        for n, (user, (game, pace, rated)) in enumerate(zip(users, classes, strict=False), 1):
            table_clock.advance(1)
            answer = await (
                await standin.slash(user, chan, "queue join", game=game, pace=pace, rated=rated)
            ).original()
            # each join is answered as stored, with the count so far (a failure names who and why)
            assert answer.content.startswith(f"You wait in the queue ({n} "), (user.name, answer.content)
        await bot.front.replies.idle()
        waiting = await bot.store.queue.entries(standin.guild.id)
        assert [e.user_id for e in waiting] == [u.id for u in users]
        assert all(e.table_id is None for e in waiting)
        assert new_threads(standin, before) == []  # no table was opened
        listed = await (await standin.slash(users[0], chan, "queue list")).original()
        lines = listed.content.splitlines()
        assert lines[0] == "12 people in the queue:" and lines[-1] == "... and 2 more."
        assert [line.split(".")[0] for line in lines[1:-1]] == [str(n) for n in range(1, 11)]
        assert "**P00**" in lines[1] and "**P09**" in lines[10]


async def test_a_person_the_servers_gate_holds_back_is_told_why_as_they_join(
    standin, bot_factory, table_clock
):
    """The server's default gate asks 90 %; two new players (80 %) join the queue: each is told,
    in their own language, that they cannot be seated yet, why, and how many turns on time would
    let them in; nobody is seated.  When a server manager lowers the gate, the queue forms their
    table at once."""
    chan = standin.channel("games")
    ana, beto = standin.add_users("ana", "beto")
    beto.locale = "es-ES"
    async with standin.run_client(bot_factory((*EXTENSIONS, "cogs.gates"))) as bot:
        await standin.wait_synced()
        await (await standin.slash(standin.owner, chan, "queue channel", channel=chan)).original()
        await (await standin.slash(standin.owner, chan, "gate server", reliability=90)).original()
        before = {t.id for t in standin.guild.threads}
        told = {}
        for user in (ana, beto):
            table_clock.advance(60)
            answer = await (
                await standin.slash(user, chan, "queue join", game="pachakuna", start="now")
            ).original()
            await bot.front.replies.idle()
            told[user.name] = answer.content
        assert "You wait in the queue" in told["ana"]
        assert (
            "You cannot be seated yet: your reliability is 80 % and this server's tables ask for 90 %: 10 more"
            " turns on time would reach it (see /me profile). You keep your place in the queue meanwhile."
        ) in told["ana"], told["ana"]
        assert "You cannot" not in told["beto"] and "no puedes" in told["beto"].lower(), told["beto"]
        assert "90 %" in told["beto"] and "10" in told["beto"]
        assert new_threads(standin, before) == []
        assert len(await bot.store.queue.entries(standin.guild.id)) == 2
        shown = await (await standin.slash(ana, chan, "gate show")).original()  # outside a lobby too
        assert (
            "You may not take a seat: your reliability is 80 % and this server's tables ask for 90 %"
            in shown.content
        )
        await (await standin.slash(standin.owner, chan, "gate server", reliability=0)).original()
        await bot.front.replies.idle()
        (thread,) = new_threads(standin, before)
        assert await seated_names(bot, thread) == {"ana", "beto"}
        assert await bot.store.queue.entries(standin.guild.id) == []


async def test_someone_who_left_the_server_is_taken_out_of_the_queue_when_a_table_forms(
    standin, bot_factory, table_clock
):
    """Ana joins the queue, then leaves the server; when Beto and Cusi join, the table is theirs
    (Discord answers "Unknown Member" for her), and she is out of the queue."""
    chan = standin.channel("games")
    ana, beto, cusi = standin.add_users("ana", "beto", "cusi")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await (await standin.slash(standin.owner, chan, "queue channel", channel=chan)).original()
        before = {t.id for t in standin.guild.threads}
        await (await standin.slash(ana, chan, "queue join", game="pachakuna", start="now")).original()
        await bot.front.replies.idle()
        standin.leave(ana, standin.guild)
        for user in (beto, cusi):
            table_clock.advance(60)
            await (await standin.slash(user, chan, "queue join", game="pachakuna", start="now")).original()
            await bot.front.replies.idle()
        (thread,) = new_threads(standin, before)
        assert await seated_names(bot, thread) == {"beto", "cusi"}
        assert await bot.store.queue.entries(standin.guild.id) == []


async def test_a_queue_channel_the_bot_cannot_open_threads_in_is_refused_naming_what_is_missing(
    standin, bot_factory, table_clock
):
    """The owner chooses #general, where the bot may not create public threads, as the queue
    channel: refused, naming the permission (in Spanish for a Spanish reader), and nothing is set,
    so /queue join keeps saying there is no queue channel instead of seating nobody in silence.
    #games works."""
    from tests.standin.model import CREATE_PUBLIC_THREADS

    chan = standin.channel("games")
    closed = standin.channel("general")
    standin.set_permissions(closed, standin.bot_role, deny=CREATE_PUBLIC_THREADS)
    ana = standin.add_users("ana")[0]
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        refused = await (await standin.slash(standin.owner, chan, "queue channel", channel=closed)).original()
        assert (
            f"I am missing Create Public Threads in <#{closed.id}>, where the queue opens its tables"
        ) in refused.content, refused.content
        assert await bot.store.queue.channel(standin.guild.id) is None
        standin.owner.locale = "es-ES"
        spanish = await (await standin.slash(standin.owner, chan, "queue channel", channel=closed)).original()
        assert "Crear hilos públicos" in spanish.content and "Create" not in spanish.content, spanish.content
        standin.owner.locale = "en-US"
        join = await (await standin.slash(ana, chan, "queue join", game="pachakuna")).original()
        assert "no queue channel" in join.content
        chosen = await (await standin.slash(standin.owner, chan, "queue channel", channel=chan)).original()
        assert f"opens its tables in <#{chan.id}>" in chosen.content
        assert await bot.store.queue.channel(standin.guild.id) == chan.id


async def test_someone_away_waits_unseated_told_why_in_spanish_and_is_seated_when_back(
    standin, bot_factory, table_clock
):
    """Beto (Spanish) took two days away and joins the queue: he is told, in Spanish, that he
    cannot be seated while away and what ends it; Ana and Cusi are seated together.  Dora joins;
    when Beto comes back (/me back), his table with Dora forms at once."""
    chan = standin.channel("games")
    ana, beto, cusi, dora = standin.add_users("ana", "beto", "cusi", "dora")
    beto.locale = "es-ES"
    async with standin.run_client(bot_factory((*EXTENSIONS, "cogs.me"))) as bot:
        await standin.wait_synced()
        await (await standin.slash(standin.owner, chan, "queue channel", channel=chan)).original()
        await (await standin.slash(beto, chan, "me away", days=2)).original()
        before = {t.id for t in standin.guild.threads}
        told = {}
        for user in (beto, ana, cusi):
            table_clock.advance(60)
            answer = await (
                await standin.slash(user, chan, "queue join", game="pachakuna", start="now")
            ).original()
            await bot.front.replies.idle()
            told[user.name] = answer.content
        assert "Aún no puedes sentarte a una mesa: estás de descanso hasta el " in told["beto"], told["beto"]
        assert "/yo" in told["beto"] and "/me back" not in told["beto"], told["beto"]
        (first,) = new_threads(standin, before)
        assert await seated_names(bot, first) == {"ana", "cusi"}
        await (await standin.slash(dora, chan, "queue join", game="pachakuna", start="now")).original()
        await bot.front.replies.idle()
        assert len(new_threads(standin, before)) == 1  # Beto is still away
        await (await standin.slash(beto, chan, "me back")).original()
        await bot.front.replies.idle()
        second = [t for t in new_threads(standin, before) if t.id != first.id]
        assert len(second) == 1 and await seated_names(bot, second[0]) == {"beto", "dora"}
        assert await bot.store.queue.entries(standin.guild.id) == []


def test_a_wish_for_no_computers_reads_no_computers_not_up_to_zero():
    """/queue list and the join's answer give each person's wishes in a line: a wish for no
    computer seats reads "no computers" ("sin máquinas"), not "up to 0 computers"."""
    from bot.storage.queue import QueueEntry
    from cogs.queue import wishes
    from languages import language

    entry = QueueEntry(1, 7, 2, "Ana", "pachakuna", (2,), "any", 0, "any", False, 0.0, 3600.0)
    assert ", no computers, " in wishes(entry, language("en"))
    assert ", sin máquinas, " in wishes(entry, language("es"))
    two = QueueEntry(1, 7, 2, "Ana", "pachakuna", (2,), "any", 2, "any", False, 0.0, 3600.0)
    assert ", up to 2 computers, " in wishes(two, language("en"))


async def table_of_two(standin, bot, table_clock, people, wishes):
    """The owner makes "games" the queue channel and ``people`` join it a minute apart with the
    same ``wishes``: the thread of the table formed for them."""
    chan = standin.channel("games")
    await (await standin.slash(standin.owner, chan, "queue channel", channel=chan)).original()
    before = {t.id for t in standin.guild.threads}
    for person in people:
        table_clock.advance(60)
        await (await standin.slash(person, chan, "queue join", **wishes)).original()
        await bot.front.replies.idle()
    (thread,) = new_threads(standin, before)
    return thread


async def first_confirmed(standin, bot, table_clock, people):
    """A Guacamole table of two formed for ``people``, waiting for confirmations, which the first
    of them gave: its thread, its Confirm message and that button's custom_id."""
    wishes = dict(game="guacamole", players="2", start="confirm", max_wait=24)
    thread = await table_of_two(standin, bot, table_clock, people, wishes)
    ask = next(m for m in standin.messages(thread) if m.components)
    custom_id = ask.custom_ids[0]
    assert "Confirmed" in (await (await standin.click(people[0], ask, "Confirm")).original()).content
    return thread, ask, custom_id


async def test_a_daily_table_s_thread_stays_open_a_week_between_moves_as_a_game_s_own_thread_does(
    standin, bot_factory, table_clock
):
    """A daily table plays a move a day: its thread must not archive itself after Discord's default
    day without a message (slash commands are not offered in an archived thread), so it is opened
    with the longest auto-archive Discord has, a week, as a game opened with /<game> new is."""
    ana, beto = standin.add_users("ana", "beto")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        wishes = dict(game="pachakuna", pace="daily", start="now")
        thread = await table_of_two(standin, bot, table_clock, (ana, beto), wishes)
        assert (await bot.sessions.core.in_channel(thread.id)).status == "active"
        assert thread.auto_archive_duration == 10080


async def test_a_confirm_left_on_a_started_game_by_a_stop_answers_with_the_game_s_link_after_a_restart(
    standin, bot_factory, table_clock
):
    """The bot stops after the last confirmation started the table's game and before its Confirm
    message was updated.  After the restart, a press of that button answers that the game has
    started, with a link to it, and the message says so and loses the button; before, the press
    was refused as if the table were no longer waiting."""
    ana, beto = standin.add_users("ana", "beto")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, ask, _ = await first_confirmed(standin, bot, table_clock, (ana, beto))
        reached = asyncio.Event()

        async def stops(*args, **kwargs):
            """The process stops here: nothing after the game's start runs."""
            reached.set()
            raise asyncio.CancelledError

        bot.queue.posts.settle = stops
        await standin.click(beto, ask, "Confirm", wait=False)
        await reached.wait()
        assert (await bot.sessions.core.latest(thread.id)).status == "active"
        assert standin.message(ask.id).components  # the button stayed

    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await bot.taken_up.wait()  # the start posts the game's first board, which the stop left out
        await bot.front.catchup.computers_settled()
        (board,) = [m for m in standin.messages(thread) if is_board(m)]
        link = f"https://discord.com/channels/{standin.guild.id}/{thread.id}/{board.id}"
        pressed = await (await standin.click(ana, ask, "Confirm")).original()
        assert pressed.content == f"✅ The game has started: {link}"
        settled = standin.message(ask.id)
        assert not settled.components
        assert settled.content.endswith(f"\nThe game has started: {link}")


class Stopped(Exception):
    """The process stops here: nothing after this step runs."""


def stop_at_settle(bot) -> None:
    async def stops(*args, **kwargs):
        raise Stopped

    bot.queue.posts.settle = stops


def started_lines(message) -> int:
    return sum(
        line.startswith(("The game has started", "Everyone confirmed"))
        for line in message.content.split("\n")
    )


async def test_a_confirm_left_by_a_stop_on_a_table_given_back_goes_at_the_next_start_and_a_stale_press_says_why(
    standin, bot_factory, table_clock
):
    """Beto leaves the queue while his table waits for confirmations, and the bot stops as the
    table's Confirm message was about to say so.  At the next start (the scheduler's first round,
    the clock not moved) the message says the table was not played and loses its button, where
    before it kept it for good.  A press from a client still showing the button is told, in
    words, that the table was not played and where the presser stands in the queue; the message
    is not changed again."""
    ana, beto = standin.add_users("ana", "beto")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, ask, custom_id = await first_confirmed(standin, bot, table_clock, (ana, beto))
        stop_at_settle(bot)
        with pytest.raises(Stopped):
            await bot.queue.leave(standin.guild.id, beto.id)
        await bot.queue.settled()  # the matching its closed lobby started (a stop would end it too)
        assert (await bot.sessions.core.latest(thread.id)).status == "abandoned"
        assert standin.message(ask.id).components  # the button stayed
        shown = standin.message(ask.id).content

    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await bot.scheduler.run_due()
        settled = standin.message(ask.id)
        assert not settled.components
        assert settled.content == shown + "\n" + NOT_PLAYED
        pressed = await (await forged_click(standin, ana, thread, custom_id, ask)).original()
        assert pressed.ephemeral and pressed.content == (
            "⚠️ This table was not played; you wait in the queue again, at your place (see /queue list)."
        )
        gone = await (await forged_click(standin, beto, thread, custom_id, ask)).original()
        assert gone.content == (
            "⚠️ This table was not played, and you are not in the queue; /queue join to wait again."
        )
        assert standin.message(ask.id).content == shown + "\n" + NOT_PLAYED
        assert [e.user_id for e in await bot.store.queue.entries(standin.guild.id)] == [ana.id]


async def stopped_after_the_start(standin, bot, table_clock, people):
    """Two people confirm a table of two; the bot stops after the last confirmation started the
    game and before its Confirm message was updated.  The thread and the Confirm message."""
    thread, ask, custom_id = await first_confirmed(standin, bot, table_clock, people)
    stop_at_settle(bot)
    with pytest.raises(Stopped):
        await bot.queue.confirm(int(custom_id.rsplit(":", 1)[1]), people[1].id)
    assert (await bot.sessions.core.latest(thread.id)).status == "active"
    assert standin.message(ask.id).components  # the button stayed
    return thread, ask, custom_id


async def test_a_confirm_left_on_a_started_game_by_a_stop_goes_at_the_next_start(
    standin, bot_factory, table_clock
):
    """After the restart the scheduler's first round (the clock not moved: before, it waited for
    the end of the 12 hours to confirm) has the Confirm message say the game started, with its
    link, and lose its button; a press from a client still showing it is answered with the link,
    and adds nothing to the message."""
    ana, beto = standin.add_users("ana", "beto")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, ask, custom_id = await stopped_after_the_start(standin, bot, table_clock, (ana, beto))

    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await bot.taken_up.wait()  # the start posts the game's first board, which the stop left out
        await bot.front.catchup.computers_settled()
        await bot.scheduler.run_due()
        (board,) = [m for m in standin.messages(thread) if is_board(m)]
        link = f"https://discord.com/channels/{standin.guild.id}/{thread.id}/{board.id}"
        settled = standin.message(ask.id)
        assert not settled.components
        assert settled.content.endswith(f"\nThe game has started: {link}")
        pressed = await (await forged_click(standin, ana, thread, custom_id, ask)).original()
        assert pressed.content == f"✅ The game has started: {link}"
        assert started_lines(standin.message(ask.id)) == 1


async def test_a_started_table_s_confirm_message_says_the_game_started_once(
    standin, bot_factory, table_clock
):
    """The queue's "the game has started" line goes on a table's Confirm message once.  After a
    stop left the button on a started game, a press settles the message at once; when the time to
    confirm later runs out, the job adds nothing (before, it added the line a second time).  And
    a table its host started from the lobby (/game start) before everyone confirmed, as a version
    before let it (such a game may be stored; the start is refused now): the lobby posts the first
    board, and the next press has the Confirm message say the game started, once, without its
    button (before, that press left the button, and each later press added a line)."""
    ana, beto, cusi, dora = standin.add_users("ana", "beto", "cusi", "dora")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, ask, custom_id = await stopped_after_the_start(standin, bot, table_clock, (ana, beto))

    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await bot.taken_up.wait()
        await bot.front.catchup.computers_settled()
        pressed = await (await standin.click(beto, ask, "Confirm")).original()
        assert pressed.content.startswith("✅ The game has started: https://discord.com/channels/")
        assert not standin.message(ask.id).components
        table_clock.advance(CONFIRM_SECONDS["daily"])
        await bot.scheduler.run_due()
        assert started_lines(standin.message(ask.id)) == 1

        wishes = dict(game="guacamole", players="2", start="confirm", max_wait=24)
        other = await table_of_two(standin, bot, table_clock, (cusi, dora), wishes)
        asked = next(m for m in standin.messages(other) if m.components)
        asked_id = asked.custom_ids[0]
        refused = await (await standin.slash(cusi, other, "game start")).original()
        assert "waiting for: Cusi, Dora" in refused.content, refused.content
        bot.sessions.core.start_checks.remove(bot.queue.start_refused)  # as a version before did
        await (await standin.slash(cusi, other, "game start")).original()
        await bot.front.replies.idle()
        assert (await bot.sessions.core.latest(other.id)).status == "active"
        late = await (await standin.click(dora, asked, "Confirm")).original()
        assert "the game has started" in late.content.lower()
        settled = standin.message(asked.id)
        assert not settled.components and started_lines(settled) == 1
        again = await (await forged_click(standin, dora, other, asked_id, asked)).original()
        assert again.content.startswith("✅ The game has started: ")
        table_clock.advance(CONFIRM_SECONDS["daily"])
        await bot.scheduler.run_due()
        assert started_lines(standin.message(asked.id)) == 1
        assert len([m for m in standin.messages(other) if is_board(m)]) == 1


async def test_a_stop_waits_for_the_matching_a_lobbys_end_started(standin, bot_factory):
    """A lobby's end sets the queue forming again in a task of its own; a stop just then closed the
    database under it (it read a closed database, and logged an error).  The stop now waits for it,
    while the database is open: the matching here is held until the stop asks for it."""
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory((*BASE_EXTENSIONS, "cogs.queue"))) as bot:
        await standin.wait_synced()
        asked, finished = asyncio.Event(), []
        settled, matching = bot.queue.settled, bot.queue.match_later

        async def held(guild_id, session_id=None):
            await asked.wait()
            finished.append(await matching(guild_id, session_id))

        async def asking():
            asked.set()
            await settled()

        bot.queue.match_later = held
        bot.queue.settled = asking
        lobby = await standin.slash(alice, chan, "nim new", thread=False)
        assert not lobby.ephemeral
        await (await standin.slash(alice, chan, "game abandon")).original()
        assert bot.queue._later  # the lobby's end set a matching going, held
    assert asked.is_set() and finished == [[]]  # the stop waited for it, and it ended cleanly
