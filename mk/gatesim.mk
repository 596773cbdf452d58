# Gate level (scripts/gatesim.sh): Yosys netlists of committed configurations
# Verilated and run in lockstep with the C models, every output port every
# cycle; a control with an output port stuck at zero must be caught.
.PHONY: gatesim gatesim-sample gatesim-generic
TEST_STEPS    += gatesim-sample
REGRESS_STEPS += gatesim
GATESIM_CYCLES ?= 20000
# make test: the entries the families add to GATESIM_SAMPLE (an iCE40
# netlist with block RAM cells, a small generic netlist, a control);
# GATESIM_CONTROLS: the stuck-port controls of make regress
gatesim-sample: verilate
	scripts/gatesim.sh $(B)/gatesim-sample 5000 $(GATESIM_SAMPLE)
# make regress: every committed FPGA preset through synth_ice40 and the
# controls
GATESIM_FPGA = $(shell $(B)/bin/cohgen --list=configs 2>/dev/null | awk '$$4 ~ /fpga$$/ {print $$1 ":" $$4 ":ice40"}')
gatesim: verilate
	scripts/gatesim.sh $(B)/gatesim $(GATESIM_CYCLES) $(GATESIM_FPGA) $(GATESIM_CONTROLS)
# every default preset's generic netlist (make regress) but the entries a
# family lists in GATESIM_GENERIC_SKIP, each with its reason there
REGRESS_STEPS += gatesim-generic
GATESIM_DEFAULT = $(filter-out $(GATESIM_GENERIC_SKIP),$(shell $(B)/bin/cohgen --list=configs 2>/dev/null | awk '$$4 == "default" {print $$1 ":default:generic"}'))
gatesim-generic: verilate
	scripts/gatesim.sh $(B)/gatesim-generic $(GATESIM_CYCLES) $(GATESIM_DEFAULT)
