"""HTTP_PORT, HTTP_HOST and LOG_FORMAT: read, checked, refused in one clear line; the JSON log
lines; one metrics registry per bot."""

from __future__ import annotations

import io
import json
import logging

import pytest

from bot import logs
from bot.settings import Settings, SettingsError
from bot.web.metrics import Metrics


def test_the_web_server_is_off_by_default_and_local():
    s = Settings.from_env({}, dotenv=None)
    assert s.http_port is None and s.http_host == "127.0.0.1" and s.log_format == "text"
    s = Settings.from_env({"HTTP_PORT": "9108", "HTTP_HOST": "0.0.0.0", "LOG_FORMAT": "JSON"}, dotenv=None)
    assert s.http_port == 9108 and s.http_host == "0.0.0.0" and s.log_format == "json"


@pytest.mark.parametrize("port", ["http", "-1", "65536", "80.5"])
def test_a_bad_port_is_refused_in_one_line(port):
    with pytest.raises(SettingsError, match=r"^HTTP_PORT must be a port number from 0 to 65535") as info:
        Settings.from_env({"HTTP_PORT": port}, dotenv=None)
    assert "\n" not in str(info.value) and repr(port) in str(info.value)


@pytest.mark.parametrize("host", ["a..b", "http://localhost", "0.0.0.0:9108", "games.example.org/", "-x"])
def test_a_bad_http_host_is_refused_in_one_line(host):
    """HTTP_HOST given as a URL, with a port, or as a name no resolver takes ('a..b' used to end
    the start in a UnicodeError's traceback) is refused in one line naming what is allowed."""
    with pytest.raises(SettingsError, match=r"^HTTP_HOST must be the address to listen on") as info:
        Settings.from_env({"HTTP_PORT": "9108", "HTTP_HOST": host}, dotenv=None)
    assert "\n" not in str(info.value) and repr(host) in str(info.value) and "127.0.0.1" in str(info.value)


@pytest.mark.parametrize("host", ["127.0.0.1", "0.0.0.0", "::", "::1", "localhost", "games-1.example.org"])
def test_addresses_and_host_names_are_taken_as_http_host(host):
    assert Settings.from_env({"HTTP_PORT": "9108", "HTTP_HOST": host}, dotenv=None).http_host == host


def test_an_unknown_log_format_is_refused_in_one_line():
    with pytest.raises(SettingsError, match=r"^LOG_FORMAT must be text or json, got 'xml'$"):
        Settings.from_env({"LOG_FORMAT": "xml"}, dotenv=None)


def test_json_logs_are_one_object_a_line_with_the_exception():
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logs.formatter("json"))
    logger = logging.getLogger("pukllay.test.json")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning("game %d: %s", 7, 'said "hi"\nthen left')
        try:
            raise ValueError("boom")
        except ValueError:
            logger.exception("failed")
    finally:
        logger.removeHandler(handler)
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert first["level"] == "WARNING" and first["logger"] == "pukllay.test.json"
    assert first["message"] == 'game 7: said "hi"\nthen left' and "exception" not in first
    assert first["time"].endswith("+00:00")
    assert second["message"] == "failed" and second["level"] == "ERROR"
    assert second["exception"].startswith("Traceback") and "ValueError: boom" in second["exception"]


def test_each_bot_counts_in_a_registry_of_its_own():
    one, two = Metrics(), Metrics()
    one.moves_committed("nim", ["person", "person", "computer"])
    assert one.registry.get_sample_value("pukllay_moves_total", {"game": "nim", "by": "person"}) == 2
    assert one.registry.get_sample_value("pukllay_moves_total", {"game": "nim", "by": "computer"}) == 1
    assert two.registry.get_sample_value("pukllay_moves_total", {"game": "nim", "by": "person"}) is None
    assert one.registry.get_sample_value("pukllay_errors_total", {"kind": "job"}) == 0
    with pytest.raises(ValueError, match="unknown error kind"):
        one.error("typo")
