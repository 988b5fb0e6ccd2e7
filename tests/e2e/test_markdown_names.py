"""Display names holding Discord markdown are shown as written in the bot's messages: escaped
wherever the bot writes a name instead of mentioning it, so no name formats the rest of a
message (an unmatched ``**`` or ``||`` in a name would swallow the text after it)."""

from __future__ import annotations

import re

import pytest

from bot.app import EXTENSIONS
from tests.e2e.leagues import DAY, fire, one_round_league
from tests.e2e.leagues import EXTENSIONS as LEAGUE_EXTENSIONS
from tests.e2e.players import is_board, start

ALL = (*EXTENSIONS, "tests.support.nim_cog")
ODD = "**Bo*B __X__ `A` ~~Z~~ ||S|| \\"
"""A display name with every inline mark Discord knows, unmatched ones, and a trailing backslash
(the stand-in gives each member a title-cased display name: this one is its own title case)."""
SERVER = "**Juegos __de Mesa"
"""A server's name with unmatched bold and underline marks."""


def read(content: str) -> str:
    """``content`` as Discord shows it when nothing in it formats: each escape's backslash gone."""
    return re.sub(r"\\([^A-Za-z0-9\s])", r"\1", content)


def unpaired(content: str) -> set[str]:
    """The markdown marks of which ``content`` holds an odd number of active ones (no backslash
    before them): one of them would format everything after it."""
    found = re.findall(r"(?<!\\)(?:\*\*|__|~~|\|\||`)", re.sub(r"\\\\", "", content))
    return {m for m in found if found.count(m) % 2}


def shows_name(content: str, name: str) -> bool:
    """Whether ``content`` shows ``name`` as written, its marks left to format nothing."""
    return name in read(content) and name not in content


async def test_move_lines_status_and_results_show_a_marked_name_as_written(standin, bot_factory):
    odd, bob = standin.add_users(ODD, "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        lobby = await standin.slash(odd, chan, "nim new", thread=False, piles=2)
        await standin.click(bob, lobby.message, "Join")
        listed = await standin.refetch(lobby.message) if hasattr(standin, "refetch") else lobby.message
        assert shows_name(listed.content, ODD), listed.content
        await standin.click(odd, lobby.message, "Start")
        await standin.next_message(chan, is_board)
        session = await bot.sessions.core.in_channel(chan.id)
        status = await (await standin.slash(bob, chan, "game status")).original()
        assert shows_name(status.content, ODD), status.content
        boards, mine = [], []
        while session.status == "active":
            (seat,) = session.to_move()
            user = odd if session.by_seat(seat).user_id == odd.id else bob
            if user is odd and not mine:  # Bob's list of his games says whose turn it is there
                mine.append((await (await standin.slash(bob, chan, "game mine")).original()).content)
            legal = await bot.sessions.play.legal_moves(chan.id, user.id)
            await (await standin.slash(user, chan, "nim move", move=legal[0])).original()
            boards.append(await standin.next_message(chan, is_board))
            session = await bot.sessions.core.get(session.id)
        assert mine and shows_name(mine[0], ODD) and not unpaired(mine[0]), mine
        told = [b.content for b in boards if ODD in read(b.content)]
        assert told, [b.content for b in boards]
        for content in told:
            assert shows_name(content, ODD) and not unpaired(content), content
        card = await standin.next_message(chan, lambda m: "**Results**" in m.content)
        (alt,) = [f.description for f in card.files]
        assert ODD in alt, alt  # a picture's alt text is plain: the name stays as written there
        log = await (await standin.slash(bob, chan, "game log")).original()
        assert shows_name(log.content, ODD), log.content
        stats = await (await standin.slash(bob, chan, "game stats", player=odd)).original()
        assert shows_name(stats.content, ODD) and not unpaired(stats.content), stats.content


async def test_an_undo_request_and_a_history_page_show_a_marked_name_as_written(standin, bot_factory):
    """The undo request's moves and a history page's words name the mover; the person who
    refuses is named in the request's last line: each shows as written, its marks formatting
    nothing."""
    odd, bob = standin.add_users(ODD, "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        lobby = await standin.slash(bob, chan, "nim new", thread=False, piles=3)
        await standin.click(odd, lobby.message, "Join")
        await standin.click(bob, lobby.message, "Start")
        await standin.next_message(chan, is_board)
        session = await bot.sessions.core.in_channel(chan.id)
        (seat,) = session.to_move()
        if session.by_seat(seat).user_id == bob.id:  # Bob moves first: Bob, then the marked name
            legal = await bot.sessions.play.legal_moves(chan.id, bob.id)
            await (await standin.slash(bob, chan, "nim move", move=legal[0])).original()
        legal = await bot.sessions.play.legal_moves(chan.id, odd.id)
        await (await standin.slash(odd, chan, "nim move", move=legal[0])).original()
        history = await (await standin.slash(bob, chan, "game history")).original()
        assert shows_name(history.content, ODD) and not unpaired(history.content), history.content
        await (await standin.slash(odd, chan, "game undo")).original()
        request = await standin.next_message(chan, lambda m: "asks to take back" in m.content)
        assert shows_name(request.content, ODD) and not unpaired(request.content), request.content
        await standin.click(bob, request, "Refuse")
        legal = await bot.sessions.play.legal_moves(chan.id, bob.id)
        await (await standin.slash(bob, chan, "nim move", move=legal[0])).original()
        await (await standin.slash(bob, chan, "game undo")).original()
        request = await standin.next_message(chan, lambda m: "asks to take back" in m.content and m.buttons)
        refused = await standin.click(odd, request, "Refuse")
        assert shows_name(refused.content, ODD) and not unpaired(refused.content), refused.content


async def test_a_resignation_note_shows_a_marked_name_as_written(standin, bot_factory):
    """The table's own line on the board (someone resigned) names them as written; the board's
    alt text keeps the name as written too."""
    odd, bob = standin.add_users(ODD, "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)):
        await standin.wait_synced()
        lobby = await standin.slash(bob, chan, "nim new", thread=False, piles=3)
        await standin.click(odd, lobby.message, "Join")
        await standin.click(bob, lobby.message, "Start")
        await standin.next_message(chan, is_board)
        await (await standin.slash(odd, chan, "game resign")).original()
        board = await standin.next_message(chan, lambda m: is_board(m) and "resigned" in m.content)
        assert shows_name(board.content, ODD) and not unpaired(board.content), board.content
        (alt,) = [f.description for f in board.files]
        assert ODD in alt, alt


async def test_a_profile_and_a_follow_write_a_marked_name_as_written(standin, bot_factory):
    """``/me profile`` of a person with a marked name: the answer shows the name as written and
    formats nothing after it; the card's alt text keeps it as written.  ``/me follow`` names
    them the same way, and so does the direct message a follower gets when they start a game."""
    odd, bob = standin.add_users(ODD, "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)):
        await standin.wait_synced()
        answer = await (await standin.slash(bob, chan, "me profile", person=odd)).original()
        assert shows_name(answer.content, ODD) and not unpaired(answer.content), answer.content
        (alt,) = [f.description for f in answer.files]
        assert alt.startswith(f"{ODD}'s reliability"), alt
        follow = await (await standin.slash(bob, chan, "me follow", person=odd)).original()
        assert shows_name(follow.content, ODD) and not unpaired(follow.content), follow.content
        # The follower's direct message when the followed person starts a game names them so too.
        carol = standin.add_user("carol")
        lobby = await standin.slash(odd, chan, "nim new", thread=False, piles=2)
        await standin.click(carol, lobby.message, "Join")
        await standin.click(odd, lobby.message, "Start")
        told = await standin.next_message(standin.dm(bob))
        assert shows_name(told.content, ODD) and not unpaired(told.content), told.content


async def test_the_organisers_substitute_answers_show_a_marked_name_as_written(standin, bot_factory):
    """The substitutes' list and the organiser's answers about it write a member's name escaped."""
    (odd,) = standin.add_users(ODD)
    chan = standin.channel("games")
    owner = standin.owner
    async with standin.run_client(bot_factory((*LEAGUE_EXTENSIONS, "cogs.guacamole"))):
        await standin.wait_synced()
        created = await standin.slash(
            owner,
            chan,
            "league create",
            name="Avocado",
            game="guacamole",
            format="swiss",
            players=3,
            rounds=2,
        )
        assert "Avocado" in created.message.content
        for action in ("add", "remove"):
            said = await standin.slash(owner, chan, "league organiser substitute", action=action, member=odd)
            text = (await said.original()).content
            assert shows_name(text, ODD) and not unpaired(text), text


@pytest.mark.parametrize("language", ["en", "es"])
async def test_the_computer_finishing_a_league_game_names_each_late_player_as_written(
    standin, bot_factory, table_clock, language
):
    """At a league round's deadline the computer finishes the game for both players, one of
    them named with a comma ("Bo, **X"): the board's note names each as written, its marks
    formatting nothing, listed as the server's language lists them.  (The note once carried the
    names as one text joined by commas, escaped only when every part was a whole seat's name:
    this one's "**X" formatted the rest of the post.)"""
    ana, bo = standin.add_users("**Ana", "Bo, **X")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory((*LEAGUE_EXTENSIONS, "cogs.guacamole"))) as bot:
        await standin.wait_synced()
        if language == "es":
            await (await standin.slash(standin.owner, chan, "game language", choose="es")).original()
        _, session = await one_round_league(standin, bot, chan, [ana, bo], game="guacamole", players=2)
        thread = next(t for t in standin.guild.threads if t.id == session.row.channel_id)
        table_clock.advance(DAY)
        await fire(bot)
        finished = (
            "the computer finished the game for" if language == "en" else "la máquina terminó la partida por"
        )
        (post,) = [m.content for m in standin.messages(thread) if finished in m.content]
    first, second = (s.name for s in sorted(session.seats, key=lambda s: s.seat))
    listed = f"{first} and {second}" if language == "en" else f"{first} y {second}"
    assert listed in read(post) and shows_name(post, "**Ana") and shows_name(post, "Bo, **X"), post
    assert not unpaired(post), post


async def test_a_refusal_naming_whose_turn_it_is_shows_a_marked_name_as_written(standin, bot_factory):
    """A move out of turn is refused naming the player to move: as written, its marks
    formatting nothing (the refusal put the name in as it was, and "**Bo*B" formatted the rest
    of the answer)."""
    odd, bob = standin.add_users(ODD, "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        lobby = await standin.slash(bob, chan, "nim new", thread=False, piles=3)
        await standin.click(odd, lobby.message, "Join")
        await standin.click(bob, lobby.message, "Start")
        await standin.next_message(chan, is_board)
        session = await bot.sessions.core.in_channel(chan.id)
        if session.waiting_on()[0].user_id == bob.id:  # the marked name to move next
            legal = await bot.sessions.play.legal_moves(chan.id, bob.id)
            await (await standin.slash(bob, chan, "nim move", move=legal[0])).original()
        refused = await (await standin.slash(bob, chan, "nim move", move="1 1")).original()
    assert "not your turn" in refused.content, refused.content
    assert shows_name(refused.content, ODD) and not unpaired(refused.content), refused.content


async def test_an_undo_refused_for_another_players_reveal_names_them_as_written(standin, bot_factory):
    """Bob's last move stands before the marked name's move that ended a Nowa Gwinea round
    (the villages revealed, the die rolled): his undo is refused naming whose move that was, as
    written, its marks formatting nothing (the refusal put the name in as it was, and "**Bo*B"
    formatted the rest of the answer)."""
    odd, bob = standin.add_users(ODD, "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        await start(standin, bot, chan, "nowa_gwinea", [bob, odd], seed=2026)
        await (await standin.slash(bob, chan, "nowa_gwinea move", move="done")).original()
        await (await standin.slash(odd, chan, "nowa_gwinea move", move="done")).original()
        session = await bot.sessions.core.in_channel(chan.id)
        assert session.state.round == 2  # the marked name's "done" ended round 1
        refused = await (await standin.slash(bob, chan, "game undo")).original()
    assert "revealed something hidden" in refused.content and "(yours)" not in refused.content, (
        refused.content
    )
    assert shows_name(refused.content, ODD) and not unpaired(refused.content), refused.content


async def test_direct_messages_write_a_marked_server_name_as_written(standin, bot_factory):
    """A server named with markdown: a follower's direct message when someone they follow
    starts a game there, and a player's turn and end-of-game messages name it as written, its marks
    formatting nothing (the name was put in as it was: "**Juegos" made the rest bold)."""
    standin.guild.name = SERVER
    odd, bob, carol = standin.add_users(ODD, "bob", "carol")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory((*ALL, "cogs.me"))) as bot:
        await standin.wait_synced()
        await (await standin.slash(carol, chan, "me follow", person=odd)).original()
        await (await standin.slash(bob, chan, "me notify", where="dm")).original()
        lobby = await standin.slash(odd, chan, "nim new", thread=False, piles=2)
        await standin.click(bob, lobby.message, "Join")
        await standin.click(odd, lobby.message, "Start")
        await standin.next_message(chan, is_board)
        followed = await standin.next_message(standin.dm(carol))
        assert shows_name(followed.content, SERVER) and not unpaired(followed.content), followed.content
        session = await bot.sessions.core.in_channel(chan.id)
        while session.status == "active":
            (seat,) = session.to_move()
            user = odd if session.by_seat(seat).user_id == odd.id else bob
            legal = await bot.sessions.play.legal_moves(chan.id, user.id)
            await (await standin.slash(user, chan, "nim move", move=legal[0])).original()
            session = await bot.sessions.core.get(session.id)
        await standin.settle()
    told = [m.content for m in standin.messages(standin.dm(bob))]
    turns = [m for m in told if "It is your turn" in m]
    ended = [m for m in told if "is over" in m]
    assert turns and ended, told
    for content in (turns[0], ended[0]):
        assert shows_name(content, SERVER) and not unpaired(content), content


async def test_the_queues_direct_message_writes_a_marked_server_name_as_written(
    standin, bot_factory, table_clock
):
    """A wait in the queue of a server named with markdown runs out: the direct message saying
    so names the server as written, its marks formatting nothing."""
    standin.guild.name = SERVER
    (eloy,) = standin.add_users("eloy")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory((*ALL, "cogs.queue"))) as bot:
        await standin.wait_synced()
        await (await standin.slash(standin.owner, chan, "queue channel", channel=chan)).original()
        joined = await standin.slash(eloy, chan, "queue join", game="pachakuna", start="now", max_wait=1)
        assert "You wait in the queue" in (await joined.original()).content
        table_clock.advance(3600)
        await bot.scheduler.run_due()
        await standin.settle()
    (told,) = standin.messages(standin.dm(eloy))
    assert "no game of yours started" in told.content, told.content
    assert shows_name(told.content, SERVER) and not unpaired(told.content), told.content
