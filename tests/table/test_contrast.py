"""The high-contrast palette, a person's (``/me contrast``) and a server's (``/game contrast``),
stored on both back ends apart from the other settings."""

from __future__ import annotations

import dataclasses

from bot.storage.base import PersonRow


async def test_a_person_chooses_high_contrast_and_keeps_their_other_settings(store):
    assert (await store.people.person(9)).contrast is False
    await store.people.set_contrast(9, True)  # a person never seen gets a row with the defaults
    assert await store.people.person(9) == PersonRow(9, contrast=True)
    await store.people.save_person(dataclasses.replace(await store.people.person(9), remind_hours=3))
    assert await store.people.person(9) == PersonRow(9, remind_hours=3, contrast=True)
    assert (await store.people.several([9, 10]))[10].contrast is False
    await store.people.set_contrast(9, False)
    assert await store.people.person(9) == PersonRow(9, remind_hours=3)


async def test_a_server_chooses_high_contrast_apart_from_its_language(store):
    assert await store.people.server_contrast(41) is False
    await store.people.set_server_language(41, "es")
    await store.people.set_server_contrast(41, True)
    assert await store.people.server_contrast(41) is True and await store.people.server_language(41) == "es"
    assert await store.people.server_contrast(42) is False  # another server keeps its own
    await store.people.set_server_language(41, None)
    assert await store.people.server_contrast(41) is True
    await store.people.set_server_contrast(41, False)
    assert await store.people.server_contrast(41) is False
    assert await store.people.server_contrast(2**70) is False
