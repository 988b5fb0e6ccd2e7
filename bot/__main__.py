"""``python -m bot`` (or ``pukllay``): run the bot with settings from ``.env``.

The database is opened and checked (SQLite's quick check or PostgreSQL's
schema check, migrations) before the bot logs in to Discord, so a bad
``DATABASE_PATH`` or ``DATABASE_URL`` is reported at once, in one line, even
without a network.  ``--check-database`` runs the full check instead (SQLite's
integrity check, slower on a large file) and exits.  With ``SHARD_COUNT`` the
process serves the shards ``SHARD_IDS`` (all of them when unset).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from bot.settings import Settings, SettingsError
from bot.storage import StorageError, Store


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run the Pukllay Discord bot (settings come from the environment and .env).",
    )
    parser.add_argument(
        "--check-database",
        action="store_true",
        help="run the database's full check (SQLite's integrity check on DATABASE_PATH, or the "
        "schema and log check on DATABASE_URL), print the result and exit",
    )
    return parser.parse_args(argv)


def say(text: str) -> None:
    print(f"pukllay: {text}", file=sys.stderr)


async def check_database(target: str) -> int:
    store = await Store.open(target)
    try:
        problems = await store.check_integrity()
    finally:
        await store.close()
    what = "SQLite's integrity check" if store.backend == "sqlite" else "the PostgreSQL check"
    if not problems:
        print(f"pukllay: {store.where}: {what} found no problem (ok)")
        return 0
    say(f"{store.where}: {what} found {len(problems)} problem(s); restore a backup:")
    for problem in problems:
        print(f"  {problem}", file=sys.stderr)
    return 1


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        say(str(exc))
        return 2
    if args.check_database:
        try:
            return asyncio.run(check_database(settings.database))
        except StorageError as exc:
            say(str(exc))
            return 2
    token = settings.token
    if not token or token == "paste-your-bot-token-here":
        say("DISCORD_TOKEN is not set; copy .env.example to .env and put your bot token in it.")
        return 2
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # The bot has no voice features; discord.py's notes about voice libraries are noise here.
    logging.getLogger("discord.client").addFilter(
        lambda record: "voice will NOT be supported" not in record.getMessage()
    )
    import aiohttp
    import discord

    from bot.app import create_bot

    async def run() -> None:
        store = await Store.open(settings.database)  # before logging in: problems show at once
        async with create_bot(settings, store=store) as bot:  # the bot closes the store when it closes
            await bot.start(token)

    try:
        asyncio.run(run())
    except StorageError as exc:
        say(str(exc))
        return 2
    except discord.LoginFailure:
        say("Discord refused DISCORD_TOKEN; reset the token in the developer portal.")
        return 2
    except discord.PrivilegedIntentsRequired:
        say("Discord refused the requested intents; check the bot's settings.")
        return 2
    except (OSError, aiohttp.ClientError) as exc:
        say(f"cannot reach Discord ({exc.__class__.__name__}: {exc}); check the network.")
        return 1
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
