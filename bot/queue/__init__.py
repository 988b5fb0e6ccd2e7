"""The queue that forms games: who waits for what, the pure matcher (:mod:`bot.queue.match`), and
the reading of what people ask for (:mod:`bot.queue.wishes`), and the service that holds their
places, forms tables, asks them to confirm and starts them (:mod:`bot.queue.service`).  No Discord here: what must reach Discord goes through
:class:`bot.queue.service.Posts`, which :mod:`bot.surface.queue` implements.
"""
