"""discord.py cogs: the table's shared commands and one cog per game."""
