"""What the languages cost: compiling a catalogue when first used, a lookup, the slash commands'
registration payload built with and without the translator, and a board drawn in Spanish against
the same board in English.

    .venv/bin/python bench/catalogues.py

prints each figure, and the ratios.
"""

from __future__ import annotations

import asyncio
import time
from statistics import median

import engines
import languages
from bot import i18n
from renderers.samples import positions


def best(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


async def payloads() -> tuple[float, float, int]:
    import tempfile
    from pathlib import Path

    from bot.app import PukllayBot
    from bot.settings import Settings

    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(token="bench", database_path=str(Path(folder) / "b.db"), sync_commands=False)
        bot = PukllayBot(settings, start_scheduler=False)
        try:
            await bot.setup_hook()
            tree = bot.tree
            commands = tree.get_commands()
            start = time.perf_counter()
            plain = [c.to_dict(tree) for c in commands]
            bare = time.perf_counter() - start
            start = time.perf_counter()
            translated = [await c.get_translated_payload(tree, i18n.Translator()) for c in commands]
            localized = time.perf_counter() - start
        finally:
            await bot.close()
    assert len(plain) == len(translated)
    return bare, localized, len(commands)


def main() -> None:
    compile_s = best(lambda: languages._compiled("es"))
    es = languages.language("es")
    n = 20000
    start = time.perf_counter()
    for _ in range(n):
        es.gettext("{name} to play", name="Ana")
    lookup = (time.perf_counter() - start) / n
    print(f"compile the Spanish catalogue (first use): {compile_s * 1000:.1f} ms")
    print(f"one lookup with a placeholder: {lookup * 1e6:.2f} us")
    bare, localized, count = asyncio.run(payloads())
    print(
        f"registration payload of {count} commands: {bare * 1000:.1f} ms without localizations, "
        f"{localized * 1000:.1f} ms with them ({localized / bare:.1f}x; once per sync)"
    )
    for game in ("guacamole", "tiwanaku"):
        en, sp = board_times(game)
        print(f"{game} board drawn: English {en * 1000:.1f} ms, Spanish {sp * 1000:.1f} ms ({sp / en:.2f}x)")


def board_times(game: str) -> tuple[float, float]:
    """The median time to draw a middle-game board in English and in Spanish (7 runs each, alternating)."""
    pos = positions(game)[4]
    renderer = engines.get(game).load_renderer()
    if renderer is None:
        raise SystemExit(f"{game} has no renderer")
    view = pos.view(0)
    english, spanish = [], []
    for _ in range(7):
        english.append(best(lambda: renderer.draw_board(view, names=pos.names), 1))
        spanish.append(best(lambda: renderer.draw_board(view, names=pos.names, language="es"), 1))
    return median(english), median(spanish)


if __name__ == "__main__":
    main()
