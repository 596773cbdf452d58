#!/usr/bin/env python3
"""Hardware cost of every unit (make synth): a family's own tables first
(scripts/<family>-synth.py: yosys_common.family_hooks), then every committed
configuration of every other unit.

  synth/run.py --cohgen build/bin/cohgen --out build/synth [--jobs 2]

Per configuration, two Yosys 0.23 runs:
  generic  synth up to memory_map, then the rest of `fine` (RAM kept as
           $mem_v2, reported apart); FFs, gate cells; `dffunmap; stat -tech
           cmos` for the transistor estimate (logic only: RAM not included)
  ice40    synth_ice40: SB_LUT4, SB_CARRY, SB_RAM40_4K, SB_DFF*
Other units: every committed configuration of `cohgen --list=configs` whose
unit no family table holds, the same two runs; the unit's `--report --json`
may give "storage_bits" (the paper's accounting) and "paper_note" (the
paper's own figure, e.g. an area in um^2, quoted beside ours, never
converted) and "paper_area_um2": then the `default` (paper) configuration's
row also gives the paper's area per storage bit (an area per bit of the
paper's design, not an area of ours). A report without "storage_bits" gets
the paper's accounting from its family's paper_storage hook, if any.
Every row also gives ours as storage bits, RAM bits + flip-flops (Yosys
generic), and the ratio to the paper's figure.
A unit's report may split storage_bits into "storage_parts" (the RDMA cache:
tags, state, data), shown beside the total.
  --only PREFIX   only the units whose name starts with PREFIX (`<family>-`:
                  a family's rows), no family table
  --units U[,U...] only those units' committed configurations (a unit of a
                  family table: that table)
  --configs M[,M...] only the configurations (modules) of those names, of the
                  family tables and the other units (a slow table in parts)
  --no-ice40       the generic runs only (iCE40 columns "-"): for
                  configurations no iCE40 holds, whose synth_ice40 is slow
Writes OUT/hardware-cost.json and OUT/hardware-cost.md; prints the Markdown.
"""
import argparse
import concurrent.futures as cf
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))
import progress  # noqa: E402
import yosys_common as yc  # noqa: E402
from yosys_common import fmt_int  # noqa: E402


def synth_one(c, out, ice40=True):
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
    if not ice40:  # --no-ice40: the iCE40 columns are "-"
        res["ice40_s"] = 0.0
        res["ice40"] = {"lut4": "-", "carry": "-", "bram": "-", "ffs": "-"}
        return res
    s4 = os.path.join(d, "ice40.stat.json")
    res["ice40_s"] = yc.run_yosys(
        "%s; synth_ice40 -top %s; check -assert; tee -q -o %s stat -json" %
        (yc.read_rtl(sv), top, s4), os.path.join(d, "ice40.log"))
    c4, _ = yc.stat_cells(s4)
    res["ice40"] = {"lut4": c4.get("SB_LUT4", 0), "carry": c4.get("SB_CARRY", 0),
                    "bram": c4.get("SB_RAM40_4K", 0), "ffs": yc.ffs(c4)}
    return res


def paper_storage(hooks, family, unit, rep):
    """(bits, note) of the paper's storage accounting for a configuration, or
    (None, note): the unit's own "storage_bits", else its family's
    paper_storage hook (module docstring)."""
    if "storage_bits" in rep:
        return rep["storage_bits"], rep.get("paper_note", "-")
    f = yc.hook(hooks, family, "paper_storage")
    got = f(unit, rep) if f else None
    return got if got is not None else (None, rep.get("paper_note", "-"))


def storage_cell(bits, rep):
    """The paper-accounting storage bits, with their parts (e.g. tags, state,
    data) when the unit's report splits them ("storage_parts")."""
    if bits is None:
        return "-"
    parts = rep.get("storage_parts")
    if not parts or "storage_bits" not in rep:
        return fmt_int(bits)
    return "%s (%s)" % (fmt_int(bits), ", ".join("%s %s" % (k, fmt_int(v)) for k, v in parts.items()))


def units_markdown(rows, hooks, family_of):
    if not rows:
        return ""
    L = ["", "## Other units", "",
         "| unit | configuration | RAM (words x bits) | memory bits | FFs | gates | CMOS transistors "
         "| iCE40 LUT4 | carry | SB_RAM40_4K | iCE40 FFs | storage bits (paper accounting) | paper "
         "| paper um^2 per storage bit | ours: RAM bits + FFs | ours / paper |",
         "|" + "---|" * 16]
    for r in rows:
        s, i, rep = r["synth"], r["synth"]["ice40"], r["report"]
        pbits, note = paper_storage(hooks, family_of[r["unit"]], r["unit"], rep)
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
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default=None, help="unit-name prefix; no family table")
    ap.add_argument("--units", default=None,
                    help="only these units' committed configurations (U[,U...]; "
                    "a unit of a family table: that table)")
    ap.add_argument("--configs", default=None,
                    help="only the configurations (modules) of these names (M[,M...])")
    ap.add_argument("--no-ice40", action="store_true",
                    help="the generic runs only (configurations too large for any iCE40)")
    a = ap.parse_args()
    out = yc.mkdir(a.out)
    gen = yc.mkdir(os.path.join(out, "rtl"))
    t0 = time.monotonic()
    hooks = yc.family_hooks()
    only = set(a.units.split(",")) if a.units else None

    # the families' tables: [(hooks, rows)], their units and report meta
    tables, table_units, table_meta = [], set(), {}
    for fam, h in hooks.items():
        units = set(getattr(h, "TABLE_UNITS", ()))
        table_units |= units
        if not units or a.only or (only is not None and not units & only):
            continue
        rows, meta = h.table(a.cohgen, gen)
        tables.append((h, rows))
        table_meta.update(meta)
    cs = [r for _, rows in tables for r in rows]

    us, family_of = [], {}
    listing = yc.subprocess.run([a.cohgen, "--list=configs"], capture_output=True, text=True,
                                check=True).stdout.splitlines()
    for unit, family, module, preset in (l.split() for l in listing):
        family_of[unit] = family
        if unit in table_units or (a.only and not unit.startswith(a.only)) \
                or (only is not None and unit not in only):
            continue
        us.append({"name": module, "unit": unit, "preset": preset,
                   "sv": os.path.join("rtl", family, module + ".sv"),
                   "report": yc.cohgen_report(a.cohgen, ["--config", preset], unit)})

    if a.configs:
        keep = set(a.configs.split(","))
        tables = [(h, [r for r in rows if r["name"] in keep]) for h, rows in tables]
        tables = [(h, rows) for h, rows in tables if rows]
        cs = [r for _, rows in tables for r in rows]
        us = [u for u in us if u["name"] in keep]
    with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = {c["name"]: ex.submit(synth_one, c, out, not a.no_ice40) for c in cs + us}
        pg = progress.Progress(len(cs + us), "configurations")
        for k, c in enumerate(cs + us, 1):
            c["synth"] = futs[c["name"]].result()
            print("synth: %-20s generic %.1f s, ice40 %.1f s" %
                  (c["name"], c["synth"]["generic_s"], c["synth"]["ice40_s"]), file=sys.stderr)
            pg.step(k)
        pg.end()

    yv = yc.subprocess.run(["yosys", "-V"], capture_output=True, text=True).stdout.strip()
    meta = dict({"yosys": yv}, **table_meta)
    meta["wall_s"] = round(time.monotonic() - t0, 1)
    md = "".join(h.table_markdown(rows, meta) for h, rows in tables) + units_markdown(us, hooks, family_of)
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
