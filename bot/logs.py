"""The bot's log lines: plain text (the default) or, with ``LOG_FORMAT=json``, one JSON object a
line for log collectors (``time``, ``level``, ``logger``, ``message``, and ``exception`` with the
traceback when there is one).

Python's warnings (``py.warnings``), an exception no code caught (in the main thread, another
thread, or one Python could only report as unraisable) and the one-line refusals of
``python -m bot`` (:func:`refusal`) are log records too, so that under ``json`` no line of the
log is anything but one object."""

from __future__ import annotations

import json
import logging
import sys
import threading
from datetime import UTC, datetime
from types import TracebackType

TEXT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line (a traceback's new lines are escaped inside it)."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False)


def formatter(log_format: str) -> logging.Formatter:
    """The formatter for ``LOG_FORMAT`` (``text`` or ``json``)."""
    if log_format == "json":
        return JsonFormatter()
    if log_format == "text":
        return logging.Formatter(TEXT)
    raise ValueError(f"LOG_FORMAT must be text or json, got {log_format!r}")


CRASH = logging.getLogger("bot.crash")
"""The logger of exceptions no code caught."""


def configure(level: str, log_format: str) -> None:
    """The root logger writes to standard error at ``level`` in ``log_format``; warnings and
    exceptions no code caught are logged there too (with their traceback as one record)."""
    handler = logging.StreamHandler()
    handler.setFormatter(formatter(log_format))
    logging.basicConfig(level=level, handlers=[handler])
    logging.captureWarnings(True)
    sys.excepthook = _uncaught
    threading.excepthook = _uncaught_in_thread
    sys.unraisablehook = _unraisable


def writes_json() -> bool:
    """Whether the root logger writes JSON (``configure`` was called with ``json``)."""
    return any(isinstance(h.formatter, JsonFormatter) for h in logging.getLogger().handlers)


def refusal(text: str) -> str:
    """A one-line refusal (``pukllay: ...``) as it goes to standard error: as it is, or, when the log
    is JSON, as one object at the ERROR level (logger ``bot``)."""
    if not writes_json():
        return f"pukllay: {text}"
    record = logging.LogRecord("bot", logging.ERROR, __file__, 0, text, None, None)
    return JsonFormatter().format(record)


def _uncaught(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
    if issubclass(kind, KeyboardInterrupt):
        sys.__excepthook__(kind, value, tb)
        return
    CRASH.critical("stopped by an unexpected error", exc_info=(kind, value, tb))


def _uncaught_in_thread(args: threading.ExceptHookArgs) -> None:
    if args.exc_type is SystemExit:
        return
    name = args.thread.name if args.thread is not None else "?"
    CRASH.error(
        "thread %s stopped by an unexpected error",
        name,
        exc_info=args.exc_value or True,
    )


def _unraisable(unraisable: sys.UnraisableHookArgs) -> None:
    what = unraisable.err_msg or "Exception ignored in"
    CRASH.error(
        "%s: %r",
        what,
        unraisable.object,
        exc_info=unraisable.exc_value or True,
    )
