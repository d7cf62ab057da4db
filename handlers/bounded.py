"""A blocking call given a deadline: run on a daemon thread, so that a call that never returns
(a Hub that never answers, a connection that holds) neither outlives its deadline for the
caller nor keeps the process from exiting."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import TypeVar

T = TypeVar("T")


def within(work: Callable[[], T], seconds: float, name: str) -> T:
    """work()'s result, or the exception it raised; TimeoutError when it has not finished in
    `seconds` (it goes on, unwatched, on its thread)."""
    done: Future[T] = Future()

    def run() -> None:
        try:
            done.set_result(work())
        except BaseException as exc:  # the caller says it, in one line
            done.set_exception(exc)

    threading.Thread(target=run, name=name, daemon=True).start()
    return done.result(timeout=seconds)
