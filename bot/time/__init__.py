"""Time at the table, free of Discord.

- :mod:`bot.time.source`: the time source (the system clock, or a manual one in tests) and stamps.
- :mod:`bot.time.gameclock`: game clocks (per move, banks with increments), parsing and the
  arithmetic of time used and time away.
- :mod:`bot.time.pace`: how fast people play (used by reminders and the league).
- :mod:`bot.time.scheduler`: durable jobs (deadlines, reminders, league rounds) claimed by one
  process each.
- :mod:`bot.time.jobs`: every job kind, declared with its handler's owner and registered once
  at start-up.
- :mod:`bot.time.alive`: the process's sign of life, and the times the bot was out of service
  (left out of clocks, as time away is).
"""
