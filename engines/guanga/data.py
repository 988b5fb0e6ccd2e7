"""Component data for Guanga: Tejidos Andinos, as plain constants.

Everything here is copied from the "Guanga" section of DECISIONS.md: the
patches, the workshop markers, the 40 market cards and the 10 orders (two cards' names with the
ñ that DECISIONS.md's plain-ASCII list leaves out: Poncho otavaleño, Cobija otavaleña).
"""

from __future__ import annotations

COLOURS = ("red", "blue", "yellow", "green")
SYMBOLS = ("chakana", "inti", "amaru", "kuntur", "rombo")
KINDS = len(COLOURS) * len(SYMBOLS)  # 20 patch kinds: kind = colour * 5 + symbol

PATCHES_PER_KIND = 6  # 120 patches in all
SOLO_PATCHES_PER_KIND = {"beginner": 2, "other": 3}  # 40 in solo Beginner, 60 otherwise

ROWS = "ABCDE"
SIZE = 5
CENTRE = 2 * SIZE + 2  # C3
BASKET_SIZE = 8

# Workshop: 2 markers per colour and per symbol, plus grey markers by player count.
MARKERS_PER_ATTRIBUTE = 2
GREY_MARKERS = {1: 0, 2: 0, 3: 1, 4: 2}
SOLO_MARKERS_PER_ATTRIBUTE = 1
# The end triggers when the visible markers drop to this number (multiplayer only).
END_VISIBLE_MARKERS = {2: 6, 3: 6, 4: 4}

# Market levels: A = Apprentice, G = Guardian, M = Master, B = Blankets.
LEVEL_NAMES = {"A": "Apprentice", "G": "Guardian", "M": "Master", "B": "Blanket"}
MARKET_LAYOUT = {
    "beginner": (("A", 3), ("G", 3), ("M", 3)),
    "apprentice": (("A", 4), ("G", 3), ("M", 2)),
    "master": (("A", 4), ("G", 3), ("M", 2), ("B", 2)),
    "artisan": (("A", 4), ("G", 3), ("M", 2), ("B", 2)),
}

# (id, name, flag, typology, VP, shape rows separated by "/", colour, symbol)
CARDS = (
    ("A01", "Chullo", "Peru", "Head", 5, "###", "red", "chakana"),
    ("A02", "Unku", "Peru", "Torso", 5, "##/#.", "blue", "inti"),
    ("A03", "Lluch'u", "Bolivia", "Head", 6, "#../.#./..#", "yellow", "amaru"),
    ("A04", "Aguayo", "Bolivia", "Torso", 7, "####", "green", "kuntur"),
    ("A05", "Uma watarina", "Ecuador", "Head", 7, "##/##", "red", "rombo"),
    ("A06", "Fachalina", "Ecuador", "Torso", 8, "#./#./##", "blue", "chakana"),
    ("A07", "Sombrero vueltiao", "Colombia", "Head", 8, "###/.#.", "yellow", "inti"),
    ("A08", "Ruana", "Colombia", "Torso", 9, ".##/##.", "green", "amaru"),
    ("A09", "Trarilonco", "Chile", "Head", 9, "#.#/.#.", "red", "kuntur"),
    ("A10", "Makun", "Chile", "Torso", 10, ".#./#.#/.#.", "blue", "rombo"),
    ("G01", "Lliclla", "Peru", "Torso", 10, "#####", "yellow", "chakana"),
    ("G02", "Ch'uspa", "Peru", "Ritual", 11, "#.../####", "green", "inti"),
    ("G03", "Tari", "Bolivia", "Ritual", 11, "##/##/#.", "red", "amaru"),
    ("G04", "Inkuna", "Bolivia", "Ritual", 12, "###/.#./.#.", "blue", "kuntur"),
    ("G05", "Poncho otavaleño", "Ecuador", "Torso", 12, "#.#/###", "yellow", "rombo"),
    ("G06", "Chalina de fiesta", "Ecuador", "Ritual", 13, "#../#../###", "green", "chakana"),
    ("G07", "Cusma", "Colombia", "Torso", 13, "#../##./.##", "red", "inti"),
    ("G08", "Mochila arhuaca", "Colombia", "Ritual", 14, "##./.#./.##", "blue", "amaru"),
    ("G09", "Tapiz ceremonial", "Chile", "Ritual", 14, ".#./###/.#.", "yellow", "kuntur"),
    ("G10", "Trarihue", "Chile", "Waist", 15, "#...#/.#.#./..#..", "green", "rombo"),
    ("M01", "Chumpi", "Peru", "Waist", 15, "###/###", "red", "chakana"),
    ("M02", "Pollera", "Peru", "Legs", 16, "####/##..", "blue", "inti"),
    ("M03", "Wak'a", "Bolivia", "Waist", 16, "###../..###", "yellow", "amaru"),
    ("M04", "Aksu", "Bolivia", "Legs", 17, "#.#/###/#.#", "green", "kuntur"),
    ("M05", "Mama chumbi", "Ecuador", "Waist", 17, ".#./###/.#./.#.", "red", "rombo"),
    ("M06", "Anaku", "Ecuador", "Legs", 18, "#.#.#/.#.#.", "blue", "chakana"),
    ("M07", "Mochila wayuu", "Colombia", "Ritual", 18, "#.../##../.##./..##", "yellow", "inti"),
    ("M08", "Chumbe", "Colombia", "Waist", 19, "###/.#./###", "green", "amaru"),
    ("M09", "Faja aymara", "Chile", "Waist", 19, "###/#.#/###", "red", "kuntur"),
    ("M10", "Chamal", "Chile", "Legs", 20, "..#../.#.#./#...#/.#.#./..#..", "blue", "rombo"),
    ("B01", "Frazada", "Peru", "Torso", 20, "####/####", "yellow", "chakana"),
    ("B02", "Qompi", "Peru", "Ritual", 21, "###/###/##.", "green", "inti"),
    ("B03", "Phullu", "Bolivia", "Waist", 22, "###/###/###", "red", "amaru"),
    ("B04", "Awayu de ceremonia", "Bolivia", "Head", 23, "#.#.#/.#.#./#.#.#", "blue", "kuntur"),
    ("B05", "Cobija otavaleña", "Ecuador", "Legs", 23, "##.../.##../..##./...##", "yellow", "rombo"),
    ("B06", "Macana", "Ecuador", "Torso", 25, "#####/#####", "green", "chakana"),
    ("B07", "Cobija de guanga", "Colombia", "Ritual", 26, "#.#.#/#####/#.#.#", "red", "inti"),
    ("B08", "Cobija pastusa", "Colombia", "Waist", 27, "..#../.#.#./#.#.#/.#.#./..#..", "blue", "amaru"),
    ("B09", "Lama", "Chile", "Head", 28, "#####/#...#/#####", "yellow", "kuntur"),
    ("B10", "Pontro", "Chile", "Legs", 30, "..#../..#../#####/..#../..#..", "green", "rombo"),
)

# Names the cards once had without their ñ (DECISIONS.md lists them in plain ASCII): a move's
# sentences stored then read the names as they are written now (``RENAMED``, engines.core).
RENAMED = {"Poncho otavaleno": "Poncho otavaleño", "Cobija otavalena": "Cobija otavaleña"}

# (id, flag, flag points, typology, typology points); each part needs 2 claimed items.
ORDERS = (
    ("O1", "Peru", 5, "Torso", 3),
    ("O2", "Bolivia", 5, "Ritual", 4),
    ("O3", "Ecuador", 5, "Waist", 5),
    ("O4", "Colombia", 5, "Head", 6),
    ("O5", "Chile", 5, "Legs", 7),
    ("O6", "Peru", 5, "Waist", 5),
    ("O7", "Bolivia", 5, "Head", 6),
    ("O8", "Ecuador", 5, "Legs", 7),
    ("O9", "Colombia", 5, "Torso", 3),
    ("O10", "Chile", 5, "Ritual", 4),
)
ORDER_PART_NEEDS = 2
ORDERS_DEALT = 2

SHELLS_AT_START = {"beginner": 0, "apprentice": 3, "master": 0, "artisan": 0}
SHELL_BUY_COST = {"apprentice": 1, "master": 3, "artisan": 3}
SHELL_REFRESH_COST = 1
SHELLS_PER_LINE = 2  # Master and Artisan: shells gained per complete row or column
SHELLS_PER_VP = {"apprentice": 1, "master": 2, "artisan": 2}

STOPPERS_PER_PLAYER = 2
STOPPERS_PER_GUANGA = 2

EMPTY_CELL_PENALTY = 2
COMPLETE_TILE_VP = 10

# Solo ranks: (minimum points, name), best first.  Exactly 120 counts as Artisan.
SOLO_RANKS = (
    (120, "Artisan (Artesana)"),
    (109, "Master (Maestra)"),
    (80, "Instructor (Instructora)"),
    (60, "Guardian (Guardiana)"),
    (40, "Aspirant (Aspirante)"),
)
SOLO_LOWEST_RANK = "Apprentice (Aprendiz)"
