"""The queue through the real bot: the place of someone past the tenth in `/queue list`; a
queue table whose host abandons its lobby before everyone confirmed: given back, never "started";
and a queue table's lobby before everyone confirmed: `/game start` refused, `/game leave` giving
the table back.  (What a person the server's gate holds back is told: tests/e2e/test_queue.py.)"""

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


async def asked(standin, bot, chan, table_clock, people):
    """The queue opened in ``chan``; ``people`` join it for P'achakuna, to confirm (the default):
    their table's thread, and its message with the Confirm button."""
    await (await standin.slash(standin.owner, chan, "queue channel", channel=chan)).original()
    before = {t.id for t in standin.guild.threads}
    for p in people:
        table_clock.advance(60)
        await (await standin.slash(p, chan, "queue join", game="pachakuna", max_wait=24)).original()
        await bot.front.replies.idle()
    (thread,) = [t for t in standin.guild.threads if t.id not in before]
    return thread, next(m for m in standin.messages(thread) if m.components)


async def given_back(standin, bot, ask, line: str, waiting) -> None:
    """The table of the Confirm message ``ask`` was given back: once the queue settled, the message
    ends with ``line`` and has no button, and ``waiting`` alone waits in the queue again."""
    await bot.queue.settled()
    await bot.front.replies.idle()
    closed = standin.message(ask.id)
    assert not closed.components and closed.content.endswith("\n" + line), closed.content
    listed = (await (await standin.slash(waiting, ask.channel, "queue list")).original()).content
    assert listed.startswith("1 person in the queue:") and f"**{waiting.name.title()}**" in listed, listed


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
        thread, ask = await asked(standin, bot, chan, table_clock, (ana, bo))
        await (await standin.slash(ana, thread, "game abandon")).original()
        await given_back(
            standin,
            bot,
            ask,
            "This table's lobby was closed before the game started; the others wait in the queue again,"
            " at their places.",
            bo,
        )


async def test_a_queue_tables_lobby_starts_only_when_everyone_confirmed_and_a_leave_gives_it_back(
    standin, bot_factory, table_clock
):
    """Ana and Bo are asked to confirm their table.  `/game start` in its thread is refused, naming
    who has not confirmed, in each reader's language; Bo then runs `/game leave` there: the table is
    given back at once (its Confirm message says Bo left and loses its button, the lobby closes,
    Ana waits again)."""
    chan = standin.channel("games")
    ana, bo = standin.add_users("ana", "bo")
    bo.locale = "es-ES"
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, ask = await asked(standin, bot, chan, table_clock, (ana, bo))
        refused = (await (await standin.slash(ana, thread, "game start")).original()).content
        assert refused == (
            "⚠️ This table starts when everyone at it has confirmed (the queue's Confirm button);"
            " waiting for: Ana, Bo."
        ), refused
        await standin.click(ana, ask, "Confirm")
        await bot.front.replies.idle()
        negado = (await (await standin.slash(bo, thread, "game start")).original()).content
        assert negado == (
            "⚠️ Esta mesa empieza cuando todo el mundo en ella haya confirmado (con el botón Confirmar"
            " de la cola); falta la confirmación de: Bo."
        ), negado
        assert (await bot.sessions.core.latest(thread.id)).status == "lobby"
        await (await standin.slash(bo, thread, "game leave")).original()
        await given_back(
            standin, bot, ask, "Bo left the queue; the others wait in the queue again, at their places.", ana
        )
        assert (await bot.sessions.core.latest(thread.id)).status == "abandoned"
