"""REC's part of make synth and make synth-check (synth/run.py,
synth/check.py load it: yosys_common.family_hooks).

make synth: the REC table, ahead of the other units' rows. Configurations:
the committed rtl/rec/rec_{default,fpga,baseline,hmg}.sv (baseline and HMG
there have the REC default's 8192 entries: equal entry count), plus,
generated with cohgen into the table's directory:
  rec_baseline_eqs, rec_hmg_eqs  baseline (mode line) and HMG (mode hmg) at
      the power-of-two entry count whose paper-accounting storage (Table 1
      bits per entry x entries) is closest to the REC default's 103 kB
  rec_default_packed  the REC default with --store packed (tag without the
      set-index bits)
Each row gives the paper's and the packed entry bits beside the synthesis
figures; the note below the table quotes the paper (Table 1, section 4.3).

make synth-check: every committed configuration (not only default and
fpga); the RAM is the entry array, sets x set-word bits (the report gives
no "rtl_memories"); rec_fpga and rec_default also through synth_ice40; the
negative control is rec_fpga with its array forced into flip-flops.
"""
import os

import yosys_common as yc

UNIT = "rec"
PAPER = {"entry_bits": 103, "total_kB": 103, "baseline_entry_bits": 52}

# make synth-check
CHECK_EVERY_PRESET = (UNIT,)
ICE40_CHECKS = ((UNIT, "fpga"),)
ICE40_CHECKS_REGRESS = ((UNIT, "default"),)  # about 60 s of synth_ice40
NEGATIVE_CONTROLS = ((UNIT, "fpga"),)

# make synth: the units whose rows are this table's, not the other units'
TABLE_UNITS = (UNIT,)


def expected_mems(unit, rep):
    """The entry array: one RAM of sets x set-word bits (none for one set)."""
    if unit != UNIT:
        return None
    sets, word = rep["sets"], rep["stored"]["set_word_bits"]
    return [(sets, word)] if sets > 1 else []


def pick_eq_entries(cohgen, preset, target_bits):
    """Power-of-two entry count whose paper storage is closest to target."""
    best = None
    e = 1024
    while e <= 1 << 20:
        rep = yc.cohgen_report(cohgen, ["--config", preset, "--entries", str(e)], UNIT)
        d = abs(rep["paper"]["total_bits"] - target_bits)
        if best is None or d < best[0]:
            best = (d, e, rep["paper"]["total_bits"])
        e *= 2
    return best[1], best[2]


def table(cohgen, gen):
    """(rows, meta): the configurations of the REC table ({name, args, role,
    sv, report}; the generated ones written to gen) and what the report's
    meta gains (the equal-storage entry counts, the paper's figures)."""
    ref = yc.cohgen_report(cohgen, ["--config", "default"], UNIT)
    target = ref["paper"]["total_bits"]
    eb, eb_bits = pick_eq_entries(cohgen, "baseline", target)
    eh, eh_bits = pick_eq_entries(cohgen, "hmg", target)
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
    rows = []
    for name, args, role, generated in confs:
        if generated:
            yc.subprocess.run([cohgen, UNIT] + args + ["--name", name, "-o", gen], check=True)
            sv = os.path.join(gen, name + ".sv")
        else:
            sv = os.path.join("rtl", UNIT, name + ".sv")
        rows.append({"name": name, "args": args, "role": role, "sv": sv,
                     "report": yc.cohgen_report(cohgen, args, UNIT)})
    meta = {"eq_note": eq_note, "eq_entries": {"baseline": eb, "hmg": eh}, "paper": PAPER}
    return rows, meta


def table_markdown(rows, meta):
    fmt_int = yc.fmt_int
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
             (PAPER["entry_bits"], PAPER["total_kB"], PAPER["baseline_entry_bits"]))
    L.append("")
    L.append("Equal storage: %s" % meta["eq_note"])
    L.append("")
    L.append("Run times (s, generic + iCE40): " + ", ".join(
        "%s %.1f+%.1f" % (r["name"], r["synth"]["generic_s"], r["synth"]["ice40_s"]) for r in rows))
    return "\n".join(L) + "\n"
