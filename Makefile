# Coherence kit: the only entry point a user needs. See README.md.
#   make verilate && ./tb_rec     lockstep bench of the REC directory
#   make test                     every test (installs missing tools first)
SHELL := /bin/bash
.DELETE_ON_ERROR:

B        := build
CC       ?= cc
CFLAGS   := -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -O2 -g
CPPFLAGS := -Icmodel -Igen -Itb
LDLIBS   := -lstdc++ -lm -pthread
PRESETS  := default fpga baseline hmg
REC_MODS := $(addprefix rec_,$(PRESETS))
REC_RTL  := $(foreach m,$(REC_MODS),rtl/rec/$(m).sv rtl/rec/$(m)_ports.h rtl/rec/$(m)_shim.cpp rtl/rec/$(m)_tb.sv)
DEPS_OK  := $(B)/.deps-ok

MODEL_SRC := cmodel/rec.c cmodel/rec_trace.c
MODEL_OBJ := $(patsubst %.c,$(B)/obj/%.o,$(MODEL_SRC))
GEN_OBJ   := $(patsubst %.c,$(B)/obj/%.o,$(wildcard gen/*.c)) $(B)/obj/cmodel/rec.o
BENCH_OBJ := $(B)/obj/tb/rec_bench.o $(MODEL_OBJ)
HDRS      := $(wildcard cmodel/*.h cmodel/*.def gen/*.h tb/*.h)
VLIBS     := $(foreach m,$(REC_MODS),$(B)/vobj/$(m)/lib$(m).a) $(B)/vrt/libvrt.a

.PHONY: all deps tools rtl check-generated verilate test unit lint sweep sim-iverilog \
        sanitize formal gate-sim regress bench clean help

all: tools

help:
	@echo "make verilate && ./tb_rec   build and run the lockstep bench (default config)"
	@echo "make test                   all tests: generated-file check, lint, synthesis checks,"
	@echo "                            sweep, Icarus replay, mutation sample, sanitizers, formal, Criterion"
	@echo "make bench                  throughput of the lockstep bench and of the model"
	@echo "make regress                longer random regression"
	@echo "make mutate                 mutation testing of every committed configuration (docs/mutation.md)"
	@echo "make rtl                    regenerate the committed RTL under rtl/"
	@echo "make synth                  Yosys area table (build/synth/hardware-cost.md)"
	@echo "make fpga                   iCE40 self-test tops: place, route, Fmax, bitstreams"
	@echo "make cost-table             README's Hardware cost section from those reports"

# Tools: installed by scripts/install-deps.sh when one is missing.
$(DEPS_OK): scripts/install-deps.sh
	@mkdir -p $(B)
	@scripts/install-deps.sh --check >/dev/null || scripts/install-deps.sh
	@touch $@
deps: $(DEPS_OK)

$(B)/obj/%.o: %.c $(HDRS) | $(DEPS_OK)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(CPPFLAGS) -c $< -o $@

$(B)/bin/cohgen: $(GEN_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $^ -o $@
$(B)/bin/cohmodel: $(B)/obj/cmodel/cohmodel.o $(MODEL_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $^ -o $@
tools: $(B)/bin/cohgen $(B)/bin/cohmodel

# Committed RTL of the named configurations.
rtl: $(B)/bin/cohgen
	@mkdir -p rtl/rec
	@for p in $(PRESETS); do $(B)/bin/cohgen rec --config $$p --name rec_$$p -o rtl/rec || exit 1; done
	@echo "rtl/rec regenerated"

check-generated: $(B)/bin/cohgen
	@rm -rf $(B)/check && mkdir -p $(B)/check/rec
	@for p in $(PRESETS); do $(B)/bin/cohgen rec --config $$p --name rec_$$p -o $(B)/check/rec || exit 1; done
	@diff -r rtl/rec $(B)/check/rec >/dev/null || { diff -r rtl/rec $(B)/check/rec | head -20; \
	  echo "check-generated: rtl/rec differs from the generator; run 'make rtl'"; exit 1; }
	@echo "check-generated: rtl/rec matches the generator"

# Verilated models of the committed configurations.
$(B)/vrt/libvrt.a: | $(DEPS_OK)
	scripts/vruntime.sh $(B)/vrt
define VMODEL
$(B)/vobj/$(1)/lib$(1).a: rtl/rec/$(1).sv rtl/rec/$(1)_shim.cpp tb/dut.h scripts/verilate.sh | $(DEPS_OK)
	scripts/verilate.sh $(1) rtl/rec $(B)/vobj
endef
$(foreach m,$(REC_MODS),$(eval $(call VMODEL,$(m))))
$(B)/rec_duts.c: scripts/registry.sh
	scripts/registry.sh rec $@ $(REC_MODS)

tb_rec: $(B)/obj/tb/tb_rec.o $(BENCH_OBJ) $(B)/obj/rec_duts.o $(VLIBS)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)
$(B)/obj/rec_duts.o: $(B)/rec_duts.c tb/dut.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(CPPFLAGS) -c $< -o $@
verilate: tb_rec tools

# Criterion tests: generator, model (paper examples, every flow), lockstep.
$(B)/test_rec: $(B)/obj/tb/test_rec.o $(BENCH_OBJ) $(B)/obj/rec_duts.o $(VLIBS)
	$(CC) $(CFLAGS) -o $@ $^ -lcriterion $(LDLIBS)
unit: $(B)/test_rec tools
	$(B)/test_rec --color=never --jobs 2

lint: $(B)/bin/cohgen
	scripts/lint.sh $(foreach m,$(REC_MODS),rtl/rec/$(m).sv)

sweep: $(B)/bin/cohgen $(BENCH_OBJ) $(B)/obj/tb/tb_rec.o $(B)/vrt/libvrt.a
	scripts/sweep.sh tb/rec_sweep.txt $(B)/sweep

sim-iverilog: tb_rec
	scripts/iverilog-replay.sh $(B)/iverilog $(PRESETS)

# The model and tools under AddressSanitizer and UndefinedBehaviorSanitizer.
SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
sanitize: $(B)/bin/cohgen
	@mkdir -p $(B)/san
	$(CC) $(CFLAGS) $(SAN) $(CPPFLAGS) cmodel/cohmodel.c $(MODEL_SRC) -o $(B)/san/cohmodel
	$(CC) $(CFLAGS) $(SAN) $(CPPFLAGS) tb/bench_model.c cmodel/rec.c -o $(B)/san/bench_model
	$(CC) $(CFLAGS) $(SAN) $(CPPFLAGS) gen/*.c cmodel/rec.c -o $(B)/san/cohgen
	scripts/sanitize.sh $(B)/san

# Criterion's summary line (read by CI) comes last: unit runs after the rest.
test: check-generated lint synth-check sweep sim-iverilog sanitize formal
	$(MAKE) --no-print-directory unit

formal: $(B)/bin/cohgen | $(DEPS_OK)
	scripts/formal.sh $(B)/formal 12

gate-sim: verilate
	scripts/gate-sim.sh $(B)/gate fpga 3000

regress: verilate gate-sim
	@for p in $(PRESETS); do for s in 11 12 13 14; do \
	  ./tb_rec --config $$p --seed $$s --cycles 20000000 | tail -1 | grep -q PASS || { echo "regress: $$p seed $$s failed"; exit 1; }; \
	  echo "regress: $$p seed $$s PASS"; done; done

$(B)/bin/bench_model: $(B)/obj/tb/bench_model.o $(MODEL_OBJ)
	$(CC) $(CFLAGS) $^ -o $@
bench: verilate $(B)/bin/bench_model
	scripts/bench.sh

# Hardware cost (Yosys area) and iCE40 flow; see synth/ and fpga/.
-include synth/synth.mk
-include fpga/fpga.mk

clean:
	rm -rf $(B) tb_rec tb_rec_fail.stim tb_rec_fail.vcd
-include mk/*.mk
# stand-in until the top Makefile runs the fragments' steps
test: $(TEST_STEPS)
regress: $(REGRESS_STEPS)
