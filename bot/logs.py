"""The bot's log lines: plain text (the default) or, with ``LOG_FORMAT=json``, one JSON object a
line for log collectors (``time``, ``level``, ``logger``, ``message``, and ``exception`` with the
traceback when there is one)."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

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


def configure(level: str, log_format: str) -> None:
    """The root logger writes to standard error at ``level`` in ``log_format``."""
    handler = logging.StreamHandler()
    handler.setFormatter(formatter(log_format))
    logging.basicConfig(level=level, handlers=[handler])
