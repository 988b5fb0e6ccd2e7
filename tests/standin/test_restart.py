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


async def test_a_bad_command_tree_fails_the_start_with_the_reason(standin):
    import discord
    import pytest

    from tests.standin import Violation

    class BadTree(TinyBot):
        async def setup_hook(self) -> None:
            cmd = discord.app_commands.Command(name="ok", description="d", callback=self._noop)
            cmd.description = "d" * 101  # past discord.py's own check, as a typo in a locale file could be
            self.tree.add_command(cmd)
            await self.tree.sync()

        async def _noop(self, interaction: discord.Interaction) -> None:
            pass

    with pytest.raises(Violation, match=r"/ok description is 101 long \(limit 100\)"):
        async with standin.run_client(BadTree):
            pass
    standin.raise_failures()  # the bot's failed setup_hook is a consequence, already reported


async def test_a_client_that_crashes_fails_the_next_wait(standin):
    import pytest

    from tests.standin import ClientStopped

    async with standin.run_client(TinyBot):
        await standin.wait_synced()
        await standin.disconnect(code=4004)  # "Authentication failed": discord.py gives up
        with pytest.raises(ClientStopped, match="closed with 4004"):
            await standin.wait_for(lambda: False, what="anything", timeout=2)


async def test_the_client_resumes_after_the_gateway_drops(standin):
    alice = standin.add_user("alice")
    chan = standin.guild.text_channels[0]
    async with standin.run_client(TinyBot):
        await standin.wait_synced()
        await standin.disconnect(code=4000)
        await standin.wait_connected()
        assert standin.resumes == 1
        assert (await standin.slash(alice, chan, "game join")).content == "alice joined"
