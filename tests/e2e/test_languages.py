"""Through the stand-in: what the table posts is drawn in the server's language, what it shows one
person privately in that person's Discord language.

The words are checked as Pillow draws them (the instrumentation of tests/i18n/test_spanish_boards.py):
a Spanish image holds no English message of the catalogue, an English one holds several.
"""

from __future__ import annotations

import pytest

from renderers import nowa_gwinea
from renderers import results as results_renderer
from tests.e2e.conftest import BASE_EXTENSIONS, nim_to_the_end, png_of
from tests.e2e.players import is_board, is_results
from tests.i18n.test_spanish_boards import drawn_texts, engine_strings, english_in, english_patterns
from tests.support.nim_spanish import nim_in_spanish  # noqa: F401 (a fixture)

EXTENSIONS = (*BASE_EXTENSIONS, "cogs.me", "cogs.guacamole")


@pytest.fixture(scope="module", autouse=True)
def _english_patterns() -> None:
    """The catalogue's English patterns, built before the tests' event loops run (building them
    sets up a bot of its own, with ``asyncio.run``)."""
    english_patterns()


async def start_guacamole(standin, bot, chan, host, started: dict, labels=("Add computer", "Start")):
    """``host`` opens a two-seat Guacamole lobby with a computer and starts it; returns the texts
    drawn until the channel's first board is posted, what the engine says there, and the game;
    ``started`` gets the lobby message's and the board post's texts."""
    lobby = await standin.slash(host, chan, "guacamole new", thread=False, players=2)
    await standin.click(host, lobby.message, labels[0])
    standin.skip_messages(chan)
    with drawn_texts() as (texts, _):
        await standin.click(host, lobby.message, labels[1])
        board = await standin.next_message(chan, is_board)
        await standin.settle()
    png_of(board)
    session = await bot.sessions.core.in_channel(chan.id)
    started.update(lobby=standin.message(lobby.message.id).content, board=board.content)
    return list(texts), engine_strings(session.engine.view_for(session.state, None)), session


async def private_view(standin, bot, chan, user, session):
    """``user``'s ``/game hand``: the answer and the texts drawn for its picture."""
    with drawn_texts() as (texts, _):
        hand = await (await standin.slash(user, chan, "game hand")).original()
    assert hand.ephemeral and hand.visible_to == frozenset({user.id})
    png_of(hand)
    seat = session.seat_of(user.id).seat
    session = await bot.sessions.core.get(session.id)
    return list(texts), engine_strings(session.engine.view_for(session.state, seat))


def card_words(monkeypatch) -> list[str]:
    """A list that fills with the words of every results card drawn from now on (the card's
    renderer is wrapped; the boards drawn meanwhile are not counted)."""
    found: list[str] = []
    original = results_renderer.render

    def render(*args, **kwargs):
        with drawn_texts() as (texts, _):
            png = original(*args, **kwargs)
        found.extend(texts)
        return png

    monkeypatch.setattr(results_renderer, "render", render)
    return found


def without_last_action(texts: list[str]) -> list[str]:
    """The texts with the last action's words left out (the label stays): the action is told by
    the engine, in English until engines speak in message ids."""
    return [t.split(": ", 1)[0] + ":" if t.startswith(("Última: ", "Last: ")) else t for t in texts]


def assert_spanish(texts: list[str], engine: set[str]) -> None:
    assert texts, "nothing was drawn"
    assert english_in(without_last_action(texts), engine) == []
    assert any(t.startswith("Última:") or "Le toca" in t or "le toca" in t for t in texts), texts


def assert_english(texts: list[str], engine: set[str]) -> None:
    assert len(english_in(texts, engine)) >= 3, texts
    assert not any("Última:" in t for t in texts)


async def test_a_spanish_speaker_in_an_english_server(standin, bot_factory):
    """es-ES user, en-US server: /me and the private view in Spanish, the posted board in English."""
    chan = standin.channel("games")
    ana = standin.add_user("ana")
    ana.locale = "es-ES"
    assert standin.guild.locale == "en-US"
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        me = await (await standin.slash(ana, chan, "me show")).original()
        assert me.ephemeral and me.content.startswith("**Tus ajustes**")
        posted: dict = {}
        texts, engine, session = await start_guacamole(standin, bot, chan, ana, posted)
        assert_english(texts, engine)
        assert posted["lobby"].startswith("**Guacamole**: new game\nOptions: ")
        assert "Ana (host)\n" in posted["lobby"] and posted["lobby"].endswith("The game has started.")
        assert "**Next:** " in posted["board"]
        mine, engine = await private_view(standin, bot, chan, ana, session)
        assert_spanish(mine, engine)


@pytest.mark.parametrize("how", ["game language", "server locale"])
async def test_a_spanish_server_posts_spanish_boards(standin, bot_factory, how, monkeypatch):
    """A server set to Spanish (by /game language, or by its own Discord locale es-419 with no
    choice made): boards and the results card in Spanish; an en-US player's private view in English."""
    chan = standin.channel("games")
    bob = standin.add_user("bob")
    cai = standin.add_user("cai")
    if how == "server locale":
        standin.guild.locale = "es-419"  # the server's community language, sent as preferred_locale
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        if how == "game language":
            admin = standin.guild.owner
            await (await standin.slash(admin, chan, "game language", choose="es")).original()
            assert await bot.store.people.server_language(standin.guild.id) == "es"
        else:
            assert await bot.store.people.server_language(standin.guild.id) is None
        posted: dict = {}
        texts, engine, session = await start_guacamole(
            standin, bot, chan, bob, posted, labels=("Añadir máquina", "Empezar")
        )
        assert_spanish(texts, engine)
        assert posted["lobby"].startswith("**Guacamole**: nueva partida\nOpciones: ")
        assert "Bob (lleva la sala)\n" in posted["lobby"] and "Cpu Ada (máquina, normal)\n" in posted["lobby"]
        assert posted["lobby"].endswith("La partida está en marcha.")
        assert "**Turno de:** " in posted["board"] and "**Next:**" not in posted["board"]
        mine, engine = await private_view(standin, bot, chan, bob, session)
        assert_english(mine, engine)

        # The table's test game Nim draws its boards in English whatever the language: only the
        # results card's own drawing is looked at.
        nim = standin.channel("general")
        card_texts = card_words(monkeypatch)
        finished = await nim_to_the_end(standin, bot, nim, bob, cai, labels=("Unirse", "Empezar"))
        assert finished.status == "finished"
        card = await standin.next_message(nim, is_results)
        await standin.settle()
        png_of(card)
        assert any(t.startswith("Fin de la partida:") for t in card_texts), card_texts
        assert english_in(card_texts, set()) == []


async def test_an_english_server_posts_an_english_results_card(standin, bot_factory, monkeypatch):
    """The control: the same Nim game in an English server draws its card in English."""
    chan = standin.channel("general")
    bob = standin.add_user("bob")
    cai = standin.add_user("cai")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        texts = card_words(monkeypatch)
        await nim_to_the_end(standin, bot, chan, bob, cai)
        await standin.next_message(chan, is_results)
        await standin.settle()
        assert any(t.startswith("Game over:") for t in texts), texts
        assert len(english_in(texts, set())) >= 2


async def test_the_hut_chart_is_drawn_in_the_askers_language(standin, bot_factory):
    """``/nowa_gwinea huts`` is a private answer: its chart in the asker's Discord language."""
    chan = standin.channel("games")
    ana = standin.add_user("ana")
    ana.locale = "es-419"
    bob = standin.add_user("bob")
    async with standin.run_client(bot_factory((*BASE_EXTENSIONS, "cogs.nowa_gwinea"))):
        await standin.wait_synced()
        drawn = {}
        for user in (ana, bob):
            nowa_gwinea.huts_chart.cache_clear()  # drawn afresh, whatever an earlier test drew
            with drawn_texts() as (texts, _):
                answer = await (await standin.slash(user, chan, "nowa_gwinea huts")).original()
            assert answer.ephemeral
            png_of(answer)
            drawn[user.name] = list(texts)
        assert drawn["ana"] and english_in(drawn["ana"], set()) == []
        assert english_in(drawn["bob"], set()), drawn["bob"]


def buttons_of(message) -> set[str]:
    return {b.get("label") for b in message.buttons}


async def nim_lobby(standin, chan, host, guest, labels):
    """``host`` opens a Nim lobby, ``guest`` joins, ``host`` starts; returns the lobby message."""
    lobby = await standin.slash(host, chan, "nim new", thread=False, piles=2)
    assert buttons_of(standin.message(lobby.message.id)) == set(labels.values()), labels
    await standin.click(guest, lobby.message, labels["join"])
    await standin.click(host, lobby.message, labels["start"])
    return standin.message(lobby.message.id)


SPANISH_LOBBY = {"join": "Unirse", "leave": "Salir", "cpu": "Añadir máquina", "start": "Empezar"}
ENGLISH_LOBBY = {"join": "Join", "leave": "Leave", "cpu": "Add computer", "start": "Start"}


@pytest.mark.usefixtures("nim_in_spanish")
async def test_a_spanish_server_tells_each_turn_in_spanish(standin, bot_factory):
    """A server whose language is Spanish: the lobby's buttons, the board post's event lines,
    its buttons and the game's end are in Spanish (Nim's sentences kept for translation)."""
    chan = standin.channel("general")
    bob = standin.add_user("bob")
    cai = standin.add_user("cai")
    standin.guild.locale = "es-419"
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await nim_lobby(standin, chan, bob, cai, SPANISH_LOBBY)
        # The start's board first: were it still on its way, the first move's wait below would
        # take it, and every later wait the board before, read after its buttons went.
        await standin.next_message(chan, is_board)
        session = await bot.sessions.core.in_channel(chan.id)
        boards = []
        while session.status == "active":
            (seat,) = session.to_move()
            user = bob if session.by_seat(seat).user_id == bob.id else cai
            move = (await bot.sessions.play.legal_moves(chan.id, user.id))[0]
            standin.skip_messages(chan)
            answer = await (await standin.slash(user, chan, "nim move", move=move)).original()
            assert answer.text.startswith(f"You played `{move}`."), answer.text  # the asker's language
            board = await standin.next_message(chan, is_board)
            boards.append((board.content, buttons_of(board)))  # its buttons before the next board
            session = await bot.sessions.core.get(session.id)
        posts = [m for m in standin.messages(chan) if is_board(m)]
        assert posts[0].content.startswith("¡Empieza **Nim**! Asientos en orden de juego: 1. ")
        told = [b for b in boards if "del montón" in b[0]]
        assert told, boards
        first, buttons = told[0]
        assert "tomó 1 piedra del montón A." in first, first
        assert "took" not in first and "**Turno de:** " in first
        assert buttons == {"Jugar", "Mi vista"}
        last = boards[-1][0]
        assert "**Fin de la partida**: se tomó la última piedra." in last, last
        assert "1.º: " in last and "Vuelve a jugar con `/nim nueva`" in last
        card = await standin.next_message(chan, is_results)
        assert card.content.startswith("**Resultados** de la partida n.º") and buttons_of(card) == {
            "Revancha"
        }


@pytest.mark.usefixtures("nim_in_spanish")
async def test_a_spanish_speaker_gets_private_answers_in_spanish(standin, bot_factory):
    """An es-ES player in an English server: a refused move, /game status and the Play menu are
    answered in Spanish, while the posted board, its buttons and its event lines stay English."""
    chan = standin.channel("general")
    ana = standin.add_user("ana")
    ana.locale = "es-ES"
    bob = standin.add_user("bob")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await nim_lobby(standin, chan, ana, bob, ENGLISH_LOBBY)
        await standin.wait_for(lambda: [m for m in standin.messages(chan) if is_board(m)], what="a board")
        session = await bot.sessions.core.in_channel(chan.id)
        if session.to_move() == {session.seat_of(bob.id).seat}:
            count = len([m for m in standin.messages(chan) if is_board(m)])
            await (await standin.slash(bob, chan, "nim move", move="A1")).original()
            await standin.wait_for(
                lambda: len([m for m in standin.messages(chan) if is_board(m)]) > count, what="a board"
            )
            session = await bot.sessions.core.get(session.id)
        board = [m for m in standin.messages(chan) if is_board(m)][-1]
        assert buttons_of(board) == {"Play", "My view"} and "**Next:** " in board.content
        if "from pile" in board.content or "took" in board.content:
            assert "tomó" not in board.content

        pile = max((n, letter) for letter, n in zip("AB", session.state.piles, strict=True))[1]
        have = session.state.piles["AB".index(pile)]
        refused = await (await standin.slash(ana, chan, "nim move", move=f"{pile}50")).original()
        assert refused.text == f"⚠️ El montón {pile} tiene {have} piedras; toma de 1 a {have}.", refused.text
        english = await (await standin.slash(bob, chan, "nim move", move=f"{pile}50")).original()
        assert english.text.startswith("⚠️ "), english.text
        assert "piedra" not in english.text

        status = await (await standin.slash(ana, chan, "game status")).original()
        assert "Esperando a: Ana" in status.text and "Opciones: " in status.text, status.text
        assert "Waiting" not in status.text

        menu = await (await standin.click(ana, board, "Play")).original()
        assert menu.ephemeral and "Tu vista de **Nim**" in menu.text, menu.text
        assert "Elige una jugada abajo" in menu.text
        shown = [b.get("label") for b in menu.buttons] + [s.get("placeholder") for s in menu.selects]
        shown += [o.get("label") for s in menu.selects for o in s.get("options", [])]
        assert any("Montón A" in (x or "") or "tomar" in (x or "") for x in shown), shown
        assert not any("Pile" in (x or "") or "take" in (x or "") for x in shown), shown

        standin.skip_messages(chan)
        played = await (await standin.slash(ana, chan, "nim move", move="A1")).original()
        assert played.text.startswith("Jugaste `A1`.") and "tomó 1 piedra del montón A" in played.text
        posted = await standin.next_message(chan, is_board)
        assert "Ana took 1 from pile A." in posted.content and "tomó" not in posted.content


async def test_a_spanish_server_is_asked_about_a_timeout_in_spanish(
    standin, bot_factory, table_clock, monkeypatch
):
    """The timeout question, its buttons and the answer posted are the server's (Spanish); the
    answer to the person who clicked is theirs (English)."""
    from tests.e2e.players import to_move
    from tests.e2e.test_clocks import DAY, is_question, open_clocked
    from tests.e2e.test_notices import EXTENSIONS as NOTICE_EXTENSIONS
    from tests.support import nim

    monkeypatch.setattr(nim, "TABLE_MOVES", False)  # running out asks the others
    alice, bob = standin.add_users("alice", "bob")
    standin.guild.locale = "es-ES"
    games = standin.channel("games")
    async with standin.run_client(bot_factory(NOTICE_EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, _ = await open_clocked(standin, bot, games, alice, bob)
        late, session = await to_move(bot, thread, (alice, bob))
        other = bob if late is alice else alice
        table_clock.advance(DAY)
        await bot.scheduler.run_due()
        question = await standin.next_message(thread, is_question)
        assert question.content.startswith(f"⏰ Se le acabó el tiempo a <@{late.id}> en la partida de Nim")
        assert f"<@{other.id}>: ¿y ahora qué? **La máquina juega el asiento**" in question.content
        assert "Decide la primera respuesta" in question.content and "time ran out" not in question.content
        assert [b["label"] for b in question.buttons] == [
            "La máquina juega el asiento",
            "Dar más tiempo",
            "Abandonar la partida",
        ]
        answer = await (await standin.click(other, question, "Dar más tiempo")).original()
        assert (
            answer.ephemeral
            and answer.content.startswith("Done: ")
            and "on their clock again" in answer.content
        )
        said = await standin.next_message(thread, lambda m: "respondió" in m.content)
        name = session.seat_of(late.id).name
        assert said.content.startswith(f"<@{other.id}> respondió: {name} vuelve a tener ")


async def test_a_spanish_server_gets_its_league_posts_in_spanish(standin, bot_factory):
    """A league in a Spanish server: the sign-up message and its buttons, the round's opening and
    the standings (picture and text) are Spanish; answers to an English-speaking organiser are
    English, to a Spanish-speaking player Spanish."""
    from tests.e2e.leagues import EXTENSIONS as LEAGUE_EXTENSIONS
    from tests.e2e.leagues import fire

    standin.guild.locale = "es-419"
    chan = standin.channel("games")
    owner = standin.owner
    ana, beto, cusi = standin.add_users("ana", "beto", "cusi")
    ana.locale = "es-ES"
    async with standin.run_client(bot_factory(LEAGUE_EXTENSIONS)) as bot:
        await standin.wait_synced()
        created = await standin.slash(
            owner, chan, "league create", name="Liga", game="guacamole", format="swiss", players=2, rounds=1
        )
        signup = created.message
        assert not signup.ephemeral
        assert signup.content.startswith(
            "🏆 **Liga**: una liga de sistema suizo de Guacamole, 2 jugadores por partida, 1 ronda, 7 días por ronda."
        )
        assert "Inscripciones (0): nadie todavía" in signup.content
        assert [b["label"] for b in signup.buttons] == ["Unirse", "Salir"]
        joined = await (await standin.slash(ana, chan, "league join")).original()
        assert joined.ephemeral and joined.content == "Ana se inscribió en Liga (1 jugador)."
        again = await (await standin.slash(ana, chan, "league join")).original()  # a refusal: hers
        assert again.ephemeral and again.content == "⚠️ Ya te has inscrito en Liga."
        for user in (beto, cusi):
            await standin.click(user, signup, "Unirse")
        assert "Inscripciones (3): " in standin.message(signup.id).content
        started = await (await standin.slash(owner, chan, "league start")).original()
        assert started.content.startswith(
            "Liga has started: 1 round, the first opens"
        )  # the organiser's English
        late = await (await standin.slash(ana, chan, "league join")).original()
        # Late sign-ups stay open until half the rounds are played: she is in already.
        assert late.ephemeral and late.content == "⚠️ Ya te has inscrito en Liga."
        refused = await (await standin.slash(owner, chan, "league start")).original()
        assert refused.ephemeral and refused.content == "⚠️ Liga has already started."
        standin.skip_messages(chan)
        await fire(bot)
        opened = await standin.next_message(chan, lambda m: "Liga" in m.content and "🏆" in m.content)
        assert opened.content.startswith("🏆 **Liga**: la ronda 1 de 1 está abierta hasta el <t:")
        assert "Ronda libre (1 punto): " in opened.content and "is open" not in opened.content
        thread = next(t for t in standin.guild.threads if "ronda 1 · mesa 1" in t.name)
        assert (
            "esta es la partida de Guacamole de **Liga**, ronda 1 de 1" in standin.messages(thread)[0].content
        )
        with drawn_texts() as (texts, _):
            standings = await standin.slash(beto, chan, "league standings")
            picture, below = await standings.followups(2)
        assert not picture.ephemeral and picture.content == "**Liga**: posiciones en la ronda 1 de 1"
        assert png_of(picture).width == 1000
        # The default tiebreaks (Buchholz, head to head, rating) head their columns in Spanish.
        assert english_in(texts, set()) == [] and {"Nombre", "BH", "ED", "Val"} <= set(texts)
        # the player with the round's bye: counted beside the games, and a line says what a bye is
        assert not below.ephemeral
        # (her Buchholz: the bye counts against a dummy opponent scoring her own point)
        assert "1 punto, 0 partidas jugadas, 1 ronda libre, 0 victorias; BH 1, ED 0, Val" in below.content
        assert "(1 ronda libre)" in " ".join(texts)  # and marked beside the name in the picture
        assert (
            "\nDesempates, en orden: BH: Buchholz, ED: enfrentamiento directo, Val: valoración"
            " (quien aún no tiene partidas puntuadas tiene la valoración inicial, 0)\n" in below.content
        )
        assert (
            below.content.endswith("puntúa 1 punto.")
            and "\nRonda libre: una ronda en la que" in below.content
        )
        private = await (await standin.slash(ana, chan, "league round")).original()
        assert private.ephemeral and private.content.startswith("**Liga**, ronda 1 de 1 (termina el <t:")
        assert "Mesa 1: " in private.content and "en juego" in private.content
