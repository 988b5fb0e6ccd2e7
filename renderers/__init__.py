"""Renderers: a game's view in, PNG bytes out.

Every game has one module here with the same pure function::

    render(view, *, names=None, last_action=None) -> bytes

``view`` is the engine's ``view_for(state, seat)``: a spectator's view (``seat`` None) gives
the public board, a seat's view adds that player's private picture (hand, secret order, own
village), the own seat drawn larger.  ``names`` are the seats' names (``Player 1``... when
missing).  ``last_action`` is the last turn's public action in words ("Ana laid a dish of
three 5s, +4"), shown in the header; the caller derives it from the public event lines of the
last turn (never a private move's notation).  Each module also has ``draw_board`` (the same
arguments, returning the Pillow image before encoding) and ``PIECE_COLOURS`` (the colours of
its pieces, which no seat colour may resemble).

The shared visual language is in modules named for what they hold: :mod:`renderers.colours`
(the shared colours, the seats' colours and shapes, colour keys and their second cues, high
contrast), :mod:`renderers.translation` (the language of a render: ``speaking``, ``tr``,
``say``), :mod:`renderers.typeset` (fonts, text that fits its box, cached art),
:mod:`renderers.shapes` (the canvas, seat marks, the last-turn mark), :mod:`renderers.layout`
(the header, the score strip, the ranking box), :mod:`renderers.encoding` (the PNG step) and
:mod:`renderers.entrypoints` (``render`` and ``draw_board`` from a game's drawing function);
each imports only those before it in that list.  Renderers never import discord; the table
runs them in a thread.  ``python -m renderers.gallery DIR`` draws every
game at its start, middle and end for looking at; ``bench/render.py`` times them.
"""
