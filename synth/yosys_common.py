"""Shared helpers of the synthesis flow (synth/run.py, synth/check.py).

Yosys 0.23 scripts, stat parsing, the report of cohgen and the families'
hooks (family_hooks).
Cell classes: flip-flops are every Yosys fine FF ($_DFF*, $_SDFF*, $_ALDFF*,
$_DFFSR*) or iCE40 SB_DFF*; latches are counted apart; $mem_v2 cells are the
inferred RAMs (their bits are reported apart from the logic).
"""
import importlib.util
import json
import math
import os
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FF_PREFIXES = ("$_DFF", "$_SDFF", "$_ALDFF", "$_DFFSR", "$_DFFE", "SB_DFF")
LATCH_PREFIXES = ("$_DLATCH", "$_SR_", "$dlatch", "$adlatch", "$sr")

# Generic flow: Yosys `synth` up to (not including) memory_map, then the rest
# of its `fine` step, so an inferred $mem_v2 stays a RAM macro and its bits are
# reported apart from the gates.
GENERIC = ("synth -flatten -top {top} -run begin:fine; opt -fast -full; opt -full; "
           "techmap; opt -fast; abc -fast; opt -fast; hierarchy -check; check -assert")


def read_rtl(sv):
    """Reads a unit's file; a composite's part modules (gen/parts.h: files
    named after them, beside it) are found by name."""
    return "read_verilog -sv %s; hierarchy -libdir %s" % (sv, os.path.dirname(sv) or ".")


def run_yosys(script, log, timeout=1800):
    """Runs yosys -q on a script; returns elapsed seconds. Raises on failure."""
    t0 = time.monotonic()
    with open(log, "w") as f:
        r = subprocess.run(["yosys", "-q", "-l", log + ".full", "-p", script],
                           stdout=f, stderr=subprocess.STDOUT, timeout=timeout)
    dt = time.monotonic() - t0
    if r.returncode != 0:
        with open(log) as f:
            tail = f.read()[-2000:]
        raise RuntimeError("yosys failed (see %s):\n%s" % (log, tail))
    return dt


def stat_cells(path):
    """Cells by type of the (single) top module of a `stat -json` file."""
    with open(path) as f:
        d = json.load(f)
    return d["design"]["num_cells_by_type"], d


def count(cells, prefixes):
    return sum(n for t, n in cells.items() if t.startswith(prefixes))


def ffs(cells):
    return count(cells, FF_PREFIXES)


def latches(cells):
    return count(cells, LATCH_PREFIXES)


def gates(cells):
    """Generic gate cells: every fine cell that is not a FF, latch or RAM."""
    return sum(n for t, n in cells.items()
               if t.startswith("$_") and not t.startswith(FF_PREFIXES + LATCH_PREFIXES))


def mem_cells(netlist_json):
    """[(name, size, width, read ports, write ports)] of $mem_v2 cells."""
    with open(netlist_json) as f:
        d = json.load(f)
    out = []
    for mod in d["modules"].values():
        for name, c in mod["cells"].items():
            if c["type"] not in ("$mem_v2", "$mem"):
                continue
            p = c["parameters"]
            def num(v):
                return int(v, 2) if isinstance(v, str) else int(v)
            out.append((p.get("MEMID", name), num(p["SIZE"]), num(p["WIDTH"]),
                        num(p["RD_PORTS"]), num(p["WR_PORTS"])))
    return out


def cohgen_report(cohgen, args, unit):
    """`cohgen <unit> ARGS --report --json`, parsed."""
    r = subprocess.run([cohgen, unit] + args + ["--report", "--json"],
                       capture_output=True, text=True, check=True)
    return json.loads(r.stdout)


def ice40_min_brams(sets, width):
    """Fewest SB_RAM40_4K (4 kbit; 256x16, 512x8, 1024x4, 2048x2) that hold
    sets x width bits with one read and one write port."""
    best = None
    for depth, w in ((256, 16), (512, 8), (1024, 4), (2048, 2)):
        n = math.ceil(sets / depth) * math.ceil(width / w)
        best = n if best is None else min(best, n)
    return best


def ff_bound(set_word_bits):
    """Upper bound on flip-flops of a directory whose entry array is a RAM:
    the read-data word, the stage-2 word, the forwarded word, plus 512 bits
    of pipeline and job state (no collision bypass: the RAM is marked
    no_rw_check). An array mapped to flip-flops needs
    sets x set_word_bits, far above this for every multi-set config."""
    return 3 * set_word_bits + 512


def family_hooks():
    """{family: module} of the families' own parts of the flow,
    scripts/<family>-synth.py for a family (a folder of cmodel/) that has
    one. A module may define (each optional):
      paper_storage(unit, rep)  (bits, note) of the paper's storage accounting
                                of a report without "storage_bits", or None
      expected_mems(unit, rep)  [(words, bits)] the RTL must infer as RAM for
                                a report without "rtl_memories", or None
      CHECK_EVERY_PRESET        units make synth-check takes at every
                                committed preset (not only default and fpga)
      CHECK_REGRESS_ONLY        (unit, preset)s whose Yosys checks run in make
                                regress only (synth-check-long): slow runs of
                                a generator make test checks on its smaller
                                configurations
      ICE40_CHECKS_REGRESS      iCE40 runs of make regress only
      ICE40_CHECKS              (unit, preset)s make synth-check also takes
                                through synth_ice40 (block RAMs, FF bound)
      NEGATIVE_CONTROLS         (unit, preset)s checked with their RAMs forced
                                into flip-flops: both RAM checks must fail
      TABLE_UNITS, table(cohgen, gen_dir), table_markdown(rows, meta)
                                a table of make synth ahead of the other
                                units' rows: its configurations ({name, args,
                                role, sv, report}; generated ones written to
                                gen_dir) and the report meta it adds, then
                                its Markdown once synthesized (row["synth"])"""
    hooks = {}
    for fam in sorted(os.listdir(os.path.join(ROOT, "cmodel"))):
        path = os.path.join(ROOT, "scripts", fam + "-synth.py")
        if not os.path.isdir(os.path.join(ROOT, "cmodel", fam)) or not os.path.exists(path):
            continue
        spec = importlib.util.spec_from_file_location(fam + "_synth", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        hooks[fam] = mod
    return hooks


def hook(hooks, family, name, default=None):
    """A family's hook (family_hooks), or default."""
    return getattr(hooks.get(family), name, default)


def fmt_int(n):
    return "{:,}".format(n) if isinstance(n, int) else str(n)


def mkdir(p):
    os.makedirs(p, exist_ok=True)
    return p
