"""``python -m bot`` (or ``pukllay``): run the bot with settings from ``.env``."""

from __future__ import annotations

import asyncio
import logging
import sys

from bot.settings import Settings, SettingsError
from bot.storage import StorageError


def main(argv: list[str] | None = None) -> int:
    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        print(f"pukllay: {exc}", file=sys.stderr)
        return 2
    if not settings.token or settings.token == "paste-your-bot-token-here":
        print(
            "pukllay: DISCORD_TOKEN is not set; copy .env.example to .env and put your bot token in it.",
            file=sys.stderr,
        )
        return 2
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # The bot has no voice features; discord.py's notes about voice libraries are noise here.
    logging.getLogger("discord.client").addFilter(
        lambda record: "voice will NOT be supported" not in record.getMessage()
    )
    import aiohttp
    import discord

    from bot.app import PukllayBot

    async def run() -> None:
        async with PukllayBot(settings) as bot:
            await bot.start(settings.token)

    try:
        asyncio.run(run())
    except discord.LoginFailure:
        print(
            "pukllay: Discord refused DISCORD_TOKEN; reset the token in the developer portal.",
            file=sys.stderr,
        )
        return 2
    except discord.PrivilegedIntentsRequired:
        print("pukllay: Discord refused the requested intents; check the bot's settings.", file=sys.stderr)
        return 2
    except StorageError as exc:
        print(f"pukllay: {exc}", file=sys.stderr)
        return 2
    except (OSError, aiohttp.ClientError) as exc:
        print(
            f"pukllay: cannot reach Discord ({exc.__class__.__name__}: {exc}); check the network.",
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
