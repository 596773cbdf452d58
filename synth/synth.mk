# Hardware cost of the REC directory (Yosys), included by the top Makefile.
#   make synth         area table of the committed and equal-storage configs
#                      -> build/synth/hardware-cost.{md,json}
#   make synth-check   fast structural checks (part of make test)
.PHONY: synth synth-check

SYNTH_PY := synth/run.py synth/check.py synth/yosys_common.py
SYNTH_RTL := $(ALL_RTL)

synth: $(B)/bin/cohgen $(SYNTH_RTL) $(SYNTH_PY) | $(DEPS_OK)
	python3 synth/run.py --cohgen $(B)/bin/cohgen --out $(B)/synth

synth-check: $(B)/bin/cohgen $(SYNTH_RTL) $(SYNTH_PY) | $(DEPS_OK)
	python3 synth/check.py --cohgen $(B)/bin/cohgen --out $(B)/synth/check

