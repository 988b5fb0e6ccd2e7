"""The Discord side of the table: everything that posts, answers or builds components.

Modules here may import ``discord``; the services they call (sessions, storage, notices, time)
may not.  The bot holds the parts in a :class:`front.Front`.  Modules, lowest first (each imports
only those before it):

- :mod:`written`: names as messages write them (markdown escaped; pure, imports no Discord);
- :mod:`channels`: the bot's permissions in a channel, who may view it, the game a click names;
- :mod:`attach`: pictures with alt text; :mod:`replies`: the guard, :func:`replies.guarded`,
  refusals and failure texts, private replies; :mod:`buttons`: the persistent components' base;
- :mod:`look`: boards drawn in a language and palette; :mod:`direct`: turn notices, DMs;
  :mod:`reminders`: the ``remind`` job, the games waiting on a person (``/game mine``, ``/play next``);
- :mod:`unposted`: a board Discord refused outside a command, logged, told and tried again;
- :mod:`boardpost`: one board post's values and its message; :mod:`boards`: the channel's board
  posts, a game's end and abandon told;
- :mod:`catchup`: the computers' turns that follow a board, and a game's channel caught up (at a
  start, the ``board`` job's try, after an outage);
- :mod:`lobby`, :mod:`menus` (private views and menus, moves), :mod:`history` (history pages),
  :mod:`export`, :mod:`undo`, :mod:`results` (results card and rematch), :mod:`clockvote`
  (timeouts decided by buttons);
- :mod:`front`: the holder; :mod:`gamecog`: the base of the five games' cogs; :mod:`options`:
  command options; :mod:`tableparts`: the bot as the parts see it; :mod:`removal`: what a server
  that removed the bot ends, at the event or at the next READY.
"""
