"""Rate limits and server errors injected by the stand-in: discord.py retries, or the failure surfaces."""

import discord
import pytest

from tests.standin import ClientError


async def test_429_on_channel_messages_is_retried(standin, bot, alice, chan):
    inj = standin.inject("POST /channels/*/messages", status=429, times=2, retry_after=0.02)
    r = await standin.slash(alice, chan, "say", text="after the rate limit")
    assert (await r.followup()).content == "posted"
    assert inj.remaining == 0 and len(inj.hits) == 2
    assert [m.content for m in standin.messages(chan, visible_to=standin.owner)] == ["after the rate limit"]
    assert standin.requests.count(f"POST /channels/{chan.id}/messages") == 3


async def test_429_on_the_interaction_callback_is_retried(standin, bot, alice, chan):
    inj = standin.inject(
        "POST /interactions/{interaction_id}/{interaction_token}/callback", status=429, retry_after=0.02
    )
    r = await standin.slash(alice, chan, "game join")
    assert r.content == "alice joined" and inj.remaining == 0


async def test_global_429_on_a_followup_is_retried(standin, bot, alice, chan):
    inj = standin.inject("POST /webhooks/*", status=429, retry_after=0.02, is_global=True)
    r = await standin.slash(alice, chan, "board")
    first, second = await r.followups(2)
    assert first.files and second.files and inj.remaining == 0


async def test_a_500_is_retried(standin, bot, alice, chan):
    # discord.py waits 1 s before retrying a 500: the one slow test of the stand-in's suite.
    inj = standin.inject("POST /channels/*/messages", status=500)
    r = await standin.slash(alice, chan, "say", text="after the 500")
    assert (await r.followup()).content == "posted"
    assert inj.remaining == 0
    assert [m.content for m in standin.messages(chan, visible_to=standin.owner)] == ["after the 500"]


async def test_a_503_surfaces_as_an_error_in_the_bot(standin, bot, alice, chan):
    standin.inject("POST /channels/*/messages", status=503)
    r = await standin.slash(alice, chan, "say", text="never posted")
    assert r.deferred
    with pytest.raises(ClientError, match="DiscordServerError: 503") as err:
        await r.followup()
    assert isinstance(err.value.exception.original, discord.DiscordServerError)
    assert standin.messages(chan, visible_to=standin.owner) == []
