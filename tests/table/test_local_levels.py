"""The terminal table's --computer-level and --computer-seconds, and the strong level's setting."""

from __future__ import annotations

import io

import pytest

from bot.settings import Settings, SettingsError
from bot.terminal import main as local_main


def test_local_computer_level(tmp_path):
    """Two strong computers play a Guacamole opening; the seats say how strong they are."""
    out = io.StringIO()
    args = ["guacamole", "--computer", "2", "--computer-level", "strong", "--computer-seconds", "0.01"]
    code = local_main([*args, "--no-images", "--max-moves", "25"], io.StringIO(""), out)
    text = out.getvalue()
    assert code == 0 and "stopped after 25 moves" in text
    assert "P1 (cpu, strong): " in text and "P2 (cpu, strong): " in text


def test_local_refuses_an_unknown_level(capsys):
    code = local_main(["guacamole", "--computer", "1", "--computer-level", "grandmaster"], io.StringIO(""))
    assert code == 2 and "'easy', 'normal', 'strong'" in capsys.readouterr().err


def test_local_refuses_odd_thinking_times():
    for bad in ("0", "-1", "nan", "inf", "61"):
        out, err = io.StringIO(), io.StringIO()
        args = ["guacamole", "--computer", "1", "--computer-seconds", bad, "--no-images"]
        assert local_main(args, io.StringIO(""), out, err) == 2
        assert "--computer-seconds must be from 0.01 to 60" in err.getvalue() and not out.getvalue()


def test_local_refuses_a_thinking_time_that_is_not_a_number(capsys):
    args = ["guacamole", "--computer", "1", "--computer-seconds", "fast", "--no-images"]
    assert local_main(args, io.StringIO(""), io.StringIO()) == 2
    assert "--computer-seconds: invalid float value: 'fast'" in capsys.readouterr().err


def test_strong_seconds_setting():
    assert Settings.from_env({}, None).computer_seconds == 1.0
    assert Settings.from_env({"COMPUTER_STRONG_SECONDS": "0.5"}, None).computer_seconds == 0.5
    for bad in ("fast", "0", "100"):
        with pytest.raises(SettingsError, match="COMPUTER_STRONG_SECONDS"):
            Settings.from_env({"COMPUTER_STRONG_SECONDS": bad}, None)


def test_example_env_lists_the_strong_seconds():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / ".env.example").read_text()
    assert "COMPUTER_STRONG_SECONDS=" in text
