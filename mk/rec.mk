# The REC family (cmodel/rec/rec*.c, gen/rec/rec_gen.c): its sweep lists (its
# committed modules, RTL under rtl/rec/, come from the registry: rec_MODS).
FAMILIES += rec
rec_SWEEP := tb/rec/rec_sweep.txt
