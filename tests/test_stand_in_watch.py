"""The Slack stand-in's own record of where a call stopped: the kernel's view of its port
(connections not yet accepted, bytes not yet read) goes into its timeline once held a second,
so a failed wait on it says whether the call ever reached it."""

from __future__ import annotations

import socket
import sys
import time

import pytest

from mincards.playground.slack_stand_in import KernelWatch, Timeline
from tests.slack_emulator import wait_until

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads /proc/net/tcp (Linux)")


def test_a_connection_never_accepted_and_bytes_never_read_are_in_the_timeline() -> None:
    timeline = Timeline()
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen(8)
        port = listening.getsockname()[1]
        watch = KernelWatch(port, timeline)
        watch.start()
        try:
            waiting = socket.create_connection(("127.0.0.1", port))
            wait_until(lambda: "waiting to be accepted" in timeline.report(), 10,
                       "no accept-queue event")
            served, _ = listening.accept()
            line = b"POST /api/chat.postMessage HTTP/1.1\r\n"
            waiting.sendall(line)
            unread = f"has {len(line)} bytes the stand-in has not read"
            wait_until(lambda: unread in timeline.report(),
                       10, f"no unread-bytes event: {timeline.report()}")
            served.recv(1024)
            time.sleep(KernelWatch.HELD + 0.5)
            said = timeline.report().count(unread)
            assert said == 1  # said once, when first held a second
        finally:
            watch.stop()
            waiting.close()
            served.close()
