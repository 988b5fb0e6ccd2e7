"""What a turn costs people in Discord: whole games played through the stand-in, measured.

    python bench/turns.py

Plays, with the real bot against the Discord stand-in, a 3-player Guacamole
game (one person with the Play menu, one with the game's commands and
autocomplete, one typing ``/guacamole move``), a 2-player Tiwanaku game and a
2-player Nowa Gwinea game (Play menu and commands), with the moves the
computer player would choose (seeded), and prints per turn (per player-round in
Nowa Gwinea): the moves, the channel posts, the clicks of the Play-menu player,
the slash commands + autocomplete requests of the commands player, the private
messages that answered the commands player's steps, and the most selects one
step of the Play menu showed with the largest select's options, beside the
figures measured before (the issues' tables).  A last table gives the lines of
each turn's post (the board's text: what happened, then who is next), median
and most, the sentences per post, and its longest line (mentions counted as
the names they show); the post that ends the game, with the result, is
counted apart.
"""

from __future__ import annotations

import asyncio
import re
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app import EXTENSIONS, PukllayBot  # noqa: E402
from bot.settings import Settings  # noqa: E402
from tests.e2e.players import Driver, start  # noqa: E402
from tests.standin import StandIn  # noqa: E402

BEFORE = {
    # game: (moves per turn, posts per turn, clicks per turn, slash + autocomplete per turn,
    #        private messages per commands turn, selects in one menu step)
    "Guacamole, 3 players": ("8.2", "8.2", "17.7", "7.7 + 9.9", "about 8", "4 (69 swaps after Tomathor)"),
    "Tiwanaku, 2 players": ("1.5", "1.5", "4.1", "1.4 + 1.7", "not measured", "not measured"),
    "Nowa Gwinea, 2 players": (
        "4.5 huts a round",
        "1 per player-round",
        "13 a round",
        "4.5 + 7.5",
        "not measured",
        "13 (225 moves in round 2)",
    ),
}

GAMES = (
    ("Guacamole, 3 players", "guacamole", ("alice", "bob", "carol"), ("menu", "commands", "typed"), 7),
    ("Tiwanaku, 2 players", "tiwanaku", ("alice", "bob"), ("menu", "commands"), 3),
    ("Nowa Gwinea, 2 players", "nowa_gwinea", ("alice", "bob"), ("menu", "commands"), 5),
)


async def measure(title: str, game: str, names, styles, driver_seed: int, seed: int) -> tuple[str, ...]:
    with tempfile.TemporaryDirectory() as tmp:
        async with StandIn(wait_timeout=30.0) as discord_:
            users = discord_.add_users(*names)
            chan = discord_.channel("games")
            settings = Settings(
                token="bench", database_path=str(Path(tmp) / "b.db"), dev_guild_id=discord_.guild.id
            )

            def make(connector):
                return PukllayBot(
                    settings, extensions=EXTENSIONS, connector=connector, guild_ready_timeout=0.01
                )

            async with discord_.run_client(make) as bot:
                await discord_.wait_synced()
                await start(discord_, bot, chan, game, users, seed=seed)
                driver = Driver(discord_, bot, chan, dict(zip(users, styles, strict=True)), seed=driver_seed)
                record = await driver.play()
                shape = post_shape(title, [m.content for m in driver.boards()], users)
    SHAPES.append(shape)
    turns = sorted({n for n, _ in record.turns})
    moves = sum(t.moves for t in record.turns.values())
    posts = sum(record.posts.values())
    menu = record.of("menu")
    commands = record.of("commands")
    if game == "nowa_gwinea":
        per = len(turns)  # rounds
        unit = "a round"
        moves_text = f"{statistics.mean(t.moves for t in record.turns.values()):.1f} a player-round"
        posts_text = f"{posts / per:.1f} {unit} ({posts} for {per} rounds)"
    else:
        per = len(turns)
        moves_text = f"{moves / per:.1f}"
        posts_text = f"{posts / per:.2f} ({posts} for {per} turns, plus the start)"
    clicks = statistics.mean(t.clicks for t in menu)
    menu_moves = statistics.mean(t.moves for t in menu)
    slashes = statistics.mean(t.slashes for t in commands)
    completes = statistics.mean(t.autocompletes for t in commands)
    worst = max(t.clicks - t.moves for t in menu)
    answers = [t.answers for t in commands]
    return (
        title,
        moves_text,
        posts_text,
        f"{clicks:.1f} for {menu_moves:.1f} moves (at most moves + {worst})",
        f"{slashes:.1f} + {completes:.1f}",
        f"{statistics.mean(answers):.2f} (at most {max(answers)})",
        f"{max(t.selects for t in menu)} / {max(t.largest for t in menu)}",
    )


SHAPES: list[tuple[str, ...]] = []
SENTENCE_END = re.compile(r"[.!?](?=\s|$)")


def post_shape(title: str, boards: list[str], users) -> tuple[str, ...]:
    """How the turn posts read: lines per post (median, most), sentences per post (median,
    most), the longest line, and the lines of the last post (the result)."""
    names = {f"<@{u.id}>": u.name for u in users}
    posts = [re.sub(r"<@\d+>", lambda m: names.get(m[0], m[0]), b).split("\n") for b in boards[1:]]
    turns, last = posts[:-1], posts[-1]
    lines = [len(p) for p in turns]
    sentences = [len(SENTENCE_END.findall(" ".join(p))) for p in turns]
    return (
        title,
        f"{statistics.median(lines):g} / {max(lines)}",
        f"{statistics.median(sentences):g} / {max(sentences)}",
        str(max(len(line) for p in turns for line in p)),
        str(len(last)),
    )


async def main() -> None:
    rows = []
    for title, game, names, styles, driver_seed in GAMES:
        rows.append(await measure(title, game, names, styles, driver_seed, seed=2026))
    head = (
        "game",
        "moves per turn",
        "channel posts per turn",
        "clicks per turn (Play menu)",
        "slash + autocomplete per turn",
        "private messages per turn (commands)",
        "most selects in one menu step / largest select",
    )
    print("Before (the issue's measurements):")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for title, *cells in ((t, *BEFORE[t]) for t, *_ in rows):
        print("| " + " | ".join([title, *cells]) + " |")
    print("\nNow (python bench/turns.py):")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    shape_head = (
        "game",
        "lines per turn post (median / most)",
        "sentences per turn post (median / most)",
        "longest line (characters)",
        "lines of the last post (the result)",
    )
    print("\nTurn posts (python bench/turns.py):")
    print("| " + " | ".join(shape_head) + " |")
    print("|" + "---|" * len(shape_head))
    for shape in SHAPES:
        print("| " + " | ".join(shape) + " |")


if __name__ == "__main__":
    asyncio.run(main())
