"""A probe from outside: every picture the bot sends carries alt text (an attachment's ``description``
and, on a components v2 message, its media gallery item's), at most 1,024 characters, in the language
the picture is drawn in, and a public picture's alt text holds nothing hidden.

Each of the five games is opened against a computer, in English and in Spanish (the server's
Discord locale and the player's), and played for a few turns: boards, DMs, the private menu, the
private view, history pages, ``/game board``; then the player resigns, which ends the game with its
results card, and ``/game export`` posts the animated summary.
"""

from __future__ import annotations

import pytest

from bot import alt
from bot.app import EXTENSIONS
from engines.core import in_words, name_seats
from languages import language
from tests.e2e.players import is_board, lobby_button

GAMES = {
    "guanga": ({"players": 2}, "Guanga"),
    "tiwanaku": ({"players": 2}, "Tiwanaku"),
    "pachakuna": ({}, "P'achakuna"),
    "guacamole": ({"players": 2}, "Guacamole"),
    "nowa_gwinea": ({"players": 2}, "Nowa Gwinea"),
}
WORDS = {"en": "game #", "es": "partida n.º"}  # in every game picture's alt text, in its language
PICTURES = (".png", ".gif", ".jpg", ".webp")


def pictures(message) -> list[tuple[str, str | None]]:
    """``(where, alt text)`` for each picture of ``message``: its attachments and media gallery items."""
    out = [(f.filename, f.description) for f in message.files if f.filename.endswith(PICTURES)]
    for c in walk(message.components):
        if c.get("type") == 12:
            out.extend((item["media"]["url"], item.get("description")) for item in c["items"])
    return out


def walk(components: list[dict]) -> list[dict]:
    out: list[dict] = []
    for c in components or []:
        out.append(c)
        out.extend(walk(c.get("components") or []))
    return out


def private_lines(session) -> list[str]:
    """What each seat alone holds, as its private view's words say it (one sentence each)."""
    out = []
    names = session.names()
    for seat in range(len(names)):
        said = in_words(session.engine.summary(session.engine.view_for(session.state, seat)), language("en"))
        said_es = in_words(
            session.engine.summary(session.engine.view_for(session.state, seat)), language("es")
        )
        for text in (said, said_es):
            out.extend(
                line for line in alt.plain(name_seats(text or "", names)).split(". ") if len(line) > 12
            )
    return out


async def my_turn(standin, bot, chan, user) -> bool:
    """Wait (board by board) until ``user`` is to move; False once the game is over."""
    for _ in range(40):
        session = await bot.sessions.core.in_channel(chan.id)
        if session is None or session.status != "active":
            return False
        if session.seat_of(user.id).seat in session.to_move():
            return True
        await standin.next_message(chan, is_board)
    raise AssertionError("the computer never handed the turn back")


@pytest.mark.parametrize("code", ["en", "es"])
@pytest.mark.parametrize("game", sorted(GAMES))
async def test_every_picture_has_alt_text(standin, bot_factory, game, code):
    options, title = GAMES[game]
    chan = standin.channel("games")
    ana = standin.add_user("ana")
    if code == "es":
        standin.guild.locale = "es-419"
        ana.locale = "es-ES"
    t = language(code)
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await (await standin.slash(ana, chan, "me notify", where="both")).original()
        lobby = await standin.slash(ana, chan, f"{game} new", thread=False, **options)
        await standin.click(ana, lobby.message, lobby_button(lobby.message, "cpu"))
        standin.skip_messages(chan)
        await standin.click(ana, lobby.message, lobby_button(lobby.message, "start"))
        await standin.next_message(chan, is_board)
        session = await bot.sessions.core.in_channel(chan.id)

        played = 0
        opened_menu = False
        while played < 6 and await my_turn(standin, bot, chan, ana):
            session = await bot.sessions.core.in_channel(chan.id)
            if not opened_menu:  # the private menu: components v2, the picture in a media gallery
                opened_menu = True
                latest = [m for m in standin.messages(chan) if is_board(m)][-1]
                menu = await (await standin.click(ana, latest, f"pk:turn:{session.id}")).original()
                assert menu.ephemeral and pictures(menu), menu.text
            legal = await bot.sessions.play.legal_moves(chan.id, ana.id)
            move = sorted(legal)[0]
            answer = await (await standin.slash(ana, chan, f"{game} move", move=move)).original()
            assert "⚠️" not in answer.text, answer.text
            played += 1
            await standin.settle()
        assert played >= 1

        hand = await (await standin.slash(ana, chan, "game hand")).original()
        assert hand.ephemeral and pictures(hand)
        for options in ({}, {"move": 0}):
            page = await (await standin.slash(ana, chan, "game history", **options)).original()
            assert pictures(page), page.text
        if game == "nowa_gwinea":
            chart = await standin.slash(ana, chan, "nowa_gwinea huts")
            assert pictures(chart.message)
        standin.skip_messages(chan)
        await (await standin.slash(ana, chan, "game board")).original()
        shown = await standin.next_message(chan, is_board)
        session = await bot.sessions.core.in_channel(chan.id)
        hidden = private_lines(session) if session is not None and session.status == "active" else []

        # The public board's alt text holds none of what one seat alone holds; her own view does.
        public_alt = " ".join(d or "" for _, d in pictures(shown))
        assert not [line for line in hidden if line in public_alt], public_alt
        if session is not None and session.status == "active":
            mine = await (await standin.slash(ana, chan, "game hand")).original()
            own = in_words(session.engine.summary(session.engine.view_for(session.state, 0)), t) or ""
            first = alt.plain(name_seats(own, session.names())).split(". ")[0]
            assert first and first in " ".join(d or "" for _, d in pictures(mine)), pictures(mine)

            await (await standin.slash(ana, chan, "game resign")).original()
        await standin.settle()
        ended = await bot.sessions.core.latest(chan.id)
        assert ended.status == "finished"
        card = [
            m for m in standin.messages(chan) if any(f.filename.endswith("-results.png") for f in m.files)
        ]
        assert card, "no results card"
        await (await standin.slash(ana, chan, "game export")).original()
        await standin.settle()

        seen = 0
        for message in standin.all_messages():
            if message.author.id != standin.bot_user.id or message.deleted:
                continue
            for where, description in pictures(message):
                seen += 1
                assert description, f"{where} in {message.content[:80]!r} has no alt text"
                assert len(description) <= 1024, (where, len(description))
                if where.startswith("league-"):
                    continue
                assert title in description, (where, description)
                # what the picture shows in words, never a count of lines to read elsewhere
                assert "/game log" not in description and "/juego registro" not in description, description
                if where != "nowa-gwinea-huts.png":
                    assert WORDS[code] in description, (where, description)
                    assert WORDS["es" if code == "en" else "en"] not in description, (where, description)
                if message.visible_to is None and not message.ephemeral:
                    assert not [line for line in hidden if line in description], (where, description)
        kinds = {
            "dm": any(m.channel.id != chan.id and pictures(m) for m in standin.all_messages()),
            "results": bool(card),
            "summary": any(f.filename.endswith(".gif") for m in standin.all_messages() for f in m.files),
        }
        assert all(kinds.values()), kinds
        assert seen >= 10, seen


async def test_the_turn_notices_board_carries_the_channels_last_action(standin, bot_factory):
    """Ana's turn notices come by direct message, with the public board "as the channel shows it":
    its picture is described with the same last action as the channel's board."""
    chan = standin.channel("games")
    ana = standin.add_user("ana")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await (await standin.slash(ana, chan, "me notify", where="dm")).original()
        lobby = await standin.slash(ana, chan, "tiwanaku new", thread=False, players=2)
        await standin.click(ana, lobby.message, lobby_button(lobby.message, "cpu"))
        standin.skip_messages(chan)
        await standin.click(ana, lobby.message, lobby_button(lobby.message, "start"))
        await standin.next_message(chan, is_board)
        for _ in range(4):
            assert await my_turn(standin, bot, chan, ana)
            legal = await bot.sessions.play.legal_moves(chan.id, ana.id)
            await (await standin.slash(ana, chan, "tiwanaku move", move=sorted(legal)[0])).original()
            await standin.settle()
        await my_turn(standin, bot, chan, ana)
        await standin.settle()
        boards = [m for m in standin.messages(chan) if is_board(m) and pictures(m)]
        notices = [m for m in standin.all_messages() if m.channel.id != chan.id and pictures(m)]
        channel_alt, notice_alt = pictures(boards[-1])[0][1], pictures(notices[-1])[0][1]
        assert channel_alt is not None and notice_alt is not None
        last = channel_alt[channel_alt.index("Last action:") :]
        assert notice_alt.endswith(last), (channel_alt, notice_alt)
