"""A config.json pasted into a message as a code block: taken out of the question's text (its
words are not the question's) and handed to the estimator."""

from __future__ import annotations

# A pasted configuration is looked for in this much of a message (a config.json is a few KB).
MAX_PASTED = 200_000
FENCE = "```"


def pasted_config(text: str) -> tuple[str, str | None]:
    """(the message without it, the config.json pasted in it as a code block (```{...}```) or
    None): the first block that holds a JSON object, found by scanning for the fences in
    linear time."""
    start = text.find(FENCE, 0, MAX_PASTED)
    while start != -1:
        end = text.find(FENCE, start + len(FENCE), MAX_PASTED)
        if end == -1:
            break
        body = text[start + len(FENCE):end].strip()
        if body.startswith("json"):
            body = body[len("json"):].strip()
        if body.startswith("{") and body.endswith("}"):
            return text[:start] + " " + text[end + len(FENCE):], body
        start = text.find(FENCE, end + len(FENCE), MAX_PASTED)
    return text, None
