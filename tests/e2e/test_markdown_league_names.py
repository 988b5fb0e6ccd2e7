"""A league's posts and answers show a player's or a league's name holding Discord markdown as
written: escaped where Discord formats the text (a message, a forum post's first message), as
written where it shows plain text (a thread's or a forum post's title, an event's name)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import damage
from tests.e2e.leagues import DAY, EXTENSIONS, fire, guacamole_with_substitute, one_round_league
from tests.e2e.test_markdown_names import ODD, read, shows_name, unpaired
from tests.e2e.test_threads import moderator_deletes

GAMES = (*EXTENSIONS, "cogs.guacamole")
CUP = "**Cup* __x"
"""A league's name with markdown in it: bold and underline marks, unmatched."""
SOL = "__Sol__ ||Q"
"""A second marked display name (the stand-in title-cases names: this one is its own title case)."""


async def answer(standin, user, chan, command: str, **options) -> str:
    return (await (await standin.slash(user, chan, command, **options)).original()).content


async def test_a_rounds_post_its_forum_post_and_a_deleted_tables_news_write_names_as_written(
    standin, bot_factory, table_clock
):
    """The round's post in the league's channel lists each table's players; the table's forum
    post starts with its title in bold and its players; the organiser is told whose table's post
    was deleted: each writes the marked name and the marked league name escaped (they were put in
    as written, and "**Bo*B" formatted the rest of the post).  The post's title and the round's
    event name are plain text: they keep the names as written."""
    standin.wall = table_clock.time  # Discord's time is the bot's
    odd, bob = standin.add_users(ODD, "bob")
    chan, owner = standin.channel("games"), standin.owner
    forum = standin.add_forum("league-tables", ["waiting", "playing", "done"])
    async with standin.run_client(bot_factory(GAMES)) as bot:
        await standin.wait_synced()
        created = await answer(
            standin, owner, chan, "league create", name=CUP, game="guacamole", format="swiss",
            players=2, rounds=1, days=1,
        )  # fmt: skip
        assert shows_name(created, CUP), created
        for user in (odd, bob):
            await answer(standin, user, chan, "league join")
        assert "is a post in" in await answer(standin, owner, chan, "league organiser forum", forum=forum)
        await answer(standin, owner, chan, "league start")
        await fire(bot)
        (opened,) = [m.content for m in standin.messages(chan) if "Table 1:" in m.content]
        assert shows_name(opened, ODD) and shows_name(opened, CUP) and not unpaired(opened), opened
        (post,) = [t for t in standin.guild.threads if t.parent_id == forum.id]
        assert post.name == f"{CUP} · round 1 · table 1"  # a title: plain text, as written
        first = standin.messages(post)[0].content
        assert read_title(first) == f"{CUP} · round 1 · table 1", first
        assert shows_name(first, CUP) and shows_name(first, ODD) and not unpaired(first), first
        (event,) = standin.events()
        assert event.name == f"{CUP}: round 1 of 1"  # plain text, as written
        await moderator_deletes(standin, post)
        (told,) = [m.content for m in standin.messages(chan) if "was deleted" in m.content]
        assert shows_name(told, ODD) and shows_name(told, CUP) and not unpaired(told), told


def read_title(content: str) -> str:
    """The bold title opening a forum post's first message, as Discord shows it."""
    first = content.splitlines()[0]
    assert first.startswith("**") and first.endswith("**"), first
    return read(first[2:-2])


async def test_the_sign_up_answers_write_a_marked_name_as_written(standin, bot_factory):
    """The organiser signs a member with a marked name up, again, off, and off again: each
    answer names them as written; and a late sign-up's answer names the member joining late so
    too (those answers put the name in as it was, and "**Bo*B" formatted the rest of them)."""
    odd, sol, bob, cy = standin.add_users(ODD, SOL, "bob", "cy")
    chan, owner = standin.channel("games"), standin.owner
    async with standin.run_client(bot_factory(GAMES)) as bot:
        await standin.wait_synced()
        await answer(
            standin, owner, chan, "league create", name="Avocado", game="guacamole", format="swiss",
            players=2, rounds=4, days=1,
        )  # fmt: skip
        said = []
        for command in ("add", "add", "remove", "remove"):
            said.append(await answer(standin, owner, chan, f"league organiser {command}", member=odd))
        assert [p in said[i] for i, p in enumerate(("signed up", "already", "left", "not signed up"))] == [
            True
        ] * 4, said
        for text in said:
            assert shows_name(text, ODD) and not unpaired(text), text
        for user in (bob, cy):
            await answer(standin, user, chan, "league join")
        await answer(standin, owner, chan, "league start")
        await fire(bot)
        late = await answer(standin, sol, chan, "league join")
        assert "late" in late and shows_name(late, SOL) and not unpaired(late), late


async def test_a_substitutes_seat_post_and_the_round_name_the_players_as_written(
    standin, bot_factory, table_clock
):
    """The organiser drops a player with a marked name and a substitute with a marked name
    takes the seat: the game's post saying so, and ``/league round`` listing the table (the
    substitute, for whom they play), write both names as written (they were put in as the seats
    had them, and the marks formatted the rest of the post)."""
    odd, bob, cy, sol = standin.add_users(ODD, "bob", "cy", SOL)
    chan, owner = standin.channel("games"), standin.owner
    async with standin.run_client(bot_factory(GAMES)) as bot:
        await standin.wait_synced()
        _, session = await guacamole_with_substitute(standin, bot, chan, [odd, bob, cy], sol)
        thread = standin.channel(session.row.channel_id)
        await answer(standin, owner, chan, "league organiser drop", member=odd)
        (post,) = [m.content for m in standin.messages(thread) if "seat and plays on" in m.content]
        assert shows_name(post, ODD) and not unpaired(post), post
        now = await answer(standin, bob, chan, "league round")
        assert shows_name(now, ODD) and shows_name(now, SOL) and not unpaired(now), now


async def test_the_organiser_roles_answer_writes_a_marked_role_name_as_written(standin, bot_factory):
    """The server's owner makes a role named with markdown the organisers' role: the answer names
    it as written, its marks formatting nothing."""
    role = standin.add_role("**Org __x")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(GAMES)):
        await standin.wait_synced()
        said = await answer(standin, standin.owner, chan, "league settings organiser_role", role=role)
    assert "can now run leagues" in said and shows_name(said, "**Org __x") and not unpaired(said), said


async def test_a_refusal_quoting_a_league_name_writes_it_as_written(standin, bot_factory):
    """A league name quoted in a refusal (a name taken already, a league not found, the leagues
    there are) formats nothing: it was quoted as typed, and "**Cup*" made the rest bold."""
    chan, owner = standin.channel("games"), standin.owner
    async with standin.run_client(bot_factory(GAMES)):
        await standin.wait_synced()
        options = dict(game="guacamole", format="swiss", players=2, rounds=1, days=1)
        await answer(standin, owner, chan, "league create", name=CUP, **options)
        taken = await answer(standin, owner, chan, "league create", name=CUP, **options)
        spaced = CUP.replace(" ", "  ")  # the same name once its spaces are collapsed
        alike = await answer(standin, owner, chan, "league create", name=spaced, **options)
        missing = await answer(standin, owner, chan, "league join", league="__Copa")
    assert "already" in taken and shows_name(taken, f"'{CUP}'") and not unpaired(taken), taken
    assert "looks the same" in alike and shows_name(alike, f"'{spaced}'"), alike
    assert not unpaired(alike), alike
    assert "no league called" in missing and shows_name(missing, "'__Copa'"), missing
    assert shows_name(missing, CUP) and not unpaired(missing), missing


@pytest.mark.parametrize("discord_error_loggers", [("discord",)])  # the damage is logged, as it should
async def test_the_news_of_a_damaged_table_writes_a_marked_name_as_written(standin, bot_factory, table_clock):
    """A league game that is damaged cannot be finished at its round's deadline: the organiser is
    told which table, naming its players as written (the names were put in as they were)."""
    odd, bob = standin.add_users(ODD, "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(GAMES)) as bot:
        await standin.wait_synced()
        _, session = await one_round_league(standin, bot, chan, (odd, bob), game="guacamole", players=2)
        damage(bot, session.id)
        table_clock.advance(DAY)
        await fire(bot)
        (told,) = [m.content for m in standin.messages(chan) if "could not be finished" in m.content]
    assert shows_name(told, ODD) and not unpaired(told), told


async def test_an_undo_refusal_names_who_held_the_seat_at_that_move_as_written(standin, bot_factory):
    """A Nowa Gwinea league game: Bob says done, the marked name's "done" ends the round (the
    villages revealed, the die rolled), then the marked name is dropped and a substitute takes
    the seat.  Bob's undo is refused for that move, naming the marked name (whose move it was,
    not the substitute's), as written."""
    odd, bob, sol = standin.add_users(ODD, "bob", SOL)
    chan, owner = standin.channel("games"), standin.owner
    async with standin.run_client(bot_factory((*GAMES, "cogs.nowa_gwinea"))) as bot:
        await standin.wait_synced()
        await answer(
            standin, owner, chan, "league create", name="Huts", game="nowa_gwinea", format="swiss",
            players=2, rounds=1, days=3,
        )  # fmt: skip
        for user in (odd, bob):
            await answer(standin, user, chan, "league join")
        await answer(standin, owner, chan, "league organiser substitute", action="add", member=sol)
        await answer(standin, owner, chan, "league start")
        await fire(bot)
        league = (await bot.store.leagues.of_server(standin.guild.id))[0]
        (game,) = await bot.store.leagues.league_games(league.id, 1)
        thread = standin.channel((await bot.sessions.core.get(game.session_id)).row.channel_id)
        await answer(standin, bob, thread, "nowa_gwinea move", move="done")
        await answer(standin, odd, thread, "nowa_gwinea move", move="done")
        await answer(standin, owner, chan, "league organiser drop", member=odd)
        session = await bot.sessions.core.get(game.session_id)
        assert session.state.round == 2 and sol.id in {s.user_id for s in session.seats}
        refused = await answer(standin, bob, thread, "game undo")
    assert "revealed something hidden" in refused, refused
    assert shows_name(refused, ODD) and SOL not in read(refused) and not unpaired(refused), refused
