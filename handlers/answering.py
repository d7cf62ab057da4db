"""The core's work (reading a question, resolving it, rendering the reply) kept from holding up
the event loop.

The event loop acknowledges requests and talks to Slack. A question as people type it is read,
answered and rendered in about a millisecond: that runs in place, as a hop to a thread would
cost more than the work (measured: 15% more CPU per request under load). A long text (a pasted
log, or a member's 2,000 characters of numerals) goes to one worker thread, so a burst of those
delays their own answers, never an acknowledgement or /healthz (Slack gives 3 s, then redelivers
and shows the person an error). One thread: the work is under one GIL anyway, and the core's
per-reader memos are then only ever touched by the loop and that one thread, never at once
(each lookup or store in them is a single dict operation).
"""

from __future__ import annotations

import asyncio
import contextvars
import sys
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar, cast

from mincards.bot.answering.answer import Answer
from mincards.handlers import metrics
from mincards.handlers.tracing import span

T = TypeVar("T")
# While the worker holds the GIL, the event loop waits at most this long to get it back
# (Python's default is 5 ms; acknowledgements want it sooner).
SWITCH_SECONDS = 0.001
# Text up to this long is answered in place: every reading pass is linear, so its work is
# bounded at a couple of milliseconds (tests/test_bounds.py).
INLINE_CHARS = 500


# Replies kept rendered, for answers given again (the engine hands back the same Answer).
RENDERED_SIZE = 1024


class Answering:
    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mincards-answer")
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_SECONDS))
        # (id of the answer, how it is rendered) -> (that answer, the reply): the answer is
        # kept with its reply, so an id reused by another object never matches (`is`).
        self._rendered: OrderedDict[tuple[int, Hashable], tuple[Answer, Any]] = OrderedDict()

    async def render(self, answer: Answer, how: Hashable, work: Callable[[], T],
                     text: str = "") -> T:
        """`work` renders `answer` (see run); the same answer rendered the same way again is
        the reply already made. Callers never change a reply they are given."""
        key = (id(answer), how)
        known = self._rendered.get(key)
        if known is not None and known[0] is answer:
            self._rendered.move_to_end(key)
            return cast(T, known[1])
        reply = await self.run(work, text)
        self._rendered[key] = (answer, reply)
        if len(self._rendered) > RENDERED_SIZE:
            self._rendered.popitem(last=False)
        return reply

    async def run(self, work: Callable[[], T], text: str = "") -> T:
        """`work` about `text` (the question): in place when it is short, else on the worker
        (with this request's context: its log lines keep the request's ids)."""
        with span("answer", chars=len(text)):
            if len(text) <= INLINE_CHARS:
                return work()
            context = contextvars.copy_context()
            return await asyncio.get_running_loop().run_in_executor(self._pool, context.run,
                                                                    work)

    async def answer(self, work: Callable[[], Answer], text: str = "") -> Answer:
        """An answer (see run), counted by its intent."""
        answer = await self.run(work, text)
        metrics.answer(answer.intent)
        return answer

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
