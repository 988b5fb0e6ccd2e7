"""The slash commands people see, as the bot registers them with Discord: ``/league`` and ``/gate``
compared field by field, in order, with a recorded copy (``command_tree.json``), so that moving
their code between modules changes nothing of names, options, descriptions, choices,
localisations or order.

A deliberate change of these commands rewrites the copy: run this file once with
``PUKLLAY_WRITE_COMMAND_TREE=1`` (the run fails, to say so), check the difference, commit it."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.e2e.conftest import BASE_EXTENSIONS

EXTENSIONS = (*BASE_EXTENSIONS, "cogs.league", "cogs.gates")
RECORDED = Path(__file__).with_name("command_tree.json")
COMPARED = ("league", "gate")
SERVER_FIELDS = ("id", "application_id", "guild_id", "version")
"""What Discord adds to a command it stores (not part of what the bot registers)."""


def registered(command: dict) -> dict:
    return {k: v for k, v in command.items() if k not in SERVER_FIELDS}


async def test_the_league_and_gate_commands_are_registered_as_recorded(standin, bot_factory):
    async with standin.run_client(bot_factory(EXTENSIONS)):
        await standin.wait_synced()
        commands = {c["name"]: registered(c) for c in standin.commands[standin.guild.id]}
    now = {name: commands[name] for name in COMPARED}
    if os.environ.get("PUKLLAY_WRITE_COMMAND_TREE"):
        RECORDED.write_text(json.dumps(now, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        raise AssertionError(f"{RECORDED.name} rewritten; check the difference and commit it")
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))
    assert list(now) == list(recorded)
    for name in COMPARED:
        assert (
            json.dumps(now[name], indent=1, ensure_ascii=False).splitlines()
            == json.dumps(recorded[name], indent=1, ensure_ascii=False).splitlines()
        ), f"/{name} differs from the recorded copy"
