"""``/game log`` keeps the most recent moves that fit in one message: the same lines as putting
every move in words and dropping the oldest while the message is too long, for every reader and
in both languages, at every length of a game's log."""

from __future__ import annotations

import pytest

from bot import movetexts, texts
from bot.records import MoveRecord
from bot.sessions import SessionService
from engines.core import TABLE, rng_for
from languages import ENGLISH, Language, language

SPANISH = language("es")


def every_line_then_trimmed(session, records, reader, t: Language) -> str:
    """The log put together the long way: a line for every record, then the oldest left out
    while the lines are over the message limit (the newest always stays, clipped)."""
    if not records:
        return t.gettext("No moves yet.")
    lines = [movetexts.log_line(session, r, reader, t) for r in records]
    while len("\n".join(lines)) > texts.MESSAGE_LIMIT and len(lines) > 1:
        lines.pop(0)
    return texts.clip("\n".join(lines))


async def played(tmp_path, game: str, moves: int):
    """A two-person game of ``game`` on its own SQLite file, ``moves`` moves in (or to its end),
    each chosen by the computer player: (store, session, log)."""
    from bot.time.source import ManualClock
    from tests.conftest import Database

    store = await Database("sqlite", str(tmp_path / "log.db")).open(ManualClock())
    service = SessionService(store)
    await service.lobby.create(game, guild_id=1, channel_id=5, host_id=1, host_name="ann", seed=4)
    await service.lobby.join(5, 2, "bob")
    session = (await service.lobby.start(5, 1)).session
    module = session.engine
    for i in range(moves):
        waiting = sorted(session.to_move())
        if not waiting:
            break
        seat = waiting[i % len(waiting)]
        move = module.computer_move(
            module.view_for(session.state, seat),
            list(module.legal_moves(session.state, seat)),
            rng_for(4, "log", i),
        )
        user = next(s.user_id for s in session.seats if s.seat == seat)
        session = (await service.play.play(5, user, str(move))).session
    return store, session, await service.logbook.log(session)


@pytest.mark.parametrize(
    ("game", "moves", "trimmed"),
    [
        ("nowa_gwinea", 60, False),  # in the middle of a round: huts hidden from the other seat
        ("nowa_gwinea", 200, False),  # to the end
        ("guacamole", 200, True),  # a log longer than a message
    ],
)
async def test_the_log_keeps_the_newest_lines_that_fit(tmp_path, game, moves, trimmed):
    store, session, records = await played(tmp_path, game, moves)
    try:
        for t in (ENGLISH, SPANISH):
            for reader in (0, 1, None):
                for end in range(len(records) + 1):
                    shown = movetexts.log_text(session, records[:end], reader, t)
                    assert shown == every_line_then_trimmed(session, records[:end], reader, t), (t.code, end)
                whole = movetexts.log_text(session, records, reader, t).splitlines()
                assert whole[-1] == movetexts.log_line(session, records[-1], reader, t)
                assert (len(whole) < len(records)) == trimmed, (t.code, reader, len(records))
    finally:
        await store.close()


async def test_a_newest_line_too_long_for_a_message_is_kept_clipped(tmp_path):
    store, session, records = await played(tmp_path, "nowa_gwinea", 6)
    try:
        huge = MoveRecord(TABLE, "x" * 2500, False, (), None, number=len(records) + 1)
        for t in (ENGLISH, SPANISH):
            for reader in (0, None):
                shown = movetexts.log_text(session, [*records, huge], reader, t)
                assert shown == every_line_then_trimmed(session, [*records, huge], reader, t)
                assert len(shown) == texts.MESSAGE_LIMIT and shown.endswith("x…")
                assert "\n" not in shown  # the older lines give way to the newest
    finally:
        await store.close()


async def test_the_log_leaves_out_the_engines_winner_when_the_table_ranked_otherwise(tmp_path, monkeypatch):
    """Three at Nim, told in words as Guacamole's log is (an engine with ``worded``); Cy resigns at
    once and the computer plays Cy's seat, taking the last stone: the engine's end line names Cy the
    winner, while the table ranks Cy last (resigned).  The log leaves that line out; the results
    card tells the ranking."""
    from bot.time.source import ManualClock
    from tests.conftest import Database
    from tests.support import nim

    monkeypatch.setattr(nim, "worded", lambda sentence: sentence, raising=False)

    store = await Database("sqlite", str(tmp_path / "log.db")).open(ManualClock())
    try:
        service = SessionService(store)
        for seed in range(1, 20):  # a pile of three stones or more
            channel = 100 + seed
            await service.lobby.create(
                "nim",
                guild_id=1,
                channel_id=channel,
                host_id=1,
                host_name="ann",
                options={"piles": 1},
                seed=seed,
            )
            for user, name in ((2, "bob"), (3, "cy")):
                await service.lobby.join(channel, user, name)
            session = (await service.lobby.start(channel, 1)).session
            if session.state.piles[0] >= 3:
                break
            await service.seats.abandon(channel, 1, can_manage=True)
        await service.seats.resign(channel, 3)
        await service.play.play(channel, 1, f"A{session.state.piles[0] - 2}")
        await service.play.play(channel, 2, "A1")  # one stone left: the computer takes it for Cy
        session = await service.core.reread(session.id)
        assert session.status == "finished"
        records = await service.logbook.log(session)
        assert any(e.kind == "end" and "wins" in (e.text or "") for e in records[-1].events or ())
        told = movetexts.log_text(session, records, None, ENGLISH)
        assert "wins" not in told and told.splitlines()[-1].startswith(f"{len(records)}. cy took 1"), told
        assert movetexts.log_line(session, records[-1], None) == told.splitlines()[-1]
    finally:
        await store.close()
