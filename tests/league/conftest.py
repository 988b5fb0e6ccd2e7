"""League tests share the table's fixtures: a fresh database of each back end and the session service."""

from tests.table.conftest import service, store
