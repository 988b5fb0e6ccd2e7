"""``/game describe`` through the stand-in with the Nim test game: the board in words, privately
to the asker, with their own part only when they play; a long text in several private messages;
the asker's language."""

from __future__ import annotations

import pytest

from engines.core import Section, said
from tests.e2e.players import is_board
from tests.support import nim
from tests.support.nim_spanish import nim_in_spanish  # noqa: F401 (a fixture)

PRIVATE = "Only you can see this"


async def start(standin, chan, host, *guests):
    lobby = await standin.slash(host, chan, "nim new", thread=False, players=len(guests) + 1)
    for guest in guests:
        await standin.click(guest, lobby.message, "Join")
    standin.skip_messages(chan)
    await standin.click(host, lobby.message, "Start")
    await standin.next_message(chan, is_board)


async def describe(standin, bot, chan, user):
    """``user``'s ``/game describe``: the answer's messages, each checked private to ``user``."""
    result = await standin.slash(user, chan, "game describe")
    first = await result.original()
    assert await bot.ready_front().catchup.drain()  # the command is done: every followup is sent
    out = [first, *result.followup_messages]
    for message in out:
        assert message.ephemeral and message.visible_to == frozenset({user.id}), message
        assert len(message.content) <= 2000
    return [m.content for m in out]


async def test_players_read_their_own_part_spectators_and_the_resigned_do_not(standin, bot_factory):
    alice, bob, dan, carol = standin.add_users("alice", "bob", "dan", "carol")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        refused = await (await standin.slash(alice, chan, "game describe")).original()
        assert refused.ephemeral and "no game in this channel" in refused.content, refused.content

        lobby = await standin.slash(alice, chan, "nim new", thread=False, players=3)
        early = await (await standin.slash(alice, chan, "game describe")).original()
        assert early.ephemeral and "has not started" in early.content, early.content
        for guest in (bob, dan):
            await standin.click(guest, lobby.message, "Join")
        standin.skip_messages(chan)
        await standin.click(alice, lobby.message, "Start")
        await standin.next_message(chan, is_board)
        session = await bot.sessions.core.in_channel(chan.id)
        secrets = {u: session.state.secrets[session.seat_of(u.id).seat] for u in (alice, bob, dan)}
        before = (session.version, nim.to_dict(session.state))

        (text,) = await describe(standin, bot, chan, alice)
        lines = text.split("\n")
        assert lines[0] == "**Turn**"
        names = {s.seat: s.name for s in session.seats}
        assert f"- {names[session.state.turn]} to move" in lines
        for pile, n in zip("ABC", session.state.piles, strict=True):
            assert f"- pile {pile}: {n} stone{'s' if n != 1 else ''}" in lines
        assert (
            lines.index("**Piles**")
            < lines.index(f"**{PRIVATE}**")
            < lines.index(f"- secret number {secrets[alice]}")
        )
        assert str(secrets[bob]) not in text and str(secrets[dan]) not in text

        (spectator,) = await describe(standin, bot, chan, carol)
        assert "**Piles**" in spectator and PRIVATE not in spectator and "secret" not in spectator
        assert not any(str(s) in spectator for s in secrets.values())
        assert spectator == text.split(f"\n\n**{PRIVATE}**")[0]  # the same public part

        session = await bot.sessions.core.get(session.id)
        assert (session.version, nim.to_dict(session.state)) == before  # describing changes nothing

        await (await standin.slash(dan, chan, "game resign")).original(
            lambda m: "resigned" in m.content.lower()
        )
        (resigned,) = await describe(standin, bot, chan, dan)
        assert "**Piles**" in resigned and PRIVATE not in resigned and str(secrets[dan]) not in resigned
        (seated,) = await describe(standin, bot, chan, bob)
        assert PRIVATE in seated and f"- secret number {secrets[bob]}" in seated


async def test_a_long_description_comes_in_several_private_messages(standin, bot_factory, monkeypatch):
    """More than Discord's 2,000 characters: followups, every line whole, the private part last."""
    original = nim.describe
    filler = tuple(said("filler line {i} of a long board", i=f"{i:03d}") for i in range(120))

    def long_describe(view, *, ended=False):
        sections = original(view, ended=ended)
        return [sections[0], Section(said("Filler"), filler), *sections[1:]]

    monkeypatch.setattr(nim, "describe", long_describe)
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        await start(standin, chan, alice, bob)
        session = await bot.sessions.core.in_channel(chan.id)
        texts = await describe(standin, bot, chan, bob)
        assert len(texts) == 3, [len(t) for t in texts]
        lines = "\n".join(texts).split("\n")
        assert [x for x in lines if x.startswith("- filler")] == [
            f"- filler line {i:03d} of a long board" for i in range(120)
        ]
        assert texts[-1].endswith(f"- secret number {session.state.secrets[session.seat_of(bob.id).seat]}")


@pytest.mark.usefixtures("nim_in_spanish")
async def test_the_answer_is_in_the_askers_language(standin, bot_factory):
    ana = standin.add_user("ana")
    ana.locale = "es-ES"
    bob = standin.add_user("bob")
    chan = standin.channel("general")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        await start(standin, chan, ana, bob)
        session = await bot.sessions.core.in_channel(chan.id)
        (spanish,) = await describe(standin, bot, chan, ana)
        assert spanish.startswith("**Turno**\n") and "**Montones**" in spanish, spanish
        assert "**Solo tú puedes ver esto**" in spanish and "número secreto" in spanish
        assert "Piles" not in spanish and PRIVATE not in spanish
        (english,) = await describe(standin, bot, chan, bob)
        assert english.startswith("**Turn**\n") and "Montones" not in english
        assert session.state.piles  # both read the same game


async def test_the_last_move_is_said_in_words_as_the_board_says_it(standin, bot_factory):
    """The board in words names the last move as the picture's header and its alt text do (a
    screen reader reads the same sentence a sighted player sees, not only the move's code)."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        await start(standin, chan, alice, bob)
        (before,) = await describe(standin, bot, chan, bob)
        assert "Last action" not in before  # no move yet
        session = await bot.sessions.core.in_channel(chan.id)
        mover = {u.id: u for u in (alice, bob)}[session.seats[session.state.turn].user_id]
        move = str(nim.legal_moves(session.state, session.state.turn)[0])
        await (await standin.slash(mover, chan, "nim move", move=move)).original()
        board = await standin.next_message(chan, is_board)
        words = f"{mover.name.title()} took {move[1:]} from pile {move[0]}"
        alt = board.attachments[0].description
        assert f"Last action: {words}" in alt, alt
        (text,) = await describe(standin, bot, chan, bob)
        lines = text.split("\n")
        assert lines[:2] == ["**Turn**", f"- Last action: {words}"], lines[:3]
