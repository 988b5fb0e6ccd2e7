"""A game that ended before its rules ended it (a resignation, the host abandoning it): its page's
last board is the end of the game, and its alt text says so (how it ended and the places, or that
it was abandoned) instead of naming someone to play next, as the result above it says; an
earlier board still names who was to play then."""

from __future__ import annotations

import html as markup
import re

from tests.table.test_web_pages import serve


async def four_moves(service, channel: int) -> int:
    """A Guanga game of ana (host) and beto in ``channel``, four moves played; its number."""
    await service.lobby.create("guanga", guild_id=1, channel_id=channel, host_id=1, host_name="ana", seed=4)
    await service.lobby.join(channel, 2, "beto")
    await service.lobby.start(channel, 1)
    for _ in range(4):
        session = await service.core.in_channel(channel)
        seat = sorted(session.to_move())[0]
        user = session.by_seat(seat).user_id
        await service.play.play(channel, user, (await service.play.legal_moves(channel, user))[0])
    return session.id


def alt_of(page: str) -> str:
    return markup.unescape(re.search(r'<img id="board"[^>]* alt="([^"]*)"', page).group(1))


async def test_the_last_board_of_a_game_ended_early_is_its_end(service):
    resigned = await four_moves(service, 77)
    await service.seats.resign(77, 2)  # beto: two players, so the game ends
    abandoned = await four_moves(service, 78)
    await service.seats.abandon(78, 1, can_manage=False)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", resigned)
        page = await (await client.get(f"/g/{token}")).text()
        assert 'data-step="4"' in page
        # said once: the heading, then who won (it said "Result" then "Result: ana wins …")
        assert '<h2 id="result-h">Result</h2>\n<p>ana wins (the game ended by resignation).</p>' in page, page
        assert page.count("Result") == 1, page
        last = alt_of(page)
        assert "To play" not in last, last
        # in the words of the picture's header (texts.ended_early), then the places
        said = "Game over: ana wins (the game ended by resignation). 1st: ana: 1. 2nd: beto: 0 (resigned)."
        assert said in last, last
        assert "To play: " in alt_of(await (await client.get(f"/g/{token}?move=3")).text())

        token = await pages.links.token("game", abandoned)
        page = await (await client.get(f"/g/{token}")).text()
        assert 'data-step="4"' in page
        last = alt_of(page)
        assert "To play" not in last and "This game was abandoned." in last, last
        spanish = alt_of(await (await client.get(f"/g/{token}?lang=es")).text())
        assert "Le toca a" not in spanish and "Esta partida se abandonó." in spanish, spanish
    finally:
        pages.close()
        await client.close()


async def test_a_seat_the_computer_plays_on_after_a_resignation_reads_as_one_phrase(service):
    """Three-player Guacamole: beto resigns and the computer plays his seat on; the page's players
    say so in one bracket (it read 'beto (computer) (resigned)'), in English and Spanish."""
    await service.lobby.create(
        "guacamole", guild_id=1, channel_id=79, host_id=1, host_name="ana", max_players=3, seed=4
    )
    await service.lobby.join(79, 2, "beto")
    await service.lobby.join(79, 3, "cusi")
    await service.lobby.start(79, 1)
    await service.seats.resign(79, 2)
    session = await service.core.in_channel(79)
    assert session.status == "active" and session.seat_of(2).resigned and session.seat_of(2).computer
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", session.id)
        page = markup.unescape(await (await client.get(f"/g/{token}")).text())
        assert '<td class="name">beto (resigned; the computer plays on)</td>' in page, page
        assert ") (" not in page
        spanish = markup.unescape(await (await client.get(f"/g/{token}?lang=es")).text())
        assert '<td class="name">beto (se rindió; sigue la máquina)</td>' in spanish
    finally:
        pages.close()
        await client.close()


async def test_a_game_ended_by_a_resignation_says_the_seat_resigned_and_no_more(service):
    """Two-player Nim: bea resigns, which ends the game at once; the computer took her seat, but
    nothing plays on (the page said 'bea (resigned; the computer plays on)')."""
    await service.lobby.create("nim", guild_id=1, channel_id=81, host_id=1, host_name="al", seed=4)
    await service.lobby.join(81, 2, "bea")
    await service.lobby.start(81, 1)
    await service.seats.resign(81, 2)
    session = await service.core.get((await service.store.games.last_session(81)).id)
    assert session.status == "finished" and session.seat_of(2).resigned
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", session.id)
        for lang, said in (("en", "bea (resigned)</td>"), ("es", "bea (se rindió)</td>")):
            page = markup.unescape(await (await client.get(f"/g/{token}?lang={lang}")).text())
            assert f'<td class="name">{said}' in page, page
    finally:
        pages.close()
        await client.close()
