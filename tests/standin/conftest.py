from tests.standin.fixtures import discord_error_loggers, discord_errors, standin, standin_options  # noqa: F401
