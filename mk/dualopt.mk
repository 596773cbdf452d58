# The DualOpt family (cmodel/dualopt_*.c, gen/dualopt_*_gen.c): committed
# modules (RTL under rtl/dualopt/) and sweep lists, one line per unit so that
# the units' fragments merge independently.
FAMILIES += dualopt
dualopt_MODS += dualopt_mshr_default dualopt_mshr_fpga dualopt_mshr_line dualopt_mshr_gran8 dualopt_mshr_gran16
dualopt_SWEEP += tb/dualopt-mshr_sweep.txt
