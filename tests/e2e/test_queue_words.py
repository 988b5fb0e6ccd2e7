"""The queue through the real bot: the place of someone past the tenth in `/queue list`, and a
queue table whose host abandons its lobby before everyone confirmed: given back, never "started".
(What a person the server's gate holds back is told: tests/e2e/test_queue.py.)"""

from __future__ import annotations

from tests.e2e.conftest import BASE_EXTENSIONS

EXTENSIONS = (*BASE_EXTENSIONS, "cogs.queue", "cogs.gates")


async def held_back(standin, bot, chan, table_clock, people) -> list[str]:
    """A server gate of 81 % holds back every new player (80 %): ``people`` join and wait; the
    answers to their joins."""
    owner = standin.owner
    await (await standin.slash(owner, chan, "queue channel", channel=chan)).original()
    await (await standin.slash(owner, chan, "gate server", reliability=81)).original()
    answers = []
    for p in people:
        table_clock.advance(60)
        answer = await (await standin.slash(p, chan, "queue join", game="pachakuna", max_wait=24)).original()
        answers.append(answer.content)
        await bot.front.replies.idle()
    return answers


async def test_the_queue_list_shows_your_place_past_the_tenth(standin, bot_factory, table_clock):
    chan = standin.channel("games")
    people = standin.add_users(*[f"p{i:02d}" for i in range(12)])
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await held_back(standin, bot, chan, table_clock, people)
        listed = (await (await standin.slash(people[-1], chan, "queue list")).original()).content
        lines = listed.splitlines()
        assert lines[0] == "12 people in the queue:" and lines[11] == "... and 2 more."
        assert lines[12].startswith("Your place: 12. **P11**"), listed
        first = (await (await standin.slash(people[0], chan, "queue list")).original()).content
        assert "Your place" not in first and "\n1. **P00**" in first  # (shown among the ten)


async def test_a_queue_table_whose_host_abandons_its_lobby_is_given_back(standin, bot_factory, table_clock):
    chan = standin.channel("games")
    ana, bo = standin.add_users("ana", "bo")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await (await standin.slash(standin.owner, chan, "queue channel", channel=chan)).original()
        before = {t.id for t in standin.guild.threads}
        for p in (ana, bo):
            table_clock.advance(60)
            await (await standin.slash(p, chan, "queue join", game="pachakuna", max_wait=24)).original()
            await bot.front.replies.idle()
        (thread,) = [t for t in standin.guild.threads if t.id not in before]
        ask = next(m for m in standin.messages(thread) if m.components)
        await (await standin.slash(ana, thread, "game abandon")).original()
        await bot.queue.settled()
        await bot.front.replies.idle()
        closed = standin.message(ask.id)
        assert not closed.components and closed.content.endswith(
            "\nThis table's lobby was closed before the game started; the others wait in the queue again,"
            " at their places."
        ), closed.content
        listed = (await (await standin.slash(bo, chan, "queue list")).original()).content
        assert listed.startswith("1 person in the queue:") and "**Bo**" in listed, listed
