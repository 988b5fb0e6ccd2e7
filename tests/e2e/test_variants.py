"""Which variant a game is played with, where players look for it: a league's sign-up message and
``/league round`` name its games' options, and a Guanga table always names its mode (the four
modes are four games: "standard rules" would not say which); the queue seats people by the
options they wait for, and its tables are played with them."""

from __future__ import annotations

import engines
from bot.app import EXTENSIONS
from engines.core import config_from_options
from tests.e2e.conftest import BASE_EXTENSIONS
from tests.e2e.leagues import EXTENSIONS as LEAGUE_EXTENSIONS
from tests.e2e.leagues import fire


async def test_a_league_names_its_games_options_at_sign_up_and_in_its_rounds(standin, bot_factory):
    owner = standin.owner
    alice, bob = standin.add_user("alice"), standin.add_user("bob")
    chan = standin.channel("general")
    async with standin.run_client(bot_factory(LEAGUE_EXTENSIONS)) as bot:
        await standin.wait_synced()
        created = await standin.slash(
            owner, chan, "league create", {"options": "mode=master"},
            name="Weave", game="guanga", format="swiss", players=2, rounds=1, days=1,
        )  # fmt: skip
        assert "Options: master mode" in created.message.content, created.message.content
        plain = await standin.slash(
            owner, chan, "league create", name="Plain", game="tiwanaku", format="swiss", players=2,
            rounds=1, days=1,
        )  # fmt: skip
        assert "Options: standard rules" in plain.message.content, plain.message.content
        for user in (alice, bob):
            await (await standin.slash(user, chan, "league join", league="Weave")).original()
        await (await standin.slash(owner, chan, "league start", league="Weave")).original()
        await fire(bot)
        league = next(x for x in await bot.store.leagues.of_server(standin.guild.id) if x.name == "Weave")
        (game,) = await bot.store.leagues.league_games(league.id, 1)
        session = await bot.sessions.core.get(game.session_id)
        assert session.row.options["mode"] == "master"
        closed = [m.content for m in standin.messages(chan) if "Sign-ups are closed" in m.content]
        assert closed and "Options: master mode" in closed[-1], closed
        shown = (await (await standin.slash(alice, chan, "league round", league="Weave")).original()).content
        assert "Options: master mode" in shown, shown


async def test_a_guanga_table_names_its_mode_even_the_default_one(standin, bot_factory):
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        lobby = await standin.slash(alice, chan, "guanga new", thread=False, players=2)
        text = (await lobby.original()).content
        assert "Options: beginner mode\n" in text, text
        await (await standin.slash(alice, chan, "game computer")).original()
        await (await standin.slash(alice, chan, "game start")).original()
        await standin.settle()
        status = (await (await standin.slash(alice, chan, "game status")).original()).content
        assert "Options: beginner mode\n" in status, status
        assert (await bot.sessions.core.in_channel(chan.id)).status == "active"


async def test_the_queue_seats_people_by_the_options_they_wait_for(standin, bot_factory):
    """/queue join options: two people waiting for P'achakuna on plan B sit together, in a game on
    plan B whose post names it; one waiting for the defaults waits on, and /queue list says what
    each waits for."""
    owner = standin.owner
    ana, beto, cusi = standin.add_users("ana", "beto", "cusi")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory((*BASE_EXTENSIONS, "cogs.queue"))) as bot:
        await standin.wait_synced()
        await (await standin.slash(owner, chan, "queue channel", channel=chan)).original()
        before = {t.id for t in standin.guild.threads}
        joined = await standin.slash(
            ana, chan, "queue join", {"options": "board=B"}, game="pachakuna", start="now"
        )
        assert "(options: assembly plan B)" in (await joined.original()).content
        await (await standin.slash(beto, chan, "queue join", game="pachakuna", start="now")).original()
        listed = (await (await standin.slash(cusi, chan, "queue list")).original()).content
        assert "(options: assembly plan B)" in listed.splitlines()[1], listed
        assert "options" not in listed.splitlines()[2], listed
        third = await standin.slash(
            cusi, chan, "queue join", {"options": "board=b"}, game="pachakuna", start="now"
        )
        assert "(options: assembly plan B)" in (await third.original()).content
        await bot.front.replies.idle()  # the queue matches after answering
        (thread,) = [t for t in standin.guild.threads if t.id not in before]
        session = await bot.sessions.core.latest(thread.id)
        assert {s.name.lower() for s in session.seats} == {"ana", "cusi"}
        assert session.status == "active" and session.row.options["board"] == "B"
        assert "Options: assembly plan B" in standin.messages(thread)[0].content
        (waiting,) = await bot.store.queue.entries(standin.guild.id)
        assert waiting.user_id == beto.id


async def test_a_new_nowa_gwinea_table_refuses_hard_seats_beside_the_hard_side(standin, bot_factory):
    """side hard already deals every seat the hard side: hard_seats beside it names nobody, so a new
    table refuses the pair, privately, saying what to do; nothing is stored.  A game stored with
    both (opened before this check) still loads."""
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        r = await standin.slash(alice, chan, "nowa_gwinea new", thread=False, side="hard", hard_seats="1")
        text = (await r.original()).content if r.deferred else r.content
        assert (
            r.ephemeral
            and "With side hard every seat already plays the hard side, so hard_seats adds nobody" in text
        ), text
        assert "leave hard_seats out, or keep side standard and list in hard_seats" in text, text
        assert await bot.sessions.core.in_channel(chan.id) is None
        ok = await standin.slash(alice, chan, "nowa_gwinea new", thread=False, hard_seats="1")
        assert not ok.ephemeral
    module = engines.get("nowa_gwinea").load()
    stored = config_from_options(module.Config, 2, {"side": "hard", "hard_seats": "1"})
    assert stored.side_of(0) == stored.side_of(1) == "B"
