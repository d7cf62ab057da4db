"""Slack markup in, safe text out."""

from __future__ import annotations

import pytest

from mincards.bot.replies.slack_text import code, escape, from_slack


@pytest.mark.parametrize(("raw", "read"), [
    ("<@UBOT> qwen 2.5 72b lora 8k?", "qwen 2.5 72b lora 8k?"),
    ("<@UBOT|mincards> qwen", "qwen"),
    ("<https://huggingface.co/Qwen/Qwen2.5-72B-Instruct|huggingface.co/Qwen/Qwen2.5-72B-Instruct>",
     "https://huggingface.co/Qwen/Qwen2.5-72B-Instruct"),
    ("qwen &amp; llama &lt;3", "qwen & llama <3"),
    ("<!channel> <!here> <!subteam^S123|@team> glm4", "glm4"),
    ("in <#C123|general> qwen3", "in  general  qwen3"),
    ("&lt;!channel&gt;", "<!channel>"),
])
def test_from_slack(raw: str, read: str) -> None:
    assert " ".join(from_slack(raw, "UBOT").split()) == " ".join(read.split())


def test_escape_and_code_cannot_form_markup() -> None:
    assert escape("<!channel> & <@U1>") == "&lt;!channel&gt; &amp; &lt;@U1&gt;"
    assert code("a`b<!here>") == "`a'b&lt;!here&gt;`"
