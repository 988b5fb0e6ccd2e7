"""What the bot counts, in Prometheus' terms (``prometheus_client``).

One :class:`Metrics` per bot, with a registry of its own (never the library's global one, so
two bots in one process, as in the tests, count apart).  The table reports at its choke points:
the session service where a move is committed, the interaction handling, the scheduler where a
job runs, the error handlers.  The gauges read at a scrape (games running, jobs due, the
gateway) are set by the server just before it writes the page (see :mod:`bot.web.server`).
"""

from __future__ import annotations

from collections.abc import Iterable

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

from engines.core import TABLE

ANSWER_WITHIN = 3.0
"""Discord's limit: an interaction not answered (nor deferred) within 3 s of its creation fails."""

LATE_JOB = 60.0
"""A job counts as late when it is still waiting this many seconds after its time."""

ERROR_KINDS = ("command", "interaction", "job", "computer", "event")
"""The errors counted, by where they happened: a slash command that failed, an interaction the
table could not handle, a scheduled job whose handler failed, a computer player that could not
move, a Discord event handler that raised."""

MOVE_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
LATENESS_BUCKETS = (0.1, 0.5, 1.0, 5.0, 15.0, 30.0, 60.0, 300.0, 900.0, 3600.0)

CONTENT_TYPE = CONTENT_TYPE_LATEST


def played_by(seat: int, by_computer: bool) -> str:
    """A move's ``by`` label: ``table`` for the table's own move (no seat's: a round the table ends
    when the clock runs out), else ``computer`` or ``person`` as the move log marks it."""
    if seat == TABLE:
        return "table"
    return "computer" if by_computer else "person"


class Metrics:
    """The bot's counters, histograms and gauges, in a registry of their own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.moves = Counter(
            "pukllay_moves",
            "Moves committed, by game and by who played them (person, computer, table)",
            ["game", "by"],
            registry=r,
        )
        self.move_seconds = Histogram(
            "pukllay_move_seconds",
            "A person's move: from the request to its commit (lock, rules, database)",
            ["game"],
            buckets=MOVE_BUCKETS,
            registry=r,
        )
        self.interactions = Counter(
            "pukllay_interactions", "Interactions received, by type", ["type"], registry=r
        )
        self.interactions_late = Counter(
            "pukllay_interactions_late",
            "Interactions not answered (nor deferred) within 3 s of their creation",
            ["type"],
            registry=r,
        )
        self.job_runs = Counter(
            "pukllay_job_runs", "Scheduled jobs fired, by kind and outcome (ok, failed)", ["kind", "outcome"],
            registry=r,
        )  # fmt: skip
        self.job_lateness = Histogram(
            "pukllay_job_lateness_seconds",
            "How long after its time a job was fired",
            ["kind"],
            buckets=LATENESS_BUCKETS,
            registry=r,
        )
        self.jobs_due = Gauge("pukllay_jobs_due", "Jobs whose time has come, not yet done", registry=r)
        self.jobs_late = Gauge(
            "pukllay_jobs_late", f"Jobs still waiting {LATE_JOB:g} s or more after their time", registry=r
        )
        self.gateway_latency = Gauge(
            "pukllay_gateway_latency_seconds",
            "Time between a gateway heartbeat and its acknowledgement, per shard",
            ["shard"],
            registry=r,
        )
        self.gateway_connected = Gauge(
            "pukllay_gateway_connected",
            "1 while the shard's gateway connection is open",
            ["shard"],
            registry=r,
        )
        self.errors = Counter("pukllay_errors", "Errors, by where they happened", ["kind"], registry=r)
        self.games_running = Gauge("pukllay_games_running", "Games started and not ended", registry=r)
        self.database_up = Gauge(
            "pukllay_database_up", "1 when the database answered the last check", registry=r
        )
        for kind in ERROR_KINDS:
            self.errors.labels(kind)

    # ----------------------------------------------------------------- what the table reports

    def moves_committed(self, game: str, by: Iterable[str]) -> None:
        """One move of ``game`` for each label of ``by`` (see :func:`played_by`)."""
        for who in by:
            self.moves.labels(game, who).inc()

    def move_took(self, game: str, seconds: float) -> None:
        self.move_seconds.labels(game).observe(max(0.0, seconds))

    def interaction_received(self, kind: str) -> None:
        self.interactions.labels(kind).inc()

    def interaction_late(self, kind: str) -> None:
        self.interactions_late.labels(kind).inc()

    def job_fired(self, kind: str, late_by: float, ok: bool) -> None:
        self.job_runs.labels(kind, "ok" if ok else "failed").inc()
        self.job_lateness.labels(kind).observe(max(0.0, late_by))

    def error(self, kind: str) -> None:
        if kind not in ERROR_KINDS:
            raise ValueError(f"unknown error kind {kind!r}; one of {', '.join(ERROR_KINDS)}")
        self.errors.labels(kind).inc()

    def page(self) -> bytes:
        """The registry in Prometheus' text format."""
        return generate_latest(self.registry)
