"""The words of the Guanga board (:mod:`renderers.guanga`): the modes' names, what the seat
to move does, and the game's data drawn on the board, marked for translation."""

from __future__ import annotations

from engines.guanga.rules import View, extras
from renderers.translation import N_

MODE_NAMES = {
    "beginner": N_("Beginner"),
    "apprentice": N_("Apprentice"),
    "master": N_("Master"),
    "artisan": N_("Artisan"),
}
PHASE_TEXT = {  # what the seat to move does: "{name} takes the 1st patch"
    "order": N_("{name} choosing secret orders"),
    "place1": N_("{name} takes the 1st patch"),
    "place2": N_("{name} takes the 2nd patch"),
    "claim": N_("{name} may claim a market item"),
    "return": N_("{name} returns 2 patches of the claim"),
    "extra": N_("{name} places the blanket's extra patch"),
    "over": N_("{name}: game over"),
}
# The phases whose words name what the game gives besides patches, by (shells, stoppers)
# (:func:`engines.guanga.rules.extras`): a seat that cannot place, and one finishing its turn.
EXTRAS_TEXT = {
    "stuck": {
        (True, True): N_("{name} cannot place: shells, stoppers or pass"),
        (True, False): N_("{name} cannot place: shells or pass"),
        (False, True): N_("{name} cannot place: stoppers or pass"),
        (False, False): N_("{name} cannot place and passes"),
    },
    "after": {
        (True, True): N_("{name} may spend shells, put stoppers or end the turn"),
        (True, False): N_("{name} may spend shells or end the turn"),
        (False, True): N_("{name} may put stoppers or end the turn"),
        (False, False): N_("{name} ends the turn"),
    },
}


def phase_text(view: View) -> str:
    """What the seat to move does, with ``{name}`` for its name (a phase without words is named
    as it is)."""
    if view.phase in EXTRAS_TEXT:
        return EXTRAS_TEXT[view.phase][extras(view)]
    return PHASE_TEXT.get(view.phase, "{name} " + view.phase)


RETURN_TEXT = N_("{name} returns 2 patches of the claim (2 of {cells})")
# The words of the game's data drawn on the board (flags are country names; symbols and textile
# names are the textiles' own and are not translated).
DATA_WORDS = (
    N_("Head"),
    N_("Torso"),
    N_("Ritual"),
    N_("Waist"),
    N_("Legs"),
    N_("Peru"),
    N_("Bolivia"),
    N_("Ecuador"),
    N_("Colombia"),
    N_("Chile"),
    N_("Apprentice"),
    N_("Guardian"),
    N_("Master"),
    N_("Blanket"),
    N_("Artisan (Artesana)"),
    N_("Master (Maestra)"),
    N_("Instructor (Instructora)"),
    N_("Guardian (Guardiana)"),
    N_("Aspirant (Aspirante)"),
    N_("Apprentice (Aprendiz)"),
)
