# The DualOpt family (cmodel/dualopt_*.c, gen/dualopt_*_gen.c): its committed
# modules (RTL under rtl/dualopt/) and sweep lists, one line per unit.
FAMILIES += dualopt
dualopt_MODS += dualopt_de_default dualopt_de_fpga dualopt_de_gran8 dualopt_de_gran16 dualopt_de_kernel dualopt_de_tiny
dualopt_SWEEP += tb/dualopt-de_sweep.txt
# Decision engine: bounded formal check of its mode and counter properties
# (with a mutant that must fail), part of make regress.
.PHONY: formal-dualopt-de
formal-dualopt-de: $(B)/bin/cohgen
	scripts/formal-de.sh $(B)/formal-de
REGRESS_STEPS += formal-dualopt-de
