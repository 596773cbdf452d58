# iCE40 flow, included by the top Makefile: the self-test top cohgen
# generates (cohgen <unit> --selftest, docs/fpga.md) around every unit's
# committed `fpga` configuration and around the extra variants the families
# list, simulated against the unit's model, placed and routed.
#
# Modules (FPGA_UNIT_MODS): every committed <prefix>_fpga module (its
# configuration read from the file's `Command:` header by fpga/unit-cmd.sh),
# then FPGA_EXTRA_MODS. A family's fragment (mk/<family>.mk) may set, per
# module M:
#   FPGA_EXTRA_MODS += M   an extra variant, generated into $(FU)/M/rtl/ by
#   FPGA_CMD_M := UNIT OPTIONS   (cohgen UNIT OPTIONS --name M)
#   FPGA_DEVICES_M         its devices (default FPGA_UNIT_DEVICES: hx8k)
#   FPGA_PNR_SEEDS_M       its nextpnr seeds (default FPGA_PNR_SEEDS: 1)
# Per module M, under $(FU)/M/:
#   M_selftest.{sv,json}, _wrong.vf   cohgen --selftest
#   lint.ok        verilator -Wall, iverilog -Wall, yosys check -assert
#   sim.ok         Verilator: PASS with the predicted signature, FAIL with
#                  one a bit off (the same top, -GExpSig)
#   <dev>.pnr.ok   synth_ice40, nextpnr-ice40 once per seed (fpga/pnr.sh:
#                  the run of median Fmax kept), icepack -> selftest_<dev>.bin
#                  (or <dev>.nofit: larger than the device)
# Targets:
#   make fpga            all of that and build/fpga/fpga-report.{md,json}
#   make fpga-sim        the simulations alone (make fpga-units-sim, the same)
#   make fpga-lint-units the cheap check of make test: short-run tops of
#                        every module linted on the three tools
FPGA_SEED ?= 0x12345678
FPGA_UNIT_CYCLES ?= 131072
FPGA_LINT_CYCLES ?= 20000
FPGA_UNIT_DEVICES ?= hx8k
FPGA_PNR_SEEDS ?= 1
# nextpnr timing target (the boards run at 12 MHz; 50 MHz is the goal).
# nextpnr's default (analytic) placer: the simulated-annealing one stalled in
# its initial placement of a directory top (over 12 minutes, measured).
FPGA_FREQ ?= 50
FB := $(B)/fpga
FU := $(FB)/units
FPGA_DEV_hx8k := --hx8k --package ct256
FPGA_DEV_up5k := --up5k --package sg48
# LED polarity of the board
FPGA_LED_hx8k := 0
FPGA_LED_up5k := 1
FPGA_UNIT_MODS ?= $(filter %_fpga,$(ALL_MODS)) $(FPGA_EXTRA_MODS)
fpga_devices = $(or $(FPGA_DEVICES_$(1)),$(FPGA_UNIT_DEVICES))
fpga_seeds = $(or $(FPGA_PNR_SEEDS_$(1)),$(FPGA_PNR_SEEDS))
# the progress of place and route (fpga/pnr.sh): runs of every top, seeds x
# devices, and the time make started (read once, when a recipe first needs it)
FPGA_PNR_RUNS = $(words $(foreach m,$(FPGA_UNIT_MODS),$(foreach d,$(call fpga_devices,$(m)),$(call fpga_seeds,$(m)))))
FPGA_T0 = $(eval FPGA_T0 := $(shell date +%s))$(FPGA_T0)
.PHONY: fpga fpga-sim fpga-units fpga-units-sim fpga-lint-units

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
	  --prefix Vselftest_top --top-module $(1)_selftest \
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
	@FPGA_PNR_RUNS=$$(FPGA_PNR_RUNS) PROGRESS_T0=$$(FPGA_T0) \
	  fpga/pnr.sh $(FU)/$(1) $$* $(FPGA_FREQ) "$$(FPGA_DEV_$$*)" $(call fpga_seeds,$(1))
	@cat $(FU)/$(1)/$$*.synth.time $(FU)/$(1)/$$*.pnr.time > $(FU)/$(1)/$$*.time
	@touch $$@
# make test: a short run (FPGA_LINT_CYCLES) of the top, linted; a committed
# module's top stimulus (the first cycles of the real top's: same seed)
# replayed through its family's lockstep bench, RTL against the model every
# cycle (the top's signature is the model's only if they agree)
$(B)/fpga-lint/$(1)/lint.ok: $$($(1)_SV) $(B)/bin/cohgen fpga/lint-top.sh \
    $(if $(FPGA_CMD_$(1)),,tb_$(call family_of,$(1))) | $(DEPS_OK)
	@mkdir -p $(B)/fpga-lint/$(1)
	@$(B)/bin/cohgen $$$$(fpga/unit-cmd.sh $$($(1)_SV)) --name $(1) --selftest \
	  --selftest-seed $(FPGA_SEED) --selftest-cycles $(FPGA_LINT_CYCLES) \
	  $(if $(FPGA_CMD_$(1)),,--selftest-stim) -o $(B)/fpga-lint/$(1) >/dev/null
	@fpga/lint-top.sh $(1)_selftest $(B)/fpga-lint/$(1)/$(1)_selftest.sv $$($(1)_SV)
	$(if $(FPGA_CMD_$(1)),@true,@./tb_$(call family_of,$(1)) --unit $$$$(fpga/unit-cmd.sh $$($(1)_SV) | cut -d' ' -f1) \
	  --config $(1) --replay $(B)/fpga-lint/$(1)/$(1)_selftest.stim \
	  --fail-prefix $(B)/fpga-lint/$(1)/fail > $(B)/fpga-lint/$(1)/replay.log 2>&1 || \
	  { tail -3 $(B)/fpga-lint/$(1)/replay.log; exit 1; }; \
	  rm -f $(B)/fpga-lint/$(1)/$(1)_selftest.stim; \
	  echo "fpga-lint-units: $(1): top linted, $(FPGA_LINT_CYCLES) cycles of its stimulus equal in lockstep")
	@touch $$@
endef
$(foreach m,$(FPGA_UNIT_MODS),$(eval $(call FPGA_UNIT,$(m))))

fpga-lint-units: $(foreach m,$(FPGA_UNIT_MODS),$(B)/fpga-lint/$(m)/lint.ok)
	@echo "fpga-lint-units: $(words $(FPGA_UNIT_MODS)) generated self-test tops clean"
TEST_STEPS += fpga-lint-units
fpga-sim fpga-units-sim: $(foreach m,$(FPGA_UNIT_MODS),$(FU)/$(m)/sim.ok)
	@echo "fpga-sim: PASS (every module's generated top reaches PASS with the model's signature and FAIL with a wrong one)"
FPGA_UNIT_BINS := $(foreach m,$(FPGA_UNIT_MODS),$(foreach d,$(call fpga_devices,$(m)),$(FU)/$(m)/$(d).pnr.ok))
FPGA_UNIT_ARGS = $(foreach m,$(FPGA_UNIT_MODS),--unit "$(m):$(FU)/$(m):$(call fpga_devices,$(m))")
fpga fpga-units: fpga-sim $(FPGA_UNIT_BINS) fpga/report.py
	python3 fpga/report.py --dir $(FB) --board-mhz 12 $(FPGA_UNIT_ARGS)

# README's "Hardware cost" section from the two reports.
.PHONY: cost-table
cost-table: scripts/cost-table.py
	@[ -f $(B)/synth/hardware-cost.json ] || $(MAKE) --no-print-directory synth
	@[ -f $(FB)/fpga-report.json ] || $(MAKE) --no-print-directory fpga
	python3 scripts/cost-table.py --synth $(B)/synth/hardware-cost.json \
	  --fpga $(FB)/fpga-report.json --readme README.md
