"""Fewer waits and following in storage (migration 029), on both back ends: autoplay and the digest
hour, passes declared ahead, watchers, follows, the start told once, the 80 % warning once per turn,
and a league's autoplay setting."""

from __future__ import annotations

from bot.storage.waits import PassAhead, WaitSettings
from tests.league.test_storage import new_league
from tests.table.util import open_lobbies


async def test_a_persons_choices_have_defaults_and_are_kept_apart(store):
    assert await store.waits.settings(7) == WaitSettings(7, autoplay=False, digest_hour=None)
    await store.waits.set_autoplay(7, True)
    await store.waits.set_digest_hour(7, 18)
    assert await store.waits.settings(7) == WaitSettings(7, autoplay=True, digest_hour=18)
    await store.waits.set_digest_hour(7, None)  # the autoplay choice stays
    assert await store.waits.settings(7) == WaitSettings(7, autoplay=True, digest_hour=None)
    assert await store.waits.settings(2**70) == WaitSettings(2**70)  # an id no column holds


async def test_passes_watchers_and_the_start_told(store):
    (sid,) = await open_lobbies(store, 1)
    await store.waits.declare_pass(sid, 1, 42, 3)
    await store.waits.declare_pass(sid, 1, 42, 5)  # declared again: the newer version
    assert await store.waits.passes(sid) == [PassAhead(sid, 1, 42, 5)]
    assert await store.waits.drop_pass(sid, 1) and not await store.waits.drop_pass(sid, 1)
    assert await store.waits.passes(sid) == []

    assert await store.waits.watch(sid, 9, True) and not await store.waits.watch(sid, 9, True)
    assert await store.waits.watch(sid, 8, True)
    assert await store.waits.watchers(sid) == [8, 9] and await store.waits.is_watching(sid, 9)
    assert await store.waits.watch(sid, 9, False) and not await store.waits.is_watching(sid, 9)
    await store.waits.stop_watching(sid)
    assert await store.waits.watchers(sid) == []

    assert await store.waits.start_told(sid) and not await store.waits.start_told(sid)


async def test_follows_and_the_warning_once_per_turn(store):
    assert await store.waits.follow(1, 2, True) and not await store.waits.follow(1, 2, True)
    await store.waits.follow(3, 2, True)
    await store.waits.follow(3, 4, True)
    assert await store.waits.following(3) == [2, 4]
    assert await store.waits.followers([2, 4, 5]) == {1: [2], 3: [2, 4]}
    assert await store.waits.follow(3, 4, False) and await store.waits.followers([4]) == {}

    (sid,) = await open_lobbies(store, 1)
    assert await store.waits.warn_once(sid, 0, 100.0)
    assert not await store.waits.warn_once(sid, 0, 100.0)  # the same turn: once
    assert await store.waits.warn_once(sid, 0, 250.5)  # a new turn
    assert await store.waits.warn_once(sid, 1, 250.5)  # another seat


async def test_a_league_allows_autoplay_only_when_set(store):
    lid = await new_league(store)
    assert not await store.waits.league_allows(lid)
    await store.waits.set_league_allows(lid, True)
    assert await store.waits.league_allows(lid)
    await store.waits.set_league_allows(lid, False)
    assert not await store.waits.league_allows(lid)
