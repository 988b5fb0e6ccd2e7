"""Settings, read from the environment and a ``.env`` file.

Every setting is listed in ``.env.example``.  Values in the real environment
win over the file.  The token is never printed: ``repr(settings)`` hides it.
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

LOG_FORMATS = ("text", "json")


class SettingsError(ValueError):
    """A setting is missing or malformed; the message names it."""


def whole(text: str) -> bool:
    """``text`` is a whole number in ASCII digits (``str.isdigit`` also takes ``²`` or ``١``,
    which ``int`` refuses or reads as another number)."""
    return text.isascii() and text.isdigit()


def server_id(text: str) -> bool:
    """``text`` can be a Discord server's id: a snowflake, 17 to 20 ASCII digits (the first
    servers' ids have 17) that fit in 64 bits; a digit dropped or doubled in copying is caught."""
    return whole(text) and 17 <= len(text) <= 20 and int(text) < 2**64


HOSTNAME = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*\.?")


def seconds_setting(name: str, text: str, low: float, high: float) -> float:
    """The setting ``name`` read as seconds from ``text``, between ``low`` and ``high``; else
    :class:`SettingsError` saying what is allowed."""
    try:
        seconds = float(text)
    except ValueError:
        raise SettingsError(f"{name} must be a number of seconds, got {text!r}") from None
    if not low <= seconds <= high:
        raise SettingsError(f"{name} must be between {low:g} and {high:g}")
    return seconds


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def listen_host(text: str) -> str:
    """``HTTP_HOST`` checked: an IP address (``127.0.0.1``, ``0.0.0.0``, ``::``) or a host name."""
    if not _is_ip(text) and (len(text) > 253 or not HOSTNAME.fullmatch(text)):
        raise SettingsError(
            "HTTP_HOST must be the address to listen on: an IP address such as 127.0.0.1, 0.0.0.0 "
            f"or ::, or this machine's host name (no scheme, no port: that is HTTP_PORT), got {text!r}"
        )
    return text


def postgres_url(url: str) -> None:
    """``DATABASE_URL`` checked: a PostgreSQL URL whose user and password are written as a URL
    needs them.  A password holding ``@``, ``/``, ``?`` or ``#`` as they are would be read as
    part of the host, the database or the options: the driver would then look for the wrong
    server, and the error would print what it took for a host name, the password itself.  The
    refusal never shows the value."""
    if not url.lower().startswith(("postgresql://", "postgres://")):
        raise SettingsError(
            "DATABASE_URL must be a PostgreSQL URL (postgresql://user:password@host/database); "
            "for SQLite set DATABASE_PATH instead"
        )
    rest = url.split("://", 1)[1]
    authority = re.split(r"[/?#]", rest, maxsplit=1)[0]
    if authority.count("@") > 1 or "@" in rest[len(authority) :]:
        raise SettingsError(
            "DATABASE_URL's user name or password holds a character that URLs reserve (@, /, ? or #); "
            "write each such character percent-encoded (@ as %40, / as %2F, ? as %3F, # as %23), "
            "as in postgresql://user:p%40ss@host/database"
        )
    for host in authority.rsplit("@", 1)[-1].split(","):  # (the driver takes several: h1:5432,h2)
        _, colon, port = host.rpartition("]")[2].rpartition(":")
        if colon and not (port.isascii() and port.isdigit() and int(port) <= 65535):
            # (a host name's resolver would take 99999 as 99999 % 65536: another port, quietly)
            raise SettingsError(f"DATABASE_URL's port must be 0-65535, got {port!r}")


def shown_line(line: str) -> str:
    """A malformed ``.env`` line as an error may show it: up to its first ``=`` or ``:``, never
    what follows (the value, or a token pasted without its name, may be a secret)."""
    cut = min((i for i in (line.find("="), line.find(":")) if i >= 0), default=-1)
    if cut < 0:
        return "a line without '=' (not shown: it may be a secret)"
    return repr(line[: cut + 1] + "...")


def read_dotenv(path: str | Path) -> dict[str, str]:
    """Parse ``KEY=VALUE`` lines; ``#`` comments, blank lines and optional quotes allowed."""
    values: dict[str, str] = {}
    p = Path(path)
    if not p.is_file():
        if p.is_dir():  # as a container's volume mount makes of a missing file
            raise SettingsError(
                f"{p} is a folder, not a settings file; remove it and copy .env.example to {p}"
            )
        return values
    try:
        # utf-8-sig: a byte-order mark, as Windows editors may write, is not part of the first line
        text = p.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise SettingsError(
            f"cannot read {p} ({exc.strerror or exc}); run the bot as a user who may"
        ) from None
    except UnicodeDecodeError as exc:
        at = p.read_bytes()[: exc.start].count(b"\n") + 1
        raise SettingsError(f"{p}:{at}: not UTF-8 text; save the file as UTF-8") from None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("export "):
            line = line[len("export ") :].lstrip()
        key, sep, value = line.partition("=")
        if not sep or not key.strip().isidentifier():
            raise SettingsError(f"{p}:{number}: expected KEY=VALUE, got {shown_line(raw.strip())}")
        values[key.strip()] = dotenv_value(value.strip())
    return values


def dotenv_value(value: str) -> str:
    """A ``.env`` value: quoted (``'...'`` or ``"..."``, a ``#`` inside kept) or bare, either one
    followed or not by a `` # comment``."""
    if value[:1] in ("'", '"'):
        end = value.find(value[0], 1)
        rest = value[end + 1 :].strip() if end > 0 else ""
        if end > 0 and (not rest or rest.startswith("#")):
            return value[1:end]
    for mark in (" #", "\t#"):
        value = value.split(mark, 1)[0]
    return value.rstrip()


def shard_settings(count_text: str | None, ids_text: str | None) -> tuple[int | None, tuple[int, ...] | None]:
    """``SHARD_COUNT`` and ``SHARD_IDS`` checked: (count, ids); ids None means every shard."""
    if count_text is None:
        if ids_text is not None:
            raise SettingsError("SHARD_IDS needs SHARD_COUNT (the total number of shards of the bot)")
        return None, None
    if not whole(count_text) or not 1 <= int(count_text) <= 65536:
        raise SettingsError(f"SHARD_COUNT must be a whole number from 1 to 65536, got {count_text!r}")
    count = int(count_text)
    if ids_text is None:
        return count, None
    ids: list[int] = []
    for part in ids_text.replace(" ", "").split(","):
        if part.count("-") == 1 and all(whole(side) for side in part.split("-")):  # (both sides: 0-3)
            lo, hi = (int(x) for x in part.split("-"))
            if lo > hi:
                raise SettingsError(
                    f"SHARD_IDS ranges go from the lower shard number to the higher, such as {hi}-{lo}, "
                    f"got {ids_text!r}"
                )
            ids.extend(range(lo, hi + 1))
        elif whole(part):
            ids.append(int(part))
        else:
            raise SettingsError(f"SHARD_IDS must be shard numbers such as 0,1 or 0-3, got {ids_text!r}")
    bad = sorted({i for i in ids if i >= count})
    if bad or not ids:
        raise SettingsError(
            f"SHARD_IDS must name shards from 0 to {count - 1} (SHARD_COUNT is {count}), got {ids_text!r}"
        )
    return count, tuple(sorted(set(ids)))


Reader = Callable[[str], str | None]
"""A setting's value by its name, stripped; None when it is unset or blank."""
YES = {"yes", "true", "1"}
YES_OR_NO = YES | {"no", "false", "0"}


def setting_reader(env: Mapping[str, str] | None, dotenv: str | Path | None) -> Reader:
    """The settings' :data:`Reader`: ``env`` (the process's environment when None) over the file
    ``dotenv`` (None: no file)."""
    merged: dict[str, str] = {}
    if dotenv is not None:
        merged.update(read_dotenv(dotenv))
    merged.update(os.environ if env is None else env)

    def get(name: str) -> str | None:
        value = merged.get(name, "").strip()
        return value or None

    return get


def running_settings(get: Reader) -> tuple[int | None, str, bool, float]:
    """``DEV_GUILD_ID``, ``LOG_LEVEL``, ``SYNC_COMMANDS`` and ``JOB_POLL_SECONDS``, checked in
    that order: (the server id, the level, whether to sync the commands, the jobs' poll)."""
    guild = get("DEV_GUILD_ID")
    if guild is not None and not server_id(guild):
        raise SettingsError(f"DEV_GUILD_ID must be a server id (17 to 20 digits), got {guild!r}")
    level = (get("LOG_LEVEL") or "INFO").upper()
    if level not in {"DEBUG", "INFO", "WARNING", "ERROR"}:
        raise SettingsError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, got {level!r}")
    sync = (get("SYNC_COMMANDS") or "yes").lower()
    if sync not in YES_OR_NO:
        raise SettingsError(f"SYNC_COMMANDS must be yes or no, got {sync!r}")
    # JOB_POLL_SECONDS (DEADLINE_POLL_SECONDS is its older name).
    poll_name = (
        "JOB_POLL_SECONDS"
        if get("JOB_POLL_SECONDS") or not get("DEADLINE_POLL_SECONDS")
        else ("DEADLINE_POLL_SECONDS")
    )
    poll_seconds = seconds_setting(poll_name, get(poll_name) or "30", 0.01, 3600)
    return int(guild) if guild else None, level, sync in YES, poll_seconds


def database_settings(get: Reader) -> tuple[str | None, float]:
    """``DATABASE_URL`` and ``DATABASE_STATEMENT_SECONDS``, checked in that order."""
    url = get("DATABASE_URL")
    if url is not None:
        postgres_url(url)
    statement_seconds = seconds_setting(
        "DATABASE_STATEMENT_SECONDS", get("DATABASE_STATEMENT_SECONDS") or "30", 1, 3600
    )
    return url, statement_seconds


def sqlite_sync(get: Reader) -> bool:
    """``SQLITE_SYNC``: ``full`` (the default: each commit synced to the disk) or ``normal``."""
    sync = (get("SQLITE_SYNC") or "full").strip().lower()
    if sync not in ("full", "normal"):
        raise SettingsError(f"SQLITE_SYNC must be full or normal, got {sync!r}")
    return sync == "full"


MOST_WORKERS = 64
"""The most worker processes the strong level's searches take (``COMPUTER_WORKERS``); a machine
with more cores gets this many by default."""


def computer_settings(get: Reader) -> tuple[float, int]:
    """``COMPUTER_STRONG_SECONDS`` and ``COMPUTER_WORKERS`` (by default one per core, at most
    :data:`MOST_WORKERS`), checked in that order: (the strong level's seconds a move, its worker
    processes)."""
    computer_seconds = seconds_setting(
        "COMPUTER_STRONG_SECONDS", get("COMPUTER_STRONG_SECONDS") or "1", 0.01, 60
    )
    workers = get("COMPUTER_WORKERS") or str(min(os.cpu_count() or 1, MOST_WORKERS))
    if not whole(workers) or not 0 <= int(workers) <= MOST_WORKERS:
        raise SettingsError(
            f"COMPUTER_WORKERS must be a number of processes from 0 to {MOST_WORKERS}, got {workers!r}"
        )
    return computer_seconds, int(workers)


def table_settings(get: Reader) -> tuple[float, int, frozenset[int]]:
    """``THREAD_ARCHIVE_HOURS``, ``AWAY_DAYS_PER_YEAR`` and ``EXPORT_IDS_SERVERS``, checked in that
    order."""
    archive = get("THREAD_ARCHIVE_HOURS") or "1"
    try:
        archive_hours = float(archive)
    except ValueError:
        raise SettingsError(f"THREAD_ARCHIVE_HOURS must be a number of hours, got {archive!r}") from None
    if not 0 <= archive_hours <= 720:
        raise SettingsError("THREAD_ARCHIVE_HOURS must be between 0 (never) and 720")
    away = get("AWAY_DAYS_PER_YEAR") or "30"
    if not whole(away) or not 0 <= int(away) <= 366:
        raise SettingsError(f"AWAY_DAYS_PER_YEAR must be a number of days from 0 to 366, got {away!r}")
    id_guilds = [g.strip() for g in (get("EXPORT_IDS_SERVERS") or "").split(",") if g.strip()]
    bad = [g for g in id_guilds if not server_id(g)]
    if bad:
        raise SettingsError(
            f"EXPORT_IDS_SERVERS must be server ids (17 to 20 digits each) separated by commas, got {bad[0]!r}"
        )
    return archive_hours, int(away), frozenset(int(g) for g in id_guilds)


def web_settings(get: Reader) -> tuple[int | None, bool, str | None]:
    """``HTTP_PORT``, ``WEB_PAGES`` and ``PUBLIC_URL``, checked in that order, then that the pages
    have a port: (the port, whether the pages are served, their address without its last ``/``).
    ``HTTP_HOST`` is checked apart, by :func:`listen_host`."""
    port = get("HTTP_PORT")
    if port is not None and (not whole(port) or not 0 <= int(port) <= 65535):
        raise SettingsError(f"HTTP_PORT must be a port number from 0 to 65535 (empty: off), got {port!r}")
    pages = (get("WEB_PAGES") or "no").lower()
    if pages not in YES_OR_NO:
        raise SettingsError(f"WEB_PAGES must be yes or no, got {pages!r}")
    public_url = get("PUBLIC_URL")
    if public_url is not None:
        public_url = public_url.rstrip("/")
        pages_address(public_url)
    if pages in YES and port is None:
        raise SettingsError("WEB_PAGES needs HTTP_PORT: the pages are served on the web server's port")
    return None if port is None else int(port), pages in YES, public_url


def pages_address(public_url: str) -> None:
    """``PUBLIC_URL`` (its last ``/`` taken off) checked: an http or https site's own address, at
    a host name or IP address and a port a browser can use."""
    usable, path = False, ""
    try:
        parts = urlsplit(public_url)
        host, _ = parts.hostname or "", parts.port  # (the port: a number from 0 to 65535, or none)
        usable = bool(host) and (HOSTNAME.fullmatch(host) is not None or _is_ip(host))
        usable = usable and parts.scheme in {"http", "https"} and not parts.query and not parts.fragment
        path = parts.path
    except ValueError:  # an unclosed [, a port out of range or not a number
        pass
    if not usable:
        raise SettingsError(
            f"PUBLIC_URL must be the pages' address, such as https://games.example.org, got {public_url!r}"
        )
    if path:
        raise SettingsError(
            "PUBLIC_URL must be a site's own address, without a path (the pages link their "
            "scripts, pictures and each other from the site's root): give the reverse proxy a "
            f"host name of its own, such as https://games.example.org, got {public_url!r}"
        )


@dataclass(frozen=True)
class Settings:
    token: str | None = field(default=None, repr=False)
    database_path: str = "./pukllay.db"
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    sync_commands: bool = True
    job_poll_seconds: float = 30.0
    computer_seconds: float = 1.0  # the strong computer level's thinking time per move
    # worker processes for the strong computer level's searches; from_env's default is one per
    # core; 0 (the default here, for tests built in code) searches in a thread of the bot, by count
    computer_workers: int = 0
    database_url: str | None = field(default=None, repr=False)  # postgresql://...; may hold a password
    statement_seconds: float = 30.0  # PostgreSQL: a statement not answered by then ends as not answering
    # SQLite: each commit synced to the disk (SQLITE_SYNC=full, from_env's default: an acknowledged
    # move survives a power cut); False (the default here, for tests built in code): normal
    durable: bool = False
    shard_count: int | None = None  # None: no sharding (one gateway connection)
    shard_ids: tuple[int, ...] | None = None  # the shards this process serves; None: all of them
    thread_archive_hours: float = 1.0  # a finished game's thread is archived after this (0: never)
    away_days_per_year: int = 30  # /me away: days of time away a person may take in a year
    export_id_guilds: frozenset[int] = frozenset()  # servers whose game exports carry user ids
    http_port: int | None = None  # /healthz and /metrics on this port; None: no web server (0: any free port)
    http_host: str = "127.0.0.1"  # the address the web server listens on
    web_pages: bool = False  # the read-only game, league and person pages (on the same server and port)
    public_url: str | None = None  # the address the pages' links use (behind a reverse proxy)
    log_format: str = "text"  # "text" (one line a record) or "json" (one JSON object a line)

    @property
    def database(self) -> str:
        """What the store opens: the PostgreSQL URL when set, else the SQLite file."""
        return self.database_url or self.database_path

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, dotenv: str | Path | None = ".env") -> Settings:
        """The settings from ``env`` (the process's environment when None) over the file ``dotenv``
        (None: no file), each checked in turn: the first wrong one is refused, named."""
        get = setting_reader(env, dotenv)
        guild, level, sync, poll_seconds = running_settings(get)
        url, statement_seconds = database_settings(get)
        durable = sqlite_sync(get)
        shard_count, shard_ids = shard_settings(get("SHARD_COUNT"), get("SHARD_IDS"))
        computer_seconds, workers = computer_settings(get)
        archive_hours, away, id_guilds = table_settings(get)
        port, pages, public_url = web_settings(get)
        log_format = (get("LOG_FORMAT") or "text").lower()
        if log_format not in LOG_FORMATS:
            raise SettingsError(f"LOG_FORMAT must be text or json, got {log_format!r}")
        return cls(
            http_port=port,
            http_host=listen_host(get("HTTP_HOST") or "127.0.0.1"),
            web_pages=pages,
            public_url=public_url,
            log_format=log_format,
            computer_seconds=computer_seconds,
            computer_workers=workers,
            away_days_per_year=away,
            thread_archive_hours=archive_hours,
            export_id_guilds=id_guilds,
            job_poll_seconds=poll_seconds,
            database_url=url,
            statement_seconds=statement_seconds,
            durable=durable,
            shard_count=shard_count,
            shard_ids=shard_ids,
            token=get("DISCORD_TOKEN"),
            database_path=os.path.expanduser(get("DATABASE_PATH") or "./pukllay.db"),  # ~ is the home folder
            dev_guild_id=guild,
            log_level=level,
            sync_commands=sync,
        )
