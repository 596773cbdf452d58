# iCE40 flow of the REC self-test top, included by the top Makefile.
#   make fpga-sim   Verilator simulation of fpga/rec_selftest_top.sv + rec_fpga:
#                   must reach PASS with the C model's signature, and FAIL with
#                   a deliberately wrong expected signature
#   make fpga       fpga-sim, then Yosys synth_ice40, nextpnr (HX8K ct256,
#                   UP5K sg48), icepack -> build/fpga/rec_selftest_*.bin and
#                   build/fpga/fpga-report.{md,json}
# Self-test parameters (the C predictor and the top use the same values):
FPGA_SEED   ?= 0x12345678
FPGA_CYCLES ?= 1048576
FPGA_HOME   ?= 1
# nextpnr timing target (the boards run at 12 MHz; 50 MHz is the goal).
# nextpnr's default (analytic) placer: the simulated-annealing one stalls in
# its initial placement on this design (over 12 minutes, measured).
FPGA_FREQ   ?= 50
FB := $(B)/fpga
FPGA_RTL := fpga/rec_selftest_top.sv rtl/rec/rec_fpga.sv
FPGA_SIG_ARGS := --seed $(FPGA_SEED) --cycles $(FPGA_CYCLES) --home $(FPGA_HOME)
.PHONY: fpga fpga-sim fpga-lint

$(FB)/selftest_sig: $(B)/obj/fpga/selftest_sig.o $(B)/obj/cmodel/rec.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $^ -o $@

# Expected signature: C model, same stimulus. The _wrong set flips one bit.
$(FB)/expect.json: $(FB)/selftest_sig fpga/fpga.mk
	$(FB)/selftest_sig $(FPGA_SIG_ARGS) --vparams $(FB)/expect.vf --ys $(FB)/expect.ys --json $@
$(FB)/expect.vf $(FB)/expect.ys: $(FB)/expect.json ;
$(FB)/expect_wrong.vf: $(FB)/selftest_sig fpga/fpga.mk
	$(FB)/selftest_sig $(FPGA_SIG_ARGS) --wrong --vparams $@ >/dev/null

fpga-lint: $(FPGA_RTL) | $(DEPS_OK)
	@out=$$(verilator --lint-only -Wall --top-module rec_selftest_top $(FPGA_RTL) 2>&1); \
	  [ -z "$$out" ] || { echo "$$out"; exit 1; }
	@out=$$(iverilog -g2012 -Wall -o /dev/null $(FPGA_RTL) 2>&1); [ -z "$$out" ] || { echo "$$out"; exit 1; }
	@yosys -q -p "read_verilog -sv $(FPGA_RTL); prep -top rec_selftest_top; check -assert; \
	  select -assert-none t:\$$dlatch t:\$$adlatch t:\$$sr"
	@echo "fpga-lint: rec_selftest_top clean (verilator -Wall, iverilog -Wall, yosys check -assert)"

# Verilator models of the top: with the predicted signature and a wrong one.
# GapCycles is shortened so the simulation sees the UART report early.
define FPGA_SIMMODEL
$(FB)/sim_$(1)/selftest_sim: $(FPGA_RTL) fpga/selftest_sim.cpp $(2) | $(DEPS_OK)
	@rm -rf $(FB)/sim_$(1) && mkdir -p $(FB)/sim_$(1)
	verilator --cc --exe --build -j 2 -Wall -O2 -f $(2) "-GGapCycles=24'd64" \
	  --top-module rec_selftest_top --Mdir $(FB)/sim_$(1) -o selftest_sim \
	  $(abspath $(FPGA_RTL) fpga/selftest_sim.cpp) > $(FB)/sim_$(1).log 2>&1 || { tail -20 $(FB)/sim_$(1).log; exit 1; }
endef
$(eval $(call FPGA_SIMMODEL,pass,$(FB)/expect.vf))
$(eval $(call FPGA_SIMMODEL,wrong,$(FB)/expect_wrong.vf))

fpga-sim: fpga-lint $(FB)/sim_pass/selftest_sim $(FB)/sim_wrong/selftest_sim
	@sig=$$(python3 -c "import json;print(json.load(open('$(FB)/expect.json'))['sig'])"); \
	  echo "fpga-sim: C model predicts signature $$sig"; \
	  $(FB)/sim_pass/selftest_sim --expect pass --sig $$sig && \
	  $(FB)/sim_wrong/selftest_sim --expect fail --sig $$sig && \
	  echo "fpga-sim: PASS (top reaches PASS with the model's signature; FAIL with a wrong one)"

# Synthesis per board (LED polarity differs), place and route, pack.
FPGA_DEV_hx8k := --hx8k --package ct256
FPGA_DEV_up5k := --up5k --package sg48
FPGA_LED_hx8k := 0
FPGA_LED_up5k := 1
define FPGA_BOARD
$(FB)/$(1).json: $(FPGA_RTL) $(FB)/expect.json | $(DEPS_OK)
	@echo "fpga: synth_ice40 $(1)"
	@fpga/timed.sh $(FB)/$(1).synth.time yosys -q -l $(FB)/$(1).synth.log -p \
	  "read_verilog -sv $(FPGA_RTL); hierarchy -top rec_selftest_top; script $(FB)/expect.ys; \
	   chparam -set LedActiveLow $(FPGA_LED_$(1)) rec_selftest_top; \
	   synth_ice40 -top rec_selftest_top -json $(FB)/$(1).json; check -assert; \
	   tee -q -o $(FB)/$(1).stat.json stat -json" >/dev/null
$(FB)/$(1).asc: $(FB)/$(1).json fpga/$(1).pcf
	@echo "fpga: nextpnr-ice40 $(FPGA_DEV_$(1)) --freq $(FPGA_FREQ)"
	@fpga/timed.sh $(FB)/$(1).pnr.time nextpnr-ice40 $(FPGA_DEV_$(1)) \
	  --pcf fpga/$(1).pcf --json $(FB)/$(1).json --asc $(FB)/$(1).asc.tmp --freq $(FPGA_FREQ) \
	  --timing-allow-fail --seed 1 --report $(FB)/$(1).report.json > $(FB)/$(1).pnr.log 2>&1 || \
	  { grep -E 'ERROR|Max frequency' $(FB)/$(1).pnr.log | tail -5; exit 1; }
	@grep 'Max frequency' $(FB)/$(1).pnr.log | tail -1
	@cat $(FB)/$(1).synth.time $(FB)/$(1).pnr.time > $(FB)/$(1).time
	@mv $(FB)/$(1).asc.tmp $(FB)/$(1).asc
$(FB)/rec_selftest_$(1).bin: $(FB)/$(1).asc
	icepack $$< $$@
endef
$(foreach d,hx8k up5k,$(eval $(call FPGA_BOARD,$(d))))

fpga: fpga-sim $(FB)/rec_selftest_hx8k.bin $(FB)/rec_selftest_up5k.bin fpga/report.py
	python3 fpga/report.py --dir $(FB) --board-mhz 12 hx8k up5k
