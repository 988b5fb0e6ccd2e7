"""Players' names on a game's page are written as the players wrote them, everywhere on it: the
move list, the result, the board in words and the board's alt text take Discord's markdown out
of the table's lines, and a name holding ``__``, ``**`` or backticks, or an initial's full stop,
or starting with a small letter, is not markdown nor a sentence to be made."""

from __future__ import annotations

import html as markup
import re

import engines
from bot import alt
from bot.sessions.model import stored
from engines.core import config_from_options
from tests.support.played import whole_game
from tests.table.test_web_pages import record_end, serve

NAMES = ("__ana__", "Bo**b <i>x</i>", "C. J. Smith", "`tick` ||sp||")


async def store_named(service, game: str, seed: int, played, final, names) -> int:
    """``played`` stored as a new game of ``names``, its board told through the last move."""
    players = len(names)
    session = await service.lobby.create(
        game, guild_id=1, channel_id=4000, host_id=1, host_name=names[0], seed=seed
    )
    for uid in range(2, players + 1):
        await service.lobby.join(4000, uid, names[uid - 1])
    module = engines.get(game).load()
    start = module.new_game(config_from_options(module.Config, players, {}), players, seed)
    await service.store.games.start(session.id, {i: i for i in range(players)}, {}, module.to_dict(start))
    version = (await service.core.reread(session.id)).version
    await service.store.games.record_moves(
        session.id, version, [stored(p) for p in played], module.to_dict(final)
    )
    await service.store.games.set_board_message(session.id, 1, len(played))
    return session.id


def test_plain_keeps_the_names_it_is_given_as_written():
    line = "**__ana__** placed `A1`. C. J. Smith passed\n`tick` ||sp|| won"
    assert alt.plain(line) == "Ana placed A1. C. J. Smith passed. Tick sp won."
    assert alt.plain(line, NAMES) == "__ana__ placed A1. C. J. Smith passed. `tick` ||sp|| won."


async def test_a_games_page_writes_every_name_as_it_is(service):
    played, final = whole_game("tiwanaku", 4, 3)
    sid = await store_named(service, "tiwanaku", 3, played, final, NAMES)
    outcome = await record_end(service, sid, "tiwanaku", final)
    winner = NAMES[outcome.ranking[0][0]]
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        page = await (await client.get(f"/g/{token}?move=5")).text()
        entries = re.findall(r'<li value="\d+"><a [^>]*>(.*?)</a>', page)[1:]
        # each move in words, its notation (when public) in a <code> of its own after them
        moves = [markup.unescape(re.sub(r" <code>[^<]*</code>", "", m)) for m in entries]
        assert len(moves) == len(played)
        for record, line in zip(played, moves, strict=True):
            assert line.startswith(f"{NAMES[record.seat]} "), line  # its mover, or its public line
        result = markup.unescape(re.search(r'<h2 id="result-h">[^<]*</h2>\s*<p>([^<]*)</p>', page).group(1))
        assert result.startswith(f"{winner} wins"), result  # under its heading "Result"
        words = markup.unescape(
            re.search(r"<summary[^>]*>[^<]*</summary>(.*?)</details>", page, re.S).group(1)
        )
        for name in NAMES:
            assert f"{name}: 0 points." in words, name
        mover = NAMES[played[4].seat]
        assert f"Last action: {mover} enters on" in markup.unescape(
            re.search(r'alt="([^"]*)"', page).group(1)
        )
        for mangled in ("Ana", "Bob", "tick sp", "Tick"):
            assert not re.search(rf"(?<![\w*`]){mangled}\b", page), mangled
    finally:
        pages.close()
        await client.close()
