# Hardware cost of every unit (Yosys), included by the top Makefile.
#   make synth         area tables: the families' own (their committed and
#                      generated variants), every committed configuration
#                      -> build/synth/hardware-cost.{md,json}; SYNTH_ARGS
#                      limits it (synth/run.py --units U, --configs M, --only P),
#                      e.g. make synth SYNTH_ARGS="--units U,V"
#   make synth-check   structural checks of every committed configuration
#                      (part of make test; the Yosys half of its lint, which
#                      make test runs as lint-sim) but the slow ones a family
#                      keeps for synth-check-long (make regress)
# A family's own parts (tables, paper accounting, iCE40 runs, negative
# controls) are scripts/<family>-synth.py (synth/yosys_common.py: family_hooks).
.PHONY: synth synth-check synth-check-long

SYNTH_PY := synth/run.py synth/check.py synth/yosys_common.py $(wildcard scripts/*-synth.py)
SYNTH_RTL := $(ALL_RTL)
SYNTH_ARGS ?=

synth: $(B)/bin/cohgen $(SYNTH_RTL) $(SYNTH_PY) | $(DEPS_OK)
	python3 synth/run.py --cohgen $(B)/bin/cohgen --out $(B)/synth $(SYNTH_ARGS)

synth-check: $(B)/bin/cohgen $(SYNTH_RTL) $(SYNTH_PY) | $(DEPS_OK)
	python3 synth/check.py --all --cohgen $(B)/bin/cohgen --out $(B)/synth/check
# and the slow runs the families keep for make regress (CHECK_REGRESS_ONLY,
# ICE40_CHECKS_REGRESS in scripts/<family>-synth.py)
synth-check-long: $(B)/bin/cohgen $(SYNTH_RTL) $(SYNTH_PY) | $(DEPS_OK)
	python3 synth/check.py --all --regress --cohgen $(B)/bin/cohgen --out $(B)/synth/check-long
REGRESS_STEPS += synth-check-long

