"""A move that a later undo took back says so wherever the moves are listed: its ``/game log``
line, its history page and its entry in the web page's move list (which the page's live region
reads), in English and Spanish; the moves that stood and the undo entry itself do not."""

from __future__ import annotations

import html as markup
import re

from bot import movetexts
from bot.history import History
from bot.undo import Asked, UndoService
from languages import language
from tests.table.test_web_pages import serve

CHANNEL = 320
ENTRY = re.compile(r'<li value="(\d+)"><a [^>]*>(.*?)</a></li>', re.S)
LOG_MARK = {"en": " (taken back)", "es": " (deshecha)"}
PAGE_MARK = {
    "en": "This move was taken back later; the game went on from the board before it.",
    "es": "Esta jugada se deshizo más tarde; la partida siguió desde el tablero de antes.",
}
WEB_MARK = {"en": " (taken back later)", "es": " (deshecha más tarde)"}


async def a_hut_taken_back(service):
    """Ann's first hut of a Nowa Gwinea game taken back with Bob's consent, then another hut
    built: move 1 taken back, move 2 the undo entry, move 3 the hut that stands; the channel told
    of all three."""
    await service.lobby.create(
        "nowa_gwinea", guild_id=1, channel_id=CHANNEL, host_id=1, host_name="ann", seed=5
    )
    await service.lobby.join(CHANNEL, 2, "bob")
    session = (await service.lobby.start(CHANNEL, 1)).session
    history = History(service, every=3)
    undo = UndoService(service, history)
    builds = [m for m in await service.play.legal_moves(CHANNEL, 1) if m != "done"]
    await service.play.play(CHANNEL, 1, builds[0])
    asked = await undo.ask(CHANNEL, 1)
    assert isinstance(asked, Asked)
    await undo.answer(asked.request.session_id, asked.request.version, 2, True)
    await service.play.play(CHANNEL, 1, builds[-1])
    session = await service.core.get(session.id)
    records = await service.logbook.log(session)
    await service.logbook.told(session, 999, records[-1].number)
    return await service.core.get(session.id), history, records


async def test_a_move_taken_back_says_so_in_the_log_and_its_history_page(service):
    session, history, records = await a_hut_taken_back(service)
    assert [r.taken_back for r in records] == [True, False, False]
    for code in ("en", "es"):
        t = language(code)
        for reader in (None, 0, 1):  # the channel, Ann (who reads her own hut), Bob
            lines = movetexts.log_text(session, records, reader, t).splitlines()
            assert len(lines) == 3
            marked = [line.endswith(LOG_MARK[code]) for line in lines]
            assert marked == [True, False, False], (code, reader, lines)
            # The mark is added to the line the move had, nothing else changes.
            bare = movetexts.log_line(session, records[2], reader, t)
            assert lines[2] == bare
        for record in records:
            page = await history.page(session, record.number)
            text = movetexts.history_text(session, page.number, page.shown, page.record, None, t)
            assert (PAGE_MARK[code] in text) == (record.number == 1), (code, record.number, text)


async def test_a_move_taken_back_says_so_in_the_web_move_list(service):
    session, _, records = await a_hut_taken_back(service)
    pages, client = await serve(service)
    try:
        token = await pages.links.token("game", session.id)
        for code in ("en", "es"):
            for step in (1, 3):  # the taken-back move shown, then the last: the list says the same
                page = await (await client.get(f"/g/{token}?move={step}&lang={code}")).text()
                listed = {int(n): markup.unescape(inner) for n, inner in ENTRY.findall(page)}
                assert sorted(listed) == [0, 1, 2, 3]
                marked = [n for n, words in listed.items() if words.endswith(WEB_MARK[code])]
                assert marked == [1], (code, listed)
                # The live region reads the current entry's text: the mark is inside the link.
                current = re.search(r'aria-current="step">(.*?)</a>', page, re.S)
                assert current is not None
                assert markup.unescape(current.group(1)).endswith(WEB_MARK[code]) == (step == 1)
    finally:
        pages.close()
        await client.close()
