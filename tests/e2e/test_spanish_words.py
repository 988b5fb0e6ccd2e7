"""Through the stand-in: what a Spanish server's players read names the commands and buttons their
client shows, and agrees with its numbers."""

from __future__ import annotations

from bot.app import EXTENSIONS as ALL
from tests.e2e.conftest import BASE_EXTENSIONS
from tests.e2e.forge import forged_slash
from tests.e2e.test_undo import is_board, nim_game
from tests.i18n.test_mentions import english_in, tree  # noqa: F401 (a fixture)
from tests.standin.model import CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS

EXTENSIONS = (*BASE_EXTENSIONS, "cogs.guacamole")
UNDO = (*ALL, "tests.support.nim_cog")


async def test_a_spanish_lobby_names_its_buttons_as_they_read(standin, bot_factory, tree):  # noqa: F811
    """The public lobby of a Spanish server said "(Join o Add computer)" and "pulsa Start" above
    buttons reading Unirse, Añadir máquina and Empezar."""
    chan = standin.channel("games")
    bob = standin.add_user("bob")
    standin.guild.locale = "es-419"
    async with standin.run_client(bot_factory(EXTENSIONS)):
        await standin.wait_synced()
        lobby = await standin.slash(bob, chan, "guacamole new", thread=False, players=3)
        seen = [standin.message(lobby.message.id).content]
        await standin.click(bob, lobby.message, "Añadir máquina")
        seen.append(standin.message(lobby.message.id).content)
        await (await standin.slash(bob, chan, "game computer", level="easy")).original()
        seen.append(standin.message(lobby.message.id).content)
    assert "3. Cpu Blaise (máquina, fácil)\n" in seen[2], seen[2]  # was "(máquina, easy)"
    # Each seat line is followed by the seated people's reliability (see /me profile).
    assert "Guacamole necesita al menos 2 jugadores (Unirse o Añadir máquina).\n" in seen[0], seen[0]
    assert "se puede empezar (quien tenga asiento puede pulsar Empezar) o esperar a más gente.\n" in seen[1]
    assert "La mesa está completa (3 asientos): quien tenga asiento puede pulsar Empezar.\n" in seen[2]
    assert [english_in(text, tree) for text in seen] == [[], [], []]


async def test_a_spanish_lobby_handed_over_does_not_say_its_host_opened_it(standin, bot_factory):
    """Spanish named the host "quien abrió la sala" (who opened the lobby): once the host left and
    the next person took the lobby over, the lobby said that person had opened it."""
    chan = standin.channel("games")
    bob, cara = standin.add_users("bob", "cara")
    standin.guild.locale = "es-419"
    async with standin.run_client(bot_factory(EXTENSIONS)):
        await standin.wait_synced()
        lobby = await standin.slash(bob, chan, "guacamole new", thread=False, players=3)
        await standin.click(cara, lobby.message, "Unirse")
        left = await standin.click(bob, lobby.message, "Salir")
    assert "1. Cara (lleva la sala)\n" in left.content, left.content
    assert "abrió" not in left.content, left.content


async def test_a_spanish_lobby_reads_the_same_words_from_full_to_closed(standin, bot_factory):
    """The Spanish lobby said the table was "llena" while the refusal of one more seat and the
    host's ping said "completa"; closed by its last person, it said "todos salieron de la sala"
    (a masculine "everyone")."""
    chan = standin.channel("games")
    bob, cara = standin.add_users("bob", "cara")
    standin.guild.locale = bob.locale = "es-419"  # the refusal is the asker's, in their language
    async with standin.run_client(bot_factory(EXTENSIONS)):
        await standin.wait_synced()
        lobby = await standin.slash(bob, chan, "guacamole new", thread=False, players=2)
        full = (await standin.click(cara, lobby.message, "Unirse")).content  # as it reads then
        ping = await standin.next_message(chan, lambda m: "tu mesa" in m.content)
        refused = await (await standin.slash(bob, chan, "game computer")).original()
        await standin.click(cara, lobby.message, "Salir")
        closed = await standin.click(bob, lobby.message, "Salir")
    assert "La mesa está completa (2 asientos)" in full, full
    assert "está completa (2 asientos)" in ping.content and "está completa (2 asientos)" in refused.content
    assert "Esta sala está cerrada (no quedó nadie en la sala)." in closed.content, closed.content
    assert "todos" not in closed.content


async def test_missing_permissions_are_named_as_a_spanish_client_names_them(standin, bot_factory, tree):  # noqa: F811
    """The refusal said "Me faltan Create Public Threads, Send Messages in Threads" to a Spanish
    speaker, whose Discord settings show "Crear hilos públicos" and "Enviar mensajes en hilos"."""
    ana = standin.add_user("ana")
    ana.locale = "es-ES"
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)):
        await standin.wait_synced()
        standin.set_permissions(chan, standin.bot_role, deny=CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS)
        answer = await (await standin.slash(ana, chan, "guacamole new")).original()
    assert answer.ephemeral
    assert answer.content.startswith(
        "⚠️ Me faltan Crear hilos públicos, Enviar mensajes en hilos en este canal;"
    )
    assert "usa /<juego> nueva hilo: False para jugar en el propio canal" in answer.content
    assert english_in(answer.content, tree) == []


async def test_an_undo_is_told_in_the_readers_language(standin, bot_factory):
    """The undo's line was English built in the code ("took back 1 move ... with everyone's
    agreement") in every post and log: now a Spanish reader's log says it in Spanish, an English
    one's in English."""
    alice, bob = standin.add_users("alice", "bob")
    bob.locale = "es-ES"
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(UNDO)) as bot:
        await standin.wait_synced()
        session, first, other = await nim_game(standin, bot, chan, alice, bob)
        legal = await bot.sessions.play.legal_moves(chan.id, first.id)
        await (await standin.slash(first, chan, "nim move", move=legal[0])).original()
        await (await standin.slash(first, chan, "game undo")).original()
        request = await standin.next_message(chan, lambda m: "asks to take back" in m.content and m.buttons)
        await standin.click(other, request, "Agree")  # a public post: the server's English
        await standin.next_message(chan, lambda m: is_board(m) and "took back" in m.content)
        spanish = (await (await standin.slash(bob, chan, "game log")).original()).content
        english = (await (await standin.slash(alice, chan, "game log")).original()).content
    name = first.name.capitalize()
    assert f"{name} deshizo 1 jugada, desde la jugada 1, con el acuerdo de toda la mesa" in spanish, spanish
    assert f"{name} took back 1 move, from move 1, with everyone's agreement" in english, english


async def test_a_wrong_choice_is_refused_with_the_option_and_choices_a_spanish_client_shows(
    standin, bot_factory
):
    """The refusal of a value no choice offers named the option and the choices in English
    ("level", "easy"); a Spanish speaker's client shows "nivel" and "fácil"."""
    ana = standin.add_user("ana")
    ana.locale = "es-ES"
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)):
        await standin.wait_synced()
        refused = await forged_slash(standin, ana, chan, "game computer", level="expert")
        missing = await forged_slash(standin, ana, chan, "game timer")
    assert refused.ephemeral and refused.content == (
        '⚠️ La opción nivel debe ser uno de estos: fácil, normal, fuerte (indicaste "expert").'
    )
    assert missing.content.startswith("⚠️ La opción horas es obligatoria: ")


async def test_a_computers_level_is_confirmed_in_the_readers_language(standin, bot_factory, tree):  # noqa: F811
    """The answer to /game computer said "añadió un asiento de la máquina (strong)" to a Spanish
    speaker, whose lobby shows the level as "fuerte"."""
    chan = standin.channel("games")
    ana = standin.add_user("ana")
    ana.locale = "es-ES"
    async with standin.run_client(bot_factory(EXTENSIONS)):
        await standin.wait_synced()
        await (await standin.slash(ana, chan, "guacamole new", thread=False, players=3)).original()
        added = await (await standin.slash(ana, chan, "game computer", level="strong")).original()
        clicked = await standin.slash(ana, chan, "game computer")
    assert added.ephemeral and "(fuerte)" in added.content, added.content
    assert english_in(added.content, tree) == [], added.content
    assert "(normal)" in (await clicked.original()).content


async def test_a_single_elimination_bye_is_named_as_its_bracket_names_it(standin, bot_factory):
    """In a Spanish server's single elimination league, the round's post and /league round called
    the top seeds' byes "Ronda libre" (a Swiss round without a game) while the bracket drawn beside
    them said "pase directo": both now say "Pase directo a la siguiente ronda"."""
    from tests.e2e.leagues import EXTENSIONS as LEAGUE_EXTENSIONS
    from tests.e2e.leagues import fire

    standin.guild.locale = "es-419"
    chan = standin.channel("games")
    owner = standin.owner
    users = standin.add_users("ana", "beto", "cusi", "dora", "eloy")
    for user in users:
        user.locale = "es-ES"
    async with standin.run_client(bot_factory(LEAGUE_EXTENSIONS)) as bot:
        await standin.wait_synced()
        await (
            await standin.slash(
                owner, chan, "league create", name="Copa", game="guacamole", format="elimination", players=2
            )
        ).original()
        for user in users:
            await (await standin.slash(user, chan, "league join")).original()
        await (await standin.slash(owner, chan, "league start")).original()
        standin.skip_messages(chan)
        await fire(bot)
        opened = await standin.next_message(chan, lambda m: "🏆" in m.content and "ronda 1" in m.content)
        now = await (await standin.slash(users[0], chan, "league round")).original()
    assert "\nPase directo a la siguiente ronda (1 punto): Ana, Beto, Cusi" in opened.content, opened.content
    assert "\nPase directo a la siguiente ronda (1 punto por persona): Ana, Beto, Cusi" in now.content
    assert "Ronda libre" not in opened.content + now.content
