"""Leagues on Discord's calendar, stored (migration 025) on both back ends: each round's event, a
league's forum, each post's tag, and what an organiser was told once."""

from __future__ import annotations

import pytest

from bot.storage.calendar import LeagueCalendar

BIG = 1_577_456_119_264_051_207  # Discord ids need 64 bits


async def league(store, name: str = "Cup") -> int:
    return await store.leagues.create_league(
        guild_id=BIG,
        channel_id=BIG + 1,
        organiser_id=BIG + 2,
        name=name,
        game="guacamole",
        format="swiss",
        group_size=3,
        options={},
        points=[2, 1, 0],
        bye_points=1,
        round_seconds=86400,
        rounds=3,
        timer_seconds=None,
        starts_at=0,
        seed=1,
    )


async def test_a_rounds_event_and_a_leagues_forum_are_kept(store):
    rows = LeagueCalendar(store.db)
    lid = await league(store)
    assert await rows.event(lid, 1) is None and await rows.forum(lid) is None
    await rows.set_event(lid, 1, BIG + 10)
    await rows.set_event(lid, 2, BIG + 11)
    await rows.set_event(lid, 1, BIG + 12)  # made again: the newer one counts
    assert (await rows.event(lid, 1), await rows.event(lid, 2)) == (BIG + 12, BIG + 11)
    await rows.set_forum(lid, BIG + 20)
    await rows.set_forum(lid, BIG + 21)
    assert await rows.forum(lid) == BIG + 21
    await rows.set_forum(lid, None)
    assert await rows.forum(lid) is None


async def test_a_posts_tag_moves_and_only_known_tags_are_taken(store, database):
    rows = LeagueCalendar(store.db)
    lid = await league(store)
    assert await rows.post(BIG + 30) is None
    await rows.set_post(BIG + 30, lid, BIG + 20, "waiting")
    await rows.set_post(BIG + 30, lid, BIG + 20, "playing")
    assert await rows.post(BIG + 30) == (lid, BIG + 20, "playing")
    with pytest.raises(ValueError):
        await rows.set_post(BIG + 30, lid, BIG + 20, "late")  # type: ignore[arg-type]
    with pytest.raises(database.integrity_error):  # the table itself refuses another tag
        await database.execute(
            "INSERT INTO league_posts (post_id, league_id, forum_id, tag) VALUES (?, ?, ?, 'late')", 1, lid, 2
        )
    assert await rows.post(BIG + 30) == (lid, BIG + 20, "playing")


async def test_the_organiser_is_told_once_per_league_and_matter(store):
    rows = LeagueCalendar(store.db)
    one, two = await league(store, "One"), await league(store, "Two")
    assert not await rows.told(one, "events:Create Events")
    assert await rows.first_time(one, "events:Create Events")
    assert await rows.told(one, "events:Create Events") and not await rows.told(two, "events:Create Events")
    assert not await rows.first_time(one, "events:Create Events")
    assert await rows.first_time(one, "forum:Send Messages")
    assert await rows.first_time(two, "events:Create Events")
