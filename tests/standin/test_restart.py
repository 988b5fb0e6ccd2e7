"""A client can be stopped and a new one started on the same stand-in state."""

from tests.standin.tinybot import TinyBot


async def test_persistent_buttons_work_on_old_messages_after_a_restart(standin):
    alice, bob, carol = standin.add_users("alice", "bob", "carol")
    chan = standin.channel("games")
    async with standin.run_client(TinyBot) as first:
        await standin.wait_synced()
        lobby = await standin.slash(alice, chan, "lobby", number=42)
        picks = await standin.slash(alice, chan, "pick")
        assert (await standin.click(bob, lobby.message, "lobby:join:42")).content == "bob joined lobby 42"
    assert first.is_closed()

    async with standin.run_client(TinyBot) as second:
        assert second is not first
        old = standin.messages(chan)[0]
        assert old is lobby.message and old.custom_ids == ["lobby:join:42"]
        r = await standin.click(carol, old, "Join")
        assert r.content == "carol joined lobby 42"
        picked = await standin.select(carol, picks.message, "pick", ["v1"])  # a persistent view (add_view)
        assert picked.message.content == "picked v1"
    assert len(standin.stats["ready"]) == 2


async def test_commands_stay_synced_across_restarts(standin):
    alice = standin.add_user("alice")
    chan = standin.guild.threads[0]
    async with standin.run_client(TinyBot):
        await standin.wait_synced()
        ids = {c["name"]: c["id"] for c in standin.commands[None]}
    async with standin.run_client(TinyBot):
        await standin.wait_synced()
        assert {c["name"]: c["id"] for c in standin.commands[None]} == ids
        r = await standin.slash(alice, chan, "game join")  # in a thread
        assert r.message.channel is chan and r.content == "alice joined"
