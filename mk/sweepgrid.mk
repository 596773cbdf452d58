# Sweeps over the papers' parameters (scripts/sweep-grid.py,
# docs/hardware-cost.md "Sweeps over the papers' parameters").
#   make sweep-grid            every family's grid, tb/<family>/grid.txt
#   make sweep-grid-<family>   one family's
# Per configuration: generation, lint, a GRID_CYCLES (20,000) lockstep run,
# Yosys generic; GRID_FPGA=1 adds the iCE40 self-test top's place and route
# (slow). Configurations run as a task list of scripts/jobs.sh (SCHED=local:
# JOBS at a time; SCHED=slurm: one job array, docs/cluster.md); results in
# $(B)/sweep-grid/<family>.{csv,json,md} and $(B)/sweep-grid/report.md.
# A point needs only cohgen and its family's bench objects (no make verilate).
.PHONY: sweep-grid
LATE_RULES += SWEEPGRID_RULES
define SWEEPGRID_RULES
GRID_FAMILIES := $(foreach f,$(FAMILIES),$(if $(wildcard tb/$(f)/grid.txt),$(f)))
sweep-grid: tools $(foreach f,$(GRID_FAMILIES),$(B)/tb_$(f).objs) | $(DEPS_OK)
	B=$(B) scripts/sweep-grid.py --out $(B)/sweep-grid $(foreach f,$(GRID_FAMILIES),tb/$(f)/grid.txt)
$(foreach f,$(GRID_FAMILIES),$(eval sweep-grid-$(f): tools $(B)/tb_$(f).objs | $(DEPS_OK) ; \
  B=$(B) scripts/sweep-grid.py --out $(B)/sweep-grid tb/$(f)/grid.txt))
endef
