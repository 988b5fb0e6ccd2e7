"""End of a game through the Discord stand-in: the results card with its chart under the last
board, and a rematch started from its button."""

from __future__ import annotations

from bot.app import EXTENSIONS
from tests.e2e.conftest import nim_played_out, nim_to_the_end, png_of

ALL = (*EXTENSIONS, "tests.support.nim_cog")


def is_board(message) -> bool:
    return bool(message.files) and not message.ephemeral


async def test_results_card_and_rematch(standin, bot_factory):
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        session = await nim_to_the_end(standin, bot, chan, alice, bob)
        final = await standin.next_message(chan, lambda m: "Game over" in m.content)
        card = await standin.next_message(chan, lambda m: "**Results**" in m.content)
        assert standin.messages(chan).index(card) > standin.messages(chan).index(final)
        image = png_of(card)
        assert image.width == 800 and image.height > 400
        assert [b["label"] for b in card.buttons] == ["Rematch"]

        # Bob presses Rematch: a new lobby with the same options, Bob hosting; Alice is pinged.
        pressed = await (await standin.click(bob, card, "Rematch")).original()
        assert pressed.ephemeral and "you host it" in pressed.content
        rematch = await standin.next_message(chan, lambda m: "rematch of game" in m.content)
        assert alice.id in rematch.pinged and "Join" in {b["label"] for b in rematch.buttons}
        new = await bot.sessions.core.in_channel(chan.id)
        assert new.id != session.id and new.status == "lobby" and new.row.host_id == bob.id
        assert new.row.options == session.row.options and new.row.max_players == session.row.max_players
        # Alice presses Rematch too and is seated; a third press says she is seated already.
        joined = await (await standin.click(alice, card, "Rematch")).original()
        assert "joined the rematch" in joined.content
        again = await (await standin.click(alice, card, "Rematch")).original()
        assert "already seated" in again.content
        started = await standin.click(bob, rematch, "Start")
        assert started.type == 7 and "started" in started.content
        new = await bot.sessions.core.get(new.id)
        assert new.status == "active" and new.row.seed != session.row.seed
        assert {s.user_id for s in new.seats} == {alice.id, bob.id}
        # The old card's button now meets a running game and says so.
        busy = await (await standin.click(alice, card, "Rematch")).original()
        assert "already has a Nim game" in busy.content


async def played_with_computers(standin, bot, chan, alice, bob, levels):
    """A Nim game of Alice, Bob and a computer player at each of ``levels``, opened for as many,
    played to its end (the people's moves by slash commands); its session and results card."""
    bot.sessions.computer_seconds = 0.02  # keep the strong search short in tests
    lobby = await standin.slash(alice, chan, "nim new", thread=False, piles=2, players=2 + len(levels))
    await standin.click(bob, lobby.message, "Join")
    for level in levels:
        added = await (await standin.slash(alice, chan, "game computer", level=level)).original()
        assert f"({level})" in added.content
    await standin.click(alice, lobby.message, "Start")
    await standin.next_message(chan, is_board)
    session = await bot.sessions.core.in_channel(chan.id)
    while session.status == "active":
        await bot.front.catchup.computers_settled()
        session = await bot.sessions.core.get(session.id)
        if session.status != "active":
            break
        (seat,) = session.to_move()
        user = alice if session.by_seat(seat).user_id == alice.id else bob
        legal = await bot.sessions.play.legal_moves(chan.id, user.id)
        await (await standin.slash(user, chan, "nim move", move=legal[0])).original()
        session = await bot.sessions.core.get(session.id)
    return session, await standin.next_message(chan, lambda m: "**Results**" in m.content)


async def test_a_rematch_keeps_each_computer_players_level(standin, bot_factory):
    """The rematch seats the old game's computer players at the levels they played at."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        session, card = await played_with_computers(standin, bot, chan, alice, bob, ("strong", "easy"))
        pressed = await (await standin.click(bob, card, "Rematch")).original()
        assert "you host it" in pressed.content
        new = await bot.sessions.core.in_channel(chan.id)
        assert new.id != session.id and new.status == "lobby"
        rows = await bot.store.games.seats(new.id)
        assert [(r.user_id, r.level) for r in rows] == [(bob.id, None), (None, "strong"), (None, "easy")]


async def test_a_rematch_whose_table_fills_before_its_computer_sits_still_posts_its_lobby(
    standin, bot_factory
):
    """Alice, Bob and a computer played a table of three.  Bob presses Rematch and, as his lobby
    opens, Alice presses Rematch too and Carol, who did not play, uses /game join.  The computer
    is seated with Bob as the lobby opens, Alice after it, and Carol is told the table is full;
    the channel gets the rematch's lobby message, with its Start button, naming the three.  (The
    computer was added after the lobby opened: Alice and Carol filled the table first, the
    computer was refused, and Bob's Rematch stopped there, telling him the table was full: no
    lobby message was posted, so nobody had a Start button.)"""
    alice, bob, carol = standin.add_users("alice", "bob", "carol")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        old, card = await played_with_computers(standin, bot, chan, alice, bob, ("easy",))
        pressed, answers = await rematch_meanwhile(
            standin, bot, card, bob, (alice, card, "Rematch"), (carol, chan, "game join")
        )
        assert "you host it" in pressed.content, pressed.content
        joined, refused = (a.content for a in answers)
        assert joined == "You joined the rematch." and "table is full (3 seats)" in refused, refused
        message = await standin.next_message(chan, lambda m: "rematch of game" in m.content)
        assert not message.pinged, message.content  # Alice, seated already, is not asked to join
        new = await bot.sessions.core.in_channel(chan.id)
        assert new.id != old.id and new.status == "lobby" and new.row.lobby_message_id == message.id
        assert [(s.user_id, s.computer_level if s.computer else None) for s in new.seats] == [
            (bob.id, None),
            (None, "easy"),
            (alice.id, None),
        ]
        await standin.settle()
        shown = standin.message(message.id)
        assert "Start" in {b["label"] for b in shown.buttons}
        assert "1. Bob (host)" in shown.content and "3. Alice" in shown.content, shown.content


async def rematch_meanwhile(standin, bot, card, presser, *meanwhile):
    """``presser`` presses Rematch on ``card``; as its lobby opens, before the rematch goes on,
    each of ``meanwhile`` happens in turn: (user, message, label) a click, (user, channel,
    command) a slash command.  The presser's answer and theirs."""
    lobby, create, answers = bot.sessions.lobby, bot.sessions.lobby.create, []

    async def others_act_as_it_opens(*args, **kwargs):
        opened = await create(*args, **kwargs)
        for user, where, what in meanwhile:
            acted = standin.click if what[0].isupper() else standin.slash
            answers.append(await (await acted(user, where, what)).original())
        return opened

    lobby.create = others_act_as_it_opens
    return await (await standin.click(presser, card, "Rematch")).original(), answers


async def test_a_rematch_started_before_its_lobby_message_leaves_the_first_board_alone(standin, bot_factory):
    """Alice, Bob and a computer played a table of three.  Bob presses Rematch and, as his lobby
    opens, Alice presses Rematch too and Bob starts the game with /game start: the game of three
    starts (the computer was seated with Bob), its first board is posted, and Bob is told the
    rematch has started; no lobby message with Join buttons follows the board.  (The computer,
    added after the lobby opened, was refused: the game had started with two, and Bob's
    Rematch was answered with "this game has already started".)"""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        old, card = await played_with_computers(standin, bot, chan, alice, bob, ("easy",))
        standin.skip_messages(chan)
        pressed, (joined, started) = await rematch_meanwhile(
            standin, bot, card, bob, (alice, card, "Rematch"), (bob, chan, "game start")
        )
        assert joined.content == "You joined the rematch." and "started" in started.content, started.content
        assert pressed.content == "The rematch has started.", pressed.content
        new = await bot.sessions.core.in_channel(chan.id)
        assert new.id != old.id and new.status == "active" and len(new.seats) == 3
        board = await standin.next_message(chan, is_board)
        assert "begins!" in board.content and "3. " in board.content and "Cpu Ada" in board.content, (
            board.content
        )
        after = standin.messages(chan)[standin.messages(chan).index(card) + 1 :]
        assert not any(
            "rematch of game" in m.content or m.buttons and "Join" in {b["label"] for b in m.buttons}
            for m in after
        )


async def test_a_rematch_lobby_left_before_its_message_posts_none(standin, bot_factory):
    """Bob presses Rematch and, as his lobby opens, leaves it with /game leave (nobody else sat in
    it: it closes).  Bob is told the rematch lobby is closed, and no lobby message is posted for
    a lobby that is gone.  (He was told that the new game here was over.)"""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        _, card = await played_with_computers(standin, bot, chan, alice, bob, ("easy",))
        pressed, (left,) = await rematch_meanwhile(standin, bot, card, bob, (bob, chan, "game leave"))
        assert "lobby is closed" in left.content, left.content
        assert pressed.content == "The rematch lobby is closed.", pressed.content
        assert await bot.sessions.core.in_channel(chan.id) is None
        after = standin.messages(chan)[standin.messages(chan).index(card) + 1 :]
        assert not any("rematch of game" in m.content for m in after)


async def _rematch_of(standin, bot, chan, alice, bob, *, clock=None, timer_hours=None, clock_after=None):
    """A Nim game of Alice's (``clock`` chosen when it opens, or ``timer_hours`` by /game timer in
    the lobby; ``clock_after`` set by /game clock during the game) played to its end, then Bob's
    Rematch: the old session, the rematch lobby's session and its message."""
    opened = {"clock": clock} if clock else {}
    lobby = await standin.slash(alice, chan, "nim new", thread=False, piles=2, **opened)
    if timer_hours is not None:
        await (await standin.slash(alice, chan, "game timer", hours=timer_hours)).original()
    await standin.click(bob, lobby.message, "Join")
    await standin.click(alice, lobby.message, "Start")
    if clock_after is not None:
        await (await standin.slash(alice, chan, "game clock", clock=clock_after)).original()
    old = await nim_played_out(standin, bot, chan, alice, bob)
    card = await standin.next_message(chan, lambda m: "**Results**" in m.content)
    pressed = await (await standin.click(bob, card, "Rematch")).original()
    assert "you host it" in pressed.content, pressed.content
    message = await standin.next_message(chan, lambda m: "rematch of game" in m.content)
    new = await bot.sessions.core.in_channel(chan.id)
    assert new.id != old.id and new.status == "lobby"
    return old, new, message


async def test_a_rematch_keeps_the_games_clock(standin, bot_factory):
    """A rematch started with the options of the game it follows but no clock: a game played on a
    time bank was followed by one with none.  It keeps the clock, and its lobby says so."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        old, new, message = await _rematch_of(standin, bot, chan, alice, bob, clock="bank:3d+12h")
        assert old.row.clock == "bank:3d+12h"
        assert new.row.clock == "bank:3d+12h" and new.row.timer_seconds == 3 * 86400
        assert "Clock: `bank:3d+12h`" in message.content, message.content


async def test_a_rematch_keeps_the_turn_timer(standin, bot_factory):
    """The turn timer (/game timer) is the game's clock too: the rematch keeps it."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        old, new, _ = await _rematch_of(standin, bot, chan, alice, bob, timer_hours=6)
        assert old.row.clock == "timer:6h"
        assert new.row.clock == "timer:6h" and new.row.timer_seconds == 6 * 3600


async def test_a_rematch_of_a_game_whose_clock_was_turned_off_has_none(standin, bot_factory):
    """A clock turned off during the game (`/game clock clock:off`) stays off in the rematch;
    one changed during the game is the one the rematch keeps."""
    alice, bob = standin.add_users("alice", "bob")
    chan, other = standin.channel("games"), standin.channel("general")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        _, new, _ = await _rematch_of(standin, bot, chan, alice, bob, clock="move:24h", clock_after="off")
        assert new.row.clock is None and new.row.timer_seconds is None
        _, new, _ = await _rematch_of(
            standin, bot, other, alice, bob, clock="move:24h", clock_after="bank:2d"
        )
        assert new.row.clock == "bank:2d"


async def test_a_rematch_pings_only_those_whose_notices_want_a_mention(standin, bot_factory):
    """The rematch's post named and pinged every other player of the old game, whatever their
    /me notify said; someone who chose no notices (or direct messages only) is still named, and
    only those who want a mention where news is posted are pinged."""
    from tests.e2e.test_notices import settings

    alice, bob, cara = standin.add_users("alice", "bob", "cara")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory((*ALL, "cogs.me"))) as bot:
        await standin.wait_synced()
        await settings(standin, cara, chan, where="none")
        lobby = await standin.slash(alice, chan, "nim new", thread=False, piles=2, players=3)
        await standin.click(bob, lobby.message, "Join")
        await standin.click(cara, lobby.message, "Join")
        await standin.click(alice, lobby.message, "Start")
        session = await bot.sessions.core.in_channel(chan.id)
        people = {u.id: u for u in (alice, bob, cara)}
        while session.status == "active":
            (seat,) = session.to_move()
            user = people[session.by_seat(seat).user_id]
            legal = await bot.sessions.play.legal_moves(chan.id, user.id)
            await (await standin.slash(user, chan, "nim move", move=legal[0])).original()
            session = await bot.sessions.core.get(session.id)
        card = await standin.next_message(chan, lambda m: "**Results**" in m.content)
        await (await standin.click(bob, card, "Rematch")).original()
        rematch = await standin.next_message(chan, lambda m: "rematch of game" in m.content)
        assert f"<@{alice.id}>" in rematch.content and f"<@{cara.id}>" in rematch.content
        assert rematch.pinged == frozenset({alice.id}), rematch.pinged


async def test_a_rematchs_lobby_message_names_the_game_it_plays_again_to_its_end(standin, bot_factory):
    """The rematch's lobby message said "Rematch of game #N" only when it was posted: refreshed
    when someone joined or left or a computer was added, and when the game started, it read like
    any new lobby's.  The game played again is stored with the lobby, so every state of its
    message names it, after a restart too."""
    alice, bob = standin.add_users("alice", "bob")
    chan, make = standin.channel("games"), bot_factory(ALL)
    async with standin.run_client(make) as bot:
        await standin.wait_synced()
        old, new, message = await _rematch_of(standin, bot, chan, alice, bob)
        head = f"**Nim**: rematch of game #{old.id}\n"
        assert message.content.startswith(head) and f"<@{alice.id}>" in message.content, message.content
        assert new.row.rematch_of == old.id
    async with standin.run_client(make) as bot:
        await standin.wait_synced()
        joined = await standin.click(alice, message, "Join")
        assert joined.content.startswith(head), joined.content
        await (await standin.slash(alice, chan, "game leave")).original()
        await standin.settle()
        assert standin.message(message.id).content.startswith(head)
        await (await standin.slash(bob, chan, "game computer", level="easy")).original()
        await standin.settle()
        shown = standin.message(message.id).content
        assert shown.startswith(head) and "Cpu Ada" in shown, shown
    async with standin.run_client(make) as bot:
        await standin.wait_synced()
        standin.skip_messages(chan)
        await standin.click(bob, standin.message(message.id), "Start")
        await standin.next_message(chan, is_board)  # the first board follows the lobby message's edit
        shown = standin.message(message.id).content
        assert shown.startswith(head) and "The game has started." in shown, shown


async def test_a_rematchs_closed_lobby_message_still_names_the_game_it_played_again(standin, bot_factory):
    """The host of a rematch nobody joined leaves it: the lobby closes, and its message, which said
    "This lobby is closed" under a plain "new game" head, still names the game it was to play again."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        old, _, message = await _rematch_of(standin, bot, chan, alice, bob)
        await standin.click(bob, message, "Leave")
        shown = standin.message(message.id)
        await standin.wait_for(lambda: "(everyone left the lobby)" in shown.content, what="the closed lobby")
        assert shown.content.startswith(f"**Nim**: rematch of game #{old.id}\n"), shown.content
        assert "This lobby is closed" in shown.content and not shown.buttons, shown.content
