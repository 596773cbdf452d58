#!/usr/bin/env python3
"""iCE40 results of the self-test tops cohgen --selftest generates around
every unit's FPGA configuration and its variants (make fpga).

  fpga/report.py --dir build/fpga --board-mhz 12 \
      --unit MODULE:DIR[:DEVICES] ... [--unit-devices "hx8k"] [--out fpga-report]

Per module and device (DEVICES, a space-separated list, else --unit-devices),
reads from DIR: MODULE_selftest.json (unit, options, signature),
<dev>.stat.json (Yosys stat of synth_ice40), <dev>.report.json and
<dev>.pnr.log (nextpnr: Fmax, utilisation, critical path), <dev>.seeds (the
Fmax of every nextpnr seed; the kept run is the median one, fpga/pnr.sh),
<dev>.time, or <dev>.nofit for a design larger than the device. Writes
DIR/<out>.md and .json; exits 1 if a placed design misses the board clock.
"""
import argparse
import json
import os
import re
import subprocess
import sys


def crit_path(log):
    """(logic ns, routing ns, first source, last sink) of the clock's path."""
    text = open(log).read()
    m = list(re.finditer(r"Critical path report for clock '[^']*' \(posedge -> posedge\):\n(.*?)"
                         r"Info: ([0-9.]+) ns logic, ([0-9.]+) ns routing", text, re.S))
    if not m:
        return None
    body, logic, route = m[-1].group(1), float(m[-1].group(2)), float(m[-1].group(3))
    srcs = re.findall(r"Source (\S+)", body)
    sinks = re.findall(r"Sink (\S+)", body)
    return {"logic_ns": logic, "routing_ns": route, "levels": len(srcs),
            "from": srcs[0] if srcs else "", "to": sinks[-1] if sinks else ""}


def seeds(d, dev):
    """{seed: Fmax} of every nextpnr run (fpga/pnr.sh), or {} without the file."""
    p = os.path.join(d, dev + ".seeds")
    if not os.path.exists(p):
        return {}
    return {int(s): float(f) for s, f in (ln.split() for ln in open(p) if ln.strip())}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--board-mhz", type=float, default=12.0)
    ap.add_argument("--unit", action="append", default=[], help="MODULE:DIR[:DEVICES]")
    ap.add_argument("--unit-devices", default="hx8k")
    ap.add_argument("--out", default="fpga-report")
    a = ap.parse_args()
    ver = subprocess.run(["nextpnr-ice40", "--version"], capture_output=True,
                         text=True).stderr.strip() or "nextpnr-ice40"
    yv = subprocess.run(["yosys", "-V"], capture_output=True, text=True).stdout.strip()
    bad, ures = 0, []
    for spec in a.unit:
        module, ud, *devs = spec.split(":", 2)
        exp = json.load(open(os.path.join(ud, module + "_selftest.json")))
        for dev in (devs[0] if devs and devs[0].strip() else a.unit_devices).split():
            r = pnr_figures(ud, dev, a.board_mhz)
            r.update({"module": module, "unit": exp["unit"], "options": exp["args"],
                      "device": dev, "selftest": exp,
                      "bitstream": os.path.join(ud, "selftest_" + dev + ".bin") if r["fits"] else None})
            bad += r["fits"] and not r["meets_board_clock"]
            ures.append(r)
    out = {"tools": {"yosys": yv, "nextpnr": ver}, "unit_results": ures}
    json.dump(out, open(os.path.join(a.dir, a.out + ".json"), "w"), indent=1)
    md = "\n".join(unit_table(ures, yv, ver)) + "\n"
    open(os.path.join(a.dir, a.out + ".md"), "w").write(md)
    print(md)
    return 1 if bad else 0


def cell_counts(d, dev):
    st = json.load(open(os.path.join(d, dev + ".stat.json")))["design"]["num_cells_by_type"]
    t = open(os.path.join(d, dev + ".time")).read().split()
    return {"lut4": st.get("SB_LUT4", 0), "carry": st.get("SB_CARRY", 0),
            "ffs": sum(n for k, n in st.items() if k.startswith("SB_DFF")),
            "synth_s": float(t[0]), "pnr_s": float(t[1])}


def pnr_figures(d, dev, board_mhz):
    """Figures of one placed and routed top in directory d (or, for a design
    larger than the device, the utilisation nextpnr printed: <dev>.nofit)."""
    nofit = os.path.join(d, dev + ".nofit")
    if os.path.exists(nofit):
        util = {}
        for m in re.finditer(r"(ICESTORM_\w+):\s*(\d+)/\s*(\d+)", open(nofit).read()):
            util[m.group(1)] = {"used": int(m.group(2)), "available": int(m.group(3))}
        r = {"fits": False, "fmax_mhz": None, "fmax_seeds": {}, "target_mhz": None,
             "board_mhz": board_mhz, "meets_board_clock": None, "meets_target": None,
             "lc": util.get("ICESTORM_LC"), "bram": util.get("ICESTORM_RAM"), "io": None,
             "critical_path": None}
        r.update(cell_counts(d, dev))
        return r
    rep = json.load(open(os.path.join(d, dev + ".report.json")))
    (clk, fm), = rep["fmax"].items()
    u = rep["utilization"]
    r = {"fits": True, "fmax_mhz": round(fm["achieved"], 2), "fmax_seeds": seeds(d, dev),
         "target_mhz": fm["constraint"],
         "board_mhz": board_mhz, "meets_board_clock": fm["achieved"] >= board_mhz,
         "meets_target": fm["achieved"] >= fm["constraint"],
         "lc": u["ICESTORM_LC"], "bram": u["ICESTORM_RAM"], "io": u["SB_IO"],
         "critical_path": crit_path(os.path.join(d, dev + ".pnr.log"))}
    r.update(cell_counts(d, dev))
    return r


def unit_table(ures, yv, ver):
    if not ures:
        return ["# Self-test tops on iCE40 (cohgen --selftest)", "", "No module placed."]
    e0 = ures[0]["selftest"]
    L = ["# Self-test tops on iCE40 (cohgen --selftest)", "",
         "%s; %s. Self-test: seed 0x%08x, %d cycles; the top around each module "
         "(stimulus, MISR over every output, UART), the signature predicted by "
         "the unit's timing shell, checked by fpga-sim (PASS, and FAIL with a wrong one). "
         "Fmax: the median over the nextpnr seeds (listed below the table when more than one)." %
         (yv, ver, e0["seed"], e0["cycles"]), "",
         "| unit | module | device | Fmax (MHz) | nextpnr target | board clock | LCs | LUT4 | "
         "carry | FFs | BRAM | signature | in / out transfers | synth s | P&R s |",
         "|" + "---|" * 15]
    for r in ures:
        e = r["selftest"]
        if not r["fits"]:
            L.append("| %s | %s | %s | DOES NOT FIT | - | - | %d / %d | %d | %d | %d | %s | %s | "
                     "%d / %d | %.1f | %.1f |" % (
                         r["unit"], r["module"], r["device"], r["lc"]["used"],
                         r["lc"]["available"], r["lut4"], r["carry"], r["ffs"],
                         "%d / %d" % (r["bram"]["used"], r["bram"]["available"]) if r["bram"]
                         else "-", e["sig"], e["in_xfers"], e["out_xfers"], r["synth_s"],
                         r["pnr_s"]))
            continue
        L.append("| %s | %s | %s | %.2f | %d MHz %s | %g MHz %s | %d / %d | %d | %d | %d | "
                 "%d / %d | %s | %d / %d | %.1f | %.1f |" % (
                     r["unit"], r["module"], r["device"], r["fmax_mhz"], r["target_mhz"],
                     "met" if r["meets_target"] else "missed", r["board_mhz"],
                     "met" if r["meets_board_clock"] else "MISSED", r["lc"]["used"],
                     r["lc"]["available"], r["lut4"], r["carry"], r["ffs"], r["bram"]["used"],
                     r["bram"]["available"], e["sig"], e["in_xfers"], e["out_xfers"],
                     r["synth_s"], r["pnr_s"]))
    L.append("")
    for r in ures:
        s = r["fmax_seeds"]
        if len(s) > 1:
            L.append("- %s %s Fmax over nextpnr seeds %s: %s MHz (median %.2f)." % (
                r["module"], r["device"], ", ".join(str(k) for k in s),
                ", ".join("%.2f" % v for v in s.values()), r["fmax_mhz"]))
    for r in ures:
        c = r["critical_path"]
        if c:
            L.append("- %s %s critical path: %d cells, %.1f ns logic + %.1f ns routing, from `%s` "
                     "to `%s`." % (r["module"], r["device"], c["levels"], c["logic_ns"],
                                   c["routing_ns"], c["from"], c["to"]))
    return L


if __name__ == "__main__":
    sys.exit(main())
