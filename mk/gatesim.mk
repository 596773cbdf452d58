# Gate level (scripts/gatesim.sh): Yosys netlists of committed configurations
# Verilated and run in lockstep with the C models, every output port every
# cycle; a control with an output port stuck at zero must be caught.
.PHONY: gatesim gatesim-sample gatesim-generic
TEST_STEPS    += gatesim-sample
REGRESS_STEPS += gatesim
GATESIM_CYCLES ?= 20000
# make test: rec_fpga's iCE40 netlist (LUTs, carries, flip-flops and block
# RAMs through the cell models), a small unit's generic netlist, the control
GATESIM_SAMPLE := rec:fpga:ice40 stc-band:default:generic dualopt-scbu:fpga:control
gatesim-sample: verilate
	scripts/gatesim.sh $(B)/gatesim-sample 5000 $(GATESIM_SAMPLE)
# make regress: every committed FPGA preset through synth_ice40 and the
# controls
GATESIM_FPGA = $(shell $(B)/bin/cohgen --list=configs 2>/dev/null | awk '$$4 ~ /fpga$$/ {print $$1 ":" $$4 ":ice40"}')
gatesim: verilate
	scripts/gatesim.sh $(B)/gatesim $(GATESIM_CYCLES) $(GATESIM_FPGA) rec:fpga:control dualopt-scbu:fpga:control
# every default preset's generic netlist (not yet in make regress: some
# default presets' netlists differ from their RTL, docs/verification.md)
GATESIM_DEFAULT = $(shell $(B)/bin/cohgen --list=configs 2>/dev/null | awk '$$4 == "default" {print $$1 ":default:generic"}')
gatesim-generic: verilate
	scripts/gatesim.sh $(B)/gatesim-generic $(GATESIM_CYCLES) $(GATESIM_DEFAULT)
