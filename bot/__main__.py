"""``python -m bot`` (or ``pukllay``): run the bot with settings from ``.env``.

The database is opened and checked (SQLite's quick check or PostgreSQL's
schema check, migrations) before the bot logs in to Discord, so a bad
``DATABASE_PATH`` or ``DATABASE_URL`` is reported at once, in one line, even
without a network.  A database from an older Pukllay is upgraded: an SQLite
file after a copy of it is kept beside it (``pukllay.db.before-017``), a
PostgreSQL database only with ``--migrate`` (else the bot says so and stops).
At start one log line says which Pukllay runs on which database, its schema,
and the shards served.  While Discord cannot be reached the login is tried
again with growing waits; a refused token stops the bot at once.

``--check-database`` examines the database without changing it and exits;
``--backup FILE`` copies an SQLite database (safe while the bot runs);
``--migrate`` upgrades the database and exits; ``--version`` prints the version.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import logging
import os
import signal
import sys
from importlib import metadata

from bot import logs
from bot.settings import Settings, SettingsError
from bot.storage import (
    SCHEMA_VERSION,
    Examined,
    StorageError,
    Store,
    Unreachable,
    describe,
    describe_target,
    examine,
    is_postgres_url,
    open_store,
)

log = logging.getLogger("bot")


def version() -> str:
    try:
        return metadata.version("pukllay")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "(not installed)"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run the Pukllay Discord bot (settings come from the environment and .env).",
    )
    parser.add_argument("--version", action="version", version=f"pukllay {version()}")
    what = parser.add_mutually_exclusive_group()
    what.add_argument(
        "--check-database",
        action="store_true",
        help="examine the database without changing it (SQLite's integrity check on DATABASE_PATH, or "
        "the schema and log check on DATABASE_URL; a read-only copy will do), print the result and exit",
    )
    what.add_argument(
        "--backup",
        metavar="FILE",
        help="copy the SQLite database DATABASE_PATH into the new file FILE (safe while the bot runs), "
        "check the copy and exit; for PostgreSQL it says how to use pg_dump",
    )
    what.add_argument(
        "--migrate",
        action="store_true",
        help="upgrade the database to this version's schema (PostgreSQL needs it; SQLite keeps a copy "
        "first) and exit",
    )
    return parser.parse_args(argv)


def say(text: str) -> None:
    """One line to standard error: ``pukllay: text``, or one JSON object once the log is JSON."""
    print(logs.refusal(text), file=sys.stderr)


PLACEHOLDER = "paste-your-bot-token-here"  # .env.example's DISCORD_TOKEN
TOKEN_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def token_problem(token: str | None) -> str | None:
    """What is wrong with ``token`` before trying it on Discord, in one line that never shows it;
    None when it has a bot token's shape: three parts of letters, digits, ``-`` and ``_``
    separated by dots, the first the bot's user id in base64."""
    if not token:
        return "DISCORD_TOKEN is not set; copy .env.example to .env and put your bot token in it."
    if token == PLACEHOLDER:
        return (
            f"DISCORD_TOKEN is still .env.example's placeholder ({PLACEHOLDER}); replace it in .env "
            "with your bot's token (developer portal, Bot page, Reset Token)."
        )
    parts = token.split(".")
    if len(parts) == 3 and all(parts) and set(token) <= TOKEN_CHARACTERS | {"."}:
        try:
            first = base64.urlsafe_b64decode(parts[0] + "=" * (-len(parts[0]) % 4))
        except ValueError:
            first = b""
        if first.isdigit():
            return None
    if token.lower().startswith("bot "):
        looks = " (it starts with 'Bot ': give the token alone)"
    elif token.isdigit():
        looks = " (it is only digits, an id such as the Application ID)"
    elif len(token) == 64 and all(c in "0123456789abcdef" for c in token.lower()):
        looks = " (it looks like the application's Public Key)"
    elif len(token) == 32 and "." not in token:
        looks = " (it looks like the OAuth2 Client Secret)"
    else:
        looks = ""
    return (
        f"DISCORD_TOKEN is not a bot token{looks}; copy it from the developer portal's Bot page "
        "(Reset Token): three parts separated by dots, about 70 characters."
    )


OK, TRY_AGAIN, FIX_FIRST = 0, 1, 2
"""The exit statuses, the same for the bot and for each of its commands (README: "Exit status"):
all went well; a server (PostgreSQL, Discord) could not be reached, or the bot crashed, so trying
again later may succeed; a person must fix something first (a setting, the token, the database:
damaged, missing, another program's, a newer Pukllay's)."""


def check_verdict(found: Examined) -> int:
    """Print what ``--check-database`` found; the exit status (a problem found is one to fix)."""
    where = found.where
    if not found.exists:
        say(f"{where}: no such file (nothing was created); check DATABASE_PATH")
        return FIX_FIRST
    if found.damaged is not None:
        say(f"{where} is damaged (SQLite: {found.damaged}); restore a backup (see 'Backups' in the README)")
        return FIX_FIRST
    if found.foreign:
        say(
            f"{where} holds tables that are not Pukllay's ({', '.join(found.tables[:5])}); "
            "it looks like another program's database"
        )
        return FIX_FIRST
    if not found.tables:
        print(f"pukllay: {where} is empty; the bot creates its tables there at start (ok)")
        return OK
    if found.newer:
        say(
            f"{where} was written by a newer Pukllay (database schema {found.schema}, this code knows up "
            f"to {SCHEMA_VERSION}); upgrade the bot to use it"
        )
        return FIX_FIRST
    what = "SQLite's integrity check" if found.backend == "sqlite" else "the PostgreSQL check"
    steps = found.to_apply()
    schema = (
        f"schema {found.schema}, older than this Pukllay's {SCHEMA_VERSION}: the upgrade would apply "
        f"{describe(steps)}"
        if steps
        else f"schema {found.schema}, current"
    )
    if not found.problems:
        print(f"pukllay: {where}: {what} found no problem (ok); {schema}")
        return OK
    say(f"{where}: {what} found {len(found.problems)} problem(s); restore a backup:")
    for problem in found.problems:
        print(f"  {problem}", file=sys.stderr)
    return FIX_FIRST


def backup(settings: Settings, dest: str) -> int:
    if settings.database_url:
        say(
            "DATABASE_URL is PostgreSQL: back it up with pg_dump (pg_dump --format=custom --file FILE "
            '"$DATABASE_URL"; safe while the bot runs), restore with pg_restore into an empty database, '
            "and check the copy with python -m bot --check-database; see 'Backups' in the README"
        )
        return FIX_FIRST
    if not dest.strip():  # (--backup "" or --backup "$UNSET")
        say("--backup needs the name of a new file for the copy, such as backups/pukllay-2026-12-01.db")
        return FIX_FIRST
    if os.path.isdir(dest):
        say(
            f"{dest} is a folder; name a new file in it for the copy, such as {os.path.join(dest, 'pukllay.db')}"
        )
        return FIX_FIRST
    from bot.storage import sqlite

    copy = sqlite.backup(settings.database_path, dest)
    if copy.problems:
        say(f"{dest}: the copy fails SQLite's integrity check: {'; '.join(copy.problems[:3])}")
        return FIX_FIRST
    print(f"pukllay: {settings.database_path} backed up into {dest} (schema {copy.schema}; integrity ok)")
    return OK


async def migrate(target: str) -> int:
    store = await open_store(target, upgrade=True)
    try:
        schema = await store.schema_version()
    finally:
        await store.close()
    if store.upgraded_from is None:
        print(f"pukllay: {store.where}: schema {schema}, current; nothing to do")
        return OK
    kept = f"; the database as it was is kept in {store.kept_copy}" if store.kept_copy else ""
    print(f"pukllay: {store.where}: upgraded from schema {store.upgraded_from} to {schema}{kept}")
    return OK


def shards(settings: Settings) -> str:
    if not settings.sharded:
        return "no sharding (one gateway connection)"
    ids = "all" if settings.shard_ids is None else ",".join(map(str, settings.shard_ids))
    return f"shards {ids} of {settings.shard_count}"


async def identity(settings: Settings, store: Store) -> str:
    """The start's log line: the version, the database (never its password), its schema, the shards."""
    return (
        f"Pukllay {version()}; database {describe_target(settings.database)}, "
        f"schema {await store.schema_version()}; {shards(settings)}"
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        say(str(exc))
        return FIX_FIRST
    try:
        if args.check_database:
            return check_verdict(asyncio.run(examine(settings.database)))
        if args.backup is not None:
            return backup(settings, args.backup)
        if args.migrate:
            from bot.storage import sqlite

            if not is_postgres_url(settings.database) and not sqlite.present(settings.database):
                # A mistyped path: no new, empty database reported as "current".
                say(f"{settings.database}: no such file (nothing was created); check DATABASE_PATH")
                return FIX_FIRST
            return asyncio.run(migrate(settings.database))
    except Unreachable as exc:  # the database server is down: as at start, worth trying again later
        say(str(exc))
        return TRY_AGAIN
    except StorageError as exc:
        say(str(exc))
        return FIX_FIRST
    # From here on the bot runs: every line it writes is a log record (one JSON object a line
    # under LOG_FORMAT=json), its refusals and an unexpected error's traceback included.
    logs.configure(settings.log_level, settings.log_format)
    token = settings.token
    problem = token_problem(token)
    if problem is not None or token is None:  # (token_problem(None) is never None)
        say(problem or "DISCORD_TOKEN is not set")
        return FIX_FIRST
    # The bot has no voice features; discord.py's notes about voice libraries are noise here.
    logging.getLogger("discord.client").addFilter(
        lambda record: "voice will NOT be supported" not in record.getMessage()
    )

    async def run() -> None:
        # Before logging in: problems show at once.  PostgreSQL is upgraded only with --migrate.
        store = await open_store(
            settings.database,
            upgrade=not is_postgres_url(settings.database),
            statement_seconds=settings.statement_seconds,
            durable=settings.durable,
        )
        try:
            log.info("%s", await identity(settings, store))
            # discord.py and the bot's parts load once the database is good (a third of a
            # second): a database refused at start is said without waiting for them.
            from bot.app import create_bot
        except BaseException:
            await store.close()
            raise
        # SIGTERM (systemctl stop, docker stop, kill) stops the bot as Ctrl-C does: the moves being
        # handled are finished, the gateway, the web server, the workers and the database closed.
        terminated = stop_on_sigterm()
        bot = create_bot(settings, store=store)
        try:
            async with bot:  # the bot closes the store when it closes
                await bot.start(token)
        except asyncio.CancelledError:
            if bot.stopped_for is None and not terminated.is_set():
                raise
        if bot.stopped_for is not None:  # another process took its shards: a person must sort it out
            raise StorageError(bot.stopped_for)
        if terminated.is_set():
            log.info("stopped (SIGTERM)")

    try:
        asyncio.run(run())
    except Unreachable as exc:  # the database server is down or unreachable: worth starting again later
        say(str(exc))
        return TRY_AGAIN
    except StorageError as exc:
        say(str(exc))
        return FIX_FIRST
    except KeyboardInterrupt:
        return OK
    except Exception as exc:
        code = refused_at_login(exc)
        if code is None:  # a crash: its traceback is one log record (worth starting again)
            log.critical("stopped by an unexpected error", exc_info=exc)
            return TRY_AGAIN
        return code
    return OK


def stop_on_sigterm() -> asyncio.Event:
    """Cancel the running task on SIGTERM (once); the event says that it came."""
    came = asyncio.Event()
    task = asyncio.current_task()
    loop = asyncio.get_running_loop()

    def stop() -> None:
        if not came.is_set() and task is not None:
            came.set()
            task.cancel()

    try:
        loop.add_signal_handler(signal.SIGTERM, stop)
    except (NotImplementedError, RuntimeError):  # no signal handlers here (Windows, another thread)
        pass
    return came


def refused_at_login(exc: Exception) -> int | None:
    """What the bot says when it cannot log in or serve (``exc``, raised once the database was
    open), and the exit status; None for anything else."""
    import aiohttp
    import discord

    from bot.app import CommandsRefused
    from bot.web.server import WebServerError

    if isinstance(exc, (WebServerError, CommandsRefused)):
        say(str(exc))
        return FIX_FIRST
    if isinstance(exc, discord.LoginFailure):
        say("Discord refused DISCORD_TOKEN; reset the token in the developer portal.")
        return FIX_FIRST
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        say("Discord refused the requested intents; check the bot's settings.")
        return FIX_FIRST
    if isinstance(exc, (OSError, aiohttp.ClientError)):
        say(f"cannot reach Discord ({exc.__class__.__name__}: {exc}); check the network.")
        return TRY_AGAIN
    return None


if __name__ == "__main__":
    sys.exit(main())
