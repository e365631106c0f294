"""An SMTP server for the mail tests (aiosmtpd): accepts every message on
127.0.0.1:PORT and writes each as a JSON file (envelope sender, recipients,
raw message, decoded text and HTML parts, inline images) into DIR. Prints "ready" once it listens; runs until killed.
With DELAY (seconds), it waits that long before accepting each message, like
a slow mail server.

    python smtp_sink.py PORT DIR [DELAY]
"""

import asyncio
import base64
import email
import email.policy
import itertools
import json
import os
import sys
import threading

from aiosmtpd.controller import Controller


class Sink:
    def __init__(self, directory, delay):
        self.directory = directory
        self.delay = delay
        self.count = itertools.count(1)

    async def handle_DATA(self, server, session, envelope):
        if self.delay:
            await asyncio.sleep(self.delay)
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        record = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": list(envelope.rcpt_tos),
            # The client's address and port: one per connection.
            "peer": "%s:%s" % tuple(session.peer[:2]),
            "data": envelope.content.decode("utf-8", errors="replace"),
        }
        for kind in ("plain", "html"):
            part = message.get_body(preferencelist=(kind,))
            record["text" if kind == "plain" else "html"] = part.get_content() if part else None
        # Parts the HTML shows by Content-ID (cid: URLs), such as the board.
        record["images"] = [
            {
                "content_id": part["Content-ID"],
                "content_type": part.get_content_type(),
                "disposition": part.get_content_disposition(),
                "data": base64.b64encode(part.get_payload(decode=True)).decode("ascii"),
            }
            for part in message.walk()
            if part["Content-ID"] is not None
        ]
        name = os.path.join(self.directory, "%06d.json" % next(self.count))
        # Written under another name first, so a reader never sees half a file.
        with open(name + ".tmp", "w", encoding="utf-8") as f:
            json.dump(record, f)
        os.replace(name + ".tmp", name)
        return "250 OK"


def main():
    port, directory = int(sys.argv[1]), sys.argv[2]
    delay = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
    os.makedirs(directory, exist_ok=True)
    # The name in the greeting given, not looked up: aiosmtpd would call
    # socket.getfqdn() for every connection, on the thread that serves all
    # of them, and a slow resolver would stall every client at once.
    controller = Controller(
        Sink(directory, delay), hostname="127.0.0.1", port=port, server_hostname="sink.test"
    )
    controller.start()
    print("ready", flush=True)
    # The controller serves from its own thread; this one waits to be killed.
    try:
        threading.Event().wait()
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
