"""Guild scheduled events as Discord documents them (resources/guild-scheduled-event): created,
modified, listed and deleted; the fields each entity type needs, a start in the future, the
status moves Discord allows, Create Events / Manage Events, and the gateway events."""

import datetime

import discord
import pytest

from tests.standin.model import (
    ACTIVE,
    CANCELED,
    COMPLETED,
    CREATE_EVENTS,
    MANAGE_EVENTS,
    SCHEDULED,
    ScheduledEvent,
)
from tests.standin.tinybot import TinyBot

NOW = 1_900_000_000.0
HOUR = 3600


@pytest.fixture
def standin_options() -> dict:
    return {}


@pytest.fixture(autouse=True)
def frozen(standin):
    """Discord's time stands still at NOW unless a test moves it."""
    clock = {"now": NOW}
    standin.wall = lambda: clock["now"]
    return clock


def at(seconds: float) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(seconds, datetime.UTC)


async def external(bot, standin, **kw):
    guild = bot.get_guild(standin.guild.id)
    options = {
        "name": "Round 1",
        "start_time": at(NOW + 60),
        "end_time": at(NOW + HOUR),
        "entity_type": discord.EntityType.external,
        "privacy_level": discord.PrivacyLevel.guild_only,
        "location": "#games",
        "description": "Table 1: ana, beto",
    }
    options.update(kw)
    return await guild.create_scheduled_event(**options)


async def test_an_external_event_is_created_listed_changed_and_deleted_with_gateway_news(standin, bot):
    event = await external(bot, standin)
    (stored,) = standin.events()
    assert stored.id == event.id and stored.location == "#games" and stored.status == SCHEDULED
    assert stored.creator is standin.bot_user and stored.end == NOW + HOUR
    await standin.settle()  # GUILD_SCHEDULED_EVENT_CREATE reached the cache (the intent is asked for)
    assert bot.get_guild(standin.guild.id).get_scheduled_event(event.id) is not None
    listed = await bot.get_guild(standin.guild.id).fetch_scheduled_events()
    assert [e.id for e in listed] == [event.id]
    changed = await event.edit(description="Table 1: ana won")
    assert changed.description == "Table 1: ana won" and stored.updates == 1
    await standin.settle()
    assert bot.get_guild(standin.guild.id).get_scheduled_event(event.id).description == "Table 1: ana won"
    await event.delete()
    assert standin.events() == []
    await standin.settle()
    assert bot.get_guild(standin.guild.id).get_scheduled_event(event.id) is None


async def test_a_start_in_the_past_is_refused(standin, bot):
    with pytest.raises(discord.HTTPException, match="50035"):
        await external(bot, standin, start_time=at(NOW - 1))
    standin.expect_violation("scheduled_start_time.*not in the future")
    assert standin.events() == []


async def test_an_end_before_the_start_is_refused(standin, bot):
    with pytest.raises(discord.HTTPException, match="50035"):
        await external(bot, standin, end_time=at(NOW + 30))
    standin.expect_violation("scheduled_end_time.*not after the start")


async def test_an_external_event_needs_its_end_and_location(standin, bot):
    body = {
        "name": "No end",
        "privacy_level": 2,
        "entity_type": 3,
        "scheduled_start_time": at(NOW + 60).isoformat(),
        "entity_metadata": {"location": "#games"},
    }
    r = await standin.http("POST", f"/guilds/{standin.guild.id}/scheduled-events", body=body)
    assert r.status == 400 and r.json["code"] == 50035 and "scheduled_end_time" in r.json["errors"]
    standin.expect_violation("needs scheduled_end_time")
    body = {**body, "scheduled_end_time": at(NOW + HOUR).isoformat(), "entity_metadata": {}}
    r = await standin.http("POST", f"/guilds/{standin.guild.id}/scheduled-events", body=body)
    assert r.status == 400 and "entity_metadata" in r.json["errors"]
    standin.expect_violation("needs entity_metadata with a location")
    body = {**body, "entity_metadata": {"location": "#games"}, "channel_id": str(standin.channel("games").id)}
    r = await standin.http("POST", f"/guilds/{standin.guild.id}/scheduled-events", body=body)
    assert r.status == 400 and "channel_id" in r.json["errors"]
    standin.expect_violation("EXTERNAL event has no channel")
    assert standin.events() == []


async def test_a_voice_event_needs_a_voice_channel(standin, bot):
    body = {
        "name": "In a text channel",
        "privacy_level": 2,
        "entity_type": 2,
        "scheduled_start_time": at(NOW + 60).isoformat(),
        "channel_id": str(standin.channel("games").id),
    }
    r = await standin.http("POST", f"/guilds/{standin.guild.id}/scheduled-events", body=body)
    assert r.status == 400 and "channel_id" in r.json["errors"]
    standin.expect_violation("needs a voice channel")


async def test_without_create_events_discord_refuses_and_manage_events_reaches_others_events(standin, bot):
    role = standin.bot_role
    standin.set_role_permissions(role, role.permissions & ~CREATE_EVENTS)
    with pytest.raises(discord.Forbidden, match="50013"):
        await external(bot, standin)
    assert standin.events() == []  # an ordinary answer: no violation
    standin.set_role_permissions(role, role.permissions | CREATE_EVENTS)
    event = await external(bot, standin)
    standin.events()[0].creator = standin.owner  # as if someone else had made it
    with pytest.raises(discord.Forbidden, match="50013"):
        await event.edit(description="not mine")
    standin.set_role_permissions(role, role.permissions | MANAGE_EVENTS)
    await event.edit(description="now I may")
    assert standin.events()[0].description == "now I may"


async def test_statuses_move_only_as_discord_allows_and_a_finished_event_takes_no_change(
    standin, bot, frozen
):
    event = await external(bot, standin)
    r = await standin.http(
        "PATCH", f"/guilds/{standin.guild.id}/scheduled-events/{event.id}", body={"status": COMPLETED}
    )
    assert r.status == 400 and "status" in r.json["errors"]  # SCHEDULED cannot become COMPLETED
    standin.expect_violation("cannot become 3")
    frozen["now"] = NOW + 60  # Discord starts an external event at its start time
    assert standin.events()[0].status == ACTIVE
    await event.edit(status=discord.EventStatus.completed)
    assert standin.events()[0].status == COMPLETED
    with pytest.raises(discord.HTTPException, match="180000"):
        await event.edit(description="too late")
    other = await external(bot, standin, name="Round 2", start_time=at(NOW + 120))
    await other.edit(status=discord.EventStatus.cancelled)
    assert standin.events()[1].status == CANCELED


async def test_an_external_event_ends_by_itself_at_its_end_time(standin, bot, frozen):
    await external(bot, standin)
    frozen["now"] = NOW + HOUR
    assert standin.events()[0].status == COMPLETED
    assert standin.guild.payload()["guild_scheduled_events"] == []  # GUILD_CREATE lists live ones only


async def test_a_guild_holds_at_most_a_hundred_live_events(standin, bot):
    for n in range(100):
        standin.guild.scheduled_events.append(
            ScheduledEvent(
                n + 1, standin.guild, standin.owner, f"e{n}", 3, NOW + 60, NOW + HOUR, location="x"
            )
        )
    with pytest.raises(discord.HTTPException, match="30038"):
        await external(bot, standin)
    standin.guild.scheduled_events[0].status = COMPLETED  # a finished one no longer counts
    await external(bot, standin)


async def test_gateway_news_only_with_the_scheduled_events_intent(standin):
    intents = discord.Intents.default()
    intents.guild_scheduled_events = False
    async with standin.run_client(lambda connector: TinyBot(connector, intents=intents)) as bot:
        event = await external(bot, standin)
        await standin.settle()
        assert bot.get_guild(standin.guild.id).get_scheduled_event(event.id) is None
