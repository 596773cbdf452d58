#!/usr/bin/env python3
"""Kernel-like access streams for the REC directory (cohmodel rec's trace
format), the shapes of the paper's Fig. 12 workloads: each of GPUs 1..3
(GPU 0 is the home) reads the home's memory in its own part.

  scripts/rec-streams.py KIND [--accesses N] [--seed S]

  strided   every GPU walks its part with a 256-byte stride (one 64-byte
            line of every four)
  tiled     a tiled matrix walk: 8 x 8-line tiles of a matrix with a 16 KB
            row pitch, tile after tile
  stencil   a 5-point stencil over a 64 KB-pitch grid: the line, its two
            neighbours and the lines a row above and below
  gather    an irregular gather: lines drawn at random over 64 MB

One write (RW) every 16 accesses, by the next GPU, to a line just read.
Deterministic: a fixed linear congruential generator, no library
randomness.
"""
import sys

LINE = 64
KINDS = ("strided", "tiled", "stencil", "gather")


def lcg(seed):
    x = (seed * 2654435761 + 12345) & 0xFFFFFFFF
    while True:
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        yield x


def addresses(kind, gpu, n, rnd):
    """The n line addresses GPU gpu reads, in order."""
    base = gpu << 28
    if kind == "strided":
        return [base + i * 256 for i in range(n)]
    if kind == "tiled":
        out, pitch = [], 16384
        t = 0
        while len(out) < n:
            tr, tc = divmod(t, 32)
            for r in range(8):
                for c in range(8):
                    out.append(base + (tr * 8 + r) * pitch + (tc * 8 + c) * LINE)
            t += 1
        return out[:n]
    if kind == "stencil":
        out, pitch, i = [], 65536, 0
        while len(out) < n:
            row, col = divmod(i, pitch // LINE)
            a = base + (row + 1) * pitch + col * LINE
            out += [a, a - LINE, a + LINE, a - pitch, a + pitch]
            i += 1
        return out[:n]
    return [base + (next(rnd) % (1 << 20)) * LINE for _ in range(n)]


def main(argv):
    n, seed, kind = 60000, 1, None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--accesses", "--seed") and i + 1 < len(argv) and argv[i + 1].isdigit():
            if a == "--accesses":
                n = int(argv[i + 1])
            else:
                seed = int(argv[i + 1])
            i += 2
        elif a in KINDS and kind is None:
            kind = a
            i += 1
        else:
            sys.stderr.write("rec-streams: bad argument '%s' (KIND: %s; --accesses N --seed S)\n"
                             % (a, " ".join(KINDS)))
            return 2
    if kind is None:
        sys.stderr.write("rec-streams: no KIND (%s)\n" % " ".join(KINDS))
        return 2
    rnd = lcg(seed)
    per = n // 3
    streams = {g: addresses(kind, g, per, rnd) for g in (1, 2, 3)}
    out = ["# rec-streams.py %s --accesses %d --seed %d" % (kind, n, seed)]
    for k in range(per):
        for g in (1, 2, 3):
            a = streams[g][k]
            out.append("RR %x %d" % (a, g))
            if k % 16 == 15:
                out.append("RW %x %d" % (a, g % 3 + 1))
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
