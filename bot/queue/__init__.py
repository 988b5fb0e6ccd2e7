"""The queue that forms games: who waits for what, the pure matcher (:mod:`bot.queue.match`), the
reading of what people ask for (:mod:`bot.queue.wishes`), the service that holds their places
(:mod:`bot.queue.service`), and the part of it that forms tables from the people waiting, asks
them to confirm and starts them (:class:`bot.queue.tables.Tables`, which the service holds and
calls).  No Discord here: what must reach Discord goes through :class:`bot.queue.tables.Posts`,
which :mod:`bot.surface.queue` implements.
"""
