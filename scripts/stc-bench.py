#!/usr/bin/env python3
"""STC bench (make bench, make bench-stc): epoch transitions, sleeps and SEB
changes of the four variants (NV, ES, AB, MB) on the named programs of
tb/stc/bench/ (scripts/stc-bench-progs.py), the system model at the paper's
configuration (8 CUs, N 4, SEB 12, wake-up 100, L2 160 / memory 260 cycles,
BSQ 256/16/2), every event log judged by the separate checker.

  scripts/stc-bench.py --cohmodel build/bin/cohmodel --out build/stc-bench [--progs tb/stc/bench]

Per program and variant: `cohmodel stc-system --cus 8 --variant V --log F`,
then `cohmodel stc-check --cus 8 --variant V < F` (exit 0 with RESULT PASS,
exit 1 with RESULT FAIL, 2 on a log it cannot read). From the log: the
handshake latency, PrepareEpochChange to the EMU's last DoneAck (PREP to
END), in cycles. Writes OUT/stc-bench.md and prints it. Exit status 1 when
a verdict is FAIL, a tool fails, or the system's RESULT and the checker's
disagree; the direction of the paper (NV far above ES, AB below ES, MB below
AB) is reported per program, not enforced.
"""
import argparse
import os
import re
import subprocess
import sys

import progress

VARIANTS = ("nv", "es", "ab", "mb")
PROGS = ("idle", "read-reuse", "vec-cpy", "fg-share")
OPTS = ["--cus", "8", "--max-cycles", "2000000"]


def handshakes(log):
    lat, t0 = [], None
    for line in log.splitlines():
        f = line.split()
        if len(f) >= 2 and f[1] == "PREP":
            t0 = int(f[0])
        elif len(f) >= 2 and f[1] == "END" and t0 is not None:
            lat.append(int(f[0]) - t0)
            t0 = None
    return lat


def run_one(a, prog, v):
    log = os.path.join(a.out, "%s.%s.log" % (prog, v))
    with open(os.path.join(a.progs, prog + ".prog")) as f:
        s = subprocess.run([a.cohmodel, "stc-system", "--variant", v, "--log", log] + OPTS,
                           stdin=f, capture_output=True, text=True)
    # stc-system exits 1 with its full output on FAIL, like stc-check
    if s.returncode not in (0, 1):
        raise RuntimeError("stc-system %s %s: exit %d: %s" % (prog, v, s.returncode, s.stderr.strip()))
    m = re.search(r"^# transitions=(\d+) sleeps=(\d+) seb_changes=(\d+) final_seb=(\d+) "
                  r"cycles=(\d+) max_bsq=(\d+)$", s.stdout, re.M)
    sysres = re.search(r"^RESULT (PASS|FAIL)$", s.stdout, re.M)
    if not m or not sysres:
        raise RuntimeError("stc-system %s %s: no statistics line" % (prog, v))
    with open(log) as f:
        c = subprocess.run([a.cohmodel, "stc-check", "--variant", v, "--cus", "8"], stdin=f,
                           capture_output=True, text=True)
    chk = re.search(r"^RESULT (PASS|FAIL)$", c.stdout, re.M)
    if c.returncode not in (0, 1) or not chk or (c.returncode == 1) != (chk.group(1) == "FAIL"):
        raise RuntimeError("stc-check %s %s: exit %d, output %r" % (prog, v, c.returncode,
                                                                    c.stdout[-200:]))
    with open(log) as f:
        hs = handshakes(f.read())
    r = dict(zip(("transitions", "sleeps", "seb_changes", "final_seb", "cycles", "max_bsq"),
                 (int(x) for x in m.groups())))
    r.update(system=sysres.group(1), check=chk.group(1), check_rc=c.returncode,
             viol=len(re.findall(r"^VIOL ", c.stdout, re.M)), hs=hs)
    return r


def direction(rs):
    nv, es, ab, mb = (rs[v]["transitions"] for v in VARIANTS)
    parts, holds = [], True
    if es == 0:
        parts.append("NV %d, ES 0" % nv)
        holds &= nv > 0
    else:
        parts.append("NV/ES %.1fx" % (nv / es))
        holds &= nv >= 2 * es
    for a, b, x, y in (("AB", "ES", ab, es), ("MB", "AB", mb, ab)):
        rel = "<" if x < y else "=" if x == y else ">"
        parts.append("%s %s %s" % (a, rel, b))
        holds &= x < y or (x == y == 0)
    return holds, ", ".join(parts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cohmodel", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--progs", default="tb/stc/bench")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    res, bad = {}, 0
    pg = progress.Progress(len(PROGS) * len(VARIANTS), "runs")
    for p in PROGS:
        res[p] = {}
        for v in VARIANTS:
            r = run_one(a, p, v)
            res[p][v] = r
            if r["check"] != "PASS" or r["system"] != r["check"]:
                bad = 1
            pg.step(sum(len(x) for x in res.values()))
    pg.end()
    L = ["STC epoch transitions per variant (`cohmodel stc-system --cus 8`, the paper's "
         "configuration otherwise: N 4, SEB 12, wake-up 100, L2 160 / memory 260 cycles, "
         "messages 2 cycles; programs tb/stc/bench/). Handshake: PrepareEpochChange to the "
         "last DoneAck (PREP to END in the log), cycles. Verdict: `cohmodel stc-check` on "
         "the run's event log (exit status in brackets).",
         "",
         "| program | variant | transitions | sleeps | SEB changes | final SEB | cycles "
         "| handshake mean (min-max) | max BSQ | stc-check |",
         "|" + "---|" * 10]
    for p in PROGS:
        for v in VARIANTS:
            r = res[p][v]
            hs = r["hs"]
            h = "%.1f (%d-%d)" % (sum(hs) / len(hs), min(hs), max(hs)) if hs else "-"
            L.append("| %s | %s | %d | %d | %d | %d | %d | %s | %d | %s (%d)%s |" % (
                p, v.upper(), r["transitions"], r["sleeps"], r["seb_changes"], r["final_seb"],
                r["cycles"], h, r["max_bsq"], r["check"], r["check_rc"],
                ", %d VIOL" % r["viol"] if r["viol"] else ""))
    L += ["", "| program | the paper's direction (NV far above ES, AB below ES, MB below AB) "
          "| transitions NV / ES / AB / MB |", "|---|---|---|"]
    for p in PROGS:
        holds, why = direction(res[p])
        L.append("| %s | %s: %s | %s |" % (p, "holds" if holds else "does not hold", why,
                                          " / ".join(str(res[p][v]["transitions"])
                                                     for v in VARIANTS)))
    md = "\n".join(L) + "\n"
    with open(os.path.join(a.out, "stc-bench.md"), "w") as f:
        f.write(md)
    sys.stdout.write(md)
    if bad:
        print("stc-bench: a run did not pass the checker (or the system and checker disagree)",
              file=sys.stderr)
    return bad


if __name__ == "__main__":
    sys.exit(main())
