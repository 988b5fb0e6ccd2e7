"""Interactions Discord's client would not send: forged custom_ids and raw option values.

The stand-in's ``click`` and ``slash`` only send what a real client can (a button
on the message, option values within the command's limits).  These helpers
build the interaction data by hand and hand it to the stand-in's dispatcher, so
the bot meets the values a modified client or a bug could produce.
"""

from __future__ import annotations

from typing import Any


class Crafted:
    """A real message as the forged interaction presents it: with a component of our choosing
    (discord.py, like Discord, only runs a component that the interaction's message carries)."""

    def __init__(self, message, component: dict[str, Any]):
        self.message = message
        self.component = component

    def __getattr__(self, name: str) -> Any:
        return getattr(self.message, name)

    def payload(self) -> dict[str, Any]:
        return {
            **self.message.payload(),
            "components": [{"type": 1, "id": 2, "components": [self.component]}],
        }


async def forged_click(standin, user, channel, custom_id: str, message):
    """``user`` clicks a button with ``custom_id`` on ``message`` in ``channel``, whatever the message holds."""
    data = {"custom_id": custom_id, "component_type": 2}
    crafted = Crafted(message, {"type": 2, "id": 1, "style": 2, "label": "x", "custom_id": custom_id})
    return await standin._interact(3, user, channel, data, message=crafted, label=f"forged {custom_id!r}")


async def forged_select(standin, user, channel, custom_id: str, values: list[str], message):
    data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
    options = [{"label": v, "value": v} for v in values]
    crafted = Crafted(message, {"type": 3, "id": 1, "custom_id": custom_id, "options": options})
    return await standin._interact(
        3, user, channel, data, message=crafted, label=f"forged select {custom_id!r}"
    )


async def forged_slash(standin, user, channel, path: str, /, **values: Any):
    """``user`` runs ``/path`` with these option values sent as they are (no range or choice check)."""
    parts = path.split()
    command = standin.command(parts[0])
    node, chain = command, []
    for part in parts[1:]:
        node = next(o for o in node.get("options") or [] if o["name"] == part)
        chain.append(node)
    schema = {o["name"]: o for o in node.get("options") or []}
    options: list[dict[str, Any]] = [
        {"name": name, "type": schema[name]["type"], "value": value} for name, value in values.items()
    ]
    for sub in reversed(chain):
        options = [{"name": sub["name"], "type": sub["type"], "options": options}]
    data: dict[str, Any] = {"id": str(command["id"]), "name": command["name"], "type": 1, "options": options}
    if command.get("guild_id"):
        data["guild_id"] = command["guild_id"]
    return await standin._interact(2, user, channel, data, label=f"forged /{path}")
