"""The test game Nim in Spanish: a copy of the Spanish catalogue with Nim's sentences added
(:data:`tests.support.nim.SPANISH`), put in place of the real one for one test."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

import languages
from tests.support import nim


def install(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``folder`` the catalogues' home, with Spanish plus Nim's sentences, for this test."""
    target = folder / "es" / "LC_MESSAGES"
    target.mkdir(parents=True)
    shutil.copy(languages.catalogue_path("es"), target / "pukllay.po")
    with (target / "pukllay.po").open("rb") as fh:
        catalog = read_po(fh, locale="es", domain=languages.DOMAIN)
    for english, spanish in nim.SPANISH.items():
        catalog.add(english, spanish)
    with (target / "pukllay.po").open("wb") as fh:
        write_po(fh, catalog)
    monkeypatch.setattr(languages, "HERE", folder)
    languages.available.cache_clear()
    languages.language.cache_clear()


def uninstall() -> None:
    languages.available.cache_clear()
    languages.language.cache_clear()


@pytest.fixture
def nim_in_spanish(tmp_path, monkeypatch):
    """Nim's sentences read in Spanish for the length of one test."""
    install(tmp_path / "languages", monkeypatch)
    yield
    monkeypatch.undo()
    uninstall()
