"""Discord's rate limits, kept on a clock the tests control.

Discord limits each route per top-level resource (a channel, a guild, a webhook and its token) and
every bot globally (50 requests a second; the interaction endpoints are exempt).  Answers carry the
``X-RateLimit-*`` headers discord.py reads to wait before a bucket runs dry; a request past the limit
gets a 429 with ``retry_after``, and discord.py sleeps and retries.

Time: Discord sees a person act at a person's pace, so the stand-in's rate-limit clock runs with the
real clock and moves on by ``user_pace`` seconds each time a test user acts (a command, a click...).
A burst the bot makes in answer to one action is therefore seen as Discord would see it, while a test
that clicks a hundred times a second is not mistaken for a bot flooding a channel.
``clock.advance(seconds)`` moves it by hand.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass, field
from typing import Any


class Clock:
    """Discord's time for rate limits: real seconds since the start, plus what tests added."""

    def __init__(self, now: Any = time.monotonic):
        self._now = now
        self._start = now()
        self.offset = 0.0

    def __call__(self) -> float:
        return self._now() - self._start + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


@dataclass(frozen=True)
class RouteLimit:
    """``limit`` requests per ``per`` seconds, counted separately for each value of ``key`` params."""

    limit: int
    per: float
    key: tuple[str, ...]
    bucket: str  # the bucket's name (several routes may share one); hashed for X-RateLimit-Bucket

    @property
    def bucket_hash(self) -> str:
        return hashlib.sha1(self.bucket.encode()).hexdigest()[:16]


_WEBHOOK = RouteLimit(5, 2.0, ("webhook_id", "webhook_token"), "webhook")
# What Discord is seen to answer (it publishes only the global limit and the daily command creates):
# 5 messages per 5 s per channel, edits alike, deletes 5 per second, a webhook (an interaction's token)
# 5 requests per 2 s for its messages, a channel renamed twice per 10 minutes.
ROUTE_LIMITS: dict[str, RouteLimit] = {
    "POST /channels/{channel_id}/messages": RouteLimit(5, 5.0, ("channel_id",), "channel messages"),
    "PATCH /channels/{channel_id}/messages/{message_id}": RouteLimit(
        5, 5.0, ("channel_id",), "channel message edit"
    ),
    "DELETE /channels/{channel_id}/messages/{message_id}": RouteLimit(
        5, 1.0, ("channel_id",), "channel message delete"
    ),
    "POST /webhooks/{webhook_id}/{webhook_token}": _WEBHOOK,
    "GET /webhooks/{webhook_id}/{webhook_token}/messages/@original": _WEBHOOK,
    "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original": _WEBHOOK,
    "DELETE /webhooks/{webhook_id}/{webhook_token}/messages/@original": _WEBHOOK,
    "GET /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": _WEBHOOK,
    "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": _WEBHOOK,
    "DELETE /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": _WEBHOOK,
}
RENAME_LIMIT = RouteLimit(2, 600.0, ("channel_id",), "channel rename")
GLOBAL_LIMIT = (50, 1.0)  # requests per second, per bot
# Not bound to the global limit (developers/interactions/receiving-and-responding, Endpoints).
GLOBAL_EXEMPT = ("POST /interactions/", "/webhooks/")
DAILY_COMMAND_CREATES = 200  # per guild (and for global commands), per day
DAY = 86400.0


@dataclass
class _Window:
    resets_at: float
    used: int = 0


@dataclass
class Decision:
    """Whether a request may go through, and the headers its answer carries."""

    allowed: bool
    headers: dict[str, str] = field(default_factory=dict)
    retry_after: float = 0.0
    is_global: bool = False
    bucket: str = ""


class RateLimiter:
    """Fixed windows per (bucket, resource), as Discord's ``X-RateLimit-Reset-After`` counts down."""

    def __init__(self, clock: Clock, limits: dict[str, RouteLimit] | None = None):
        self.clock = clock
        self.limits = dict(ROUTE_LIMITS if limits is None else limits)
        self.global_limit = GLOBAL_LIMIT
        self._windows: dict[tuple, _Window] = {}
        self.limited: list[str] = []  # "label (bucket)" of every request answered 429, in order
        self.command_creates: dict[int | None, list[float]] = {}

    def _window(self, key: tuple, per: float) -> _Window:
        now = self.clock()
        w = self._windows.get(key)
        if w is None or now >= w.resets_at:
            w = self._windows[key] = _Window(now + per)
        return w

    def _take(self, key: tuple, limit: int, per: float) -> tuple[bool, _Window]:
        w = self._window(key, per)
        if w.used >= limit:
            return False, w
        w.used += 1
        return True, w

    def check(self, label: str, params: dict[str, str], *, authenticated: bool) -> Decision:
        """Count a request to ``label`` (``"METHOD /template"``) with its path parameters."""
        now = self.clock()
        if authenticated and not any(p in label for p in GLOBAL_EXEMPT):
            limit, per = self.global_limit
            ok, w = self._take(("global",), limit, per)
            if not ok:
                retry = w.resets_at - now
                self.limited.append(f"{label} (global)")
                return Decision(
                    False,
                    {
                        "Retry-After": str(max(1, math.ceil(retry))),
                        "X-RateLimit-Global": "true",
                        "X-RateLimit-Scope": "global",
                    },
                    retry,
                    True,
                    "global",
                )
        rl = self.limits.get(label)
        if rl is None:
            return Decision(True)
        return self._route(label, rl, params, now)

    def check_limit(self, label: str, rl: RouteLimit, params: dict[str, str]) -> Decision:
        """Count a request against one more limit (e.g. renames), beside its route's."""
        return self._route(label, rl, params, self.clock())

    def _route(self, label: str, rl: RouteLimit, params: dict[str, str], now: float) -> Decision:
        key = (rl.bucket, *(params.get(k, "") for k in rl.key))
        ok, w = self._take(key, rl.limit, rl.per)
        # Rounded up to the millisecond: a client that waits this long finds the window reset.
        reset_after = math.ceil(max(0.0, w.resets_at - now) * 1000) / 1000
        headers = {
            "X-RateLimit-Limit": str(rl.limit),
            "X-RateLimit-Remaining": str(max(0, rl.limit - w.used)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": rl.bucket_hash,
        }
        if ok:
            return Decision(True, headers, bucket=rl.bucket)
        self.limited.append(f"{label} ({rl.bucket})")
        headers.update({"Retry-After": str(max(1, math.ceil(reset_after))), "X-RateLimit-Scope": "user"})
        return Decision(False, headers, reset_after, False, rl.bucket)

    def create_commands(self, scope: int | None, count: int) -> float | None:
        """Record ``count`` new commands in ``scope``; past 200 a day, the seconds until one more may be."""
        now = self.clock()
        done = [t for t in self.command_creates.get(scope, []) if now - t < DAY]
        if len(done) + count > DAILY_COMMAND_CREATES:
            self.command_creates[scope] = done
            oldest = done[len(done) + count - DAILY_COMMAND_CREATES - 1] if done else now
            return max(1.0, oldest + DAY - now)
        self.command_creates[scope] = done + [now] * count
        return None

    def hold_until(self, decision: Decision) -> float:
        """How long (clock seconds from now) a client told ``decision`` will hold its next request."""
        if not decision.allowed:
            return decision.retry_after
        if decision.headers.get("X-RateLimit-Remaining") == "0":
            return float(decision.headers["X-RateLimit-Reset-After"])
        return 0.0
