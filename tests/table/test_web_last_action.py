"""A game's page draws each board with the header line the channel's board had: the first line
everyone may read of the move (what the player did), as ``texts.last_action`` gives it, and its
alt text says the same; not every line of the move run together with "; " (a Nowa Gwinea call
that ends a round and the game said five things, ".;" between them, cut off in the header)."""

from __future__ import annotations

import html as markup
import re

from bench.history import store_game
from bot import texts
from tests.support.played import whole_game
from tests.table.test_web_pages import record_end, serve


async def test_the_last_action_is_the_line_the_channel_read(service):
    played, final = whole_game("nowa_gwinea", 3, 5)
    sid = await store_game(service, "nowa_gwinea", 3, 5, played, final)
    await record_end(service, sid, "nowa_gwinea", final)
    session = await service.core.get(sid)
    last = len(played)
    record = (await service.logbook.log(session))[-1]
    line = texts.last_action(session, [record], texts.ENGLISH)
    assert line == "p1 calls Gwinea! Round 9 ends.", line
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", sid)
        page = await (await client.get(f"/g/{token}")).text()
        alt = markup.unescape(re.search(r'<img id="board"[^>]* alt="([^"]*)"', page).group(1))
        assert alt.endswith("Last action: p1 calls Gwinea! Round 9 ends."), alt
        assert ".;" not in alt
        png = await (await client.get(f"/g/{token}/board/{last}.png")).read()
        renderer = session.info.load_renderer()
        view = session.engine.view_for(session.state, None)
        drawn = renderer.render(view, names=session.names(), last_action=line, language="en")
        assert png == drawn  # the header the channel's board had
    finally:
        pages.close()
        await client.close()
