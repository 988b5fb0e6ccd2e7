"""The queue's service over a real store of each back end and the real session service: the gate
keeps a person from being seated (they wait on), a refusal from the lobby takes the refused
person out of the queue (told) and returns the others, and a join is refused in words."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from bot.queue.service import QueueService
from bot.sessions import Refusal, SessionService
from engines.core import said
from languages import ENGLISH, Language

GUILD, CHANNEL = 7, 500


class Posts:
    """The queue's posts, kept in lists (threads numbered from 1000).  A message settled by what it
    says and its line (``shown``) holds that one line, however often it is written: the line it
    had before leaves ``posted``."""

    def __init__(self) -> None:
        self.threads: list[int] = []
        self.posted: list[tuple[int, str, tuple[int, ...]]] = []
        self.written: dict[int, tuple[int, str, tuple[int, ...]]] = {}  # message -> its line, so settled
        self.dms: list[tuple[int, str]] = []
        self.boards: list[int] = []
        self.left: set[int] = set()  # people no longer in the server

    async def language(self, guild_id: int) -> Language:
        return ENGLISH

    async def server_name(self, guild_id: int) -> str:
        return "Home"

    async def open_thread(self, channel_id: int, name: str) -> int | None:
        self.threads.append(1000 + len(self.threads))
        return self.threads[-1]

    async def post(self, channel_id, guild_id, text, *, pings: Sequence[int] = (), confirm=None):
        self.posted.append((channel_id, text, tuple(pings)))
        return len(self.posted)

    async def settle(self, channel_id, guild_id, message_id, text, *, shown=None) -> bool:
        line = (channel_id, text, ())
        if shown is not None and message_id in self.written:
            self.posted.remove(self.written[message_id])
        self.posted.append(line)
        if shown is not None:
            self.written[message_id] = line
        return True

    async def direct(self, user_id: int, text: str) -> bool:
        self.dms.append((user_id, text))
        return True

    async def announce(self, result) -> None:
        self.boards.append(result.session.id)

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        return user_id not in self.left


@pytest.fixture
async def queue(store):
    await store.queue.set_channel(GUILD, CHANNEL)
    return QueueService(store, SessionService(store), Posts())


async def join(queue, uid: int, **kw) -> None:
    values = dict(guild_id=GUILD, user_id=uid, name=f"u{uid}", game="pachakuna", at_once=True)
    await queue.join(**{**values, **kw})


async def stopped_after(queue, owner, name: str, *, at_once: bool = False):
    """1 and 2 join to confirm (``at_once``: to start at once), and the process stops right after
    ``owner.name`` (a step of opening their table) is done; the step as it was, to put back at
    the restart."""
    real = getattr(owner, name)

    async def stopped(*args, **kwargs):
        await real(*args, **kwargs)
        raise RuntimeError("the process stopped")

    setattr(owner, name, stopped)
    for uid in (1, 2):
        await join(queue, uid, at_once=at_once)
    with pytest.raises(RuntimeError):
        await queue.match(GUILD)
    return real


async def asked_anew_after_the_time_to_confirm(queue, clock):
    """After a restart (the part that stopped put back), the time to confirm of the table whose
    opening was cut short runs out: nobody is told they did not confirm what they were never
    asked, and both people are at a table formed again, asked to confirm this time."""
    restarted = QueueService(queue.store, queue.sessions, queue.posts)
    clock.advance(12 * 3600)
    (due,) = [j for j in await queue.store.jobs.pending("queue_confirm") if j.due_at <= clock.time()]
    await restarted.unconfirmed(due)
    assert queue.posts.dms == []
    (opened,) = await restarted.store.queue.tables("confirming")
    assert {e.user_id for e in await queue.store.queue.seated(opened.id)} == {1, 2}
    assert opened.message_id is not None
    return opened


async def test_a_person_the_gate_refuses_is_not_seated_and_waits_on(queue):
    async def gate(guild_id: int, user_id: int, game: str):
        return said("too many games running") if user_id == 1 else None

    queue.tables.gate = gate
    for uid in (1, 2, 3):
        await join(queue, uid)
    (opened,) = await queue.match(GUILD)
    assert set(opened.table.user_ids) == {2, 3} and opened.started
    assert [e.user_id for e in await queue.store.queue.entries(GUILD)] == [1]


async def test_a_lobby_refusal_takes_that_person_out_and_returns_the_others(queue):
    join_seat = queue.sessions.lobby.join

    async def refusing(channel_id: int, user_id: int, name: str):
        if user_id == 2:
            raise Refusal("you have too many games running")
        return await join_seat(channel_id, user_id, name)

    queue.sessions.lobby.join = refusing
    for uid in (1, 2, 3):
        await join(queue, uid)
    (opened,) = await queue.match(GUILD)
    assert set(opened.table.user_ids) == {1, 3}  # formed again without 2
    assert queue.posts.dms == [
        (
            2,
            "You could not be seated at the P'achakuna table the queue formed: you have too many games running."
            " You have left the queue.",
        )
    ]
    first = await queue.sessions.core.latest(queue.posts.threads[0])
    assert first.status == "abandoned"
    assert await queue.store.queue.entries(GUILD) == []


async def test_a_person_who_left_the_server_leaves_the_queue_as_a_table_forms(queue):
    """Person 1 left the server while waiting: the table forms without them, and they are out of
    the queue (with no job left to expire their wait)."""
    for uid in (1, 2, 3):
        await join(queue, uid, max_wait_hours=24)
    queue.posts.left.add(1)
    (opened,) = await queue.match(GUILD)
    assert set(opened.table.user_ids) == {2, 3} and opened.started
    assert await queue.store.queue.entries(GUILD) == []
    assert [j.key for j in await queue.store.jobs.pending("queue_expire")] == []


async def test_joining_is_refused_in_words(queue):
    with pytest.raises(Refusal, match="seats 2 to 2 players"):
        await join(queue, 1, players="3")
    with pytest.raises(Refusal, match="counts like 3, 2-4 or 2,4"):
        await join(queue, 1, players="two")
    with pytest.raises(Refusal, match="no queue channel"):
        await join(queue, 1, guild_id=GUILD + 1)
    await queue.avoid(1, 2)
    with pytest.raises(Refusal, match="already avoid"):
        await queue.avoid(1, 2)
    with pytest.raises(Refusal, match="yourself"):
        await queue.avoid(1, 1)
    with pytest.raises(Refusal, match="not in this server's queue"):
        await queue.leave(GUILD, 1)
    assert await queue.store.queue.entries(GUILD) == []


async def test_a_wait_that_ends_while_a_table_is_confirmed_ends_after_the_answer(queue, clock):
    """Person 1's hour runs out while they are asked to confirm: they stay at the table; when the
    table is given back (person 2 did not confirm), their wait ends and they are told."""
    await join(queue, 1, at_once=False, max_wait_hours=1)
    await join(queue, 2, at_once=False, max_wait_hours=24)
    (opened,) = await queue.match(GUILD)
    table = await queue.store.queue.table(opened.table_id)
    clock.advance(3600)
    (due,) = [j for j in await queue.store.jobs.pending("queue_expire") if j.key == f"{GUILD}:1"]
    await queue.expired(due)
    assert [e.user_id for e in await queue.store.queue.seated(opened.table_id)] == [1, 2]
    (again,) = [j for j in await queue.store.jobs.pending("queue_expire") if j.key == f"{GUILD}:1"]
    assert again.due_at == table.confirm_by + 1
    await queue.confirm(opened.table_id, 1)
    clock.advance(table.confirm_by - clock.time())
    (confirm,) = await queue.store.jobs.pending("queue_confirm")
    await queue.unconfirmed(confirm)
    assert [e.user_id for e in await queue.store.queue.entries(GUILD)] == [1]  # 2 left, 1 waits again
    clock.advance(1)
    await queue.expired(again)
    assert await queue.store.queue.entries(GUILD) == []
    assert [
        u for u, text in queue.posts.dms if "no game of yours started within the 1 hour you chose" in text
    ] == [1]


async def test_the_servers_cap_keeps_a_person_from_a_queue_table(queue):
    """Wired as the bot wires it (:func:`bot.profiles.queue_admissible`): a person at the
    server's cap on running games waits on while the others are seated, and the refusal says
    why; with the cap lifted, they are seated."""
    from bot import profiles
    from bot.storage.profiles import ServerGates

    queue.tables.gate = lambda guild_id, user_id, game: profiles.queue_admissible(
        queue.store, guild_id, user_id, game
    )
    await queue.store.profiles.set_server_gates(GUILD, ServerGates(cap=1))
    await queue.sessions.lobby.create("tiwanaku", guild_id=GUILD, channel_id=77, host_id=1, host_name="u1")
    refusal = await profiles.queue_admissible(queue.store, GUILD, 1, "pachakuna")
    assert refusal is not None and "this server allows 1 per person" in refusal.in_words(ENGLISH)
    for uid in (1, 2, 3):
        await join(queue, uid)
    (opened,) = await queue.match(GUILD)
    assert set(opened.table.user_ids) == {2, 3}
    assert [e.user_id for e in await queue.store.queue.entries(GUILD)] == [1]
    await queue.store.profiles.set_server_gates(GUILD, ServerGates(cap=0))
    await join(queue, 4)
    (second,) = await queue.match(GUILD)
    assert set(second.table.user_ids) == {1, 4}


@pytest.mark.parametrize("at_once", [False, True])
async def test_a_person_who_leaves_while_their_table_opens_is_not_left_seated_in_its_lobby(queue, at_once):
    """Person 2 leaves the queue while the thread of the table formed for 1 and 2 is being opened
    (a Discord call): the table is not played, its lobby closes instead of staying open with them
    seated (whether it was to start at once or after confirmations), the thread says so, and
    person 1 waits again."""
    opening = queue.posts.open_thread
    leaving: list = []

    async def slow_thread(channel_id: int, name: str) -> int | None:
        thread = await opening(channel_id, name)
        if not leaving:  # /queue leave arrives meanwhile; it waits for the matching to finish
            leaving.append(asyncio.create_task(queue.leave(GUILD, 2)))
            for _ in range(10_000):  # until the leave has given the table back
                if await queue.store.queue.entry(GUILD, 2) is None:
                    break
                await asyncio.sleep(0)
        return thread

    queue.posts.open_thread = slow_thread
    for uid in (1, 2):
        await join(queue, uid, at_once=at_once)
    await queue.match(GUILD)
    await leaving[0]
    lobby = await queue.sessions.core.latest(queue.posts.threads[0])
    assert lobby.status == "abandoned", lobby.status
    assert [e.user_id for e in await queue.store.queue.entries(GUILD)] == [1]
    assert (await queue.store.queue.entry(GUILD, 1)).table_id is None
    assert await queue.store.jobs.pending("queue_confirm") == []
    said_there = [text for channel, text, _ in queue.posts.posted if channel == queue.posts.threads[0]]
    assert said_there[-1] == "This table could not be seated; the others wait in the queue again."


async def test_a_table_whose_opening_was_cut_short_gives_its_people_back_after_the_time_to_confirm(
    queue, clock
):
    """The process stops while a table's thread is being opened (after its people were held):
    once the time to confirm is over, they wait in the queue again at their places (nobody is
    dropped for not confirming what they were never asked), and a new matching seats them."""
    opening = queue.posts.open_thread

    async def stopped(channel_id: int, name: str) -> int | None:
        raise RuntimeError("the process stopped")

    queue.posts.open_thread = stopped
    for uid in (1, 2):
        await join(queue, uid, at_once=False)
    with pytest.raises(RuntimeError):
        await queue.match(GUILD)
    assert {e.table_id is not None for e in await queue.store.queue.entries(GUILD)} == {True}
    queue.posts.open_thread = opening  # after a restart
    await asked_anew_after_the_time_to_confirm(queue, clock)


@pytest.mark.parametrize("ending", ["abandoned", "resigned"])
async def test_people_the_cap_held_back_are_seated_as_soon_as_a_game_of_theirs_ends(queue, ending):
    """Under a cap of one running game, 1 and 2 play a queue table and join the queue again: held
    back, they wait.  When their game ends (abandoned, or by a resignation), the queue forms
    again at once and seats them, with no join or change of the gates."""
    from bot import profiles
    from bot.storage.profiles import ServerGates

    queue.tables.gate = lambda guild_id, user_id, game: profiles.queue_admissible(
        queue.store, guild_id, user_id, game
    )
    await queue.store.profiles.set_server_gates(GUILD, ServerGates(cap=1))
    for uid in (1, 2):
        await join(queue, uid, players="2")
    (first,) = await queue.match(GUILD)
    assert first.started and first.session is not None
    for uid in (1, 2):
        await join(queue, uid, players="2")
    assert await queue.match(GUILD) == []  # both are at the cap
    channel = first.session.row.channel_id
    if ending == "abandoned":
        await queue.sessions.seats.abandon(channel, 1, can_manage=True)
    else:
        await queue.sessions.seats.resign(channel, 2)
    await queue.settled()
    assert await queue.store.queue.entries(GUILD) == []
    assert len(queue.posts.threads) == 2  # the second table's thread


async def test_what_the_queue_tells_waits_out_no_quiet_hours_by_direct_message(queue, clock):
    """Three waits run out at 09:00 UTC.  Person 1 (quiet hours 6-10, notices as mentions) and
    person 2 (quiet hours 6-10, notices by DM) get no direct message then: the queue channel names
    them, pinging only 1.  Person 3, without quiet hours, is told by direct message."""
    from dataclasses import replace

    assert clock.time() % 86400 == 8 * 3600  # the suite's clock starts at 08:00 UTC
    for uid, notify in ((1, "thread"), (2, "dm")):
        person = await queue.store.people.person(uid)
        await queue.store.people.save_person(replace(person, notify=notify, quiet_start=6, quiet_end=10))
    for uid in (1, 2, 3):
        await join(queue, uid, max_wait_hours=1)
    clock.advance(3600)
    for due in await queue.store.jobs.pending("queue_expire"):
        await queue.expired(due)
    assert await queue.store.queue.entries(GUILD) == []
    assert [u for u, _ in queue.posts.dms] == [3]
    told = {text.split(" ", 1)[0]: pings for channel, text, pings in queue.posts.posted if channel == CHANNEL}
    assert told == {"<@1>": (1,), "<@2>": ()}


async def test_a_person_away_keeps_their_place_unseated_and_is_seated_when_back(queue, clock):
    """Person 1 took five days away (/me away) and waits in the queue: a table formed with them
    would wait for them, so 2 and 3 are seated together and 1 keeps their place, told why and
    what ends it.  When 1 comes back (/me back), the queue forms again at once: 1 and 4."""
    from bot import notices

    person = notices.take_away(await queue.store.people.person(1), 5, None, clock.time(), 30)
    await queue.store.people.save_person(person)
    for uid in (1, 2, 3):
        await join(queue, uid, max_wait_hours=24)
    held = await queue.held_back(GUILD, 1, "pachakuna")
    assert held is not None
    assert held.in_words(ENGLISH).startswith("you are away until ") and "/me back" in held.in_words(ENGLISH)
    (opened,) = await queue.match(GUILD)
    assert set(opened.table.user_ids) == {2, 3}
    assert [e.user_id for e in await queue.store.queue.entries(GUILD)] == [1]
    clock.advance(3600)
    await join(queue, 4, max_wait_hours=24)
    await queue.store.people.save_person(notices.come_back(person, clock.time()))
    assert await queue.held_back(GUILD, 1, "pachakuna") is None
    await queue.came_back(1)
    assert await queue.store.queue.entries(GUILD) == []
    assert len(queue.posts.threads) == 2
    second = await queue.sessions.core.latest(queue.posts.threads[1])
    assert {s.user_id for s in second.seats} == {1, 4}


async def test_a_table_cut_short_after_its_lobby_opened_closes_that_lobby_when_given_back(queue, clock):
    """The process stops after a table's lobby opened with both people seated, before they were
    asked to confirm (the post with the button never went out).  When the time to confirm is
    over, the lobby closes (it would otherwise stay open with them seated, counting against the
    server's cap) and they wait again, to be asked anew."""
    posting = queue.posts.post

    async def stopped(*args, **kwargs):
        raise RuntimeError("the process stopped")

    queue.posts.post = stopped
    for uid in (1, 2):
        await join(queue, uid, at_once=False)
    with pytest.raises(RuntimeError):
        await queue.match(GUILD)
    lobby = await queue.sessions.core.latest(queue.posts.threads[0])
    assert lobby.status == "lobby" and {s.user_id for s in lobby.seats} == {1, 2}
    queue.posts.post = posting  # after a restart
    await asked_anew_after_the_time_to_confirm(queue, clock)
    assert (await queue.sessions.core.get(lobby.id)).status == "abandoned"


async def test_a_person_who_leaves_while_the_seats_are_taken_is_not_told_they_were_refused(queue):
    """Person 2 leaves the queue while the lobby of their table with 1 is being filled: the table
    is given back and its lobby closes; 2 is not told they "could not be seated", and 1 waits
    again with their wait still armed."""
    seat = queue.sessions.lobby.join
    leaving: list = []

    async def slow_join(channel_id: int, user_id: int, name: str):
        if not leaving:
            leaving.append(asyncio.create_task(queue.leave(GUILD, 2)))
            for _ in range(10_000):
                if await queue.store.queue.entry(GUILD, 2) is None:
                    break
                await asyncio.sleep(0)
        return await seat(channel_id, user_id, name)

    queue.sessions.lobby.join = slow_join
    for uid in (1, 2):
        await join(queue, uid, at_once=False)
    assert await queue.match(GUILD) == []
    await leaving[0]
    assert queue.posts.dms == []
    assert [e.user_id for e in await queue.store.queue.entries(GUILD)] == [1]
    assert (await queue.store.queue.entry(GUILD, 1)).table_id is None
    assert [j.key for j in await queue.store.jobs.pending("queue_expire")] == [f"{GUILD}:1"]
    lobby = await queue.sessions.core.latest(queue.posts.threads[0])
    assert lobby.status == "abandoned"


async def test_leaving_a_table_being_confirmed_names_the_leaver_as_written(queue):
    """The table's Confirm message is replaced by who left: a name's markdown is escaped there, so
    ``**ana`` shows as written rather than bolding the rest of the message."""
    await join(queue, 1, name="**ana", at_once=False)
    await join(queue, 2, name="bo||", at_once=False)
    await queue.match(GUILD)
    assert [e.table_id is not None for e in await queue.store.queue.entries(GUILD)] == [True, True]
    await queue.leave(GUILD, 1)
    said = queue.posts.posted[-1][1]
    assert said.startswith("\\*\\*ana left the queue; the others wait in the queue again"), said


async def test_two_people_leaving_their_table_at_once_both_leave_the_queue(queue):
    """1 and 2 are asked to confirm their table; 3 waits.  Both leave at once: 1's leave gives
    the table back (and the queue seats 2 with 3) while 2's is under way.  2 is out of the queue
    all the same, not seated with 3; 3 waits on, unseated."""
    for uid in (1, 2, 3):
        await join(queue, uid, at_once=False)
    await queue.match(GUILD)
    entry = queue.store.queue.entry
    crossed: list[bool] = []

    async def crossing(guild_id: int, user_id: int):
        found = await entry(guild_id, user_id)
        if user_id == 2 and not crossed:  # 2's leave has read their place; 1's leave lands now
            crossed.append(True)
            await queue.leave(GUILD, 1)
        return found

    queue.store.queue.entry = crossing
    await queue.leave(GUILD, 2)
    waiting = await queue.store.queue.entries(GUILD)
    assert [(e.user_id, e.table_id) for e in waiting] == [(3, None)]
    assert [j.key for j in await queue.store.jobs.pending("queue_expire")] == [f"{GUILD}:3"]
    for thread in queue.posts.threads:
        assert (await queue.sessions.core.latest(thread)).status == "abandoned"


async def test_the_queue_list_writes_a_name_as_written(queue):
    """``/queue list``: each person's line starts with their name in bold; a name's own ``**``
    is escaped, so it neither ends the bold early nor bolds the rest of the list."""
    from cogs.queue import wishes

    await join(queue, 1, name="**ana")
    (entry,) = await queue.store.queue.entries(GUILD)
    assert wishes(entry, ENGLISH).startswith("**\\*\\*ana**: P'achakuna"), wishes(entry, ENGLISH)


async def test_people_waiting_for_other_options_never_share_a_table(queue):
    """Guanga in master mode: the two who wait for it sit together, in a master-mode game, whose
    post names it; the one who waits for the defaults (beginner mode, which a lobby names) waits
    on until someone else waits for the same."""
    await join(queue, 1, game="guanga", players="2", options="mode=master")
    await join(queue, 2, game="guanga", players="2")
    await join(queue, 3, game="guanga", players="2", options="mode=master")
    (opened,) = await queue.match(GUILD)
    assert opened.table.user_ids == (1, 3) and opened.started
    assert opened.session.row.options["mode"] == "master"
    posted = [text for _, text, _ in queue.posts.posted]
    assert any("Options: master mode" in text for text in posted), posted
    (waiting,) = await queue.store.queue.entries(GUILD)
    assert waiting.user_id == 2 and waiting.options == "{}"
    await join(queue, 4, game="guanga", players="2", options="mode=beginner")  # the default, named
    (opened,) = await queue.match(GUILD)
    assert opened.table.user_ids == (2, 4) and opened.session.row.options["mode"] == "beginner"
    assert any("Options: beginner mode" in text for _, text, _ in queue.posts.posted[len(posted) :])


async def test_options_are_refused_in_words_and_narrow_the_counts_left_out(queue):
    with pytest.raises(Refusal, match='"mode" is not an option; write options as name=value'):
        await join(queue, 1, game="guanga", options="mode")
    with pytest.raises(Refusal, match='unknown option "colour"; this game\'s options are'):
        await join(queue, 1, game="guanga", options="colour=red")
    with pytest.raises(Refusal, match="stoppers variant is only played in the modes beginner and apprentice"):
        await join(queue, 1, game="guanga", options="mode=master stoppers=yes")
    with pytest.raises(Refusal, match="these options do not make a table of 3 players: the short 5 x 5"):
        await join(queue, 1, game="tiwanaku", players="2-3", options="board=short")
    assert await queue.store.queue.entries(GUILD) == []
    await join(queue, 1, game="tiwanaku", options="board=short")  # players left out: 2 only
    (entry,) = await queue.store.queue.entries(GUILD)
    assert entry.counts == (2,) and entry.options == '{"board": "short"}'


async def test_an_option_whose_value_holds_commas_is_taken_whole(queue):
    """``hard_seats=1,2`` names two seats: the comma inside the value does not split it (commas
    between options still do)."""
    await join(queue, 1, game="nowa_gwinea", players="3", options="hard_seats=1,2, fruit_for_all=yes")
    (entry,) = await queue.store.queue.entries(GUILD)
    assert entry.options == '{"fruit_for_all": true, "hard_seats": "1,2"}'


async def test_options_are_taken_by_their_spanish_names_too(queue):
    """A Spanish client shows an option's Spanish name, so the queue takes it as it takes the English
    one (a league's options are read the same way)."""
    await join(queue, 1, game="nowa_gwinea", players="3", options="asientos_difíciles=1,2")
    (entry,) = await queue.store.queue.entries(GUILD)
    assert entry.options == '{"hard_seats": "1,2"}'


async def test_a_table_whose_game_was_started_from_its_lobby_before_everyone_confirmed_is_not_given_back(
    queue, clock
):
    """1 and 2 are asked to confirm their table; 1 (its host) confirms and starts the game from its
    lobby before 2 confirms.  That start is refused now (tests/queue/test_confirming_lobby.py), but
    a version before let it through, and such a game may be stored: when the time to confirm runs
    out, nobody is put back in the queue or told they left it: both play the game, and 3, who
    joins after, is not seated with 1."""
    from bot.time.jobs import QUEUE_CONFIRM

    for uid in (1, 2):
        await join(queue, uid, at_once=False)
    (opened,) = await queue.match(GUILD)
    await queue.confirm(opened.table_id, 1)
    thread = queue.posts.threads[0]
    with pytest.raises(Refusal, match="waiting for: u2"):
        await queue.sessions.lobby.start(thread, 1)
    queue.sessions.core.start_checks.remove(queue.start_refused)  # as an earlier version started it
    await queue.sessions.lobby.start(thread, 1)
    (job,) = await queue.store.jobs.pending(QUEUE_CONFIRM)
    clock.advance(13 * 3600)
    await queue.unconfirmed(job)
    await join(queue, 3, at_once=False)
    await queue.match(GUILD)
    assert [(e.user_id, e.table_id) for e in await queue.store.queue.entries(GUILD)] == [(3, None)]
    assert queue.posts.dms == []
    assert (await queue.sessions.core.latest(thread)).status == "active"
    assert [j.key for j in await queue.store.jobs.pending("queue_expire")] == [f"{GUILD}:3"]
    assert len(queue.posts.threads) == 1


async def test_someone_who_leaves_the_tables_lobby_leaves_the_queue_and_the_others_wait_again(queue):
    """1 and 2 are asked to confirm their table; 2 confirms, then leaves its lobby (its Leave
    button): the table is given back then (tests/queue/test_confirming_lobby.py).  When 1
    confirms, the game does not try to start with one player: 1 is told the table was not played
    and that they wait again, the thread says 2 left, 2 is out of the queue and 1 waits again at
    their place, to be seated with 3 who comes next."""
    for uid in (1, 2):
        await join(queue, uid, at_once=False)
    (opened,) = await queue.match(GUILD)
    thread = queue.posts.threads[0]
    await queue.confirm(opened.table_id, 2)
    await queue.sessions.lobby.leave(thread, 2)
    await queue.settled()  # (the table given back as 2 left)
    with pytest.raises(
        Refusal, match=r"this table was not played; you wait in the queue again, at your place"
    ):
        await queue.confirm(opened.table_id, 1)
    assert queue.posts.posted[-1][1].startswith("u2 left the queue; the others wait in the queue again")
    assert [(e.user_id, e.table_id) for e in await queue.store.queue.entries(GUILD)] == [(1, None)]
    assert [j.key for j in await queue.store.jobs.pending("queue_expire")] == [f"{GUILD}:1"]
    assert (await queue.sessions.core.latest(thread)).status == "abandoned"
    await join(queue, 3)
    (again,) = await queue.match(GUILD)
    assert again.table.user_ids == (1, 3)


async def test_a_person_whose_time_away_runs_out_is_seated_then(queue, clock):
    """Person 1 took a day away (/me away) and waits in the queue with 2: nobody is seated while 1
    is away.  The day runs out without /me back and nobody else joins: the queue forms their
    table then, through the jobs due at that time."""
    from bot import notices

    person = notices.take_away(await queue.store.people.person(1), 1, None, clock.time(), 30)
    await queue.store.people.save_person(person)
    for uid in (1, 2):
        await join(queue, uid, max_wait_hours=48)
    assert await queue.match(GUILD) == []
    handlers = {"queue_expire": queue.expired, "queue_confirm": queue.unconfirmed}
    handlers["queue_back"] = getattr(queue, "back", None)
    clock.advance(24 * 3600 + 60)
    for job in await queue.store.jobs.pending():
        if job.due_at <= clock.time():
            await handlers[job.kind](job)
    assert await queue.store.queue.entries(GUILD) == []
    (thread,) = queue.posts.threads
    assert {s.user_id for s in (await queue.sessions.core.latest(thread)).seats} == {1, 2}


async def test_a_person_who_changes_their_wishes_while_tables_form_is_seated_by_the_new_ones(queue):
    """1 and 2 wait for P'achakuna.  While the queue is forming tables (its gate is being asked),
    1 joins again for Tiwanaku: 1 is not seated at the P'achakuna table formed from their old
    wishes; both wait, each for their own game."""
    changed: list[int] = []

    async def gate(guild_id: int, user_id: int, game: str):
        if not changed:
            changed.append(user_id)
            await join(queue, 1, game="tiwanaku")
        return None

    for uid in (1, 2):
        await join(queue, uid)
    queue.tables.gate = gate
    assert await queue.match(GUILD) == []
    waiting = await queue.store.queue.entries(GUILD)
    assert [(e.user_id, e.game, e.table_id) for e in waiting] == [
        (2, "pachakuna", None),
        (1, "tiwanaku", None),
    ]
    assert queue.posts.threads == []


async def test_a_table_everyone_confirmed_starts_even_if_no_confirmation_started_it(queue, clock):
    """1 and 2 press Confirm at the same moment: on PostgreSQL each confirmation may be stored
    while the other is not yet, so that neither sees everyone confirmed.  When the time to confirm
    runs out, the table whose people all confirmed starts; it is not given back (with "0 people
    did not confirm") and formed again in a new thread."""
    from bot.time.jobs import QUEUE_CONFIRM

    for uid in (1, 2):
        await join(queue, uid, at_once=False)
    (opened,) = await queue.match(GUILD)
    for uid in (1, 2):  # stored, as two confirmations at once leave them, with no start
        await queue.store.queue.confirm(opened.table_id, uid)
    (job,) = await queue.store.jobs.pending(QUEUE_CONFIRM)
    clock.advance(13 * 3600)
    await queue.unconfirmed(job)
    (thread,) = queue.posts.threads
    assert (await queue.sessions.core.latest(thread)).status == "active"
    assert await queue.store.queue.entries(GUILD) == []
    assert queue.posts.dms == []


async def test_the_last_confirmation_starts_the_game_even_when_the_other_landed_while_it_was_counted(queue):
    """1 and 2 press Confirm at the same moment.  On PostgreSQL, 1's confirmation may count the
    table's confirmations before 2's is stored, and 2's before 1's: each then sees someone still
    to confirm.  Here 2's is stored and 1's count saw it missing: the game starts all the same,
    and 1 is told so (not left waiting until the time to confirm runs out)."""
    for uid in (1, 2):
        await join(queue, uid, at_once=False)
    (opened,) = await queue.match(GUILD)
    stored = queue.store.queue.confirm

    async def counted_before_the_other(table_id: int, user_id: int):
        changed, _ = await stored(table_id, user_id)
        return changed, False  # as a count made before the other confirmation was stored

    await stored(opened.table_id, 2)
    queue.store.queue.confirm = counted_before_the_other
    answer = await queue.confirm(opened.table_id, 1)
    assert answer.in_words(ENGLISH) == "Everyone confirmed: the game has started"
    (thread,) = queue.posts.threads
    assert (await queue.sessions.core.latest(thread)).status == "active"
    assert await queue.store.queue.entries(GUILD) == []


async def test_a_confirmation_that_lands_as_the_confirm_message_goes_out_starts_the_game_cleanly(queue):
    """1 chose to start at once, 2 to confirm.  2 presses Confirm the moment the message with the
    button appears, before the table has kept which message it is: the game starts, and its
    thread is not then told that the table "could not be seated"; the Confirm message says the
    game started (its button gone), and nobody waits in the queue any more."""
    posting = queue.posts.post
    clicked: list = []

    async def clicked_at_once(channel_id, guild_id, text, *, pings=(), confirm=None):
        message_id = await posting(channel_id, guild_id, text, pings=pings, confirm=confirm)
        if confirm is not None and not clicked:
            clicked.append(await queue.confirm(confirm, 2))
        return message_id

    queue.posts.post = clicked_at_once
    await join(queue, 1, at_once=True)
    await join(queue, 2, at_once=False)
    (opened,) = await queue.match(GUILD)
    assert [c.in_words(ENGLISH) for c in clicked] == ["Everyone confirmed: the game has started"]
    assert opened.started and opened.session is not None
    (thread,) = queue.posts.threads
    assert (await queue.sessions.core.latest(thread)).status == "active"
    assert queue.posts.boards == [opened.session.id]
    said_there = [text for channel, text, _ in queue.posts.posted if channel == thread]
    assert not any("could not be seated" in text for text in said_there), said_there
    assert said_there[-1] == "Everyone confirmed: the game has started", said_there
    assert await queue.store.queue.entries(GUILD) == []
    assert (await queue.store.queue.table(opened.table_id)).status == "started"


async def test_a_table_cut_short_as_its_lobby_opened_closes_that_lobby_when_given_back(queue, clock):
    """The process stops right after a table's lobby was opened in its thread (its host seated),
    before the table kept which game is its own.  When the time to confirm is over, that lobby
    closes (it stayed open for ever with the host seated, a game counted against their cap) and
    both people are asked anew at a new table."""
    create = await stopped_after(queue, queue.sessions.lobby, "create")
    lobby = await queue.sessions.core.latest(queue.posts.threads[0])
    assert lobby.status == "lobby" and [s.user_id for s in lobby.seats] == [1]
    queue.sessions.lobby.create = create  # after a restart
    opened = await asked_anew_after_the_time_to_confirm(queue, clock)
    assert (await queue.sessions.core.get(lobby.id)).status == "abandoned"
    assert opened.channel_id == queue.posts.threads[1]


async def test_a_table_cut_short_as_its_people_were_held_gives_them_back_after_the_time_to_confirm(
    queue, clock
):
    """The process stops the moment a table holds its people, before anything else of it is
    stored: they wait in the queue again once its time to confirm is over (they were held by it
    for good, never asked and never formed again)."""
    hold = await stopped_after(queue, queue.store.queue, "hold")
    assert {e.table_id is not None for e in await queue.store.queue.entries(GUILD)} == {True}
    queue.store.queue.hold = hold  # after a restart
    await asked_anew_after_the_time_to_confirm(queue, clock)


async def test_two_last_confirmations_at_once_both_hear_that_the_game_started(queue):
    """1 and 2 press Confirm at the same moment and each sees everyone confirmed: 1's start has
    marked the table started and is setting up the game when 2's start looks at the table and
    starts the game first.  1 is told the game started, not refused with "this game has already
    started"; the game starts once, with one first board."""
    for uid in (1, 2):
        await join(queue, uid, at_once=False)
    (opened,) = await queue.match(GUILD)
    await queue.store.queue.confirm(opened.table_id, 2)
    start = queue.sessions.lobby.start
    others: list[bool] = []
    arrived: list[bool] = []

    async def the_other_start_first(*args, **kwargs):
        if not arrived:  # 2's start, which saw everyone confirmed too, gets there first
            arrived.append(True)
            others.append(await queue.tables.start(opened.table_id))
        return await start(*args, **kwargs)

    queue.sessions.lobby.start = the_other_start_first
    answer = await queue.confirm(opened.table_id, 1)
    assert answer.in_words(ENGLISH) == "Everyone confirmed: the game has started"
    assert others == [True]
    game = await queue.sessions.core.get(opened.session.id)
    assert game.status == "active" and {s.user_id for s in game.seats} == {1, 2}
    assert queue.posts.boards == [game.id]
    assert await queue.store.queue.entries(GUILD) == []


async def test_a_table_started_at_once_and_cut_short_before_its_start_starts_after_the_time_to_confirm(
    queue, clock
):
    """1 and 2 chose to start at once; the process stops after their table's post went out and
    before its game started.  When the time to confirm is over the game starts in that thread,
    as everyone chose (it was given back, its lobby closed, and formed again in a new thread)."""
    post = await stopped_after(queue, queue.posts, "post", at_once=True)
    queue.posts.post = post  # after a restart
    (table,) = await queue.store.queue.tables("confirming")
    restarted = QueueService(queue.store, queue.sessions, queue.posts)
    clock.advance(table.confirm_by - clock.time())
    (due,) = await queue.store.jobs.pending("queue_confirm")
    await restarted.unconfirmed(due)
    (thread,) = queue.posts.threads
    game = await queue.sessions.core.latest(thread)
    assert game.status == "active" and {s.user_id for s in game.seats} == {1, 2}
    assert queue.posts.boards == [game.id]
    assert await queue.store.queue.entries(GUILD) == []
    assert queue.posts.dms == []


async def test_a_table_started_at_once_and_cut_short_while_seating_is_formed_again(queue, clock):
    """The same, cut short before 2 was seated in the lobby: that lobby is not started without
    them (nor is 2 taken for someone who left it); it closes, and the two are seated again at a
    table formed anew, which starts at once."""
    create = await stopped_after(queue, queue.sessions.lobby, "create", at_once=True)
    queue.sessions.lobby.create = create  # after a restart
    clock.advance(12 * 3600)
    (due,) = await queue.store.jobs.pending("queue_confirm")
    await QueueService(queue.store, queue.sessions, queue.posts).unconfirmed(due)
    first, again = queue.posts.threads
    assert (await queue.sessions.core.latest(first)).status == "abandoned"
    game = await queue.sessions.core.latest(again)
    assert game.status == "active" and {s.user_id for s in game.seats} == {1, 2}
    assert queue.posts.dms == []


async def test_a_confirm_message_left_by_a_stop_after_the_game_started_is_updated_when_its_time_runs_out(
    queue, clock
):
    """The process stops after the last confirmation started the game and before the Confirm
    message was updated.  Its time to confirm still runs out after the restart, and then the
    message says the game has started, linking its thread (it lost its button); the game is
    not started again."""
    for uid in (1, 2):
        await join(queue, uid, at_once=False)
    (opened,) = await queue.match(GUILD)
    await queue.confirm(opened.table_id, 1)
    settle = queue.posts.settle

    async def stopped(*args, **kwargs):
        raise RuntimeError("the process stopped")

    queue.posts.settle = stopped
    with pytest.raises(RuntimeError):
        await queue.confirm(opened.table_id, 2)
    queue.posts.settle = settle  # after a restart
    game = await queue.sessions.core.get(opened.session.id)
    assert game.status == "active"
    restarted = QueueService(queue.store, queue.sessions, queue.posts)
    table = await queue.store.queue.table(opened.table_id)
    clock.advance(table.confirm_by - clock.time())
    (due,) = await queue.store.jobs.pending("queue_confirm")
    await restarted.unconfirmed(due)
    thread = table.channel_id
    assert queue.posts.posted[-1] == (thread, f"The game has started: <#{thread}>", ())
    assert (await queue.sessions.core.get(game.id)).version == game.version


async def test_a_channel_that_takes_no_thread_leaves_everyone_waiting_at_their_places(queue):
    """The queue channel takes no thread now (a permission taken away): the table is given back
    and matching stops; its people wait on at their places, no lobby opened, nobody told."""

    async def no_thread(channel_id: int, name: str) -> int | None:
        return None

    queue.posts.open_thread = no_thread
    for uid in (1, 2):
        await join(queue, uid)
    assert await queue.match(GUILD) == []
    entries = await queue.store.queue.entries(GUILD)
    assert [(e.user_id, e.table_id) for e in entries] == [(1, None), (2, None)]
    assert [t.status for t in await queue.store.queue.tables("returned")] == ["returned"]
    assert queue.posts.posted == [] and queue.posts.dms == []


async def test_a_lobby_that_cannot_open_gives_its_table_back_each_time(queue):
    """The table's lobby is refused (whatever the lobby says): the table is given back each time
    it forms again, its people waiting on at their places, until the matching's rounds are spent."""

    async def refused(*args, **kwargs):
        raise Refusal("this channel has a game already")

    queue.sessions.lobby.create = refused
    for uid in (1, 2):
        await join(queue, uid)
    assert await queue.match(GUILD) == []
    entries = await queue.store.queue.entries(GUILD)
    assert [(e.user_id, e.table_id) for e in entries] == [(1, None), (2, None)]
    assert len(await queue.store.queue.tables("returned")) == len(queue.posts.threads) == 50
    assert queue.posts.posted == [] and queue.posts.dms == []


async def test_a_table_with_computer_seats_starts_with_them(queue):
    """Two people who both take a computer at a three-seat table: the lobby seats the computer
    with them, and the game starts with all three."""
    for uid in (1, 2):
        await join(queue, uid, game="guacamole", players="3", computers=1)
    (opened,) = await queue.match(GUILD)
    assert opened.started and opened.table.computers == 1
    session = await queue.sessions.core.get(opened.session.id)
    assert session.status == "active"
    seats = sorted(((s.user_id or 0), s.computer) for s in session.seats)
    assert seats == [(0, True), (1, False), (2, False)]
