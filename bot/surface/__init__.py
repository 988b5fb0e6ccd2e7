"""The Discord side of the table: everything that posts, answers or builds components.

Modules here may import ``discord``; the services they call (sessions, storage, notices, time)
may not.  Feature modules: :mod:`attach` (pictures with alt text), :mod:`direct` (direct
messages and their failures), :mod:`clockvote` (timeouts decided by buttons), :mod:`gamecog`
(the base of the five games' cogs), :mod:`options` (command options), :mod:`tableparts` (the
typed parts a cog may hold).
"""
