"""People's settings and their games across servers, on both back ends."""

from __future__ import annotations

from dataclasses import replace

from bot import notices
from bot.storage import PersonRow


async def test_a_person_has_defaults_until_they_save_settings(store):
    assert await store.people.person(7) == PersonRow(7)
    assert PersonRow(7).notify == "thread" and PersonRow(7).remind_hours == 12
    saved = PersonRow(7, notify="both", remind_hours=6, time_zone="America/Lima", quiet_start=22, quiet_end=7)
    await store.people.save_person(saved)
    assert await store.people.person(7) == saved
    await store.people.save_person(PersonRow(7, notify="none", remind_hours=0))
    assert await store.people.person(7) == PersonRow(7, notify="none", remind_hours=0)
    assert await store.people.several([7, 8]) == {
        7: PersonRow(7, notify="none", remind_hours=0),
        8: PersonRow(8),
    }
    assert await store.people.several([]) == {}


async def test_a_failed_dm_is_noted_once_and_cleared_once(store):
    assert await store.people.set_dm_failed(5, True)
    assert not await store.people.set_dm_failed(5, True)  # already noted
    assert (await store.people.person(5)).dm_failed and (await store.people.person(5)).notify == "thread"
    await store.people.save_person(PersonRow(6, notify="dm"))
    assert await store.people.set_dm_failed(6, True) and (await store.people.person(6)).notify == "dm"
    assert await store.people.set_dm_failed(6, False)
    assert not await store.people.set_dm_failed(6, False)
    assert not (await store.people.person(6)).dm_failed


async def test_the_locale_of_the_last_interaction_is_kept_apart_from_the_settings(store):
    assert (await store.people.person(9)).locale is None
    assert await store.people.set_locale(9, "es-ES")  # a person never seen gets a row with the defaults
    assert await store.people.person(9) == PersonRow(9, locale="es-ES")
    assert not await store.people.set_locale(9, "es-ES")  # the same locale again: nothing written
    saved = PersonRow(9, notify="dm", remind_hours=3)
    await store.people.save_person(saved)  # /me notify saves the settings and leaves the locale alone
    assert await store.people.person(9) == PersonRow(9, notify="dm", remind_hours=3, locale="es-ES")
    assert await store.people.set_locale(9, "en-GB")
    assert (await store.people.several([9]))[9] == PersonRow(9, notify="dm", remind_hours=3, locale="en-GB")
    assert not await store.people.set_locale(2**70, "es-ES")  # an id no row can have


async def test_sessions_of_lists_live_seats_across_servers(store):
    a = await store.games.create_session(
        game="nim", guild_id=1, channel_id=10, host_id=1, host_name="a", options={}, max_players=2, seed=1
    )
    b = await store.games.create_session(
        game="nim", guild_id=2, channel_id=20, host_id=2, host_name="b", options={}, max_players=2, seed=2
    )
    c = await store.games.create_session(
        game="nim", guild_id=2, channel_id=30, host_id=3, host_name="c", options={}, max_players=2, seed=3
    )
    await store.games.add_seat(b, 1, "a", limit=2)
    await store.games.finish(c, status="abandoned", reason="x", outcome=None, results=[])
    found = await store.games.sessions_of(1)
    assert [row.id for row, _ in found] == [a, b]
    assert [[s.user_id for s in seats] for _, seats in found] == [[1], [2, 1]]
    assert {row.guild_id for row, _ in found} == {1, 2}
    assert await store.games.sessions_of(3) == [] and await store.games.sessions_of(99) == []


async def test_a_failed_dm_noted_while_settings_are_saved_is_kept(store):
    """A direct message to the person fails (noted in any process) between ``/me notify`` reading
    their settings and saving the change: the note stays, so they are still told at their next
    command."""
    before = await store.people.person(11)
    assert await store.people.set_dm_failed(11, True)  # meanwhile
    await store.people.save_person(replace(before, notify="dm"))
    after = await store.people.person(11)
    assert after.notify == "dm" and after.dm_failed


async def test_two_settings_changes_judged_on_one_read_keep_each_other(store, clock):
    """``/me notify`` and ``/me away`` at once (two servers, perhaps two processes): each read the
    settings before the other saved, and each writes what it changed, so both stand."""
    before = await store.people.person(12)
    away = notices.take_away(before, 3, None, clock.time(), 30)
    await store.people.save_person(away, before)
    await store.people.save_person(replace(before, notify="both", quiet_start=22, quiet_end=7), before)
    after = await store.people.person(12)
    assert (after.notify, after.quiet_start, after.quiet_end) == ("both", 22, 7)
    assert after.away_at(clock.time() + 1) and after.away_days_used == away.away_days_used == 3
