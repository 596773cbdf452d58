# iCE40 flow of the REC self-test top, included by the top Makefile.
#   make fpga-sim   Verilator simulation of fpga/rec_selftest_top.sv around each
#                   FPGA variant: must reach PASS with the C model's signature;
#                   the REC variant must also reach FAIL with a deliberately
#                   wrong expected signature
#   make fpga       fpga-sim, then per variant Yosys synth_ice40, nextpnr (HX8K
#                   ct256, UP5K sg48), icepack ->
#                   build/fpga/<variant>/rec_selftest_<device>.bin and
#                   build/fpga/fpga-report.{md,json}
# Self-test parameters (the C predictor and the top use the same values):
FPGA_SEED   ?= 0x12345678
FPGA_CYCLES ?= 1048576
FPGA_HOME   ?= 1
# nextpnr timing target (the boards run at 12 MHz; 50 MHz is the goal).
# nextpnr's default (analytic) placer: the simulated-annealing one stalls in
# its initial placement on this design (over 12 minutes, measured).
FPGA_FREQ   ?= 50
FPGA_SEED_PNR ?= 1
FB := $(B)/fpga
FPGA_DEVICES := hx8k up5k

# Variants: the REC FPGA configuration (committed RTL) and its two baselines
# at equal entry count (512 entries, 4 ways) and at equal storage: 1024
# entries, the power of two whose paper-accounting storage is closest to the
# REC configuration's 512 x 103 bits (baseline 1024 x 52, HMG 1024 x 44;
# fpga/report.py prints the figures from cohgen --report).
FPGA_VARIANTS := rec line hmg line_eqs hmg_eqs
FPGA_OPTS_rec      := --config fpga
FPGA_OPTS_line     := --config baseline --entries 512 --ways 4 --store packed
FPGA_OPTS_hmg      := --config hmg --entries 512 --ways 4 --store packed
FPGA_OPTS_line_eqs := --config baseline --entries 1024 --ways 4 --store packed
FPGA_OPTS_hmg_eqs  := --config hmg --entries 1024 --ways 4 --store packed
FPGA_MOD_rec := rec_fpga
FPGA_SV_rec  := rtl/rec/rec_fpga.sv
$(foreach v,$(filter-out rec,$(FPGA_VARIANTS)),\
  $(eval FPGA_MOD_$(v) := rec_fpga_$(v))$(eval FPGA_SV_$(v) := $(FB)/rtl/rec_fpga_$(v).sv))

FPGA_SIG_ARGS := --seed $(FPGA_SEED) --cycles $(FPGA_CYCLES) --home $(FPGA_HOME)
.PHONY: fpga fpga-sim fpga-lint

$(FB)/selftest_sig: $(B)/obj/fpga/selftest_sig.o $(B)/obj/cmodel/rec/rec.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $^ -o $@

# Generated RTL of the baseline variants (the REC one is committed).
$(FB)/rtl/rec_fpga_%.sv: $(B)/bin/cohgen fpga/fpga.mk
	@mkdir -p $(dir $@)
	$(B)/bin/cohgen rec $(FPGA_OPTS_$*) --name rec_fpga_$* -o $(FB)/rtl

# Per variant: expected signature from the C model for the same stimulus
# (the _wrong set flips one bit), lint of the top, Verilator simulation.
define FPGA_VARIANT
$(FB)/$(1)/expect.json: $(FB)/selftest_sig fpga/fpga.mk
	@mkdir -p $(FB)/$(1)
	$(FB)/selftest_sig $(FPGA_OPTS_$(1)) $(FPGA_SIG_ARGS) --vparams $(FB)/$(1)/expect.vf \
	  --ys $(FB)/$(1)/expect.ys --json $$@
$(FB)/$(1)/expect.vf $(FB)/$(1)/expect.ys: $(FB)/$(1)/expect.json ;
$(FB)/$(1)/expect_wrong.vf: $(FB)/selftest_sig fpga/fpga.mk
	@mkdir -p $(FB)/$(1)
	$(FB)/selftest_sig $(FPGA_OPTS_$(1)) $(FPGA_SIG_ARGS) --wrong --vparams $$@ >/dev/null

$(FB)/$(1)/lint.ok: fpga/rec_selftest_top.sv $(FPGA_SV_$(1)) | $(DEPS_OK)
	@mkdir -p $(FB)/$(1)
	@out=$$$$(verilator --lint-only -Wall +define+REC_DIR=$(FPGA_MOD_$(1)) --top-module rec_selftest_top \
	  fpga/rec_selftest_top.sv $(FPGA_SV_$(1)) 2>&1); [ -z "$$$$out" ] || { echo "$$$$out"; exit 1; }
	@out=$$$$(iverilog -g2012 -Wall -DREC_DIR=$(FPGA_MOD_$(1)) -o /dev/null \
	  fpga/rec_selftest_top.sv $(FPGA_SV_$(1)) 2>&1); [ -z "$$$$out" ] || { echo "$$$$out"; exit 1; }
	@yosys -q -p "read_verilog -sv -DREC_DIR=$(FPGA_MOD_$(1)) fpga/rec_selftest_top.sv $(FPGA_SV_$(1)); \
	  prep -top rec_selftest_top; check -assert; select -assert-none t:\$$$$dlatch t:\$$$$adlatch t:\$$$$sr"
	@echo "fpga-lint: rec_selftest_top around $(FPGA_MOD_$(1)) clean (verilator -Wall, iverilog -Wall, yosys check -assert)"
	@touch $$@

endef
# GapCycles is shortened so the simulation sees the UART report early.
#   FPGA_SIM variant, kind (pass|wrong), expected-values file
define FPGA_SIM
$(FB)/$(1)/sim_$(2)/selftest_sim: $(3) fpga/rec_selftest_top.sv $(FPGA_SV_$(1)) \
    fpga/selftest_sim.cpp $(FB)/$(1)/lint.ok | $(DEPS_OK)
	@rm -rf $(FB)/$(1)/sim_$(2) && mkdir -p $(FB)/$(1)/sim_$(2)
	verilator --cc --exe --build -j 2 -Wall -O2 -f $(3) "-GGapCycles=24'd64" +define+REC_DIR=$(FPGA_MOD_$(1)) \
	  --top-module rec_selftest_top --Mdir $(FB)/$(1)/sim_$(2) -o selftest_sim \
	  $$(abspath fpga/rec_selftest_top.sv $(FPGA_SV_$(1)) fpga/selftest_sim.cpp) \
	  > $(FB)/$(1)/sim_$(2).log 2>&1 || { tail -20 $(FB)/$(1)/sim_$(2).log; exit 1; }
endef
define FPGA_SIMCHECK
$(FB)/$(1)/sim.ok: $(FB)/$(1)/sim_pass/selftest_sim $(if $(filter rec,$(1)),$(FB)/$(1)/sim_wrong/selftest_sim)
	@sig=$$$$(python3 -c "import json;print(json.load(open('$(FB)/$(1)/expect.json'))['sig'])"); \
	  echo "fpga-sim: $(1): C model predicts signature $$$$sig"; \
	  $(FB)/$(1)/sim_pass/selftest_sim --expect pass --sig $$$$sig || exit 1; \
	  if [ -x $(FB)/$(1)/sim_wrong/selftest_sim ]; then \
	    $(FB)/$(1)/sim_wrong/selftest_sim --expect fail --sig $$$$sig || exit 1; fi
	@touch $$@
endef
$(foreach v,$(FPGA_VARIANTS),$(eval $(call FPGA_VARIANT,$(v)))$(eval $(call FPGA_SIMCHECK,$(v)))\
  $(eval $(call FPGA_SIM,$(v),pass,$(FB)/$(v)/expect.vf)))
$(eval $(call FPGA_SIM,rec,wrong,$(FB)/rec/expect_wrong.vf))

fpga-lint: $(foreach v,$(FPGA_VARIANTS),$(FB)/$(v)/lint.ok)
fpga-sim: $(foreach v,$(FPGA_VARIANTS),$(FB)/$(v)/sim.ok)
	@echo "fpga-sim: PASS (every variant's top reaches PASS with the model's signature; the REC top reaches FAIL with a wrong one)"

# Synthesis per variant and board (LED polarity differs), place and route, pack.
FPGA_DEV_hx8k := --hx8k --package ct256
FPGA_DEV_up5k := --up5k --package sg48
FPGA_LED_hx8k := 0
FPGA_LED_up5k := 1
define FPGA_BOARD
$(FB)/$(1)/$(2).json: fpga/rec_selftest_top.sv $(FPGA_SV_$(1)) $(FB)/$(1)/expect.json | $(DEPS_OK)
	@echo "fpga: $(1): synth_ice40 $(2)"
	@fpga/timed.sh $(FB)/$(1)/$(2).synth.time yosys -q -l $(FB)/$(1)/$(2).synth.log -p \
	  "read_verilog -sv -DREC_DIR=$(FPGA_MOD_$(1)) fpga/rec_selftest_top.sv $(FPGA_SV_$(1)); \
	   hierarchy -top rec_selftest_top; script $(FB)/$(1)/expect.ys; \
	   chparam -set LedActiveLow $(FPGA_LED_$(2)) rec_selftest_top; \
	   synth_ice40 -top rec_selftest_top -json $(FB)/$(1)/$(2).json; check -assert; \
	   tee -q -o $(FB)/$(1)/$(2).stat.json stat -json" >/dev/null
$(FB)/$(1)/$(2).asc: $(FB)/$(1)/$(2).json fpga/$(2).pcf
	@echo "fpga: $(1): nextpnr-ice40 $(FPGA_DEV_$(2)) --freq $(FPGA_FREQ)"
	@fpga/timed.sh $(FB)/$(1)/$(2).pnr.time nextpnr-ice40 $(FPGA_DEV_$(2)) \
	  --pcf fpga/$(2).pcf --json $(FB)/$(1)/$(2).json --asc $(FB)/$(1)/$(2).asc.tmp --freq $(FPGA_FREQ) \
	  --timing-allow-fail --seed $(FPGA_SEED_PNR) --report $(FB)/$(1)/$(2).report.json \
	  > $(FB)/$(1)/$(2).pnr.log 2>&1 || { grep -E 'ERROR|Max frequency' $(FB)/$(1)/$(2).pnr.log | tail -5; exit 1; }
	@grep 'Max frequency' $(FB)/$(1)/$(2).pnr.log | tail -1
	@cat $(FB)/$(1)/$(2).synth.time $(FB)/$(1)/$(2).pnr.time > $(FB)/$(1)/$(2).time
	@mv $(FB)/$(1)/$(2).asc.tmp $(FB)/$(1)/$(2).asc
$(FB)/$(1)/rec_selftest_$(2).bin: $(FB)/$(1)/$(2).asc
	icepack $$< $$@
endef
$(foreach v,$(FPGA_VARIANTS),$(foreach d,$(FPGA_DEVICES),$(eval $(call FPGA_BOARD,$(v),$(d)))))

FPGA_BINS := $(foreach v,$(FPGA_VARIANTS),$(foreach d,$(FPGA_DEVICES),$(FB)/$(v)/rec_selftest_$(d).bin))
fpga: fpga-sim $(FPGA_BINS) fpga/report.py $(B)/bin/cohgen
	python3 fpga/report.py --dir $(FB) --board-mhz 12 --cohgen $(B)/bin/cohgen \
	  $(foreach v,$(FPGA_VARIANTS),--variant "$(v):$(FPGA_MOD_$(v)):$(FPGA_OPTS_$(v))") $(FPGA_DEVICES) \
	  $(FPGA_UNIT_ARGS)

# README's "Hardware cost" section from the two reports.
.PHONY: cost-table
cost-table: scripts/cost-table.py
	@[ -f $(B)/synth/hardware-cost.json ] || $(MAKE) --no-print-directory synth
	@[ -f $(FB)/fpga-report.json ] || $(MAKE) --no-print-directory fpga
	python3 scripts/cost-table.py --synth $(B)/synth/hardware-cost.json \
	  --fpga $(FB)/fpga-report.json --readme README.md

# ---- Generic self-test tops (cohgen <unit> --selftest, docs/fpga.md) -----
# Every committed `fpga` configuration of every unit but REC (which keeps its
# hand-written top above), and the extra variants the families list: the top
# generated from the unit's port table, the expected signature from the
# unit's timing shell. A family's fragment (mk/<family>.mk) may set, per
# module M:
#   FPGA_EXTRA_MODS += M   an extra variant, generated into $(FU)/M/rtl/ by
#   FPGA_CMD_M := UNIT OPTIONS   (cohgen UNIT OPTIONS --name M)
#   FPGA_DEVICES_M         its devices (default FPGA_UNIT_DEVICES: hx8k)
#   FPGA_PNR_SEEDS_M       its nextpnr seeds (default FPGA_PNR_SEEDS: 1)
# Per module M:
#   $(FU)/M/M_selftest.{sv,json}, _wrong.vf   cohgen --selftest
#   $(FU)/M/lint.ok        verilator -Wall, iverilog -Wall, yosys check -assert
#   $(FU)/M/sim.ok         Verilator: PASS with the predicted signature, FAIL
#                          with one a bit off (the same top, -GExpSig)
#   $(FU)/M/<dev>.pnr.ok   synth_ice40, nextpnr-ice40 once per seed
#                          (fpga/pnr.sh: the run of median Fmax kept),
#                          icepack -> selftest_<dev>.bin (or <dev>.nofit:
#                          larger than the device)
#   make fpga-units        all of that and build/fpga/fpga-units-report.{md,json}
#   make fpga-lint-units   the cheap check of make test: short-run tops of
#                          every module linted on the three tools
FPGA_UNIT_MODS   ?= $(filter-out rec_%,$(filter %_fpga,$(ALL_MODS))) $(FPGA_EXTRA_MODS)
FPGA_UNIT_CYCLES ?= 131072
FPGA_UNIT_DEVICES ?= hx8k
FPGA_PNR_SEEDS ?= 1
fpga_devices = $(or $(FPGA_DEVICES_$(1)),$(FPGA_UNIT_DEVICES))
fpga_seeds = $(or $(FPGA_PNR_SEEDS_$(1)),$(FPGA_PNR_SEEDS))
FU := $(FB)/units
.PHONY: fpga-units fpga-units-sim fpga-lint-units

define FPGA_UNIT
# the module: the committed RTL, or generated from FPGA_CMD_<module>
$(1)_SV := $(if $(FPGA_CMD_$(1)),$(FU)/$(1)/rtl/$(1).sv,$(filter %/$(1).sv,$(ALL_RTL)))
ifneq ($(FPGA_CMD_$(1)),)
$(FU)/$(1)/rtl/$(1).sv: $(B)/bin/cohgen fpga/fpga.mk $(wildcard mk/*.mk)
	@rm -rf $(FU)/$(1)/rtl.new && mkdir -p $(FU)/$(1)/rtl
	$(B)/bin/cohgen $(FPGA_CMD_$(1)) --name $(1) -o $(FU)/$(1)/rtl.new --harness $(FU)/$(1)/rtl.new/harness
	@cmp -s $(FU)/$(1)/rtl.new/$(1).sv $$@ || mv $(FU)/$(1)/rtl.new/$(1).sv $$@
	@rm -rf $(FU)/$(1)/rtl.new
endif
# (files replaced only when they change, so that a rebuilt cohgen or an edited
# fragment does not redo the simulations and place and route)
$(FU)/$(1)/$(1)_selftest.sv: $$($(1)_SV) $(B)/bin/cohgen fpga/fpga.mk fpga/unit-cmd.sh
	@mkdir -p $(FU)/$(1)/new
	$(B)/bin/cohgen $$$$(fpga/unit-cmd.sh $$($(1)_SV)) --name $(1) --selftest \
	  --selftest-seed $(FPGA_SEED) --selftest-cycles $(FPGA_UNIT_CYCLES) -o $(FU)/$(1)/new
	@for f in $(1)_selftest.sv $(1)_selftest.json $(1)_selftest_wrong.vf; do \
	  cmp -s $(FU)/$(1)/new/$$$$f $(FU)/$(1)/$$$$f || mv $(FU)/$(1)/new/$$$$f $(FU)/$(1)/$$$$f; done
$(FU)/$(1)/$(1)_selftest.json $(FU)/$(1)/$(1)_selftest_wrong.vf: $(FU)/$(1)/$(1)_selftest.sv ;
$(FU)/$(1)/lint.ok: $(FU)/$(1)/$(1)_selftest.sv | $(DEPS_OK)
	@fpga/lint-top.sh $(1)_selftest $(FU)/$(1)/$(1)_selftest.sv $$($(1)_SV)
	@touch $$@
# GapCycles is shortened so the simulation sees the UART report early.
$(FU)/$(1)/sim_%/selftest_sim: $(FU)/$(1)/$(1)_selftest.sv $(FU)/$(1)/$(1)_selftest_wrong.vf \
    fpga/selftest_sim.cpp $(FU)/$(1)/lint.ok | $(DEPS_OK)
	@rm -rf $(FU)/$(1)/sim_$$* && mkdir -p $(FU)/$(1)/sim_$$*
	verilator --cc --exe --build -j 1 -Wall -O2 "-GGapCycles=24'd64" \
	  $$(if $$(filter wrong,$$*),-f $(FU)/$(1)/$(1)_selftest_wrong.vf) \
	  --prefix Vselftest_top -CFLAGS -DSELFTEST_GENERIC --top-module $(1)_selftest \
	  -y $$(abspath $$(dir $$($(1)_SV))) \
	  --Mdir $(FU)/$(1)/sim_$$* -o selftest_sim \
	  $$(abspath $(FU)/$(1)/$(1)_selftest.sv $$($(1)_SV) fpga/selftest_sim.cpp) \
	  > $(FU)/$(1)/sim_$$*.log 2>&1 || { tail -20 $(FU)/$(1)/sim_$$*.log; exit 1; }
$(FU)/$(1)/sim.ok: $(FU)/$(1)/sim_pass/selftest_sim $(FU)/$(1)/sim_wrong/selftest_sim
	@sig=$$$$(python3 -c "import json;print(json.load(open('$(FU)/$(1)/$(1)_selftest.json'))['sig'])"); \
	  echo "fpga-sim: $(1): C model predicts signature $$$$sig"; \
	  $(FU)/$(1)/sim_pass/selftest_sim --expect pass --sig $$$$sig && \
	  $(FU)/$(1)/sim_wrong/selftest_sim --expect fail --sig $$$$sig
	@touch $$@
# synthesis per board (LED polarity differs)
.PRECIOUS: $(FU)/$(1)/%.json
$(FU)/$(1)/%.json: $(FU)/$(1)/$(1)_selftest.sv $$($(1)_SV) | $(DEPS_OK)
	@echo "fpga: $(1): synth_ice40 $$*"
	@fpga/timed.sh $(FU)/$(1)/$$*.synth.time yosys -q -l $(FU)/$(1)/$$*.synth.log -p \
	  "read_verilog -sv $(FU)/$(1)/$(1)_selftest.sv $$($(1)_SV); \
	   hierarchy -libdir $$(dir $$($(1)_SV)) -top $(1)_selftest; \
	   chparam -set LedActiveLow $$(FPGA_LED_$$*) $(1)_selftest; \
	   synth_ice40 -top $(1)_selftest -json $$@; check -assert; \
	   tee -q -o $(FU)/$(1)/$$*.stat.json stat -json" >/dev/null
# place and route, once per seed; a design larger than the device is recorded
# (<dev>.nofit, the utilisation nextpnr printed) and reported, not treated as
# a flow error
$(FU)/$(1)/%.pnr.ok: $(FU)/$(1)/%.json fpga/%.pcf
	@echo "fpga: $(1): nextpnr-ice40 $$(FPGA_DEV_$$*) --freq $(FPGA_FREQ), seeds $(call fpga_seeds,$(1))"
	@fpga/pnr.sh $(FU)/$(1) $$* $(FPGA_FREQ) "$$(FPGA_DEV_$$*)" $(call fpga_seeds,$(1))
	@cat $(FU)/$(1)/$$*.synth.time $(FU)/$(1)/$$*.pnr.time > $(FU)/$(1)/$$*.time
	@touch $$@
# make test: a short run (1,000 cycles) of the top, linted
$(B)/fpga-lint/$(1)/lint.ok: $$($(1)_SV) $(B)/bin/cohgen fpga/lint-top.sh | $(DEPS_OK)
	@mkdir -p $(B)/fpga-lint/$(1)
	@$(B)/bin/cohgen $$$$(fpga/unit-cmd.sh $$($(1)_SV)) --name $(1) --selftest \
	  --selftest-cycles 1000 -o $(B)/fpga-lint/$(1) >/dev/null
	@fpga/lint-top.sh $(1)_selftest $(B)/fpga-lint/$(1)/$(1)_selftest.sv $$($(1)_SV)
	@touch $$@
endef
$(foreach m,$(FPGA_UNIT_MODS),$(eval $(call FPGA_UNIT,$(m))))

fpga-lint-units: $(foreach m,$(FPGA_UNIT_MODS),$(B)/fpga-lint/$(m)/lint.ok)
	@echo "fpga-lint-units: $(words $(FPGA_UNIT_MODS)) generated self-test tops clean"
TEST_STEPS += fpga-lint-units
fpga-units-sim: $(foreach m,$(FPGA_UNIT_MODS),$(FU)/$(m)/sim.ok)
	@echo "fpga-sim: PASS (every unit's generated top reaches PASS with the model's signature and FAIL with a wrong one)"
fpga-sim: fpga-units-sim
FPGA_UNIT_BINS := $(foreach m,$(FPGA_UNIT_MODS),$(foreach d,$(call fpga_devices,$(m)),$(FU)/$(m)/$(d).pnr.ok))
FPGA_UNIT_ARGS = $(foreach m,$(FPGA_UNIT_MODS),--unit "$(m):$(FU)/$(m):$(call fpga_devices,$(m))")
fpga: $(FPGA_UNIT_BINS)
fpga-units: fpga-units-sim $(FPGA_UNIT_BINS) fpga/report.py
	python3 fpga/report.py --dir $(FB) --board-mhz 12 --out fpga-units-report $(FPGA_UNIT_ARGS)
