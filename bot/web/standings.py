"""A league's web page, as data (see :mod:`bot.web.pages`): not built yet, so every league link
finds nothing (404) and no post carries one."""

from __future__ import annotations

from typing import Any

from bot.storage import Store
from bot.storage.web import WebLinks
from languages import Language


class Leagues:
    def __init__(self, store: Store, links: WebLinks):
        self.store = store
        self.links = links

    async def page(self, league_id: int, t: Language) -> Any:
        return None
