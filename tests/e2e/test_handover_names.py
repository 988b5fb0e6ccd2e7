"""A league seat handed to a substitute, end to end: every past move stays the move of whoever
held the seat when it was made.  The player in the last seat of a three-player Guacamole game
plays some turns and is dropped; the substitute plays on.  ``/game log``, ``/game history`` (its
text, its jump list and its picture's alt text) and the export name the dropped player for the
moves made before the handover and the substitute for those after it."""

from __future__ import annotations

import random

from bot import export
from bot.history import History
from bot.terminal import main
from bot.web.game import Games
from languages import ENGLISH
from tests.e2e.conftest import BASE_EXTENSIONS
from tests.e2e.leagues import guacamole_with_substitute, posts_with
from tests.e2e.test_alt_text import pictures

EXTENSIONS = (*BASE_EXTENSIONS, "cogs.guacamole", "cogs.league", "cogs.me")


async def handed_over(standin, bot, table_clock, players, sub, *, steps: int = 0):
    """A one-round league of ``players`` with ``sub`` on its substitutes' list: the last seat's
    player plays two turns and, when it is their turn again (after ``steps`` moves of it), is
    dropped, so that ``sub`` takes their seat.  The session, the dropped player, their seat's
    name then, and the moves the log held at the handover."""
    owner, chan = standin.owner, standin.channel("games")
    league, session = await guacamole_with_substitute(standin, bot, chan, players, sub)
    dropped = next(u for u in players if u.id == session.by_seat(2).user_id)
    name = session.by_seat(2).name
    rng = random.Random(7)
    turns, last = 0, None
    while turns < 2 or dropped.id not in {s.user_id for s in session.waiting_on()} or last == dropped.id:
        seat = session.waiting_on()[0]
        legal = list(session.engine.legal_moves(session.state, seat.seat))
        move = session.engine.computer_move(session.engine.view_for(session.state, seat.seat), legal, rng)
        table_clock.advance(600)
        await bot.sessions.play.play(session.row.channel_id, seat.user_id, str(move))
        turns += seat.user_id == dropped.id and last != dropped.id
        last = seat.user_id
        session = await bot.sessions.core.get(session.id)
    thread = standin.channel(session.row.channel_id)
    for _ in range(steps):  # the first steps of their turn, through Discord
        legal = list(session.engine.legal_moves(session.state, 2))
        move = session.engine.computer_move(session.engine.view_for(session.state, 2), legal, rng)
        answer = await (await standin.slash(dropped, thread, "guacamole move", move=str(move))).original()
        assert "You played" in answer.text, answer.text
        session = await bot.sessions.core.get(session.id)
        assert session.waiting_on() == [session.by_seat(2)]  # the turn goes on
    await standin.settle()
    handed = await bot.store.history.move_count(session.id)
    await (await standin.slash(owner, chan, "league organiser drop", member=dropped)).original()
    session = await bot.sessions.core.get(session.id)
    assert session.by_seat(2).user_id == sub.id
    return session, dropped, name, handed


async def play_a_turn(standin, bot, session, user, rng: random.Random):
    """``user`` plays moves (the computer's choice) through Discord until it is no longer their
    turn, and the channel is told of it."""
    thread = standin.channel(session.row.channel_id)
    while session.status == "active" and user.id in {s.user_id for s in session.waiting_on()}:
        seat = session.seat_of(user.id).seat
        legal = list(session.engine.legal_moves(session.state, seat))
        move = session.engine.computer_move(session.engine.view_for(session.state, seat), legal, rng)
        answer = await (await standin.slash(user, thread, "guacamole move", move=str(move))).original()
        assert "You played" in answer.text, answer.text
        session = await bot.sessions.core.get(session.id)
    await standin.settle()
    return session


async def test_log_and_history_name_whoever_held_the_seat_then(standin, bot_factory, table_clock):
    owner = standin.owner
    *players, sub = standin.add_users("inti", "killa", "qori", "wayra")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        session, dropped, gone, handed = await handed_over(standin, bot, table_clock, players, sub)
        thread = standin.channel(session.row.channel_id)
        # The board now (the handover came after the last move): its names are the holders now.
        page = await (await standin.slash(owner, thread, "game history")).original()
        assert f"move {handed} of {handed}" in page.content, page.content
        ((_, description),) = pictures(page)
        assert "Wayra" in description and gone not in description, description
        web = await Games(bot.sessions, History(bot.sessions)).page(session, None, ENGLISH)
        words = [line for part in web.words for line in [part.heading, *part.lines]]
        assert any("Wayra" in line for line in words) and not any(gone in w for w in words)
        assert "Wayra" in web.alt and gone not in web.alt, web.alt
        # ... and its players say whom the substitute plays for, after whom the earlier moves are named.
        assert f"Wayra (for {gone})" in [p.name for p in web.players], web.players

        async def logged() -> dict[int, str]:
            """``/game log``'s lines (as many of the latest as fit a message), by move number."""
            log = (await (await standin.slash(owner, thread, "game log", count=50)).original()).content
            return {int(line.split(".", 1)[0]): line for line in log.splitlines() if line[:1].isdigit()}

        # /game log, the seat handed over: the moves of its last holder still name them.
        rows = await bot.store.history.moves(session.id)
        before = [r.number for r in rows if r.seat == 2 and r.number <= handed]
        lines = await logged()
        assert before and before[-1] in lines
        for n in (n for n in before if n in lines):
            assert lines[n].startswith(f"{n}. {gone}"), lines[n]
            assert "Wayra" not in lines[n], lines[n]
        session = await play_a_turn(standin, bot, session, sub, random.Random(3))
        now = session.by_seat(2).name
        assert now != gone and now == "Wayra"
        rows = await bot.store.history.moves(session.id)
        after = [r.number for r in rows if r.seat == 2 and r.number > handed]
        assert after

        # ... and once the substitute has played, each line of the seat names whoever played it
        # then (a Guacamole turn is several moves, each a line in words: the lines of the earlier
        # holder still shown, if any, and every one of the substitute's).
        lines = await logged()
        assert after[0] in lines
        for n in (n for n in before if n in lines):
            assert lines[n].startswith(f"{n}. {gone}"), lines[n]
            assert now not in lines[n], lines[n]
        for n in after:
            assert lines[n].startswith(f"{n}. {now}"), lines[n]

        # /game history at the dropped player's last move: its text, its jump list, its picture.
        n = before[-1]
        page = await (await standin.slash(owner, thread, "game history", move=n)).original()
        head = page.content.splitlines()[1]
        assert head.startswith(f"{gone} "), page.content
        assert now not in page.content, page.content
        labels = [o["label"] for s in page.selects for o in s["options"]]
        assert f"Move {n}: {gone}" in labels, labels
        ((_, description),) = pictures(page)
        assert gone in description and now not in description, description
        # ... and at the substitute's first move, the substitute.
        page = await (await standin.slash(owner, thread, "game history", move=after[0])).original()
        assert page.content.splitlines()[1].startswith(f"{now} "), page.content
        labels = [o["label"] for s in page.selects for o in s["options"]]
        assert f"Move {after[0]}: {now}" in labels and f"Move {handed}: {now}" not in labels, labels

        # The export puts each move to whoever made it.
        data = await export.export_session(bot.sessions, session)
        (player,) = [p for p in data["players"] if p["seat"] == 2]
        assert player["name"] == now
        assert player["earlier_holders"] == [{"name": gone, "through": handed}]
        loaded = export.load(export.dump(data))
        assert export.names_at(loaded, before[-1])[2] == gone
        assert export.names_at(loaded, after[0])[2] == now
        assert dropped.id not in {s.user_id for s in session.seats}

        # The web page: its list of moves, and the board's alt text at a move before the handover.
        page = await Games(bot.sessions, History(bot.sessions)).page(session, before[-1], ENGLISH)
        movers = {m.number: (m.player, m.text) for m in page.moves}
        assert all(movers[n][0] == gone and movers[n][1].startswith(gone) for n in before), movers
        assert all(movers[n][0] == now for n in after), movers
        assert gone in page.alt and now not in page.alt, page.alt


async def test_an_export_with_a_handover_replays_and_names_each_mover(
    standin, bot_factory, table_clock, tmp_path
):
    """The game played to its end after the handover: its export replays with
    ``python -m bot.terminal --replay`` to the same result, each move put to whoever made it."""
    *players, sub = standin.add_users("inti", "killa", "qori", "wayra")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        session, _, gone, handed = await handed_over(standin, bot, table_clock, players, sub)
        rng = random.Random(11)
        while session.status == "active":
            seat = session.waiting_on()[0]
            legal = list(session.engine.legal_moves(session.state, seat.seat))
            move = session.engine.computer_move(session.engine.view_for(session.state, seat.seat), legal, rng)
            await bot.sessions.play.play(session.row.channel_id, seat.user_id, str(move))
            session = await bot.sessions.core.get(session.id)
        assert session.status == "finished"
        await standin.settle()
        data = await export.export_session(bot.sessions, session)
        path = tmp_path / "game.json"
        path.write_bytes(export.dump(data))
        out, err = tmp_path / "out.txt", tmp_path / "err.txt"
        with out.open("w") as o, err.open("w") as e:
            code = main(["--replay", str(path), "--no-images"], stdout=o, stderr=e)
        assert code == 0, err.read_text()
        text = out.read_text()
        assert "The replay agrees with the export, move by move" in text, text
        assert f"Wayra (for {gone})" in text.splitlines()[0], text  # the players, first
        rows = await bot.store.history.moves(session.id)
        lines = {int(line.split(".", 1)[0]): line for line in text.splitlines() if line[:1].isdigit()}
        for row in rows:
            if row.seat == 2:
                assert lines[row.number].startswith(
                    f"{row.number}. {gone if row.number <= handed else 'Wayra'}:"
                )


async def test_a_turn_begun_before_the_handover_is_told_as_the_dropped_players(
    standin, bot_factory, table_clock
):
    """The last seat's player makes the first step of a turn and is dropped in the middle of it:
    the board posted after the handover tells that step as theirs, and so does the substitute's
    turn notice (whose "since your last move" is not since the dropped player's) and the board
    in words (its last move); the rest of
    the turn, played by the substitute, is told as theirs."""
    chan = standin.channel("games")
    *players, sub = standin.add_users("inti", "killa", "qori", "wayra")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await (await standin.slash(sub, chan, "me notify", where="dm")).original()
        session, _, gone, handed = await handed_over(standin, bot, table_clock, players, sub, steps=1)
        await standin.settle()
        thread = standin.channel(session.row.channel_id)
        (board,) = posts_with(standin, thread, "the board now")
        told = board.content.splitlines()[1:]
        assert any(line.startswith(f"{gone} prepared") for line in told), board.content
        assert not any(line.startswith("Wayra") for line in told), board.content
        dm = await standin.next_message(standin.dm(sub), lambda m: "It is your turn" in m.content)
        assert "Since your last move:" in dm.content and f"- {gone} prepared" in dm.content, dm.content
        assert "- Wayra" not in dm.content, dm.content
        # The board in words says whose the last move was, and who plays now.
        words = (await (await standin.slash(sub, thread, "game describe")).original()).content
        assert f"Last action: {gone} prepared" in words and f"Last move: {gone} played" in words, words
        assert "Wayra to play" in words and "Last move: Wayra" not in words, words
        session = await play_a_turn(standin, bot, session, sub, random.Random(3))
        later = [m for m in standin.messages(thread) if m.id > board.id and not m.ephemeral and m.files]
        assert later[0].content.startswith("Wayra ") and gone not in later[0].content, later[0].content
