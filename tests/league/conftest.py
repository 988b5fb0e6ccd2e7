"""League tests share the table's fixtures: a fresh database of each back end and the session
service, whose new games (a league's among them) draw their seeds from a seeded source."""

from tests.table.conftest import service, store

__all__ = ["service", "store"]
