"""Spandex's part of make synth (synth/run.py loads it: yosys_common.family_hooks).

make synth: the Spandex LLC table, ahead of the other units' rows, with the
storage overhead of III-F beside the paper's figure. Configurations: the
committed rtl/spandex/spandex_llc_{default,paper,fpga,line}.sv, plus,
generated with cohgen into the table's directory, the default and fpga
presets with --owner-store array (owner IDs in a separate W x log2 N array
of the meta row instead of the owned words' data fields).

Per line, from the unit's --report --json ("per_line") and from the RAMs
Yosys infers: the RTL's meta bits per line (the meta RAM's row width / ways:
valid, S, dirty, W owned, N sharers, tag, LRU rank, owner IDs with the
array), the directory bits III-F counts (the same without the rank), a
line-granularity MESI entry as III-F counts it (tag, 2 state, N sharers),
and the difference measured on the RTL (meta bits per line - rank - MESI
entry) beside the paper's W + 1 (+ W x log2 N with the owner array).
"""
import yosys_common as yc

UNIT = "spandex-llc"

# make synth: the units whose rows are this table's, not the other units'
TABLE_UNITS = (UNIT,)

# make synth-check: the Yosys checks of these presets (15-90 s each: the
# translation unit's proc step on its default-size GPU, DeNovo and MESI
# kinds, the LLC's default (21 s), paper and line presets) run in make
# regress (synth-check-long); make test checks the same generator code on
# each kind's fpga preset and the LLC's fpga preset
CHECK_REGRESS_ONLY = (("spandex-tu", "default"), ("spandex-tu", "denovo"), ("spandex-tu", "mesi"),
                      (UNIT, "default"), (UNIT, "paper"), (UNIT, "line"))

CONFS = (
    ("spandex_llc_default", ["--config", "default"], "default: N 4, W 16 x 32 bit, 64 sets x 4 ways", False),
    ("spandex_llc_paper", ["--config", "paper"],
     "paper: one 512 KB bank, N 24 (8 MESI), 512 sets x 16 ways", False),
    ("spandex_llc_fpga", ["--config", "fpga"], "fpga: N 4, W 2 x 32 bit, 64 sets x 2 ways", False),
    ("spandex_llc_line", ["--config", "line"], "line granularity, default geometry", False),
    ("spandex_llc_default_oa", ["--config", "default", "--owner-store", "array"],
     "default, owner array", True),
    ("spandex_llc_fpga_oa", ["--config", "fpga", "--owner-store", "array"], "fpga, owner array", True),
)


def table(cohgen, gen):
    """(rows, meta): the configurations of the Spandex table ({name, args,
    role, sv, report}; the generated ones written to gen)."""
    rows = []
    for name, args, role, generated in CONFS:
        if generated:
            yc.subprocess.run([cohgen, UNIT] + args + ["--name", name, "-o", gen], check=True)
            sv = "%s/%s.sv" % (gen, name)
        else:
            sv = "rtl/spandex/%s.sv" % name
        rows.append({"name": name, "args": args, "role": role, "sv": sv,
                     "report": yc.cohgen_report(cohgen, args, UNIT)})
    return rows, {}


def measured_meta(row):
    """The RTL's meta bits per line: the inferred RAM of sets words (the
    meta RAM; the data RAM has sets x ways words) / ways, or None."""
    rep = row["report"]
    for m in row["synth"]["mems"]:
        words, bits = (int(v) for v in m.split("x"))
        if words == rep["sets"] and rep["ways"] > 1 and bits % rep["ways"] == 0:
            return bits // rep["ways"]
    return None


def table_markdown(rows, meta):
    fmt_int = yc.fmt_int
    L = ["", "## Spandex LLC (%s)" % meta["yosys"], "",
         "Measured by `make synth` (`python3 synth/run.py --units spandex-llc`). Memory bits: the "
         "inferred meta RAM (sets x ways x meta bits) and data RAM (lines x line bits), reported "
         "apart from the logic. Per line: *RTL meta* is the meta RAM's row width / ways as "
         "synthesized, *rank* its LRU bits (not counted by III-F), *III-F* the paper's directory "
         "bits (2 state + W owned + N sharers + dirty + tag, + W x log2 N with the owner array), "
         "*MESI* a line-granularity MESI entry (tag + 2 state + N sharers); *measured overhead* = "
         "RTL meta - rank - MESI, against the paper's W + 1 (+ W x log2 N).", "",
         "| configuration | role | owner IDs | RAMs (words x bits) | memory bits | RTL meta bits/line "
         "| rank | III-F bits/line | MESI bits/line | measured overhead | paper W + 1 (+ W log2 N) "
         "| % of data | FFs | gates | CMOS transistors | iCE40 LUT4 | carry | SB_RAM40_4K "
         "| iCE40 FFs |",
         "|" + "---|" * 19]
    for r in rows:
        rep, s, i = r["report"], r["synth"], r["synth"]["ice40"]
        pl = rep["per_line"]
        got = measured_meta(r)
        over = got - pl["rank_bits"] - pl["line_mesi_bits"] if got is not None else None
        paper = "%d" % (rep["words"] + 1)
        if pl["owner_bits"]:
            paper += " + %d = %d" % (pl["owner_bits"], rep["words"] + 1 + pl["owner_bits"])
        L.append("| %s | %s | %s | %s | %s | %s | %d | %d | %d | %s | %s | %.2f | %s | %s | %s | %s "
                 "| %s | %s | %s |" % (
                     r["name"], r["role"], rep["owner_store"], ", ".join(s["mems"]) or "-",
                     fmt_int(s["mem_bits"]), got if got is not None else "-", pl["rank_bits"],
                     pl["paper_bits"], pl["line_mesi_bits"], over if over is not None else "-",
                     paper, 100.0 * pl["overhead_bits"] * rep["sets"] * rep["ways"] / rep["data_ram_bits"],
                     fmt_int(s["ffs"]), fmt_int(s["gates"]), fmt_int(s["cmos_transistors"]),
                     fmt_int(i["lut4"]), fmt_int(i["carry"]), i["bram"], fmt_int(i["ffs"])))
    L.append("")
    L.append("Paper (III-F): word-granularity ownership adds an owned bit per word (and, in the "
             "spec's reading, a dirty bit) to a line-granularity directory: W + 1 = 17 bits per "
             "64 B line, 17 x 131,072 lines = 2.2 Mbit, about 3.3 % of the 8 MB data array. Owner "
             "IDs in the data field (`--owner-store data`) cost no bits, but an owner update is a "
             "read-modify-write of the data RAM; `--owner-store array` costs W x log2 N bits per "
             "line.")
    L.append("")
    L.append("Run times (s, generic + iCE40): " + ", ".join(
        "%s %.1f+%.1f" % (r["name"], r["synth"]["generic_s"], r["synth"]["ice40_s"]) for r in rows))
    return "\n".join(L) + "\n"
