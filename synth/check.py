#!/usr/bin/env python3
"""Fast Yosys checks of every committed configuration of every unit (make synth-check).

  synth/check.py --cohgen build/bin/cohgen --out build/synth/check
                 [--force-ff] [--ice40-nobram]

Per committed configuration rtl/<family>/<module>.sv (cohgen --list=configs;
make test and make synth-check pass --all: every one but the families'
CHECK_REGRESS_ONLY, which --regress adds (make synth-check-long, in make
regress); without --all default and fpga, every one of a unit its family's
CHECK_EVERY_PRESET names; prep level):
  struct  no Yosys warning, check -assert (no multiple drivers, no
          combinational loops), no latches (the Yosys half of the lint of the
          committed RTL: make test runs Verilator and Icarus as lint-sim)
  memory  exactly the unit's RAMs, inferred as $mem_v2: the "rtl_memories" list
          ([words, bits] per RAM) of `cohgen <unit> --report --json`, else its
          family's expected_mems hook
  ffbound flip-flops <= 3 x the widest RAM word + 512 (an array in FFs is far above)
After synth_ice40 of the configurations of the families' ICE40_CHECKS (and
with --regress their ICE40_CHECKS_REGRESS):
  ice40   check -assert, SB_RAM40_4K >= the fewest that hold the RAMs,
          flip-flops <= the same bound
Negative controls, every run: the configurations of the families'
NEGATIVE_CONTROLS with their memory forced into flip-flops (`prep;
memory_map`) must fail the memory and ffbound checks.
(The families' hooks: scripts/<family>-synth.py, yosys_common.family_hooks.)
--force-ff applies that forcing to every configuration (all checks must then
fail: a demonstration that the checks can fail); --ice40-nobram does the same
to the iCE40 runs (synth_ice40 -nobram; slow).
Last line: "synth-check: N passed, M failed"; exit status 1 when M > 0.
"""
import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import yosys_common as yc  # noqa: E402

FF_TYPES = "t:$dff t:$dffe t:$adff t:$adffe t:$sdff t:$sdffe t:$sdffce t:$aldff t:$aldffe t:$dffsr t:$dffsre"


class Checker:
    def __init__(self, control=False):
        self.passed = self.failed = 0
        self.control = control

    def result(self, name, ok, detail):
        word = "PASS" if ok else "FAIL"
        if self.control:
            word = "tripped" if not ok else "NOT tripped"
        print("  %-34s %s  %s" % (name, word, detail))
        if ok:
            self.passed += 1
        else:
            self.failed += 1


def prep_eval(sv, top, out, force_ff):
    """prep (+ memory_map when forced); returns (cells, mems, seconds) or raises."""
    tag = top + ("_ff" if force_ff else "")
    net, st = os.path.join(out, tag + ".prep.json"), os.path.join(out, tag + ".stat.json")
    script = ("%s; prep -flatten -top %s; check -assert; %s"
              "opt_clean; write_json %s; simplemap %s; tee -q -o %s stat -json" %
              (yc.read_rtl(sv), top, "memory_map; " if force_ff else "", net, FF_TYPES, st))
    log = os.path.join(out, tag + ".prep.log")
    dt = yc.run_yosys(script, log)
    # yosys -q prints only warnings and errors: the lint's zero-warning rule
    with open(log) as f:
        warn = [l.strip() for l in f if l.strip()]
    if warn and not force_ff:
        raise RuntimeError("yosys warnings (see %s):\n%s" % (log, "\n".join(warn[:20])))
    cells, _ = yc.stat_cells(st)
    return cells, yc.mem_cells(net), dt


def expected_mems(rep, want):
    """[(words, bits)] the unit's RTL must infer as RAM (one-word arrays are
    registers by design and not listed): its report's, else want (its
    family's expected_mems hook)."""
    if "rtl_memories" in rep:
        return [tuple(m) for m in rep["rtl_memories"] if m[0] > 1]
    if want is None:
        raise RuntimeError("the report gives no \"rtl_memories\" and the family no expected_mems")
    return want


def ff_limit(rep, want):
    """The flip-flop bound: the unit's own (its registers beside the RAMs),
    else 3 x the widest RAM word + 512, plus an array kept in flip-flops by
    design (a CAM searched in one cycle)."""
    return rep.get("ff_bound") or yc.ff_bound(max((w for _, w in want), default=0)) + rep.get("flop_array_bits", 0)


def mem_and_ff(ck, label, cells, mems, rep, want):
    want = sorted(want)
    nff = yc.ffs(cells)
    got = sorted((m[1], m[2]) for m in mems)
    gots = ", ".join("%dx%d" % m for m in got) or "none"
    if not want:
        ck.result(label + " memory", len(mems) == 0, "no RAM by design, $mem_v2: %s" % gots)
        return
    ck.result(label + " memory", got == want,
              "$mem_v2 %s (want %s)" % (gots, ", ".join("%dx%d" % m for m in want)))
    flop_array = rep.get("flop_array_bits", 0)
    bound = ff_limit(rep, want)
    ck.result(label + " ffbound", nff <= bound,
              "%d FFs <= %d (arrays would be %d bits%s)" % (
                  nff, bound, sum(a * b for a, b in want),
                  ", %d-bit array in FFs by design" % flop_array if flop_array else ""))


class Configs:
    """The committed configurations (cohgen --list=configs), their reports
    and the RAMs each must infer."""

    def __init__(self, cohgen, hooks):
        self.cohgen, self.hooks = cohgen, hooks
        self.rows = [l.split() for l in subprocess.run([cohgen, "--list=configs"], check=True,
                                                        capture_output=True, text=True).stdout.splitlines()]

    def find(self, unit, preset):
        """(family, module) of a committed configuration."""
        for u, family, top, p in self.rows:
            if (u, p) == (unit, preset):
                return family, top
        raise RuntimeError("%s %s is not a committed configuration" % (unit, preset))

    def report(self, unit, family, preset):
        """(report, the RAMs it must infer)."""
        rep = yc.cohgen_report(self.cohgen, ["--config", preset], unit)
        f = yc.hook(self.hooks, family, "expected_mems")
        return rep, expected_mems(rep, f(unit, rep) if f else None)


def ice40_check(ck, cfgs, unit, preset, out, nobram):
    family, top = cfgs.find(unit, preset)
    sv = os.path.join("rtl", family, top + ".sv")
    rep, want = cfgs.report(unit, family, preset)
    st = os.path.join(out, top + ".ice40.stat.json")
    try:
        dt = yc.run_yosys("read_verilog -sv %s; synth_ice40 %s-top %s; check -assert; "
                          "tee -q -o %s stat -json" %
                          (sv, "-nobram " if nobram else "", top, st),
                          os.path.join(out, top + ".ice40.log"))
    except RuntimeError as e:
        ck.result(top + " ice40", False, str(e).splitlines()[-1])
        return
    cells, _ = yc.stat_cells(st)
    nram, nff = cells.get("SB_RAM40_4K", 0), yc.ffs(cells)
    nmin = sum(yc.ice40_min_brams(words, bits) for words, bits in want)
    bound = ff_limit(rep, want)
    ck.result(top + " ice40", nram >= nmin and nff <= bound and yc.latches(cells) == 0,
              "%d SB_RAM40_4K (>= %d), %d FFs (<= %d), %.1f s" % (nram, nmin, nff, bound, dt))


def negative_control(ck, cfgs, unit, preset, out):
    """The same checks on the RAMs forced into FFs must fail."""
    family, top = cfgs.find(unit, preset)
    rep, want = cfgs.report(unit, family, preset)
    cells, mems, _ = prep_eval(os.path.join("rtl", family, top + ".sv"), top, out, True)
    sub = Checker(control=True)
    print("  negative control: %s after 'prep; memory_map' (array in FFs):" % top)
    mem_and_ff(sub, "  %s(forced)" % top, cells, mems, rep, want)
    ck.result("negative control trips", sub.failed == 2 and sub.passed == 0,
              "%d of 2 checks failed on the forced variant, as they must" % sub.failed)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cohgen", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--all", action="store_true",
                    help="every committed configuration (default: the default and fpga "
                         "configurations, every one of a family's CHECK_EVERY_PRESET)")
    ap.add_argument("--regress", action="store_true",
                    help="also the configurations and iCE40 runs the families keep for make regress "
                         "(CHECK_REGRESS_ONLY, ICE40_CHECKS_REGRESS: slow Yosys runs of presets whose "
                         "generator code make test checks on a smaller configuration)")
    ap.add_argument("--force-ff", action="store_true")
    ap.add_argument("--ice40-nobram", action="store_true")
    a = ap.parse_args()
    out = yc.mkdir(a.out)
    ck = Checker()
    t0 = time.monotonic()
    hooks = yc.family_hooks()
    every = {u for h in hooks.values() for u in getattr(h, "CHECK_EVERY_PRESET", ())}
    later = set() if a.regress else {c for h in hooks.values() for c in getattr(h, "CHECK_REGRESS_ONLY", ())}
    cfgs = Configs(a.cohgen, hooks)

    for unit, family, top, p in cfgs.rows:
        if not a.all and unit not in every and p not in ("default", "fpga"):
            continue
        if (unit, p) in later:
            print("  %-34s (make regress: synth-check-long)" % top)
            continue
        sv = os.path.join("rtl", family, top + ".sv")
        try:
            rep, want = cfgs.report(unit, family, p)
        except RuntimeError as e:
            ck.result(top + " memory", False, str(e))
            continue
        try:
            cells, mems, dt = prep_eval(sv, top, out, a.force_ff)
        except RuntimeError as e:
            ck.result(top + " struct", False, str(e).splitlines()[-1])
            continue
        nl = yc.latches(cells)
        ck.result(top + " struct", nl == 0, "check -assert clean, %d latches, %.1f s" % (nl, dt))
        mem_and_ff(ck, top, cells, mems, rep, want)

    for h in hooks.values():
        for unit, p in getattr(h, "ICE40_CHECKS", ()) + (getattr(h, "ICE40_CHECKS_REGRESS", ()) if a.regress else ()):
            ice40_check(ck, cfgs, unit, p, out, a.ice40_nobram)

    if not a.force_ff:
        for h in hooks.values():
            for unit, p in getattr(h, "NEGATIVE_CONTROLS", ()):
                negative_control(ck, cfgs, unit, p, out)

    print("synth-check: %.1f s" % (time.monotonic() - t0))
    print("synth-check: %d passed, %d failed" % (ck.passed, ck.failed))
    return 1 if ck.failed else 0


if __name__ == "__main__":
    sys.exit(main())
