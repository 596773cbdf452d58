# The STC family (cmodel/stc/stc_*.c, gen/stc/stc_*_gen.c): sweep lists (the
# committed modules, RTL under rtl/stc/, come from the registry: stc_MODS), one
# line per unit so that the units' fragments merge independently.
FAMILIES += stc
# L1 controller (stc-l1)
stc_SWEEP += tb/stc/stc-l1_sweep.txt
stc_SWEEP += tb/stc/stc-band_sweep.txt
stc_SWEEP += tb/stc/stc-emu_sweep.txt
# FPGA self-test of stc_emu_fpga: nextpnr seeds 1-5 (the median Fmax is
# reported; its margin over 50 MHz is a few percent)
FPGA_PNR_SEEDS_stc_emu_fpga := 1 2 3 4 5
# stc-bsq: blocked store queue (cmodel/stc/stc_bsq*.c, gen/stc/stc_bsq_gen.c)
stc_SWEEP += tb/stc/stc-bsq_sweep.txt
# stc-cu: per-CU epoch logic with its BSQ inline (cmodel/stc/stc_cu*.c, gen/stc/stc_cu_gen.c)
stc_SWEEP += tb/stc/stc-cu_sweep.txt
# stc-system and stc-check: model-only tools (cmodel/units.def TOOL, no RTL);
# their Criterion suites stc_check and stc_system are in tb/stc/test_stc_system.c
# Verilated system (tb/stc/stc_vsys.c): ./tb_stc runs every unit's lockstep bench,
# then the port-level system with timing shells and Verilated units substituted
# (--system: the system only); the Criterion suites stc_vsys* in tb/stc/test_stc_vsys.c
stc_TB_CPPFLAGS := -DTB_FAMILY_HOOK=stc_tb_hook -DTB_FAMILY_HELP=stc_tb_help
tb_stc: $(B)/obj/tb/stc/stc_vsys.o
$(B)/test_all: $(B)/obj/tb/stc/stc_vsys.o
# the hook flags are compiled into tb_stc.o: rebuild it when they change
$(B)/obj/tb/tb_stc.o: mk/stc.mk
# STC bench (docs/stc.md "Bench"): epoch transitions, sleeps and SEB changes of
# nv/es/ab/mb on the named programs of tb/stc/bench/ (scripts/stc-bench-progs.py
# wrote them), each run's log judged by stc-check; also part of make bench
.PHONY: bench-stc
bench-stc: $(B)/bin/cohmodel
	python3 scripts/stc-bench-progs.py --check tb/stc/bench
	python3 scripts/stc-bench.py --cohmodel $(B)/bin/cohmodel --out $(B)/stc-bench
# make gatesim-sample (in make test): a small generic netlist
GATESIM_SAMPLE += stc-band:default:generic
