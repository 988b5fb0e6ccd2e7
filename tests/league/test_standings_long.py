"""Standings too long for one Discord message lose rows from their bottom, with a line saying how
many and where the whole table is; the legends below the rows (tiebreaks, what a bye is) are
never the part cut."""

from __future__ import annotations

import re

import pytest

from bot.league.season import Rounds
from bot.league.service import LeagueService
from bot.texts import MESSAGE_LIMIT
from languages import ENGLISH, language
from tests.league.test_service import started_with


@pytest.fixture
def leagues(service):
    return LeagueService(service.store, service)


@pytest.mark.parametrize(
    ("code", "more", "bye"),
    [
        (
            "en",
            r"… and (\d+) more players: `?/league export`? has the whole table",
            "Bye: a round the pairing",
        ),
        (
            "es",
            r"… y (\d+) jugadores más: `?/liga exportar`? tiene la tabla completa",
            "Ronda libre: una ronda",
        ),
    ],
)
async def test_a_long_table_keeps_its_legends_and_says_how_many_rows_it_left_out(
    leagues, service, code, more, bye
):
    store = service.store
    names = {uid: f"Jugadora número {uid}" for uid in range(701, 746)}  # 45: one bye
    values = {"name": "Nim crowd", "game": "nim", "format": "swiss", "rounds": 3, "days": 1, "seed": 4}
    league = await started_with(leagues, names, group_size=2, **values)
    opened = await leagues.open_round(league.id, 1)
    assert len(opened.byes) == 1
    t = language(code) if code != "en" else ENGLISH
    text, _ = await Rounds(leagues, posts=None, scheduler=None).standings_post(
        await store.leagues.league(league.id), "round 1", t
    )
    assert len(text) <= MESSAGE_LIMIT, len(text)
    lines = text.splitlines()
    assert lines[-1].startswith(bye), lines[-1]  # was cut off with the rows' end
    assert lines[-2].startswith("Tiebreaks, in order:" if code == "en" else "Desempates, en orden:"), lines[
        -2
    ]
    rows = [line for line in lines if re.match(r"\d+\. ", line)]
    (left_out,) = [int(m[1]) for line in lines if (m := re.fullmatch(more, line))]
    assert len(rows) + left_out == len(names) and left_out > 0, text
    assert [int(r.split(".")[0]) for r in rows] == list(range(1, len(rows) + 1))  # the top rows, whole
    assert lines.index(rows[-1]) + 1 == next(i for i, line in enumerate(lines) if re.fullmatch(more, line))
