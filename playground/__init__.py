"""The playground: the real app (`mincards serve`, untouched) against a local Slack stand-in on
loopback, with a page that looks and behaves enough like a Slack client to try every surface
without a workspace. Slack's side only: nothing in bot/ or handlers/ is patched."""
