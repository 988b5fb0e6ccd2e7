"""The games' own move commands (/nowa_gwinea place, /pachakuna rotate...) as players use them
through the Discord stand-in: what an autocomplete group sent as it is gets for an answer."""

from __future__ import annotations

from bot.app import EXTENSIONS
from tests.e2e.players import is_board, lobby_button, pachakuna_started, start


async def test_a_group_sent_from_a_games_own_command_names_that_command(standin, bot_factory):
    """Autocomplete of /nowa_gwinea place offers groups ("F… Hut F (7 moves: keep typing)"); a
    player who sends one as it is is told to keep typing in the command they used,
    /nowa_gwinea place (/nowa_gwinea colocar for a Spanish client), not in another; nothing is
    played."""
    alice, bob = standin.add_users("alice", "bob")
    bob.locale = "es-ES"
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await start(standin, bot, chan, "nowa_gwinea", [alice, bob], seed=11)
        before = await bot.sessions.core.in_channel(chan.id)
        for user, command in ((alice, "/nowa_gwinea place"), (bob, "/nowa_gwinea colocar")):
            offered = await standin.autocomplete(user, chan, "nowa_gwinea place", "hut")
            group = next(c["value"] for c in offered if c["value"] == "F")  # a group, not a move
            answer = await (await standin.slash(user, chan, "nowa_gwinea place", hut=group)).original()
            assert answer.ephemeral and "⚠️" in answer.text, answer.text
            assert f"`{command}`" in answer.text, answer.text
            assert "nowa_gwinea move" not in answer.text and "nowa_gwinea jugar" not in answer.text
        after = await bot.sessions.core.in_channel(chan.id)
        assert after.version == before.version  # nothing was played


async def test_a_group_sent_from_pachakuna_rotate_names_rotate(standin, bot_factory):
    """/pachakuna rotate's autocomplete groups the rotations by row (`r4…`): sending the row as
    it is is answered with the way on in /pachakuna rotate; /pachakuna move still names itself."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        mover, session = await pachakuna_started(standin, bot, chan, alice, bob, seed=5)
        offered = await standin.autocomplete(mover, chan, "pachakuna rotate", "rotation")
        assert "r4" in [c["value"] for c in offered], offered
        answer = await (await standin.slash(mover, chan, "pachakuna rotate", rotation="r4")).original()
        assert "keep typing in `/pachakuna rotate`" in answer.text, answer.text
        answer = await (await standin.slash(mover, chan, "pachakuna move", move="r4")).original()
        assert "keep typing in `/pachakuna move`" in answer.text, answer.text
        assert (await bot.sessions.core.in_channel(chan.id)).version == session.version


async def test_start_with_options_for_more_players_says_how_to_go_on(standin, bot_factory):
    """/nowa_gwinea new hard_seats:2,4 opens a lobby of 4 seats; started with 2 players seat 4
    does not exist.  The host is told how many players the options need and what to do (let
    more join or add a computer, or leave and open a lobby with other options), in their
    language; the lobby stays open and starts once enough are seated."""
    alice, bob, ana, beto = standin.add_users("alice", "bob", "ana", "beto")
    ana.locale = "es-ES"
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        games, general = standin.channel("games"), standin.channel("general")
        for host, guest, chan, words in (
            (alice, bob, games, ("need 4 players", "Add computer", "Leave")),
            (ana, beto, general, ("4 jugadores", "Añadir máquina", "Salir")),
        ):
            lobby = await standin.slash(host, chan, "nowa_gwinea new", thread=False, hard_seats="2,4")
            await standin.click(guest, lobby.message, lobby_button(lobby.message, "join"))
            pressed = await standin.click(host, lobby.message, lobby_button(lobby.message, "start"))
            refused = await pressed.original()
            assert refused.ephemeral and "⚠️" in refused.text, refused.text
            for word in words:
                assert word in refused.text, refused.text
            assert (await bot.sessions.core.in_channel(chan.id)).status == "lobby"
        for _ in range(2):
            await (await standin.slash(alice, games, "game computer")).original()
        await (await standin.slash(alice, games, "game start")).original()
        assert (await bot.sessions.core.in_channel(games.id)).status == "active"


async def test_a_nowa_gwinea_player_done_building_is_told_so(standin, bot_factory):
    """Nowa Gwinea has no turns: everyone builds at once.  A player who said `done` and then
    places a hut, calls Gwinea or opens their view is told they have finished building this
    round, who is still building and that they are mentioned when the next round starts, not
    that it is another player's turn; in Spanish for a Spanish client; nothing is played."""
    alice, bob, ana = standin.add_users("alice", "bob", "ana")
    ana.locale = "es-ES"
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await start(standin, bot, chan, "nowa_gwinea", [alice, bob, ana], seed=11)
        for user in (bob, ana):
            await (await standin.slash(user, chan, "nowa_gwinea move", move="done")).original()
        before = await bot.sessions.core.in_channel(chan.id)
        assert before.to_move() == {before.seat_of(alice.id).seat}
        board = [m for m in standin.messages(chan) if is_board(m)][-1]
        for user, words, wrong in (
            (bob, ("finished building round 1", "still building: Alice", "next round"), "Alice's turn"),
            (
                ana,
                ("erminaste de construir en la ronda 1", "siguen construyendo: Alice", "próxima ronda"),
                "Le toca a",
            ),
        ):
            answers = [
                await (await standin.slash(user, chan, "nowa_gwinea place", hut="X0A2")).original(),
                await (await standin.slash(user, chan, "nowa_gwinea gwinea")).original(),
                await (await standin.click(user, board, lobby_free_button(board, "pk:hand:"))).original(),
            ]
            for answer in answers:
                for word in words:
                    assert word in answer.text, answer.text
                assert wrong not in answer.text, answer.text
        assert (await bot.sessions.core.in_channel(chan.id)).version == before.version


def lobby_free_button(message, prefix: str) -> str:
    return next(c for c in message.custom_ids if c.startswith(prefix))


async def test_a_game_command_plays_only_its_own_kind_of_move(standin, bot_factory):
    """/tiwanaku divine took any move: `+A1` typed into it brought an explorer in, and
    /pachakuna rotate took `end` and ended the turn.  Each game's own command now plays only the
    moves its autocomplete offers: a move of another kind is refused untouched, naming /<game> move
    (in the reader's language), while the command's own moves, the start of one, and text that is
    no move at all get the answers they got."""
    alice, bob = standin.add_users("alice", "bob")
    bob.locale = "es-ES"
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await start(standin, bot, chan, "tiwanaku", [alice, bob], seed=11)
        session = await bot.sessions.core.in_channel(chan.id)
        (seat,) = session.to_move()
        mover = alice if session.by_seat(seat).user_id == alice.id else bob
        enter = next(m for m in await bot.sessions.play.legal_moves(chan.id, mover.id) if m.startswith("+"))
        answer = await (await standin.slash(mover, chan, "tiwanaku divine", guess=enter)).original()
        if mover is alice:
            expected = f"⚠️ /tiwanaku divine does not play `{enter}`: type it in /tiwanaku move"
        else:
            expected = f"⚠️ /tiwanaku adivinar no juega `{enter}`: escríbela en /tiwanaku jugar"
        assert answer.ephemeral and answer.text.startswith(expected), answer.text
        answer = await (await standin.slash(alice, chan, "tiwanaku divine", guess="xyz")).original()
        assert "does not play" not in answer.text and "xyz" in answer.text, answer.text  # no move at all
        assert (await bot.sessions.core.in_channel(chan.id)).version == session.version
        answer = await (await standin.slash(mover, chan, "tiwanaku explore", step=enter)).original()
        assert not answer.text.startswith("⚠️"), answer.text
        assert (await bot.sessions.core.in_channel(chan.id)).version > session.version

        general = standin.channel("general")
        lobby = await standin.slash(alice, general, "pachakuna new", thread=False)  # two players, always
        await standin.click(bob, lobby.message, "Join")
        await standin.click(alice, lobby.message, "Start")
        await standin.next_message(general, is_board)
        session = await bot.sessions.core.in_channel(general.id)
        (seat,) = session.to_move()
        mover = alice if session.by_seat(seat).user_id == alice.id else bob
        answer = await (await standin.slash(mover, general, "pachakuna rotate", rotation="end")).original()
        assert answer.text.startswith("⚠️ /pachakuna rotate does not play `end`"), answer.text
        answer = await (await standin.slash(mover, general, "pachakuna rotate", rotation="r4")).original()
        assert "`/pachakuna " in answer.text and "r4" in answer.text, answer.text  # a group: keep typing
        assert (await bot.sessions.core.in_channel(general.id)).version == session.version


def test_what_each_games_own_command_plays():
    """Each command plays the moves of its step of a turn: /tiwanaku divine ends the guessing with
    done (and passes in the final round), /guanga claim ends the turn with done after returning
    patches; the others' moves go to /<game> move."""
    from cogs import guanga, nowa_gwinea, pachakuna, tiwanaku

    assert all(map(tiwanaku.DIVINE.holds, ("C3=2", "done", "pass")))
    assert not any(map(tiwanaku.DIVINE.holds, ("+A1", "B3-C3", "SD>M", "extra")))
    assert all(map(tiwanaku.EXPLORE.holds, ("+A1", "B3-C3", "B3-out")))
    assert not any(map(tiwanaku.EXPLORE.holds, ("C3=2", "peek:C4", "done")))
    assert all(map(guanga.CLAIM.holds, ("C A03 yellow B2C3D4", "R B2D4", "done")))
    assert all(map(guanga.PLACE.holds, ("P3B2", "S3B2"))) and not guanga.PLACE.holds("done")
    assert all(map(pachakuna.LLAMA.holds, ("m1-56", "s1", "b1/yr", "end"))) and not pachakuna.LLAMA.holds(
        "r34+2"
    )
    assert pachakuna.ROTATE.holds("r34+2/yr") and not pachakuna.ROTATE.holds("end")
    assert nowa_gwinea.PLACE.holds("X0A2") and not any(
        map(nowa_gwinea.PLACE.holds, ("gwinea", "remove F", "done"))
    )
