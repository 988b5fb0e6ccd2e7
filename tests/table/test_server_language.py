"""A server's language (``/game language``), stored on both back ends."""

from __future__ import annotations


async def test_a_server_has_no_language_until_it_chooses_one(store):
    assert await store.people.server_language(41) is None
    await store.people.set_server_language(41, "es")
    assert await store.people.server_language(41) == "es"
    assert await store.people.server_language(42) is None  # another server keeps its own
    await store.people.set_server_language(41, "en")
    assert await store.people.server_language(41) == "en"
    await store.people.set_server_language(41, None)  # back to the server's own Discord language
    assert await store.people.server_language(41) is None


async def test_a_server_id_past_64_bits_names_no_server(store):
    assert await store.people.server_language(2**70) is None
