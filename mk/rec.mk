# The REC family (cmodel/rec/rec*.c, gen/rec/rec_gen.c): its committed modules (the
# presets of cmodel/rec/rec_unit.c, RTL under rtl/rec/) and its sweep lists.
FAMILIES += rec
rec_MODS  := rec_default rec_fpga rec_baseline rec_hmg
rec_SWEEP := tb/rec/rec_sweep.txt
