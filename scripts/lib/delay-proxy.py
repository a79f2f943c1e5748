#!/usr/bin/env python3
"""A TCP proxy that puts a slow network between the benchmark's tools and its servers.

This kernel has no netem, so `scripts/bench --rtt MS` puts every server behind this proxy
instead. Per connection and per direction, every byte is delivered a fixed one-way delay
(half the round trip) after it arrived, in order, never lost or reordered; an optional
bandwidth cap serialises each direction as a link of that rate would (a piece leaves when
the link has sent what came before it). A new connection's first bytes towards the server
wait one round trip more, as a TCP handshake would make the client wait before it sends.

  delay-proxy.py --rtt-ms 20 [--rate-mbit 100] [--ready-file F] LISTEN:TARGET [LISTEN:TARGET ...]

LISTEN and TARGET are ports on 127.0.0.1; LISTEN 0 picks a free port. When every listener is
up, one line per mapping, `LISTEN TARGET` (the ports actually bound), is written to the
ready file (or standard output), and the proxy runs until it is killed.
"""

import argparse
import asyncio
import os
import sys
import time

CHUNK = 256 * 1024
# At most this many pieces wait in each direction of a connection (up to 16 MiB): beyond that
# the proxy stops reading, and the sender's TCP window fills, as on a real path.
QUEUE_PIECES = 64


class Direction:
    """One direction of one connection: reads pieces, delivers each at its time."""

    def __init__(self, reader, writer, delay, rate, not_before):
        self.reader = reader
        self.writer = writer
        self.delay = delay
        self.rate = rate  # bytes per second, or 0 for no cap
        self.link_free = not_before  # when the modelled link has sent everything before
        self.queue = asyncio.Queue(maxsize=QUEUE_PIECES)

    def due(self, size):
        """When a piece of `size` bytes that arrives now reaches the other side."""
        now = time.monotonic()
        start = max(now, self.link_free)
        self.link_free = start + (size / self.rate if self.rate else 0.0)
        return self.link_free + self.delay

    async def receive(self):
        try:
            while True:
                data = await self.reader.read(CHUNK)
                await self.queue.put((self.due(len(data)), data))
                if not data:
                    return
        except (ConnectionError, OSError):
            await self.queue.put((time.monotonic(), None))

    async def deliver(self):
        try:
            while True:
                due, data = await self.queue.get()
                wait = due - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                if data is None:  # the other side reset: drop this side too
                    self.writer.transport.abort()
                    return
                if not data:  # a clean end: pass the half-close on
                    if self.writer.can_write_eof():
                        self.writer.write_eof()
                    return
                self.writer.write(data)
                await self.writer.drain()
        except (ConnectionError, OSError):
            self.writer.transport.abort()


async def handle(client_reader, client_writer, target, delay, rate):
    accepted = time.monotonic()
    try:
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", target)
    except OSError:
        client_writer.transport.abort()
        return
    upstream = Direction(client_reader, server_writer, delay, rate, not_before=accepted + 2 * delay)
    downstream = Direction(server_reader, client_writer, delay, rate, not_before=accepted)
    await asyncio.gather(upstream.receive(), upstream.deliver(), downstream.receive(), downstream.deliver())
    for writer in (client_writer, server_writer):
        writer.close()


async def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rtt-ms", type=float, required=True, help="the round trip added, in milliseconds")
    parser.add_argument("--rate-mbit", type=float, default=0, help="the bandwidth per connection and direction (0: none)")
    parser.add_argument("--ready-file", help="where the bound ports are written (default: standard output)")
    parser.add_argument("mappings", nargs="+", help="LISTEN:TARGET port pairs on 127.0.0.1")
    args = parser.parse_args()
    delay = args.rtt_ms / 2000.0
    rate = args.rate_mbit * 1_000_000 / 8
    servers, lines = [], []
    for mapping in args.mappings:
        listen, target = (int(part) for part in mapping.split(":"))
        server = await asyncio.start_server(
            lambda r, w, target=target: handle(r, w, target, delay, rate), "127.0.0.1", listen, backlog=512)
        servers.append(server)
        lines.append(f"{server.sockets[0].getsockname()[1]} {target}\n")
    if args.ready_file:
        with open(args.ready_file + ".tmp", "w") as f:
            f.writelines(lines)
        os.replace(args.ready_file + ".tmp", args.ready_file)
    else:
        sys.stdout.writelines(lines)
        sys.stdout.flush()
    await asyncio.gather(*(server.serve_forever() for server in servers))


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
