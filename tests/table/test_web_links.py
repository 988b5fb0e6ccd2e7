"""The web side's storage (migration 021): capability tokens per game, league and person, and a
server's choice for its pages, on both back ends."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage.web import WebLinks, looks_like_token


async def test_a_token_is_made_once_and_found_only_by_itself(store):
    links = WebLinks(store)
    game = await links.token("game", 7)
    assert looks_like_token(game) and len(game) == 24
    assert await links.token("game", 7) == game  # kept, not made again
    league = await links.token("league", 7)
    assert league != game  # each kind its own token
    assert await links.find("game", game) == 7
    assert await links.find("league", league) == 7
    assert await links.find("league", game) is None  # a game's token opens no league
    assert await links.find("game", game[:-1] + ("A" if game[-1] != "A" else "B")) is None
    assert await links.find("game", "") is None
    assert await links.find("game", "x' OR '1'='1") is None
    assert await links.find("game", "7") is None


async def test_two_askers_at_once_get_the_same_token(store):
    links = WebLinks(store)
    found = await asyncio.gather(*(links.token("game", 3) for _ in range(8)))
    assert len(set(found)) == 1
    rows = await store.db.all("SELECT token FROM web_links WHERE kind = 'game' AND ref = 3")
    assert len(rows) == 1


async def test_tokens_differ_between_games(store):
    links = WebLinks(store)
    tokens = {await links.token("game", n) for n in range(1, 41)}
    assert len(tokens) == 40


async def test_a_server_shares_its_pages_until_it_turns_them_off(store):
    links = WebLinks(store)
    assert await links.pages(41) == "links"
    await links.set_pages(41, "off")
    assert await links.pages(41) == "off"
    assert await links.pages(42) == "links"
    await links.set_pages(41, "links")
    assert await links.pages(41) == "links"
    assert await links.pages(2**70) == "off"
    with pytest.raises(ValueError):
        await links.set_pages(41, "public")
    with pytest.raises(ValueError):
        await links.token("game", 2**70)


def test_web_pages_settings():
    from bot.settings import Settings, SettingsError

    off = Settings.from_env({}, dotenv=None)
    assert off.web_pages is False and off.public_url is None
    on = Settings.from_env(
        {"HTTP_PORT": "8080", "WEB_PAGES": "yes", "PUBLIC_URL": "https://games.example.org/"}, dotenv=None
    )
    assert on.web_pages and on.public_url == "https://games.example.org"
    with pytest.raises(SettingsError, match="WEB_PAGES needs HTTP_PORT"):
        Settings.from_env({"WEB_PAGES": "yes"}, dotenv=None)
    with pytest.raises(SettingsError, match="PUBLIC_URL must be"):
        Settings.from_env({"PUBLIC_URL": "games.example.org"}, dotenv=None)
    # An address no browser can use: one line naming the setting, never a traceback.
    for unusable in (
        "http://[::1",
        "http://games.example.org:99999",
        "http://games.example.org:http",
        "http://games example.org",
        "https://:8080",
    ):
        with pytest.raises(SettingsError, match="PUBLIC_URL must be the pages' address"):
            Settings.from_env({"PUBLIC_URL": unusable}, dotenv=None)
    for usable in ("http://[::1]:8080", "http://192.0.2.7", "https://games.example.org:8443"):
        assert Settings.from_env({"PUBLIC_URL": usable}, dotenv=None).public_url == usable
    # Under a path the pages would break: their script, style, boards and links start at the root.
    with pytest.raises(
        SettingsError, match=r"PUBLIC_URL must be a site's own address, without a path"
    ) as info:
        Settings.from_env({"PUBLIC_URL": "https://example.org/pukllay/"}, dotenv=None)
    assert "'https://example.org/pukllay'" in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(SettingsError, match="WEB_PAGES must be yes or no"):
        Settings.from_env({"WEB_PAGES": "maybe"}, dotenv=None)


async def test_many_tokens_at_once_match_one_at_a_time(store):
    links = WebLinks(store)
    first = await links.token("game", 5)
    found = await links.tokens("game", [5, 6, 7, 7, 2**70])
    assert set(found) == {5, 6, 7} and found[5] == first
    assert found[6] == await links.token("game", 6) and found[7] == await links.token("game", 7)
    assert await links.tokens("game", list(range(1000, 1700))) == {
        n: await links.token("game", n) for n in range(1000, 1700)
    }
    with pytest.raises(ValueError):
        await links.tokens("person", [1])
