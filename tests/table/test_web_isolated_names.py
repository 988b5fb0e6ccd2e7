"""Every player's name the web pages write is isolated from the text around it (U+2068 ... U+2069,
:func:`languages.bidi.isolated`), wherever it stands: a game's page (a lobby, a running game, an
ended one: players, moves, result, the board's alt text and words, the chart), a league's (the
standings, rounds, bracket, champion, season's ratings) and a person's (its title and heading).
A name holding a right-to-left override would otherwise draw the rest of its line backwards (the
browser's view of it: tests/web/test_isolated_names.py)."""

from __future__ import annotations

import re

from languages.bidi import isolated
from tests.league.test_service import DAY, GUILD
from tests.table.test_web_pages import serve
from tests.web.test_league_and_person_pages import first_round_played

FSI, PDI = "\u2068", "\u2069"
OVERRIDE = "\u202eEve"  # a right-to-left override, never closed
HEBREW = "שרה"
NAMES = {901: HEBREW, 902: "Bob", 903: OVERRIDE, 904: "Dan"}


def test_a_name_that_could_turn_the_text_around_it_is_isolated():
    assert isolated("Bob") == "Bob"  # left to right only: as it is
    assert isolated("Ana María 2") == "Ana María 2"
    assert isolated(HEBREW) == FSI + HEBREW + PDI
    assert isolated(OVERRIDE) == FSI + OVERRIDE + PDI  # the closing PDI ends the override too
    # a PDI of the name's own would close the isolate around it, and let the override out
    assert isolated("\u2069\u202eEve") == FSI + OVERRIDE + PDI
    # an isolate the name opens is closed before the one around it
    assert isolated("\u2067Eve") == FSI + "\u2067Eve" + PDI + PDI
    assert isolated("\u2067E\u2069ve\u2069") == FSI + "\u2067E\u2069ve" + PDI


def unisolated(html: str) -> dict[str, int]:
    """How often each name of :data:`NAMES` that needs isolating stands in ``html`` outside an
    isolate of its own."""
    return {name: html.count(name) - html.count(FSI + name + PDI) for name in (OVERRIDE, HEBREW)}


async def test_every_page_isolates_each_name_it_writes(service, clock):
    leagues, swiss = await first_round_played(service, "Bidi", NAMES)
    _, cup = await first_round_played(service, "Cup", NAMES, channel=51, format="elimination")
    clock.advance(DAY)
    for league in (swiss, cup):
        await leagues.round_deadline(league.id, 1)  # places, standings, the bracket's winners
    games = [
        g.session_id for league in (swiss, cup) for g in await service.store.leagues.league_games(league.id)
    ]
    await service.lobby.create("nim", guild_id=GUILD, channel_id=81, host_id=903, host_name=OVERRIDE, seed=4)
    lobby = (await service.store.games.last_session(81)).id
    pages, client = await serve(service)
    alts: list[str] = []  # the boards' alt texts naming one of them

    async def read(address: str) -> None:
        for lang in ("en", "es"):
            reply = await client.get(address, params={"lang": lang})
            assert reply.status == 200, address
            html = await reply.text()
            assert OVERRIDE in html or HEBREW in html or "Bob" in html, address
            assert unisolated(html) == {OVERRIDE: 0, HEBREW: 0}, (lang, address, html)
            alt = re.search(r'<img id="board"[^>]* alt="([^"]*)"', html)
            if alt is not None and (OVERRIDE in alt.group(1) or HEBREW in alt.group(1)):
                alts.append(alt.group(1))  # an attribute holds no element: the characters isolate there

    try:
        await read(f"/g/{await pages.links.token('game', lobby)}")  # the lobby's players
        await service.lobby.join(81, 901, HEBREW)
        await service.lobby.start(81, 903)
        running = await service.core.in_channel(81)
        user = running.waiting_on()[0].user_id
        await service.play.play(81, user, (await service.play.legal_moves(81, user))[0])
        token = await pages.links.token("game", running.id)
        addresses = [f"/g/{token}", f"/g/{token}?move=0"]  # who is waiting, who played, who is to play
        addresses += [f"/g/{await pages.links.token('game', sid)}" for sid in games if sid is not None]
        addresses += [f"/l/{await pages.links.token('league', league.id)}" for league in (swiss, cup)]
        addresses += [f"/p/{await pages.links.token('person', uid, GUILD)}" for uid in (901, 903)]
        for address in addresses:
            await read(address)
        assert len(alts) > 4 and all(unisolated(a) == {OVERRIDE: 0, HEBREW: 0} for a in alts), alts
    finally:
        pages.close()
        await client.close()
