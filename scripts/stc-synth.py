"""STC's part of make synth (synth/run.py loads it: yosys_common.family_hooks).

The STC reports carry no "storage_bits" but the family's "paper" object
(Table 4 of the STC paper, the hardware of STC-AB); the paper's accounting
of a configuration: the EMU's 556 bits (epoch counter, wake-up counter, ERV,
ETV), a BSQ's entries x 32 bits per CU (also the CU, whose BSQ is inline);
the STC L1 and band function get 0 (Table 4 lists no L1 addition and no
storage for the band function).
"""
import yosys_common as yc


def paper_storage(unit, rep):
    """(bits, note) of Table 4's accounting for a configuration, or None."""
    p = rep.get("paper") or {}
    if "table4_bits" in p:  # stc-emu
        return p["table4_bits"], ("Table 4 (STC-AB): epoch counter %d + wake-up counter %d + "
                                  "ERV %d + ETV %d bits" % (p["epoch_counter"],
                                                            p["wakeup_counter"], p["erv_bits"],
                                                            p["etv_bits"]))
    if "bsq_bits_per_cu" in p:  # stc-bsq, stc-cu (BSQ inline)
        bits = rep.get("ram_bits", rep.get("bsq_ram_bits"))
        return bits, ("Table 4: BSQ %s x 32 bits per CU (%s at the paper's 256 entries)"
                      % (yc.fmt_int(bits // 32), yc.fmt_int(p["bsq_bits_per_cu"])))
    if unit == "stc-l1":
        return 0, rep.get("paper_note", "-")
    if unit == "stc-band":
        return 0, "Table 4 lists no storage (the band function is wiring, section 4.2)"
    return None
