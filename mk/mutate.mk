# Mutation testing of the generated RTL (scripts/mutate.py, docs/mutation.md).
#   make mutate          every committed configuration of every unit, 60 mutants each
#   make mutate-sample   6 mutants of MUTATE_SAMPLE_AT (a unit and preset, set by a
#                        family's mk/<family>.mk; the same seed) and the known-bug mutants
#   make mutate-selftest the parser on a small hierarchy (modules in two files,
#                        generate blocks, a function): attribution and names
# Reports: $(B)/mutate/report.md and .json ($(B)/mutate-sample/ for the sample).
# With SCHED=local or SCHED=slurm (docs/cluster.md), make mutate and
# make mutate-sample are task lists of scripts/jobs.sh, MUTATE_BATCH mutants
# a task, gathered into the same reports.
MUTATE_SEED   ?= 1
MUTATE_COUNT  ?= 60
MUTATE_SAMPLE ?= 6
MUTATE_JOBS   ?= 2
MUTATE_BATCH  ?= 10
# units of make mutate (comma-separated; empty: every unit)
MUTATE_UNITS  ?=

.PHONY: mutate mutate-sample mutate-selftest
mutate-selftest:
	scripts/mutate.py --self-test
# verilate leaves every family's $(B)/tb_<family>.objs (scripts/unit-bench.sh)
mutate: verilate
	scripts/mutate.py --all $(if $(MUTATE_UNITS),--unit $(MUTATE_UNITS)) --count $(MUTATE_COUNT) --seed $(MUTATE_SEED) --jobs $(MUTATE_JOBS) \
	  --batch $(MUTATE_BATCH) --out $(B)/mutate
mutate-sample: verilate
	scripts/mutate.py --unit $(word 1,$(MUTATE_SAMPLE_AT)) --config $(word 2,$(MUTATE_SAMPLE_AT)) --count $(MUTATE_SAMPLE) --seed $(MUTATE_SEED) \
	  --jobs $(MUTATE_JOBS) --batch $(MUTATE_BATCH) --out $(B)/mutate-sample

TEST_STEPS    += mutate-selftest mutate-sample
REGRESS_STEPS += mutate
