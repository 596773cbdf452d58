#!/usr/bin/env python3
"""make coverage's report (mk/coverage.mk, docs/verification.md#coverage).

Reads CB/data/<module>/*.dat (Verilator coverage files, one a process,
tb/cov_hook.h) of each MODULE, sums them, and prints one row a module:
  lines    source lines of the module's files inside a statement block or an
           arm (Verilator's v_line and v_branch points with their source
           lines); a line is covered when every point spanning it ran;
  branches the arms of every if (both arms, an absent else too) and case
           item (Verilator's v_branch points); covered when taken once;
  toggles  every bit of every signal of at most 256 bits (v_toggle); covered
           when it changed twice (so it rose and fell).
An instance's points are added to the other instances' of the same source
(a module instantiated twice is counted once). Writes CB/report/:
  <module>.uncovered.txt  every uncovered line and arm, file:line, source
                          text, why (the waiver's reason when one applies)
  <module>.info           lcov (verilator_coverage --write-info)
  <module>/               annotated sources (verilator_coverage --annotate)
  table.md                the table, as in docs/verification.md
tb/coverage-waivers.txt lists the lines that cannot be reached, each with its
reason: a waiver matching no uncovered point of a measured module is stale
and fails the run, as does a module with no counters. tb/coverage-floor.txt
records each module's line and branch figures as measured: a module below
its floor fails the run (a lost stimulus or a new unreached arm).
  scripts/coverage.py CB MODULE...
"""
import collections
import fnmatch
import glob
import math
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WAIVERS = "tb/coverage-waivers.txt"  # relative to TOP (the script runs there)
FLOORS = "tb/coverage-floor.txt"


def load_floors():
    """module -> (line %, branch %) from tb/coverage-floor.txt."""
    fl = {}
    if os.path.exists(FLOORS):
        with open(FLOORS) as f:
            for no, ln in enumerate(f, 1):
                w = ln.split("#")[0].split()
                if not w:
                    continue
                if len(w) != 3:
                    sys.exit(f"coverage: {FLOORS}:{no}: not 'module line% branch%'")
                fl[w[0]] = (float(w[1]), float(w[2]))
    return fl


def parse_key(k):
    d = {}
    for f in k.split("\x01"):
        if "\x02" in f:
            a, b = f.split("\x02", 1)
            d[a] = b
    return d


def load(files):
    """Points summed over files and instances: (kind, file, line, col, comment, S) -> count."""
    pts = collections.Counter()
    for fn in files:
        with open(fn, encoding="latin-1") as f:
            for ln in f:
                if not ln.startswith("C '"):
                    continue
                i = ln.rindex("'")
                d = parse_key(ln[3:i])
                page = d.get("page", "")
                kind = page.split("/")[0]
                path = os.path.relpath(d.get("f", ""), TOP)
                pts[(kind, path, int(d.get("l", 0)), int(d.get("n", 0)), d.get("o", ""), d.get("S", ""))] += int(ln[i + 1:])
    return pts


def span(s, line):
    out = []
    for part in s.split(","):
        if not part:
            continue
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out or [line]


def load_waivers():
    """[(module glob, text, reason, line no)] from tb/coverage-waivers.txt."""
    w = []
    if not os.path.exists(WAIVERS):
        return w
    with open(WAIVERS) as f:
        for no, ln in enumerate(f, 1):
            if not ln.strip() or ln.lstrip().startswith("#"):
                continue
            parts = [p.strip().replace("\\|", "|") for p in ln.rstrip("\n").replace("\\|", "\\x").split(" | ")]
            parts = [p.replace("\\x", "|") for p in parts]
            if len(parts) != 3 or not all(parts):
                sys.exit(f"coverage: {WAIVERS}:{no}: not 'module-glob | source text | reason'")
            w.append((parts[0], parts[1], parts[2], no))
    return w


def source(path, cache={}):
    if path not in cache:
        try:
            with open(os.path.join(TOP, path)) as f:
                cache[path] = f.read().split("\n")
        except OSError:
            cache[path] = []
    return cache[path]


def block(path, line):
    """The lines from a line ending in 'begin' to its matching 'end'."""
    src = source(path)
    code = lambda l: src[l - 1].split("//")[0]
    if not (0 < line <= len(src)) or not re.search(r"\bbegin\s*$", code(line)):
        return []
    depth, l = 0, line
    while l <= len(src):
        for tok in re.findall(r"\b(begin|end)\b", code(l)):
            depth += 1 if tok == "begin" else -1
        if depth <= 0:
            return list(range(line, l + 1))
        l += 1
    return []


def pct(a, n):
    return f"{100.0 * a / n:.1f}" if n else "-"


def module_report(cb, mod, waivers, used):
    files = glob.glob(os.path.join(cb, "data", mod, "*.dat"))
    if not files:
        return None
    pts = load(files)
    lines = {}  # (file, line) -> covered
    why = collections.defaultdict(list)
    br = brc = tg = tgc = 0
    for (kind, path, line, col, com, s), n in pts.items():
        if kind == "v_toggle":
            tg += 1
            tgc += n >= 2
            continue
        if kind == "v_branch":
            br += 1
            brc += n >= 1
            if n == 0:
                why[(path, line)].append(f"{com} arm never taken" if not s else f"{com} arm never taken")
        if kind in ("v_line", "v_branch") and s:
            for l in span(s, line):
                lines[(path, l)] = lines.get((path, l), True) and n >= 1
                if n == 0 and kind == "v_line" and l == line:
                    why[(path, l)].append("block never ran")
    unc = sorted(k for k, c in lines.items() if not c)
    unc_set = set(unc) | set(why)

    def waiver(path, l):
        text = source(path)[l - 1].strip() if 0 < l <= len(source(path)) else ""
        for i, (g, t, r, _) in enumerate(waivers):
            if fnmatch.fnmatch(mod, g) and t in text:
                used.add(i)
                return r
        return None

    # a waived arm (its if or case line matched) waives the lines it spans,
    # and when that line opens a begin, every line to its end (nested arms)
    arm_reason = {}
    for (kind, path, line, col, com, s), n in pts.items():
        if kind == "v_branch" and n == 0:
            r = waiver(path, line)
            if r:
                for l in (span(s, line) if s else [line]) + block(path, line):
                    arm_reason.setdefault((path, l), r)
    for path, l in sorted(unc_set):  # so does a waived line opening a begin
        r = waiver(path, l)
        if r:
            for k in block(path, l):
                arm_reason.setdefault((path, k), r)
    waived_lines = 0
    rows = []
    for path, l in sorted(unc_set):
        text = source(path)[l - 1].strip() if 0 < l <= len(source(path)) else ""
        reason = waiver(path, l) or arm_reason.get((path, l))
        if reason and (path, l) in lines and not lines[(path, l)]:
            waived_lines += 1
        rows.append(f"{path}:{l}: {text}\n    {'; '.join(why.get((path, l), ['a line of an arm never taken']))}"
                    + (f"\n    waived: {reason}" if reason else "\n    NOT WAIVED"))
    rep = os.path.join(cb, "report")
    with open(os.path.join(rep, f"{mod}.uncovered.txt"), "w") as f:
        f.write(f"# {mod}: uncovered lines and arms (scripts/coverage.py)\n")
        f.write("".join(r + "\n" for r in rows))
    subprocess.run(["verilator_coverage", "--write-info", os.path.join(rep, f"{mod}.info")] + files,
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["verilator_coverage", "--annotate-min", "1", "--annotate-all", "--annotate", os.path.join(rep, mod)] + files,
                   check=True, stdout=subprocess.DEVNULL)
    nl = len(lines)
    nlc = nl - len(unc)
    return dict(mod=mod, procs=len(files), lines=nl, lines_cov=nlc, br=br, brc=brc, tg=tg, tgc=tgc,
                unc_lines=len(unc), waived=waived_lines, unc_br=br - brc)


def main():
    os.chdir(TOP)
    cb, mods = sys.argv[1], sys.argv[2:]
    if not mods:
        sys.exit("coverage: no module to report")
    os.makedirs(os.path.join(cb, "report"), exist_ok=True)
    units = {}
    out = subprocess.run([os.path.join(TOP, "build", "bin", "cohgen"), "--list=configs"], capture_output=True,
                         text=True, check=True).stdout
    for ln in out.splitlines():
        u, fam, m, c = ln.split()
        units[m] = (u, c)
    waivers = load_waivers()
    used = set()
    res, bad = [], 0
    for m in mods:
        r = module_report(cb, m, waivers, used)
        if r is None:
            print(f"coverage: {m}: no counters under {cb}/data/{m}")
            bad = 1
            continue
        res.append(r)
    head = "| unit | configuration | lines | line % | branches | branch % | toggle bits | toggle % | uncovered lines (waived) |"
    sep = "|---|---|---:|---:|---:|---:|---:|---:|---:|"
    tab = [head, sep]
    for r in res:
        u, c = units.get(r["mod"], (r["mod"], "?"))
        tab.append(f"| {u} | {c} | {r['lines']} | {pct(r['lines_cov'], r['lines'])} | {r['br']} | "
                   f"{pct(r['brc'], r['br'])} | {r['tg']} | {pct(r['tgc'], r['tg'])} | "
                   f"{r['unc_lines']} ({r['waived']}) |")
    text = "\n".join(tab) + "\n"
    with open(os.path.join(cb, "report", "table.md"), "w") as f:
        f.write(text)
    print(text, end="")
    for i, (g, t, r, no) in enumerate(waivers):
        if i not in used and any(fnmatch.fnmatch(m, g) for m in mods):
            print(f"coverage: {WAIVERS}:{no}: stale waiver ('{g}', '{t}'): no uncovered point matches")
            bad = 1
    floors = load_floors()
    if os.environ.get("COV_WRITE_FLOORS") == "1":  # make coverage COV_WRITE_FLOORS=1: record this run
        for r in res:
            floors[r["mod"]] = tuple(math.floor(1000.0 * a / n) / 10 if n else 100.0
                                     for a, n in ((r["lines_cov"], r["lines"]), (r["brc"], r["br"])))
        with open(FLOORS, "w") as f:
            f.write("# make coverage's floors: module, line %, branch % (scripts/coverage.py;\n"
                    "# written by make coverage COV_WRITE_FLOORS=1, the figures rounded down)\n")
            for m in sorted(floors):
                f.write(f"{m} {floors[m][0]:.1f} {floors[m][1]:.1f}\n")
    for r in res:
        if r["mod"] in floors:
            lf, bf = floors[r["mod"]]
            lp = 100.0 * r["lines_cov"] / r["lines"] if r["lines"] else 100.0
            bp = 100.0 * r["brc"] / r["br"] if r["br"] else 100.0
            if lp + 1e-9 < lf or bp + 1e-9 < bf:
                print(f"coverage: {r['mod']}: lines {lp:.1f} %, branches {bp:.1f} %: below its floor "
                      f"({lf} %, {bf} %, {FLOORS})")
                bad = 1
    below = [r["mod"] for r in res
             if r["lines"] and 100.0 * (r["lines_cov"] + r["waived"]) / r["lines"] < 95.0]
    print(f"coverage: {len(res)} modules; uncovered lines in {cb}/report/<module>.uncovered.txt; "
          f"below 95 % of lines (waived lines counted as explained): {' '.join(below) or 'none'}")
    sys.exit(bad)


if __name__ == "__main__":
    main()
