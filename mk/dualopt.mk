# The DualOpt family (cmodel/dualopt/dualopt_*.c, gen/dualopt/dualopt_*_gen.c): sweep
# lists (the committed modules, RTL under rtl/dualopt/, come from the
# registry: dualopt_MODS), one line per unit so that the units' fragments
# merge independently.
FAMILIES += dualopt
dualopt_SWEEP += tb/dualopt/dualopt-mshr_sweep.txt
# bounded model check of the MSHR's FORMAL properties, with two mutants
.PHONY: formal-dualopt-mshr
formal-dualopt-mshr: $(B)/bin/cohgen
	scripts/dualopt-mshr-formal.sh $(B)/formal-dualopt-mshr 12
REGRESS_STEPS += formal-dualopt-mshr
dualopt_SWEEP += tb/dualopt/dualopt-de_sweep.txt
# Decision engine: bounded formal check of its mode and counter properties
# (with a mutant that must fail), part of make regress.
.PHONY: formal-dualopt-de
formal-dualopt-de: $(B)/bin/cohgen
	scripts/dualopt-de-formal.sh $(B)/formal-de
REGRESS_STEPS += formal-dualopt-de
dualopt_SWEEP += tb/dualopt/dualopt-bgu_sweep.txt
dualopt_SWEEP += tb/dualopt/dualopt-scbu_sweep.txt
# sweep lists, one line per unit so
# that units can be added independently.
dualopt_SWEEP += tb/dualopt/dualopt-coal_sweep.txt
dualopt_SWEEP += tb/dualopt/dualopt-decoal_sweep.txt
dualopt_SWEEP += tb/dualopt/dualopt-codec_sweep.txt
# End to end (cmodel/dualopt/dualopt_e2e*.c, tb/dualopt/dualopt_e2e_tb.c): ./tb_dualopt runs
# every unit's lockstep bench, then the composition of the Verilated units in
# lockstep with the composition of timing shells (--e2e: the composition only).
dualopt_TB_CPPFLAGS := -DTB_FAMILY_HOOK=dualopt_tb_hook -DTB_FAMILY_HELP=dualopt_tb_help
tb_dualopt: $(B)/obj/tb/dualopt/dualopt_e2e_tb.o
$(B)/test_all: $(B)/obj/tb/dualopt/dualopt_e2e_tb.o
# RDMA cache (cmodel/dualopt/dualopt_rcache*.c, gen/dualopt/dualopt_rcache_gen.c)
dualopt_SWEEP += tb/dualopt/dualopt-rcache_sweep.txt
# RDMA cache: bounded formal check of its write-back and flush properties,
# with two mutants that must fail (part of make regress)
.PHONY: formal-dualopt-rcache
formal-dualopt-rcache: $(B)/bin/cohgen
	scripts/dualopt-rcache-formal.sh $(B)/formal-dualopt-rcache 12
REGRESS_STEPS += formal-dualopt-rcache
# The GPU in every mode (cmodel/dualopt/dualopt_gpu*.c, tb/dualopt/dualopt_gpu_tb.c): ./tb_dualopt --gpu
tb_dualopt: $(B)/obj/tb/dualopt/dualopt_gpu_tb.o
$(B)/test_all: $(B)/obj/tb/dualopt/dualopt_gpu_tb.o
# The GPU at cycle level (cmodel/dualopt/dualopt_sys.c, tb/dualopt/dualopt_sys_tb.c): ./tb_dualopt --sys
tb_dualopt: $(B)/obj/tb/dualopt/dualopt_sys_tb.o
$(B)/test_all: $(B)/obj/tb/dualopt/dualopt_sys_tb.o
# make gatesim-sample (in make test): the MSHR's iCE40 netlist (its block
# RAM through the SB_RAM40_4K cell model: 1,383 cells, 19 s against
# rec_fpga's 48 s) and the SCBU's stuck-port control (also in make gatesim)
GATESIM_SAMPLE += dualopt-mshr:fpga:ice40
GATESIM_SAMPLE += dualopt-scbu:fpga:control
GATESIM_CONTROLS += dualopt-scbu:fpga:control

# make results-dualopt-traffic: data from the GPU model of the bench
# (./tb_dualopt --gpu --c-only, scripts/dualopt-traffic-results.sh)
results-dualopt-traffic: tb_dualopt
