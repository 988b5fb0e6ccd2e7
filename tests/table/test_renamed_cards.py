"""A Guanga claim stored before the cards were spelt with their ñ ("Poncho otavaleno" in the
move's kept sentence) reads as the card is spelt now, "Poncho otavaleño", in the move's lines
(history pages), the channel's telling of the turn and an export, in English and Spanish (``RENAMED``, read with
the log's rows)."""

from __future__ import annotations

import json
import random

from bot import export
from bot.public import seen
from bot.sessions.model import apply, stored
from bot.telling import told_turns
from engines import guanga
from languages import language

GUILD, CH = 10, 301


async def test_a_claim_stored_with_the_old_spelling_reads_with_the_n_tilde(service):
    await service.lobby.create(
        "guanga",
        guild_id=GUILD,
        channel_id=CH,
        host_id=1,
        host_name="ann",
        options={"mode": "beginner"},
        seed=5,
    )
    session = (await service.lobby.start(CH, 1)).session
    module = session.engine
    state, rng, rows = session.state, random.Random(5), []
    for _ in range(200):
        move = module.computer_move(module.view_for(state, 0), list(module.legal_moves(state, 0)), rng)
        state, played = apply(module, state, 0, move, by_computer=False)
        row = stored(played)
        as_stored = json.dumps(row.events, ensure_ascii=False)
        if "Poncho otavaleño" in as_stored:  # the claim, as the log stored it before the ñ
            old = json.loads(as_stored.replace("Poncho otavaleño", "Poncho otavaleno"))
            rows.append(type(row)(row.seat, row.move, row.by_computer, old, row.privacy, row.turn))
            break
        rows.append(row)
    else:
        raise AssertionError("no claim of G05 in 200 moves")
    assert (
        "otavaleno" in json.dumps(rows[-1].events)
        and guanga.RENAMED["Poncho otavaleno"] == "Poncho otavaleño"
    )
    await service.store.games.record_moves(session.id, session.version, rows, module.to_dict(state))
    session = await service.core.reread(session.id)
    records = await service.logbook.log(session)
    claim = records[-1]
    for code in ("en", "es"):
        t = language(code)
        for reader in (0, None):
            lines = seen(session.engine, session.state, claim, reader, t).lines  # history pages, exports
            assert any("G05 Poncho otavaleño" in line for line in lines), lines
            assert not any("otavaleno" in line for line in lines), lines
        told = [line for turn in told_turns(session, records, t=t) for line in turn]
        assert any("G05 Poncho otavaleño" in line for line in told), told
        assert not any("otavaleno" in line for line in told), told
    await service.logbook.told(session, 77, len(rows))  # the channel told of them: an export holds them
    exported = await export.export_session(service, await service.core.reread(session.id))
    text = json.dumps(exported, ensure_ascii=False)
    assert "Poncho otavaleño" in text and "otavaleno" not in text
