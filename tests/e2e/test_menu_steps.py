"""Going down a big menu step by step through Discord: one select a step, Back to the step before."""

from __future__ import annotations

from bot.app import EXTENSIONS
from tests.e2e.conftest import menu_groups, menu_moves
from tests.e2e.players import is_board, pachakuna_started


async def test_pachakuna_row_then_tile_then_turn_and_back(standin, bot_factory):
    """P'achakuna's opening rotations: the rows of tiles, a row's tiles, a tile's turns; Back from
    a tile returns to its row's tiles, "All moves" from the row to the whole menu; a turn plays."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        mover, _ = await pachakuna_started(standin, bot, chan, alice, bob, seed=2026)
        board = [m for m in standin.messages(chan) if is_board(m) and not m.deleted][-1]

        async def choose(menu, value: str):
            edits = menu.edits
            (select,) = menu.selects
            result = await standin.select(mover, menu, select["custom_id"], [value])
            return await result.original(lambda m: m.edits > edits)

        async def press(menu, label: str):
            edits = menu.edits
            result = await standin.click(mover, menu, label)
            return await result.original(lambda m: m.edits > edits)

        menu = await (await standin.click(mover, board, "Play")).original()
        assert len(menu.selects) == 1 and len(menu.selects[0]["options"]) <= 25
        rows = [v for v in menu_groups(menu) if v.startswith("g:rotate:")]
        assert "g:rotate:4" in rows, rows

        row = await choose(menu, "g:rotate:4")
        tiles = list(menu_groups(row))
        assert len(row.selects) == 1 and tiles and all(v.startswith("g:rotate:4/4") for v in tiles), tiles
        assert "All moves" in {b.get("label") for b in row.buttons}

        tile = await choose(row, tiles[0])
        turns = [m for m in menu_moves(tile) if m.startswith("r4")]
        assert len(tile.selects) == 1 and 1 < len(turns) <= 25, turns
        back = next(b for b in tile.buttons if b.get("label") == "Back")
        assert back["custom_id"].endswith(":rotate:4")

        again = await press(tile, "Back")
        assert list(menu_groups(again)) == tiles
        whole = await press(again, "All moves")
        assert [v for v in menu_groups(whole) if v.startswith("g:rotate:")] == rows

        tile = await choose(await choose(whole, "g:rotate:4"), tiles[0])
        custom_id, value = menu_moves(tile)[turns[1]]
        edits = tile.edits
        played = await standin.select(mover, tile, custom_id, [value])
        answer = await played.original(lambda m: m.edits > edits)
        assert f"You played `{turns[1]}`" in answer.text, answer.text
