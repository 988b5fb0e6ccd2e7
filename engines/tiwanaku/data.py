"""Component data for Tiwanaku, kept in one place so it can be corrected later."""

from __future__ import annotations

from engines.core import term

ROWS = 5
ROW_LETTERS = "ABCDE"
SHORT_COLS = 5
LONG_COLS = 9

# Terrain letters and names (the four land tiles and the four kinds of offering cubes); the names
# are words of the game, translated where they are shown.
TERRAINS = ("S", "D", "M", "F")
TERRAIN_NAMES = {
    "S": term("tiwanaku term", "swamp"),
    "D": term("tiwanaku term", "desert"),
    "M": term("tiwanaku term", "mountain"),
    "F": term("tiwanaku term", "forest"),
}

MAX_REGION = 5  # regions hold 1 to 5 cells, crops are 1..5
SCALE_TOP = 5  # diversity scales have levels 1..5 (stones start below, at 0)
MAX_CUBES = 4  # offering cubes a player may hold

# Cells revealed at the start (terrain and crop), per board width.
REVEALED_CELLS = {SHORT_COLS: 3, LONG_COLS: 6}

# Explorers per player, by player count.
EXPLORERS = {1: 5, 2: 5, 3: 4, 4: 3}
