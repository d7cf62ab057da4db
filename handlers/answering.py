"""The core's work (reading a question, resolving it, rendering the reply) off the event loop.

The event loop acknowledges requests and talks to Slack; a question's answer is worked out on
one worker thread, so a burst of heavy questions delays those answers, never an
acknowledgement or /healthz (Slack gives 3 s, then redelivers and shows the person an error).
One thread: the answers are CPU work under one GIL, so more threads would add switching and
no throughput, and the core's per-reader memos are then only ever touched by one thread.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from mincards.bot.answering.answer import Answer
from mincards.handlers import metrics

T = TypeVar("T")
# While the worker holds the GIL, the event loop waits at most this long to get it back
# (Python's default is 5 ms; acknowledgements want it sooner).
SWITCH_SECONDS = 0.001


class Answering:
    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mincards-answer")
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_SECONDS))

    async def run(self, work: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, work)

    async def answer(self, work: Callable[[], Answer]) -> Answer:
        """An answer worked out on the worker, counted by its intent."""
        answer = await self.run(work)
        metrics.answer(answer.intent)
        return answer

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
