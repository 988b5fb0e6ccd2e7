"""Renderers: a game's view in, PNG bytes out.

Each game has one module here exposing ``render(view, *, names=None) -> bytes``.
A spectator's view (``seat is None``) gives the public board; a seat's view
gives that player's private picture (hand, secret order, own village) as well.
Renderers are pure and never import discord; the table runs them in a thread.
"""
