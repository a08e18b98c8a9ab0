#!/usr/bin/env python3
"""Relays one connection between stdin/stdout and TCP HOST:PORT: the command of QEMU's
`guestfwd=tcp:10.0.2.100:1883-cmd:...` (one process per guest connection), so that a capture in
the guest (restrict=on) reaches the broker on the host's loopback and nothing else."""
import os, select, socket, sys

host, port = sys.argv[1], int(sys.argv[2])
try:
    s = socket.create_connection((host, port), timeout=5)
except OSError:
    sys.exit(1)
s.settimeout(None)
ins, out = sys.stdin.fileno(), sys.stdout.fileno()
while True:
    r, _, _ = select.select([ins, s], [], [])
    if ins in r:
        data = os.read(ins, 65536)
        if not data:
            break
        s.sendall(data)
    if s in r:
        data = s.recv(65536)
        if not data:
            break
        view = memoryview(data)
        while view:
            n = os.write(out, view)
            view = view[n:]
s.close()
