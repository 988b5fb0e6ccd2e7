"""Benchmarks: scripts run as ``python bench/<name>.py`` that print figures."""
