"""Discord's rate limits: per-route buckets with their headers, the global limit, daily command creates.

Most tests freeze the stand-in's rate-limit clock (``Clock(now=...)``) so that only the test moves
time: the outcome never depends on how fast the machine is.
"""

import asyncio

import pytest

from tests.standin import StandIn
from tests.standin.fixtures import DEFAULT_OPTIONS
from tests.standin.model import MANAGE_THREADS
from tests.standin.ratelimits import ROUTE_LIMITS, Clock, RouteLimit


def frozen():
    return pytest.mark.parametrize("standin_options", [{**DEFAULT_OPTIONS, "clock": Clock(now=lambda: 0.0)}])


@frozen()
async def test_channel_messages_share_a_bucket_of_5_per_5_seconds_per_channel(standin, bot):
    general, games = standin.guild.text_channels
    answers = [
        await standin.http("POST", f"/channels/{general.id}/messages", body={"content": str(n)})
        for n in range(6)
    ]
    assert [a.status for a in answers] == [200] * 5 + [429]
    assert [a.headers["X-RateLimit-Remaining"] for a in answers[:5]] == ["4", "3", "2", "1", "0"]
    first, limited = answers[0].headers, answers[5]
    assert first["X-RateLimit-Limit"] == "5" and float(first["X-RateLimit-Reset-After"]) == 5.0
    assert float(first["X-RateLimit-Reset"]) > 1e9  # an epoch time
    assert len({a.headers["X-RateLimit-Bucket"] for a in answers}) == 1
    assert limited.json == {"message": "You are being rate limited.", "retry_after": 5.0, "global": False}
    assert limited.headers["Retry-After"] == "5" and limited.headers["X-RateLimit-Scope"] == "user"
    assert [m.content for m in standin.messages(general)] == ["0", "1", "2", "3", "4"]
    # Another channel has its own bucket; the same one frees up when its window ends.
    assert (await standin.http("POST", f"/channels/{games.id}/messages", body={"content": "x"})).status == 200
    standin.clock.advance(5.0)
    again = await standin.http("POST", f"/channels/{general.id}/messages", body={"content": "5"})
    assert again.status == 200 and again.headers["X-RateLimit-Remaining"] == "4"
    assert standin.ratelimits.limited == ["POST /channels/{channel_id}/messages (channel messages)"]


def test_the_buckets_are_those_discord_is_seen_to_use():
    assert ROUTE_LIMITS["POST /channels/{channel_id}/messages"] == RouteLimit(
        5, 5.0, ("channel_id",), "channel messages"
    )
    assert ROUTE_LIMITS["DELETE /channels/{channel_id}/messages/{message_id}"].per == 1.0
    webhook = ROUTE_LIMITS["POST /webhooks/{webhook_id}/{webhook_token}"]
    assert (webhook.limit, webhook.per, webhook.key) == (5, 2.0, ("webhook_id", "webhook_token"))
    assert ROUTE_LIMITS["PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"] is webhook
    assert StandIn().ratelimits.global_limit == (50, 1.0)


def short(per: float) -> dict:
    """The channel-message bucket with a shorter window, for tests where discord.py really sleeps."""
    limits = {"POST /channels/{channel_id}/messages": RouteLimit(5, per, ("channel_id",), "channel messages")}
    return {**DEFAULT_OPTIONS, "route_limits": limits}


@pytest.mark.parametrize("standin_options", [short(0.3)])
async def test_discord_py_waits_for_the_bucket_to_refill(standin, bot, chan):
    """A burst of 12 messages: discord.py reads the headers and waits; nothing is refused."""
    channel = bot.get_channel(chan.id)
    start = standin.clock()
    for n in range(12):
        await channel.send(str(n))
    assert [m.content for m in standin.messages(chan)] == [str(n) for n in range(12)]
    assert standin.ratelimits.limited == []  # discord.py never ran into the limit...
    assert standin.clock() - start >= 0.6  # ...because it waited for two windows to pass


@pytest.mark.parametrize("standin_options", [{**short(1.0), "clock": Clock(now=lambda: 0.0)}])
async def test_discord_py_sleeps_on_a_429_and_retries(standin, bot, chan):
    """Another client emptied the bucket, so discord.py learns of the limit from a 429."""
    for n in range(5):
        await standin.http("POST", f"/channels/{chan.id}/messages", body={"content": f"other {n}"})
    sending = asyncio.ensure_future(bot.get_channel(chan.id).send("after the 429"))
    await standin.wait_for(lambda: standin.ratelimits.limited, what="the 429")
    standin.clock.advance(1.0)  # while discord.py sleeps the 1 s it was told to
    sent = await sending
    assert standin.message(sent.id).content == "after the 429"
    assert standin.ratelimits.limited == ["POST /channels/{channel_id}/messages (channel messages)"]


@pytest.mark.parametrize("standin_options", [short(1.0)])
async def test_waits_allow_for_a_rate_limit_the_bot_sleeps_on(standin, bot, chan):
    """discord.py holds the sixth message back for the window's second; a wait of half a second
    for it still succeeds, since the stand-in extends waits by the hold it announced."""
    channel = bot.get_channel(chan.id)
    await asyncio.gather(*(channel.send(str(n)) for n in range(5)))
    sixth = asyncio.ensure_future(channel.send("6"))
    msg = await standin.next_message(chan, lambda m: m.content == "6", timeout=0.5)
    await sixth
    assert msg.content == "6" and standin.ratelimits.limited == []


@frozen()
async def test_the_global_limit_is_50_requests_a_second_and_spares_interactions(standin, bot, alice, chan):
    standin.clock.advance(1.0)  # a fresh second, after the bot's own requests at start
    for _ in range(50):
        assert (await standin.http("GET", "/users/@me")).status == 200
    limited = await standin.http("GET", "/users/@me")
    assert limited.status == 429 and limited.json["global"] is True
    assert (
        limited.headers["X-RateLimit-Global"] == "true" and limited.headers["X-RateLimit-Scope"] == "global"
    )
    # The interaction endpoints are not bound to the global limit: the bot still answers and follows up.
    standin.user_pace = 0.0
    r = await standin.slash(alice, chan, "board")
    assert r.type == 5 and len(await r.followups(2)) == 2
    standin.clock.advance(1.0)
    assert (await standin.http("GET", "/users/@me")).status == 200


@frozen()
async def test_webhook_messages_of_one_token_share_a_bucket(standin, bot, alice, chan):
    r = await standin.slash(alice, chan, "game join")
    path = f"/webhooks/{standin.application_id}/{r.interaction.token}"
    answers = [await standin.http("POST", path, body={"content": str(n)}, auth=False) for n in range(5)]
    edit = await standin.http("PATCH", f"{path}/messages/@original", body={"content": "edited"}, auth=False)
    assert [a.status for a in answers] == [204] * 5 and edit.status == 429
    assert (
        answers[0].headers["X-RateLimit-Limit"] == "5"
        and float(answers[0].headers["X-RateLimit-Reset-After"]) == 2.0
    )
    # Another interaction's token has a bucket of its own.
    other = await standin.slash(alice, chan, "game join")
    path = f"/webhooks/{standin.application_id}/{other.interaction.token}"
    assert (await standin.http("POST", path, body={"content": "x"}, auth=False)).status == 204


@frozen()
async def test_each_user_action_moves_the_clock_by_the_users_pace(standin, bot, alice, chan):
    assert standin.user_pace == 2.0 and standin.clock() == 0.0
    lobby = await standin.slash(alice, chan, "lobby", number=1)
    await standin.click(alice, lobby.message, "Join")
    await standin.say(alice, chan, "hi")
    assert standin.clock() == 6.0


@frozen()
async def test_200_command_creates_a_day(standin, bot):
    path = f"/applications/{standin.application_id}/commands"

    def commands(prefix, n=100):
        return [{"name": f"{prefix}{i}", "description": "d"} for i in range(n)]

    own = len(standin.commands[None])  # the bot's own commands were created at its sync
    rest = 100 - own
    assert (await standin.http("PUT", path, body=commands("a"))).status == 200
    assert (await standin.http("PUT", path, body=commands("b", rest))).status == 200  # 200 created today
    same = await standin.http("PUT", path, body=commands("b", rest))  # updating creates nothing
    assert same.status == 200
    over = await standin.http("PUT", path, body=commands("c", 1))
    assert over.status == 429
    assert over.json["code"] == 30034 and over.json["global"] is False
    assert over.json["message"] == "Max number of daily application command creates has been reached (200)"
    assert over.json["retry_after"] == 86400.0
    await standin.next_violation(r"would pass Discord's 200 command creates a day")
    assert {c["name"] for c in standin.commands[None]} == {f"b{i}" for i in range(rest)}
    standin.clock.advance(86400)
    assert (await standin.http("PUT", path, body=commands("c", 1))).status == 200


@frozen()
async def test_a_channel_is_renamed_at_most_twice_in_10_minutes(standin, bot):
    # the bot's role may manage threads, so it may rename one it did not start
    standin.set_role_permissions(standin.bot_role, standin.bot_role.permissions | MANAGE_THREADS)
    await standin.settle()
    thread = standin.guild.threads[0]
    channel = bot.get_channel(thread.id)
    await channel.edit(name="one")
    await channel.edit(name="two")
    await channel.edit(auto_archive_duration=60)  # not a rename
    third = await standin.http("PATCH", f"/channels/{thread.id}", body={"name": "three"})
    assert third.status == 429 and third.json["retry_after"] == 600.0
    await standin.next_violation("renamed a third time within 10 minutes")
    assert thread.name == "two"
    standin.clock.advance(600)
    assert (await standin.http("PATCH", f"/channels/{thread.id}", body={"name": "three"})).status == 200
