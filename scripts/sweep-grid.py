#!/usr/bin/env python3
"""Sweeps over the papers' parameters (make sweep-grid, docs/hardware-cost.md).

  scripts/sweep-grid.py --out DIR GRID...
  scripts/sweep-grid.py --check GRID...     only check the grids' lines
  scripts/sweep-grid.py --point DIR UNIT NAME [cohgen options...]   (one task)

A grid (tb/<family>/grid.txt) holds one configuration a line,
`UNIT NAME cohgen-options`, '#' comments and blank lines aside; every line
of a grid names a unit of one family, NAME ([A-Za-z0-9_]+) once a grid.
Every line of every grid is checked first (cohgen must accept its options):
a bad line is refused with `sweep-grid: FILE:LINE: reason` on standard
error, exit 2, and nothing is written.

Each configuration is one task of scripts/jobs.sh (SCHED=local: JOBS at a
time; SCHED=slurm: one job array, docs/cluster.md) running --point:
  build      scripts/unit-bench.sh: generation, lint (scripts/lint.sh: the
             three tools), Verilator, the one-configuration bench
  lockstep   the bench, GRID_CYCLES (20,000) cycles, seed 1: PASS required
             (and no broken promise where the bench counts them)
  synth      Yosys generic, make synth's flow (synth/run.py synth_one):
             flip-flops, gate cells, inferred RAMs and their bits
  fpga       with GRID_FPGA=1 only: the self-test top (cohgen --selftest),
             synth_ice40 and fpga/pnr.sh on the HX8K (make fpga's flow):
             LUT4, SB_RAM40_4K, Fmax
and leaves DIR/result.json. The results are gathered into DIR/<family>.csv,
.json and .md a grid and DIR/report.md (every family's table found in DIR).
A configuration that failed is a FAIL row naming its step and the command
that failed; the run then exits 1.
"""
import argparse
import csv
import datetime
import importlib.util
import json
import os
import re
import shlex
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "synth"))
import yosys_common as yc  # noqa: E402

B = os.environ.get("B", "build")
COHGEN = os.path.join(B, "bin", "cohgen")
FPGA_SEED = "0x12345678"
FPGA_CYCLES = "131072"
FPGA_DEV = ("hx8k", "--hx8k --package ct256", "0")  # device, nextpnr options, LED polarity
FPGA_FREQ = "50"
NAME_RE = re.compile(r"^[A-Za-z0-9_]+$")
METRICS = ["storage_bits", "ffs", "gates", "mem_bits", "rams", "bram_min", "lut4", "bram", "fmax_mhz"]


class BadGrid(Exception):
    pass


def synth_run():
    """synth/run.py as a module (synth_one, paper_storage: make synth's flow)."""
    spec = importlib.util.spec_from_file_location("synth_run", os.path.join(ROOT, "synth", "run.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def units():
    """{unit: (family, module prefix)} of `cohgen --list=units`."""
    r = subprocess.run([COHGEN, "--list=units"], capture_output=True, text=True, check=True)
    return {u: (f, p) for u, f, p in (l.split()[:3] for l in r.stdout.splitlines() if l.strip())}


def option_pairs(opts):
    """[(key, value)] of cohgen options: `--key value`, or `--flag` alone ("on")."""
    out, i = [], 0
    while i < len(opts):
        k = opts[i].lstrip("-")
        if i + 1 < len(opts) and not opts[i + 1].startswith("--"):
            out.append((k, opts[i + 1]))
            i += 2
        else:
            out.append((k, "on"))
            i += 1
    return out


def check_line(path, ln, words, known, family, names):
    """One grid line's configuration, or BadGrid naming FILE:LINE."""
    where = "%s:%d" % (path, ln)
    if len(words) < 2:
        raise BadGrid("%s: '%s': not 'UNIT NAME cohgen-options'" % (where, " ".join(words)))
    unit, name, opts = words[0], words[1], words[2:]
    if unit not in known:
        raise BadGrid("%s: unit '%s' is not a unit of cohgen --list=units" % (where, unit))
    if not NAME_RE.match(name):
        raise BadGrid("%s: name '%s' is not [A-Za-z0-9_]+" % (where, name))
    if name in names:
        raise BadGrid("%s: name '%s' is already line %d's" % (where, name, names[name]))
    if family is not None and known[unit][0] != family:
        raise BadGrid("%s: unit '%s' is not of the grid's family %s" % (where, unit, family))
    bad = [o for o in opts if o in ("--name", "-o", "--selftest", "--harness")]
    if bad:
        raise BadGrid("%s: option '%s' is the sweep's own" % (where, bad[0]))
    r = subprocess.run([COHGEN, unit] + opts + ["--report", "--json"], capture_output=True, text=True)
    if r.returncode != 0:
        msg = (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[0]
        raise BadGrid("%s: cohgen refuses '%s': %s" % (where, " ".join(opts), msg))
    return {"unit": unit, "name": name, "opts": opts, "line": ln}


def read_grid(path, known):
    """(family, [configuration]) of a grid file; BadGrid on a bad line."""
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise BadGrid("%s: cannot be read (%s)" % (path, e.strerror))
    family, names, out = None, {}, []
    for ln, text in enumerate(lines, 1):
        words = text.split("#", 1)[0].split()
        if not words:
            continue
        c = check_line(path, ln, words, known, family, names)
        family = known[c["unit"]][0]
        names[c["name"]] = ln
        out.append(c)
    if not out:
        raise BadGrid("%s: no configuration (lines 'UNIT NAME cohgen-options')" % path)
    return family, out


# ---- one configuration (a task) ------------------------------------------

def step(res, name, cmd, log):
    """Runs a command (a list) into log; False (and res's failure) if it failed."""
    with open(log, "w") as f:
        r = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT)
    if r.returncode != 0:
        res.update(failed_step=name, command=shlex.join(cmd), log=log)
        return False
    return True


def lockstep(res, d, family, unit, name):
    cycles = os.environ.get("GRID_CYCLES", "20000")
    cmd = [os.path.join(d, "tb_" + family), "--unit", unit, "--config", name, "--seed", "1",
           "--cycles", cycles, "--fail-prefix", os.path.join(d, "fail")]
    log = os.path.join(d, "lockstep.log")
    ok = step(res, "lockstep", cmd, log)
    with open(log) as f:
        text = f.read()
    last = text.strip().splitlines()[-2:]
    if ok and (not any(l.startswith("PASS") for l in last) or re.search(r"^broken promises [1-9]", text, re.M)):
        res.update(failed_step="lockstep", command=shlex.join(cmd), log=log)
        ok = False
    res["lockstep"] = "PASS" if ok else "FAIL"
    return ok


def synth(res, d, mod, sr):
    try:
        s = sr.synth_one({"name": mod, "sv": os.path.join(d, "rtl", mod + ".sv")},
                         yc.mkdir(os.path.join(d, "synth")), False)
    except (RuntimeError, OSError, subprocess.SubprocessError) as e:  # a Yosys failure is a FAIL row
        # the configuration's own task reruns it (the Yosys script: the log's head)
        res.update(failed_step="synth", command=task_command(d, {"unit": res["unit"], "name": res["name"],
                                                                 "opts": res["options"].split()}),
                   log=str(e).splitlines()[0][:300])
        return False
    res.update(ffs=s["ffs"], gates=s["gates"], mem_bits=s["mem_bits"], rams=" ".join(s["mems"]) or "-")
    mems = [m.split("x") for m in s["mems"]]
    res["bram_min"] = sum(yc.ice40_min_brams(int(w), int(b)) for w, b in mems)
    return True


def fpga(res, d, unit, opts, mod):
    """The self-test top through synth_ice40 and nextpnr (fpga/fpga.mk's flow)."""
    fd = yc.mkdir(os.path.join(d, "fpga", mod))  # (fpga/pnr.sh names a run by its folder)
    dev, devopts, led = FPGA_DEV
    top, sv = mod + "_selftest", os.path.join(d, "rtl", mod + ".sv")
    if not step(res, "fpga", [COHGEN, unit] + opts + ["--name", mod, "--selftest", "--selftest-seed", FPGA_SEED,
                                                      "--selftest-cycles", FPGA_CYCLES, "-o", fd],
                os.path.join(fd, "selftest.log")):
        return False
    script = ("read_verilog -sv %s %s; hierarchy -libdir %s -top %s; chparam -set LedActiveLow %s %s; "
              "synth_ice40 -top %s -json %s; check -assert; tee -q -o %s stat -json" %
              (os.path.join(fd, top + ".sv"), sv, os.path.dirname(sv), top, led, top, top,
               os.path.join(fd, dev + ".json"), os.path.join(fd, dev + ".stat.json")))
    if not step(res, "fpga", ["yosys", "-q", "-l", os.path.join(fd, dev + ".synth.log"), "-p", script],
                os.path.join(fd, "yosys.log")):
        return False
    cells, _ = yc.stat_cells(os.path.join(fd, dev + ".stat.json"))
    res.update(lut4=cells.get("SB_LUT4", 0), bram=cells.get("SB_RAM40_4K", 0))
    if not step(res, "fpga", [here("fpga", "pnr.sh"), fd, dev, FPGA_FREQ, devopts, "1"],
                os.path.join(fd, "pnr.out")):
        return False
    rep = os.path.join(fd, dev + ".report.json")
    if os.path.exists(os.path.join(fd, dev + ".nofit")) or not os.path.exists(rep):
        res["fmax_mhz"] = "no fit"
    else:
        with open(rep) as f:
            res["fmax_mhz"] = round(next(iter(json.load(f)["fmax"].values()))["achieved"], 2)
    return True


def point(d, unit, name, opts):
    """One configuration: build, lockstep, synthesis (and iCE40): d/result.json."""
    t0 = time.monotonic()
    family, prefix = units()[unit]
    mod = "%s_%s" % (prefix, name)
    res = {"unit": unit, "name": name, "options": " ".join(opts), "module": mod, "lockstep": "-",
           "status": "FAIL", "failed_step": "", "command": ""}
    res.update({k: "-" for k in METRICS})
    sr = synth_run()
    rep = yc.cohgen_report(COHGEN, opts, unit)
    bits, _ = sr.paper_storage(yc.family_hooks(), family, unit, rep)
    res["storage_bits"] = bits if bits is not None else "-"
    parent = yc.mkdir(os.path.dirname(os.path.abspath(d)))
    log = os.path.join(parent, name + ".build.log")
    os.environ.setdefault("VOPT", "-O1")  # a short run: compile time counts more than speed
    ok = (step(res, "build", [here("scripts", "unit-bench.sh"), os.path.relpath(parent), name, unit] + opts, log)
          and lockstep(res, d, family, unit, name) and synth(res, d, mod, sr))
    if ok and os.environ.get("GRID_FPGA", "0") == "1":
        ok = fpga(res, d, unit, opts, mod)
    res["seconds"] = round(time.monotonic() - t0, 1)
    res["status"] = "PASS" if ok else "FAIL"
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "result.json.tmp"), "w") as f:
        json.dump(res, f, indent=1)
    os.replace(os.path.join(d, "result.json.tmp"), os.path.join(d, "result.json"))
    print("sweep-grid: %s %s %s %.1f s" % ("PASS" if ok else "FAIL", unit, name, res["seconds"]))
    return 0 if ok else 1


# ---- the whole sweep: task list, reports -------------------------------

def here(*path):
    """A path of the kit as the tasks see it: relative to the folder they run in."""
    return os.path.relpath(os.path.join(ROOT, *path))


def task_command(d, c):
    return shlex.join([here("scripts", "sweep-grid.py"), "--point", d, c["unit"], c["name"]] + c["opts"])


def gather(grids, tasks_dir):
    """Every configuration's result (a FAIL row for a task that left none)."""
    k = 0
    for g in grids:
        for c in g["configs"]:
            k += 1
            try:
                with open(os.path.join(c["dir"], "result.json")) as f:
                    c["result"] = json.load(f)
            except (OSError, ValueError):
                r = {"unit": c["unit"], "name": c["name"], "options": " ".join(c["opts"]), "lockstep": "-",
                     "status": "FAIL", "failed_step": "task", "command": c["task"],
                     "log": os.path.join(tasks_dir, "task-%d.err" % k)}
                r.update({m: "-" for m in METRICS})
                c["result"] = r


def params_of(configs):
    """The option names a grid varies, in the order they first appear."""
    keys = []
    for c in configs:
        for k, _ in option_pairs(c["opts"]):
            if k not in keys:
                keys.append(k)
    return keys


COLUMNS = [("storage_bits", "storage bits"), ("ffs", "FFs"), ("gates", "gates"), ("mem_bits", "RAM bits"),
           ("rams", "RAMs (words x bits)"), ("bram_min", "SB_RAM40_4K (fewest)"), ("lut4", "LUT4"),
           ("bram", "SB_RAM40_4K"), ("fmax_mhz", "Fmax MHz"), ("lockstep", "lockstep"), ("status", "result")]


def rams_cell(rams):
    """'2x64 2x64 8x16' -> '2 x (2x64), 8x16': equal RAMs counted."""
    shapes = rams.split() if rams != "-" else []
    seen = [s for i, s in enumerate(shapes) if s not in shapes[:i]]
    return ", ".join(("%d x (%s)" % (shapes.count(s), s)) if shapes.count(s) > 1 else s for s in seen) or "-"


def rows_of(g):
    keys = params_of(g["configs"])
    rows = []
    for c in g["configs"]:
        r, p = dict(c["result"]), dict(option_pairs(c["opts"]))
        r["params"] = {k: p.get(k, "-") for k in keys}
        r["rams"] = rams_cell(r["rams"])
        rows.append(r)
    return keys, rows


def cell(v):
    return yc.fmt_int(v) if isinstance(v, int) else str(v)


def markdown(g, keys, rows, meta):
    n_fail = sum(r["status"] != "PASS" for r in rows)
    L = ["## %s" % g["family"], "",
         "`%s`: %d configurations, %d failed; %s cycles of lockstep a configuration; Yosys generic%s; "
         "commit %s, %s, %s." % (g["path"], len(rows), n_fail, meta["cycles"],
                                 ", iCE40 HX8K self-test top (synth_ice40, nextpnr)" if meta["fpga"] else
                                 " (iCE40 off: GRID_FPGA=1)", meta["commit"], meta["yosys"], meta["date"]), "",
         "| unit | name | " + " | ".join("--" + k for k in keys) + " | " +
         " | ".join(h for _, h in COLUMNS) + " |",
         "|" + "---|" * (2 + len(keys) + len(COLUMNS))]
    for r in rows:
        L.append("| %s | %s | %s | %s |" % (r["unit"], r["name"], " | ".join(r["params"][k] for k in keys),
                                           " | ".join(cell(r[c]) for c, _ in COLUMNS)))
    fails = [r for r in rows if r["status"] != "PASS"]
    if fails:
        L += ["", "Failed:", ""]
        L += ["- %s %s: %s: `%s`" % (r["unit"], r["name"], r["failed_step"], r["command"]) for r in fails]
    return "\n".join(L) + "\n"


def write(path, text):
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def write_family(out, g, meta):
    keys, rows = rows_of(g)
    base = os.path.join(out, g["family"])
    with open(base + ".csv.tmp", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["unit", "name"] + keys + [c for c, _ in COLUMNS] + ["seconds", "failed_step", "command"])
        for r in rows:
            w.writerow([r["unit"], r["name"]] + [r["params"][k] for k in keys] + [r[c] for c, _ in COLUMNS] +
                       [r.get("seconds", "-"), r["failed_step"], r["command"]])
    os.replace(base + ".csv.tmp", base + ".csv")
    write(base + ".json", json.dumps({"family": g["family"], "grid": g["path"], "meta": meta, "params": keys,
                                      "rows": rows}, indent=1) + "\n")
    write(base + ".md", markdown(g, keys, rows, meta))
    return sum(r["status"] != "PASS" for r in rows)


def write_report(out):
    """report.md: every family's table in OUT (this run's and earlier ones')."""
    fams = sorted(f[:-5] for f in os.listdir(out) if f.endswith(".json") and os.path.exists(
        os.path.join(out, f[:-5] + ".md")))
    L = ["# Sweeps over the papers' parameters", "",
         "`make sweep-grid` (scripts/sweep-grid.py): a table a family, from `%s/<family>.md`." % out, ""]
    for fam in fams:
        with open(os.path.join(out, fam + ".md")) as f:
            L.append(f.read())
    write(os.path.join(out, "report.md"), "\n".join(L))


def meta_of(t0):
    def out(cmd):
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
        return r.stdout.strip() if r.returncode == 0 else "-"
    return {"cycles": int(os.environ.get("GRID_CYCLES", "20000")), "fpga": os.environ.get("GRID_FPGA", "0") == "1",
            "commit": out(["git", "rev-parse", "--short", "HEAD"]), "yosys": out(["yosys", "-V"]),
            "sched": os.environ.get("SCHED", "local"), "wall_s": round(time.monotonic() - t0, 1),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}


def run_all(out, grids):
    t0 = time.monotonic()
    tasks = os.path.join(out, "tasks")
    os.makedirs(tasks, exist_ok=True)
    lines = []
    for g in grids:
        for c in g["configs"]:
            c["dir"] = os.path.join(out, "points", g["family"], c["name"])
            c["task"] = task_command(c["dir"], c)
            lines.append(c["task"])
    write(os.path.join(tasks, "list.txt"), "\n".join(lines) + "\n")
    sys.stdout.flush()
    env = dict(os.environ, JOBS_NAME=os.environ.get("JOBS_NAME", "cohkit-sweep-grid"))
    jr = subprocess.run([here("scripts", "jobs.sh"), os.path.join(tasks, "list.txt"), os.path.join(tasks, "out")],
                        env=env)
    if jr.returncode == 2:
        return 2
    gather(grids, os.path.join(tasks, "out"))
    meta = meta_of(t0)
    fails = 0
    for g in grids:
        n = write_family(out, g, meta)
        fails += n
        print("sweep-grid: %s: %d configurations, %d failed; %s/%s.{csv,json,md}" %
              (g["family"], len(g["configs"]), n, out, g["family"]))
        for c in g["configs"]:
            r = c["result"]
            if r["status"] != "PASS":
                print("sweep-grid: FAIL %s %s (%s): %s" % (r["unit"], r["name"], r["failed_step"], r["command"]))
    write_report(out)
    print("sweep-grid: %d failed of %d, %.0f s; %s/report.md" %
          (fails, sum(len(g["configs"]) for g in grids), time.monotonic() - t0, out))
    return 1 if fails else 0


def main(argv):
    ap = argparse.ArgumentParser(description="sweeps over the papers' parameters (make sweep-grid)")
    ap.add_argument("--out", help="reports folder (make sweep-grid: build/sweep-grid)")
    ap.add_argument("--point", help="one configuration's folder (a task of the list)")
    ap.add_argument("--check", action="store_true", help="check the grids' lines only, run nothing")
    ap.add_argument("args", nargs=argparse.REMAINDER)
    a = ap.parse_args(argv)
    if a.point:
        if len(a.args) < 2 or os.path.basename(os.path.normpath(a.point)) != a.args[1]:
            print("sweep-grid: --point DIR UNIT NAME [options]: DIR must end in NAME", file=sys.stderr)
            return 2
        return point(a.point, a.args[0], a.args[1], a.args[2:])
    if not (a.out or a.check) or not a.args:
        print("sweep-grid: usage: scripts/sweep-grid.py --out DIR GRID... (or --check GRID...)", file=sys.stderr)
        return 2
    if os.environ.get("SCHED", "local") not in ("local", "slurm"):
        print("sweep-grid: SCHED: '%s' is not local or slurm" % os.environ["SCHED"], file=sys.stderr)
        return 2
    known = units()
    grids, seen = [], {}
    try:
        for path in a.args:
            fam, configs = read_grid(path, known)
            if fam in seen:
                raise BadGrid("%s: family %s's grid is already %s" % (path, fam, seen[fam]))
            seen[fam] = path
            grids.append({"path": path, "family": fam, "configs": configs})
    except BadGrid as e:
        print("sweep-grid: %s" % e, file=sys.stderr)
        return 2
    if a.check:
        print("sweep-grid: %d configurations of %d grids accepted" % (sum(len(g["configs"]) for g in grids),
                                                                      len(grids)))
        return 0
    os.makedirs(a.out, exist_ok=True)
    return run_all(a.out, grids)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
