#!/usr/bin/env python3
"""Hardware cost of every unit (make synth): the REC directory and its
baselines in detail, then every committed configuration of every other unit.

  synth/run.py --cohgen build/bin/cohgen --out build/synth [--jobs 2]

Configurations: the committed rtl/rec/rec_{default,fpga,baseline,hmg}.sv
(baseline and HMG there have the REC default's 8192 entries: equal entry
count), plus, generated with cohgen into OUT/rtl/:
  rec_baseline_eqs, rec_hmg_eqs  baseline (mode line) and HMG (mode hmg) at
      the power-of-two entry count whose paper-accounting storage (Table 1
      bits per entry x entries) is closest to the REC default's 103 kB
  rec_default_packed  the REC default with --store packed (tag without the
      set-index bits)
Per configuration, two Yosys 0.23 runs:
  generic  synth up to memory_map, then the rest of `fine` (RAM kept as
           $mem_v2, reported apart); FFs, gate cells; `dffunmap; stat -tech
           cmos` for the transistor estimate (logic only: RAM not included)
  ice40    synth_ice40: SB_LUT4, SB_CARRY, SB_RAM40_4K, SB_DFF*
Other units: every committed configuration of `cohgen --list=configs` whose
unit is not rec, the same two runs; the unit's `--report --json` may give
"storage_bits" (the paper's accounting) and "paper_note" (the paper's own
figure, e.g. an area in um^2, quoted beside ours, never converted) and
"paper_area_um2": then the `default` (paper) configuration's row also gives
the paper's area per storage bit (an area per bit of the paper's design, not
an area of ours). A report without "storage_bits" but with the STC family's
"paper" object (Table 4 of the STC paper, the hardware of STC-AB) gets the
paper's accounting of the configuration: the EMU's 556 bits (epoch counter,
wake-up counter, ERV, ETV), a BSQ's entries x 32 bits per CU (also the CU,
whose BSQ is inline); the STC L1 and band function get 0 (Table 4 lists no L1 addition and no
storage for the band function).
Every row also gives ours as storage bits, RAM bits + flip-flops (Yosys
generic), and the ratio to the paper's figure.
A unit's report may split storage_bits into "storage_parts" (the RDMA cache:
tags, state, data), shown beside the total.
  --only PREFIX   only the units whose name starts with PREFIX, no REC table
                  (python3 synth/run.py ... --only stc-: the STC rows)
  --units U[,U...] only those units' committed configurations (`rec` for the
                  REC table)
Writes OUT/hardware-cost.json and OUT/hardware-cost.md; prints the Markdown.
"""
import argparse
import concurrent.futures as cf
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import yosys_common as yc  # noqa: E402

REC_PAPER = {"entry_bits": 103, "total_kB": 103, "baseline_entry_bits": 52}


def pick_eq_entries(cohgen, preset, target_bits):
    """Power-of-two entry count whose paper storage is closest to target."""
    best = None
    e = 1024
    while e <= 1 << 20:
        rep = yc.cohgen_report(cohgen, ["--config", preset, "--entries", str(e)])
        d = abs(rep["paper"]["total_bits"] - target_bits)
        if best is None or d < best[0]:
            best = (d, e, rep["paper"]["total_bits"])
        e *= 2
    return best[1], best[2]


def synth_one(c, out):
    d = yc.mkdir(os.path.join(out, c["name"]))
    sv, top = c["sv"], c["name"]
    res = {}
    gs, gc, gn = (os.path.join(d, f) for f in ("generic.stat.json", "generic.cmos.json",
                                             "generic.net.json"))
    res["generic_s"] = yc.run_yosys(
        "%s; %s; tee -q -o %s stat -json; write_json %s; "
        "dffunmap; tee -q -o %s stat -json -tech cmos" %
        (yc.read_rtl(sv), yc.GENERIC.format(top=top), gs, gn, gc), os.path.join(d, "generic.log"))
    cells, _ = yc.stat_cells(gs)
    _, cm = yc.stat_cells(gc)
    mems = yc.mem_cells(gn)
    os.remove(gn)  # large (the RAM's INIT parameter); the stat files stay
    res["mem_bits"] = sum(m[1] * m[2] for m in mems)
    res["mems"] = ["%dx%d" % (m[1], m[2]) for m in mems]
    res["ffs"] = yc.ffs(cells)
    res["latches"] = yc.latches(cells)
    res["gates"] = yc.gates(cells)
    tr = cm["design"].get("estimated_num_transistors", "0")
    res["cmos_transistors"] = int(str(tr).rstrip("+"))
    res["cmos_excludes_ram"] = str(tr).endswith("+")
    s4 = os.path.join(d, "ice40.stat.json")
    res["ice40_s"] = yc.run_yosys(
        "%s; synth_ice40 -top %s; check -assert; tee -q -o %s stat -json" %
        (yc.read_rtl(sv), top, s4), os.path.join(d, "ice40.log"))
    c4, _ = yc.stat_cells(s4)
    res["ice40"] = {"lut4": c4.get("SB_LUT4", 0), "carry": c4.get("SB_CARRY", 0),
                    "bram": c4.get("SB_RAM40_4K", 0), "ffs": yc.ffs(c4)}
    return res


def fmt_int(n):
    return "{:,}".format(n)


def markdown(rows, meta):
    L = []
    L.append("# REC directory hardware cost (%s)" % meta["yosys"])
    L.append("")
    L.append("Measured by `make synth`. Memory bits: inferred RAM ($mem_v2), reported apart "
             "from the logic; FFs, gates and transistors are the logic around it (the read-data "
             "register is absorbed into the RAM's read port). Gates: Yosys generic cells "
             "($_AND_, $_MUX_, ...; a MUX counts 1) after `abc -fast`. CMOS: `dffunmap; stat "
             "-tech cmos` of the logic only. iCE40: `synth_ice40` (HX default).")
    L.append("")
    L.append("| configuration | role | entries | ways | paper bits/entry | paper kB | packed "
             "bits/entry | packed kB | RAM (sets x word) | memory bits | FFs | gates | CMOS "
             "transistors | iCE40 LUT4 | carry | SB_RAM40_4K | iCE40 FFs |")
    L.append("|" + "---|" * 17)
    for r in rows:
        p, k, s, i = r["report"]["paper"], r["report"]["packed"], r["synth"], r["synth"]["ice40"]
        L.append("| %s | %s | %d | %d | %d | %.2f | %d | %.2f | %s | %s | %s | %s | %s | %s | %s "
                 "| %s | %s |" % (
                     r["name"], r["role"], r["report"]["entries"], r["report"]["ways"],
                     p["entry_bits"], p["total_kB"], k["entry_bits"], k["total_kB"],
                     ", ".join(s["mems"]) or "-", fmt_int(s["mem_bits"]), fmt_int(s["ffs"]),
                     fmt_int(s["gates"]), fmt_int(s["cmos_transistors"]), fmt_int(i["lut4"]),
                     fmt_int(i["carry"]), i["bram"], fmt_int(i["ffs"])))
    L.append("")
    L.append("Paper (REC, Table 1 and section 4.3): %d bits per REC entry, %d kB for 8K entries; "
             "baseline %d bits per entry. Memory bits above are the RTL's stored array: "
             "entries x stored entry bits + replacement rank bits (log2(ways) per way)." %
             (REC_PAPER["entry_bits"], REC_PAPER["total_kB"], REC_PAPER["baseline_entry_bits"]))
    L.append("")
    L.append("Equal storage: %s" % meta["eq_note"])
    L.append("")
    L.append("Run times (s, generic + iCE40): " + ", ".join(
        "%s %.1f+%.1f" % (r["name"], r["synth"]["generic_s"], r["synth"]["ice40_s"]) for r in rows))
    return "\n".join(L) + "\n"


def paper_storage(unit, rep):
    """(bits, note) of the paper's storage accounting for a configuration, or
    (None, note): the unit's own "storage_bits", else the STC family's Table 4
    figures read from its "paper" object (module docstring)."""
    if "storage_bits" in rep:
        return rep["storage_bits"], rep.get("paper_note", "-")
    p = rep.get("paper") or {}
    if "table4_bits" in p:  # stc-emu
        return p["table4_bits"], ("Table 4 (STC-AB): epoch counter %d + wake-up counter %d + "
                                  "ERV %d + ETV %d bits" % (p["epoch_counter"],
                                                            p["wakeup_counter"], p["erv_bits"],
                                                            p["etv_bits"]))
    if "bsq_bits_per_cu" in p:  # stc-bsq, stc-cu (BSQ inline)
        bits = rep.get("ram_bits", rep.get("bsq_ram_bits"))
        return bits, ("Table 4: BSQ %s x 32 bits per CU (%s at the paper's 256 entries)"
                      % (fmt_int(bits // 32), fmt_int(p["bsq_bits_per_cu"])))
    if unit == "stc-l1":
        return 0, rep.get("paper_note", "-")
    if unit == "stc-band":
        return 0, "Table 4 lists no storage (the band function is wiring, section 4.2)"
    return None, rep.get("paper_note", "-")


def storage_cell(bits, rep):
    """The paper-accounting storage bits, with their parts (e.g. tags, state,
    data) when the unit's report splits them ("storage_parts")."""
    if bits is None:
        return "-"
    parts = rep.get("storage_parts")
    if not parts or "storage_bits" not in rep:
        return fmt_int(bits)
    return "%s (%s)" % (fmt_int(bits), ", ".join("%s %s" % (k, fmt_int(v)) for k, v in parts.items()))


def units_markdown(rows):
    if not rows:
        return ""
    L = ["", "## Other units", "",
         "| unit | configuration | RAM (words x bits) | memory bits | FFs | gates | CMOS transistors "
         "| iCE40 LUT4 | carry | SB_RAM40_4K | iCE40 FFs | storage bits (paper accounting) | paper "
         "| paper um^2 per storage bit | ours: RAM bits + FFs | ours / paper |",
         "|" + "---|" * 16]
    for r in rows:
        s, i, rep = r["synth"], r["synth"]["ice40"], r["report"]
        pbits, note = paper_storage(r["unit"], rep)
        ours = s["mem_bits"] + s["ffs"]
        per_bit = "-"
        if rep.get("paper_area_um2") and rep.get("storage_bits") and r["preset"] == "default":
            per_bit = "%.2f" % (rep["paper_area_um2"] / rep["storage_bits"])
        L.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["unit"], r["preset"], ", ".join(s["mems"]) or "-", fmt_int(s["mem_bits"]),
            fmt_int(s["ffs"]), fmt_int(s["gates"]), fmt_int(s["cmos_transistors"]),
            fmt_int(i["lut4"]), fmt_int(i["carry"]), i["bram"], fmt_int(i["ffs"]),
            storage_cell(pbits, rep), note, per_bit, fmt_int(ours),
            "%.2f" % (ours / pbits) if pbits else "-"))
    return "\n".join(L) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cohgen", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--rtl", default="rtl/rec")  # REC's committed RTL
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default=None, help="unit-name prefix; no REC table")
    ap.add_argument("--units", default=None,
                    help="only these units' committed configurations (U[,U...]; "
                    "'rec' for the REC table alone)")
    a = ap.parse_args()
    out = yc.mkdir(a.out)
    gen = yc.mkdir(os.path.join(out, "rtl"))
    t0 = time.monotonic()

    ref = yc.cohgen_report(a.cohgen, ["--config", "default"])
    target = ref["paper"]["total_bits"]
    eb, eb_bits = pick_eq_entries(a.cohgen, "baseline", target)
    eh, eh_bits = pick_eq_entries(a.cohgen, "hmg", target)
    eq_note = ("REC default paper storage %d bits (%.0f kB); baseline at %d entries = %d bits "
               "(%.0f kB), HMG at %d entries = %d bits (%.0f kB): the powers of two closest to it."
               % (target, target / 8192, eb, eb_bits, eb_bits / 8192, eh, eh_bits, eh_bits / 8192))

    confs = [
        ("rec_default", ["--config", "default"], "REC, paper default", None),
        ("rec_fpga", ["--config", "fpga"], "REC, FPGA config", None),
        ("rec_baseline", ["--config", "baseline"], "baseline, equal entries", None),
        ("rec_hmg", ["--config", "hmg"], "HMG, equal entries", None),
        ("rec_baseline_eqs", ["--config", "baseline", "--entries", str(eb)],
         "baseline, equal storage", True),
        ("rec_hmg_eqs", ["--config", "hmg", "--entries", str(eh)], "HMG, equal storage", True),
        ("rec_default_packed", ["--config", "default", "--store", "packed"],
         "REC default, packed tags", True),
    ]
    only = set(a.units.split(",")) if a.units else None
    if a.only or (only is not None and "rec" not in only):
        confs = []
    cs = []
    for name, args, role, generated in confs:
        if generated:
            yc.subprocess.run([a.cohgen, "rec"] + args + ["--name", name, "-o", gen], check=True)
            sv = os.path.join(gen, name + ".sv")
        else:
            sv = os.path.join(a.rtl, name + ".sv")
        cs.append({"name": name, "args": args, "role": role, "sv": sv,
                   "report": yc.cohgen_report(a.cohgen, args)})

    us = []
    listing = yc.subprocess.run([a.cohgen, "--list=configs"], capture_output=True, text=True,
                                check=True).stdout.splitlines()
    for unit, family, module, preset in (l.split() for l in listing):
        if unit == "rec" or (a.only and not unit.startswith(a.only)) \
                or (only is not None and unit not in only):
            continue
        us.append({"name": module, "unit": unit, "preset": preset,
                   "sv": os.path.join("rtl", family, module + ".sv"),
                   "report": yc.cohgen_report(a.cohgen, ["--config", preset], unit)})

    with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = {c["name"]: ex.submit(synth_one, c, out) for c in cs + us}
        for c in cs + us:
            c["synth"] = futs[c["name"]].result()
            print("synth: %-20s generic %.1f s, ice40 %.1f s" %
                  (c["name"], c["synth"]["generic_s"], c["synth"]["ice40_s"]), file=sys.stderr)

    yv = yc.subprocess.run(["yosys", "-V"], capture_output=True, text=True).stdout.strip()
    meta = {"yosys": yv, "eq_note": eq_note, "eq_entries": {"baseline": eb, "hmg": eh},
            "paper": REC_PAPER, "wall_s": round(time.monotonic() - t0, 1)}
    md = (markdown(cs, meta) if cs else "") + units_markdown(us)
    for c in cs + us:
        c.pop("sv")
    with open(os.path.join(out, "hardware-cost.json"), "w") as f:
        json.dump({"meta": meta, "configs": cs, "units": us}, f, indent=1)
    with open(os.path.join(out, "hardware-cost.md"), "w") as f:
        f.write(md)
    print(md)
    print("synth: %.1f s; wrote %s/hardware-cost.{md,json}" % (time.monotonic() - t0, out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
