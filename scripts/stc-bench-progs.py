#!/usr/bin/env python3
"""Writes the named STC bench programs (docs/stc.md "Bench: epoch
transitions per variant") in the system program format (specification 7.3).

  scripts/stc-bench-progs.py DIR        writes DIR/<name>.prog
  scripts/stc-bench-progs.py --check DIR   exit 1 if DIR differs from what
                                           this script writes

The programs are committed under tb/stc/bench/; this script is how they were
made (deterministic: no randomness). 8 CUs (the paper's GPU, Table 3),
4-byte words, addresses chosen around the band field at SEB 12, N 4:

  idle        every CU only waits (NOP): no store, no demand (section 7.3)
  read-reuse  8 kernels; in each, every CU reads its 8 elements of a 16 KB
              input (the same every kernel: reuse) and writes its 8
              elements of a 16 KB output, then WAIT (kernel end: stores
              complete). Output at 0x00000 (bands 0-3 at SEB 12), input at
              0x10000 (bands 0-3 as well, differing above the band field:
              a read of a band with a blocked write is an EpochConflict
              that moves SEB up under AB/MB, section 4.4)
  vec-cpy     one streaming copy: every CU copies 64 elements, src 0x100000
              + i, dst 0x200000 + i, over 64 KB (all 16 bands), then WAIT
  fg-share    fine-grained sharing: 8 shared words in 8 bands (0x0000,
              0x1000, ... 0x7000); every CU stores to one word and loads its
              neighbour's, 24 rounds, a WAIT every 4 rounds
"""
import os
import sys

CUS = 8


def idle():
    L = ["# idle: %d CUs wait 20,000 cycles each; nothing is stored or demanded" % CUS]
    for k in range(CUS):
        L.append("%d NOP 20000" % k)
    return L


def read_reuse():
    L = ["# read-reuse: 8 kernels; per kernel every CU loads its 8 input elements",
         "# (0x10000 + e * 0x100, the same every kernel) and stores its 8 output",
         "# elements (e * 0x100: 4 KB bands 0-3 at SEB 12, as the input's), then WAIT",
         "# element e = j * 8 + k of CU k: every CU touches every band"]
    for k in range(CUS):
        for kern in range(8):
            for j in range(8):
                e = j * 8 + k
                L.append("%d LD 0x%x" % (k, 0x10000 + e * 0x100))
                L.append("%d ST 0x%x %d" % (k, e * 0x100, kern * 1000 + e + 1))
            L.append("%d WAIT" % k)
    return L


def vec_cpy():
    L = ["# vec-cpy: every CU copies 64 elements, src 0x100000 + o, dst 0x200000 + o,",
         "# o = (i * 8 + k) * 0x80 over 64 KB (all 16 bands at SEB 12); WAIT at the end"]
    for k in range(CUS):
        for i in range(64):
            o = (i * 8 + k) * 0x80
            L.append("%d LD 0x%x" % (k, 0x100000 + o))
            L.append("%d ST 0x%x %d" % (k, 0x200000 + o, i * 8 + k + 1))
        L.append("%d WAIT" % k)
    return L


def fg_share():
    L = ["# fg-share: 8 shared words in bands 0-7 (0x40 + b * 0x1000); CU k stores to",
         "# word (k + r) mod 8 and loads word (k + r + 1) mod 8 in round r; a WAIT",
         "# every 4 rounds"]
    for k in range(CUS):
        for r in range(24):
            w = (k + r) % 8
            L.append("%d ST 0x%x %d" % (k, 0x40 + w * 0x1000, k * 100 + r + 1))
            L.append("%d LD 0x%x" % (k, 0x40 + ((w + 1) % 8) * 0x1000))
            if r % 4 == 3:
                L.append("%d WAIT" % k)
    return L


PROGS = [("idle", idle), ("read-reuse", read_reuse), ("vec-cpy", vec_cpy),
         ("fg-share", fg_share)]


def main():
    args = sys.argv[1:]
    check = bool(args) and args[0] == "--check"
    if check:
        args = args[1:]
    if len(args) != 1:
        print("usage: stc-bench-progs.py [--check] DIR", file=sys.stderr)
        return 2
    d = args[0]
    bad = 0
    for name, f in PROGS:
        text = "\n".join(f()) + "\n"
        path = os.path.join(d, name + ".prog")
        if check:
            try:
                with open(path) as h:
                    same = h.read() == text
            except OSError:
                same = False
            if not same:
                print("stc-bench-progs: %s differs from the generator" % path, file=sys.stderr)
                bad = 1
            continue
        os.makedirs(d, exist_ok=True)
        with open(path, "w") as h:
            h.write(text)
    return bad


if __name__ == "__main__":
    sys.exit(main())
