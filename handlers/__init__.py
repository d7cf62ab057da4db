"""Thin Slack Bolt adapters: event text in, the core's rendered answer out. One module a surface."""
