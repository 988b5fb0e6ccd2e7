"""``pukllay_moves_total{by}`` counts each committed move by who played it: a person, the computer,
or the table (a round the table ends when the last builder's clock runs out in Nowa Gwinea).  The
table's move was counted as a person's, though no person played it."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

from bot.storage import DEADLINE
from bot.time.gameclock import DAY, HOUR
from tests.table.test_clocks import CH, fire


def moves(service) -> dict[str, float]:
    """``pukllay_moves_total`` for Nowa Gwinea, by its ``by`` label."""
    return {
        s.labels["by"]: s.value
        for family in text_string_to_metric_families(service.metrics.page().decode())
        for s in family.samples
        if s.name == "pukllay_moves_total" and s.labels["game"] == "nowa_gwinea"
    }


async def test_the_tables_move_is_counted_as_the_tables(service, clock):
    await service.lobby.create(
        "nowa_gwinea", guild_id=1, channel_id=CH, host_id=1, host_name="p1", seed=5, clock="bank:1d+2h"
    )
    await service.lobby.join(CH, 2, "p2")
    session = (await service.lobby.start(CH, 1)).session
    clock.advance(HOUR)
    session = (await service.play.play(CH, session.by_seat(0).user_id, "done")).session
    assert moves(service) == {"person": 1}
    clock.advance(23 * HOUR)
    assert (await service.store.jobs.job(DEADLINE, str(session.id))).due_at <= clock.time() + DAY
    result = await fire(service, session)
    assert str(result.note) == "⏰ Time is up."
    log = await service.store.history.moves(session.id)
    assert [m.by_computer for m in log] == [False, False]  # the move log marks neither a computer's
    assert moves(service) == {"person": 1, "table": 1}
