#!/usr/bin/env python3
"""A decision-engine trace (cohmodel dualopt-de's format) with a given
remote ratio, block utilisation and L1 hit rate of remote reads, for the
decision grid of make results (scripts/dualopt-results.sh).

  scripts/dualopt-de-trace.py REMOTE UTIL HIT [--accesses N] [--words W]
  scripts/dualopt-de-trace.py --batch DIR [--accesses N] [--words W] < points
      one trace a line 'REMOTE UTIL HIT' of standard input, DIR/<line>.tr
      (1-based), in one process

REMOTE: fraction of accesses that are remote (RR); UTIL: fraction of the
W mask bits (words of the line) a remote read touches; HIT: fraction of
remote reads that hit in the L1. The patterns are evenly spread (the i-th
access is remote when floor((i + 1) * REMOTE) > floor(i * REMOTE)), so the
trace is the same on every run; the rest are local reads (LR).
"""
import sys


def spread(i, f):
    return int((i + 1) * f + 1e-9) > int(i * f + 1e-9)


def trace(remote, util, hit, n, words, label):
    bits = max(1, int(round(util * words)))
    out = ["# dualopt-de-trace.py %s --accesses %d --words %d" % (label, n, words)]
    r = 0
    for i in range(n):
        if spread(i, remote):
            shift = (r * 5) % (words - bits + 1)
            mask = ((1 << bits) - 1) << shift
            out.append("RR %d %x" % (1 if spread(r, hit) else 0, mask))
            r += 1
        else:
            out.append("LR")
    return "\n".join(out) + "\n"


def batch(argv):
    try:
        d = argv[1]
        opt = dict(zip(argv[2::2], argv[3::2]))
        n = int(opt.pop("--accesses", "12000"))
        words = int(opt.pop("--words", "16"))
        if opt or len(argv) % 2:
            raise ValueError
        pts = [tuple(float(x) for x in ln.split()) for ln in sys.stdin if ln.strip()]
        if any(len(p) != 3 for p in pts):
            raise ValueError
    except (ValueError, IndexError):
        sys.stderr.write("dualopt-de-trace: usage: --batch DIR [--accesses N] [--words W] < 'REMOTE UTIL HIT' lines\n")
        return 2
    for k, (remote, util, hit) in enumerate(pts, 1):
        with open("%s/%d.tr" % (d, k), "w") as f:
            f.write(trace(remote, util, hit, n, words, "%g %g %g" % (remote, util, hit)))
    return 0


def main(argv):
    if argv[:1] == ["--batch"]:
        return batch(argv)
    try:
        pos = argv[:3]
        rest = argv[3:]
        if len(rest) % 2 or any(not k.startswith("--") for k in rest[::2]):
            raise ValueError
        opt = dict(zip(rest[::2], rest[1::2]))
        remote, util, hit = (float(x) for x in pos[:3])
        n = int(opt.pop("--accesses", "12000"))
        words = int(opt.pop("--words", "16"))
        if opt or len(pos) != 3 or not (0 <= remote <= 1 and 0 < util <= 1 and 0 <= hit <= 1):
            raise ValueError
    except ValueError:
        sys.stderr.write("dualopt-de-trace: usage: REMOTE UTIL HIT [--accesses N] [--words W] "
                         "(fractions: 0..1, UTIL above 0)\n")
        return 2
    sys.stdout.write(trace(remote, util, hit, n, words, " ".join(pos)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
