"""A player whose league record is gone is never shown as a bare user id: the organiser's draft
of a round names them by a mention (Discord shows it as the person), and the round's event on the
server's calendar (whose description shows no mentions) as "a player who left the league"."""

from __future__ import annotations

import pytest

from bot.league.calendar import Calendar
from bot.league.controls import Controls, Draft
from bot.league.service import LeagueService, OpenedRound
from languages import ENGLISH, language
from tests.league.test_service import new_league

GONE = 987654321


@pytest.fixture
def leagues(service):
    return LeagueService(service.store, service)


async def signed_up(leagues):
    league = await new_league(leagues, name="Nim swiss", game="nim", format="swiss", group_size=2, rounds=3)
    for uid in (501, 502, 503):
        await leagues.join(league, uid, f"p{uid}")
    return league


async def test_the_draft_names_a_missing_player_by_a_mention(leagues):
    league = await signed_up(leagues)
    draft = Draft(1, [[501, GONE]], [502], dropped=[503])
    text = await Controls(leagues).tables_text(league, draft, ENGLISH)
    assert f"Table 1: p501, <@{GONE}>" in text, text
    assert f", {GONE}" not in text and f"{GONE} " not in text


class Posts:
    async def language(self, guild_id):
        return language("es")

    async def post(self, channel_id, guild_id, text, *, pings=(), told=()):
        return True


class Events:
    """The calendar's side of Discord, keeping what it was asked to post."""

    def __init__(self):
        self.described: list[str] = []

    async def missing_event_permissions(self, guild_id):
        return []

    async def create_event(self, guild_id, name, description, start, end, location):
        self.described.append(description)
        return 1


async def test_the_rounds_event_says_a_player_left_instead_of_an_id(leagues, service):
    league = await signed_up(leagues)
    events = Events()
    calendar = Calendar(service.store, Posts(), events)  # type: ignore[arg-type]
    opened = OpenedRound(league, 1, [], [GONE], deadline_at=service.store.clock.time() + 86400)
    await calendar.round_opened(opened, {501: "p501"})
    (description,) = events.described
    assert description == "Ronda libre: alguien que dejó la liga", description


@pytest.mark.parametrize("final_stage", [False, True])
async def test_a_brackets_bye_on_the_calendar_is_a_bye_into_the_next_round(leagues, service, final_stage):
    """In a bracket (single elimination, or a Swiss league's final stage) a bye takes its seed into
    the next round: the round's event says so, as the round's post and the bracket do; in Spanish
    it read "Ronda libre", the Swiss term, beside a bracket saying "pase directo"."""
    form = {"format": "swiss", "rounds": 3} if final_stage else {"format": "elimination"}
    league = await new_league(leagues, name="Nim cup", game="nim", group_size=2, **form)
    events = Events()
    calendar = Calendar(service.store, Posts(), events)  # type: ignore[arg-type]
    opened = OpenedRound(league, 1, [], [501], service.store.clock.time() + 86400, final_stage)
    await calendar.round_opened(opened, {501: "p501"})
    assert events.described == ["Pase directo a la siguiente ronda: p501"], events.described
