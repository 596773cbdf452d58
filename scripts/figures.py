#!/usr/bin/env python3
"""make figures / make figures-check: the families' figures and README's
Results section, from the committed CSV files alone (no model run).

  scripts/figures.py --write   docs/figures/<family>.png and the section
                               between README's results markers
  scripts/figures.py --check   the same into a temporary directory, compared
                               with the committed files; exit 1 naming each
                               file that differs
  options: --results DIR (results), --figures DIR (docs/figures),
           --readme FILE (README.md)

A family has a figure when scripts/<family>-figure.gp exists: gnuplot
(pngcairo, a fixed size, font and no timestamp: the PNG is byte for byte
the same on every run) reads DIR/<family>.csv (written by make results,
scripts/results.sh) and DIR/paper-<family>.csv when there is one (the
paper's values, typed from the paper with the section per row).

Every CSV is checked before anything is drawn: '#' comment lines first
(`# key: value`), a header of distinct names, then rows of as many
non-empty fields, a column numeric in its first row numeric in every row;
a family's data names its command, commit, machine, tools, title and
caption. A malformed file: one line 'figures: FILE:LINE: reason' on
standard error, exit 2, nothing written.
"""
import os
import hashlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN, END = "<!-- results:begin -->", "<!-- results:end -->"
FONT = "DejaVu Sans,10"
INLINE_ROWS = 50  # a larger table stays in its CSV (its digest is in the section)
META = ("command", "commit", "machine", "tools", "title", "caption")
NUM = re.compile(r"^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$")
NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")


class BadInput(Exception):
    pass


def parse_csv(path, shown):
    """(meta, header, rows) of a results CSV; BadInput naming shown:line."""
    meta, header, rows, numeric = {}, None, [], None
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for n, ln in enumerate(lines, 1):
        where = "%s:%d" % (shown, n)
        if ln.startswith("#"):
            if header is not None:
                raise BadInput("%s: a comment after the header" % where)
            m = re.match(r"^# ([a-z-]+): (.*)$", ln)
            if m:
                meta[m.group(1)] = m.group(2)
            continue
        fields = ln.split(",")
        if any(c in ln for c in "\"\r\t") or any(x != x.strip() or x == "" for x in fields):
            raise BadInput("%s: an empty field, quotes or blanks around a field" % where)
        if header is None:
            if any(not NAME.match(x) for x in fields) or len(set(fields)) != len(fields):
                raise BadInput("%s: the header must be distinct names of letters, digits and _" % where)
            header = fields
            continue
        if len(fields) != len(header):
            raise BadInput("%s: %d fields, the header has %d" % (where, len(fields), len(header)))
        if numeric is None:
            numeric = [bool(NUM.match(x)) for x in fields]
        for x, num, name in zip(fields, numeric, header):
            if num and not NUM.match(x):
                raise BadInput("%s: column %s is numeric, '%s' is not a number" % (where, name, x))
        rows.append(fields)
    if header is None or not rows:
        raise BadInput("%s:%d: no header or no data row" % (shown, len(lines)))
    return meta, header, rows


def load(results):
    """Every family with a figure script: its data, its paper values."""
    fams = sorted(f[:-len("-figure.gp")] for f in os.listdir(os.path.join(ROOT, "scripts"))
                  if f.endswith("-figure.gp"))
    out = []
    for fam in fams:
        path = os.path.join(results, fam + ".csv")
        shown = "results/%s.csv" % fam
        if not os.path.isfile(path):
            raise BadInput("%s:0: missing (make results-%s)" % (shown, fam))
        meta, header, rows = parse_csv(path, shown)
        missing = [k for k in META if k not in meta]
        if missing:
            raise BadInput("%s:1: no '# %s:' header line (make results-%s)" % (shown, missing[0], fam))
        paper = os.path.join(results, "paper-%s.csv" % fam)
        pdata = None
        if os.path.isfile(paper):
            pdata = parse_csv(paper, "results/paper-%s.csv" % fam)
            if "source" not in pdata[1]:
                raise BadInput("results/paper-%s.csv:1: no 'source' column (the paper's section per row)" % fam)
        with open(path, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()[:16]
        out.append({"fam": fam, "csv": path, "sha": digest, "meta": meta, "header": header, "rows": rows,
                    "paper": paper if pdata else None, "pdata": pdata})
    for f in os.listdir(results):
        # every CSV is checked, also one no figure reads yet
        if f.endswith(".csv") and not any(f in (d["fam"] + ".csv", "paper-%s.csv" % d["fam"]) for d in out):
            parse_csv(os.path.join(results, f), "results/" + f)
    return out


def plot(d, outdir):
    """Draws d's figure into outdir/<family>.png with gnuplot."""
    gp = os.path.join(ROOT, "scripts", d["fam"] + "-figure.gp")
    size = "900,540"
    with open(gp, encoding="utf-8") as f:
        m = re.search(r"^# figure-size: ([0-9]+,[0-9]+)$", f.read(), re.M)
        if m:
            size = m.group(1)
    out = os.path.join(outdir, d["fam"] + ".png")
    for p in (out, d["csv"], d["paper"] or ""):
        if "'" in p:
            raise BadInput("%s:0: a path with a quote" % p)
    pre = ("set terminal pngcairo size %s font '%s' noenhanced; set output '%s'; "
           "datafile = '%s'; paperfile = '%s'" % (size, FONT, out, d["csv"], d["paper"] or ""))
    r = subprocess.run(["gnuplot", "-e", pre, gp], capture_output=True, text=True)
    if r.returncode != 0 or r.stderr.strip():
        msg = (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[-1]
        raise RuntimeError("figures: gnuplot on scripts/%s-figure.gp: %s" % (d["fam"], msg))
    return out


def md_table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def section(data):
    """README's Results section (between the markers) from the CSVs."""
    common = {k: data[0]["meta"][k] for k in ("commit", "machine", "tools")
              if all(d["meta"][k] == data[0]["meta"][k] for d in data)}
    out = [BEGIN, "",
           "Generated by `make figures` (`scripts/figures.py`) from the CSV files under",
           "`results/`, which `make results` measured with the kit's model tools (every",
           "value from a command run; the papers' values, typed, in `results/paper-<family>.csv`);",
           "`make test` (`figures-check`) checks that the committed figures and this section",
           "are what the committed data give. Do not edit by hand."]
    if common:
        out += ["", "Data measured" + "".join(
            {"commit": " at commit `%s`", "machine": " on `%s`", "tools": " with %s"}[k] % common[k]
            for k in ("commit", "machine", "tools") if k in common) + "."]
    for d in data:
        m, fam = d["meta"], d["fam"]
        out += ["", "### " + m["title"], "", "![%s](docs/figures/%s.png)" % (m["title"], fam), "",
                m["caption"] + ".", "",
                "Data: `results/%s.csv` (%d rows, sha256 %s...), `%s`" % (fam, len(d["rows"]), d["sha"], m["command"])
                + "".join("; %s `%s`" % (k, m[k]) for k in ("commit", "machine", "tools") if k not in common)
                + "."]
        if d["pdata"]:
            out += ["", "The paper's values (`results/paper-%s.csv`):" % fam, "",
                    md_table(d["pdata"][1], d["pdata"][2])]
        if len(d["rows"]) <= INLINE_ROWS:
            out += ["", "<details><summary>results/%s.csv</summary>" % fam, "",
                    md_table(d["header"], d["rows"]), "", "</details>"]
    out += ["", END]
    return "\n".join(out)


def readme_with(readme, text):
    with open(readme, encoding="utf-8") as f:
        cur = f.read()
    i, j = cur.find(BEGIN), cur.find(END)
    if i < 0 or j < i:
        raise BadInput("%s:0: no '%s' ... '%s' markers" % (os.path.relpath(readme, ROOT), BEGIN, END))
    return cur, cur[:i] + text + cur[j + len(END):]


def same(a, b):
    if not os.path.isfile(b):
        return False
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def run(mode, results, figures, readme):
    data = load(results)
    new_text = section(data)
    cur, new_readme = readme_with(readme, new_text)
    tmp = tempfile.mkdtemp(prefix="figures.")
    try:
        pngs = [plot(d, tmp) for d in data]
        if mode == "--check":
            bad = [os.path.relpath(os.path.join(figures, os.path.basename(p)), ROOT)
                   for p in pngs if not same(p, os.path.join(figures, os.path.basename(p)))]
            if cur != new_readme:
                bad.append(os.path.relpath(readme, ROOT) + " (Results section)")
            for b in bad:
                print("figures-check: %s differs from a regeneration from the committed CSVs (make figures)" % b)
            if bad:
                return 1
            print("figures-check: %d figures and README's Results section equal a regeneration from %d CSV files"
                  % (len(pngs), len(data) + sum(1 for d in data if d["pdata"])))
            return 0
        os.makedirs(figures, exist_ok=True)
        for p in pngs:
            dst = os.path.join(figures, os.path.basename(p))
            shutil.copyfile(p, dst + ".tmp")
            os.replace(dst + ".tmp", dst)
        if cur != new_readme:
            with open(readme + ".tmp", "w", encoding="utf-8") as f:
                f.write(new_readme)
            os.replace(readme + ".tmp", readme)
        print("figures: %d figures in %s, README's Results section from %s"
              % (len(pngs), os.path.relpath(figures, ROOT), os.path.relpath(results, ROOT)))
        return 0
    finally:
        shutil.rmtree(tmp)


def main(argv):
    mode, opts = None, {"--results": "results", "--figures": "docs/figures", "--readme": "README.md"}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--write", "--check") and mode is None:
            mode, i = a, i + 1
        elif a in opts and i + 1 < len(argv):
            opts[a], i = argv[i + 1], i + 2
        else:
            sys.stderr.write("figures: bad argument '%s' (--write | --check, --results DIR, "
                             "--figures DIR, --readme FILE)\n" % a)
            return 2
    if mode is None:
        sys.stderr.write("figures: --write or --check\n")
        return 2
    res, fig, rd = (os.path.join(ROOT, opts[k]) if not os.path.isabs(opts[k]) else opts[k]
                    for k in ("--results", "--figures", "--readme"))
    try:
        return run(mode, res, fig, rd)
    except BadInput as e:
        sys.stderr.write("figures: %s\n" % e)
        return 2
    except (OSError, RuntimeError) as e:
        sys.stderr.write("%s\n" % e if str(e).startswith("figures") else "figures: %s\n" % e)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
