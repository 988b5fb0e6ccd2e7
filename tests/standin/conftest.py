from tests.standin.fixtures import discord_errors, standin, standin_options  # noqa: F401
