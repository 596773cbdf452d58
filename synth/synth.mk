# Hardware cost of the REC directory (Yosys), included by the top Makefile.
#   make synth         area table of the committed and equal-storage configs
#                      -> build/synth/hardware-cost.{md,json}
#   make synth-check   fast structural checks (part of make test): REC's four
#                      configurations, default and fpga of every other unit;
#                      synth-check-all (make regress): every committed one
.PHONY: synth synth-check synth-check-all

SYNTH_PY := synth/run.py synth/check.py synth/yosys_common.py
SYNTH_RTL := $(ALL_RTL)

synth: $(B)/bin/cohgen $(SYNTH_RTL) $(SYNTH_PY) | $(DEPS_OK)
	python3 synth/run.py --cohgen $(B)/bin/cohgen --out $(B)/synth

synth-check: $(B)/bin/cohgen $(SYNTH_RTL) $(SYNTH_PY) | $(DEPS_OK)
	python3 synth/check.py --cohgen $(B)/bin/cohgen --out $(B)/synth/check
# every committed configuration (make regress)
synth-check-all: $(B)/bin/cohgen $(SYNTH_RTL) $(SYNTH_PY) | $(DEPS_OK)
	python3 synth/check.py --all --cohgen $(B)/bin/cohgen --out $(B)/synth/check-all
REGRESS_STEPS += synth-check-all

