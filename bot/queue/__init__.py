"""The queue that forms games: who waits for what, the pure matcher (:mod:`bot.queue.match`), the
reading of what people ask for (:mod:`bot.queue.wishes`), the tables formed from the people
waiting, asked to confirm and started (:mod:`bot.queue.tables`), and the service that holds
their places (:mod:`bot.queue.service`).  No Discord here: what must reach Discord goes through
:class:`bot.queue.tables.Posts`, which :mod:`bot.surface.queue` implements.
"""
