"""The table: settings, storage, sessions and the Discord plumbing every game shares."""
