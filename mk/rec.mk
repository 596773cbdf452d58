# The REC family (cmodel/rec*.c, gen/rec_gen.c): its committed modules (the
# presets of cmodel/rec_unit.c, RTL under rtl/rec/) and its sweep lists.
FAMILIES += rec
rec_MODS  := rec_default rec_fpga rec_baseline rec_hmg
rec_SWEEP := tb/rec_sweep.txt
