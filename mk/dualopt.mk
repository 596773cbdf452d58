# The DualOpt family (cmodel/dualopt_*.c, gen/dualopt_*_gen.c): its committed
# modules (RTL under rtl/dualopt/) and sweep lists. Each unit adds its own
# lines; FAMILIES is set idempotently so that every unit may carry the line.
FAMILIES := $(filter-out dualopt,$(FAMILIES)) dualopt
dualopt_MODS += dualopt_bgu_default dualopt_bgu_fpga dualopt_bgu_gran8 dualopt_bgu_gran16
dualopt_SWEEP += tb/dualopt-bgu_sweep.txt
dualopt_MODS += dualopt_scbu_default dualopt_scbu_fpga
dualopt_SWEEP += tb/dualopt-scbu_sweep.txt
