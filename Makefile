# Coherence kit: the only entry point a user needs. See README.md.
#   make verilate && ./tb_<family>  a family's lockstep bench (README.md)
#   make test                     every test (installs missing tools first)
# Units are registered in cmodel/<family>/units.def; each family adds
# mk/<family>.mk (its sweep lists and steps); the committed modules come from
# the registry ($(B)/units.mk); every rule below iterates over FAMILIES, so
# no target here names a unit.
SHELL := /bin/bash
.DELETE_ON_ERROR:

B        := build
HB       := $(B)/harness
CC       ?= cc
CFLAGS   := -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -O2 -g
# Platform files at each folder's root, one folder per family below it
# (cmodel/<family>/, gen/<family>/, tb/<family>/); headers are found by name.
FAM_DIRS  := $(sort $(dir $(wildcard cmodel/*/ gen/*/ tb/*/)))
CPPFLAGS := -Icmodel -Igen -Itb $(patsubst %/,-I%,$(FAM_DIRS))
LDLIBS   := -lstdc++ -lm -pthread
DEPS_OK  := $(B)/.deps-ok

# Every model file but the tools' mains is part of the model library.
MODEL_SRC := $(filter-out cmodel/cohmodel.c,$(wildcard cmodel/*.c cmodel/*/*.c))
MODEL_OBJ := $(patsubst %.c,$(B)/obj/%.o,$(MODEL_SRC))
GEN_OBJ   := $(patsubst %.c,$(B)/obj/%.o,$(wildcard gen/*.c gen/*/*.c)) $(MODEL_OBJ)
ENGINE_OBJ := $(B)/obj/tb/lockstep.o $(B)/obj/tb/compose_rtl.o $(MODEL_OBJ)
HDRS      := $(wildcard cmodel/*.h cmodel/*.def gen/*.h tb/*.h cmodel/*/*.h cmodel/*/*.def gen/*/*.h gen/*/*.def tb/*/*.h)
# The registry: every family's cmodel/<family>/units.def joined (cmodel/units.c).
UNIT_LIST := $(B)/include/unit_list.def
CPPFLAGS  += -I$(B)/include
HDRS      += $(UNIT_LIST)
$(UNIT_LIST): $(sort $(wildcard cmodel/*/units.def))
	@mkdir -p $(dir $@)
	{ printf '/* Generated from cmodel/<family>/units.def (cmodel/units.c). Do not edit. */\n'; \
	  printf '#ifndef TOOL\n#define TOOL(model)\n#endif\n'; cat $^; } >$@

# Filled by the fragments: families, and the steps of make test / regress.
FAMILIES      :=
TEST_STEPS    := check-generated check-platform check-funcs synth-check sweep sim-iverilog sanitize
REGRESS_STEPS := sweep-full sim-iverilog-long
TEST_JOBS     ?= 2

.PHONY: all deps tools rtl harness check-generated check-platform check-funcs verilate test unit lint lint-sim sweep sweep-full sim-iverilog sim-iverilog-long \
        sanitize regress bench clean help test-steps

all: tools

help:
	@echo "make verilate               build every family's lockstep bench: ./tb_<family> (README.md)"
	@echo "make test                   every test of every family, step times, Criterion summary last"
	@echo "make test-<family>          one family's lint, sweep, Icarus replay and Criterion tests"
	@echo "make bench                  RTL alone vs lockstep on recorded stimulus, model speed"
	@echo "make regress                longer random regression, full mutation, gate level, fuzzing"
	@echo "make coverage               line, branch and toggle coverage of the default and fpga configurations"
	@echo "make fuzz                   libFuzzer on every parser, FUZZ_SECONDS (60) a harness (clang)"
	@echo "make rtl                    regenerate the committed RTL under rtl/ (modules only)"
	@echo "make harness                its shims, port headers and replay benches, into build/harness/"
	@echo "make synth                  Yosys area table (build/synth/hardware-cost.md)"
	@echo "make fpga                   iCE40 self-test tops: place, route, Fmax, bitstreams"
	@echo "make cost-table             README's Hardware cost section from those reports"
	@echo "make results                the figures' data from the model tools (results/<family>.csv)"
	@echo "make figures                docs/figures/*.png and README's Results section from results/"

# Tools: installed by scripts/install-deps.sh when one is missing.
$(DEPS_OK): scripts/install-deps.sh
	@mkdir -p $(B)
	@scripts/install-deps.sh --check >/dev/null || scripts/install-deps.sh
	@touch $@
deps: $(DEPS_OK)
# valgrind, for make bench's and make results-speed's instruction counts
BENCH_DEPS_OK := $(B)/bench/.deps-ok
$(BENCH_DEPS_OK): scripts/install-deps.sh
	@mkdir -p $(dir $@)
	@scripts/install-deps.sh --bench --check >/dev/null || scripts/install-deps.sh --bench
	@touch $@

$(B)/obj/%.o: %.c $(HDRS) | $(DEPS_OK)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(CPPFLAGS) -c $< -o $@
# The models are compiled once, as the model library wants them (mk/lib.mk):
# position-independent, only what a public header declares visible.
MODEL_PIC := -fPIC -fvisibility=hidden
$(B)/obj/cmodel/%.o: CFLAGS += $(MODEL_PIC)

$(B)/bin/cohgen: $(GEN_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $^ -o $@
$(B)/bin/cohmodel: $(B)/obj/cmodel/cohmodel.o $(MODEL_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $^ -o $@
tools: $(B)/bin/cohgen $(B)/bin/cohmodel

-include $(sort $(wildcard mk/*.mk))
# The committed modules of every family, <family>_MODS, come from the
# registry (cohkit_unit_desc.committed, cohgen --list=configs); make writes
# $(B)/units.mk and reads it again whenever cohgen changed.
ifeq ($(filter clean,$(MAKECMDGOALS)),)
-include $(B)/units.mk
endif
$(B)/units.mk: $(B)/bin/cohgen
	@$< --list=configs | awk '!($$2 in m) {o[n++] = $$2} {m[$$2] = m[$$2] " " $$3} \
	  END {for (i = 0; i < n; i++) print o[i] "_MODS :=" m[o[i]]}' >$@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; touch $@; else mv $@.tmp $@; fi

# ---- per family: committed RTL, Verilated models, ./tb_<family> ---------
ALL_MODS := $(foreach f,$(FAMILIES),$($(f)_MODS))
ALL_RTL  := $(foreach f,$(FAMILIES),$(foreach m,$($(f)_MODS),rtl/$(f)/$(m).sv))
$(B)/vrt/libvrt.a: | $(DEPS_OK)
	scripts/vruntime.sh $(B)/vrt
define FAMILY_RULES
$(1)_VLIBS := $$(foreach m,$$($(1)_MODS),$(B)/vobj/$$(m)/lib$$(m).a)
$(B)/$(1)_duts.c: scripts/registry.sh $(B)/units.mk
	@mkdir -p $(B)
	scripts/registry.sh $(1) $$@ $$($(1)_MODS)
$(B)/obj/$(1)_duts.o: $(B)/$(1)_duts.c tb/dut.h
	@mkdir -p $$(dir $$@)
	$(CC) $(CFLAGS) $(CPPFLAGS) -c $$< -o $$@
$(B)/obj/tb/tb_$(1).o: tb/tb_main.c $(HDRS) | $(DEPS_OK)
	@mkdir -p $$(dir $$@)
	$(CC) $(CFLAGS) $(CPPFLAGS) -DTB_FAMILY_NAME='"$(1)"' -DTB_DUTS=$(1)_duts $$($(1)_TB_CPPFLAGS) -c $$< -o $$@
# the objects a one-configuration bench links (scripts/unit-bench.sh)
$(B)/tb_$(1).objs: $(B)/obj/tb/tb_$(1).o $(ENGINE_OBJ) $(B)/vrt/libvrt.a
	echo $(B)/obj/tb/tb_$(1).o $(ENGINE_OBJ) >$$@
tb_$(1): $(B)/obj/tb/tb_$(1).o $(ENGINE_OBJ) $(B)/obj/$(1)_duts.o $$($(1)_VLIBS) $(B)/vrt/libvrt.a
	$(CC) $(CFLAGS) -o $$@ $$^ $(LDLIBS)
test-$(1): tb_$(1) $(B)/tb_$(1).objs $(B)/test_all tools $(HB)/.stamp
	scripts/lint.sh $$(foreach m,$$($(1)_MODS),rtl/$(1)/$$(m).sv)
	scripts/sweep.sh --sample $(B)/sweep $$($(1)_SWEEP)
	scripts/iverilog-replay.sh $(B)/iverilog $(1)
	$(B)/test_all --color=never --jobs 2 --filter '$(1)_*/*'
endef
$(foreach f,$(FAMILIES),$(eval $(call FAMILY_RULES,$(f))))
# Only the modules are committed; their harness (port header, Verilator shim,
# Icarus replay bench) is generated from the committed configurations into
# $(HB)/<family>/, a file replaced only when its text changes (so a rebuilt
# cohgen re-Verilates only the modules whose shim changed).
ALL_HARNESS := $(foreach f,$(FAMILIES),$(foreach m,$($(f)_MODS),$(addprefix $(HB)/$(f)/$(m),_ports.h _shim.cpp _tb.sv)))
$(HB)/.stamp: $(B)/bin/cohgen scripts/gen-committed.sh
	scripts/gen-committed.sh harness $(HB)
	@touch $@
$(ALL_HARNESS): $(HB)/.stamp ;
harness: $(HB)/.stamp
# rtl/<family>/M.sv -> <family>
family_of = $(word 2,$(subst /, ,$(filter %/$(1).sv,$(ALL_RTL))))
# (a composite's part modules, <module>_<part>.sv beside it, are its sources too)
$(foreach m,$(ALL_MODS),$(eval $(B)/vobj/$(m)/lib$(m).a: $(filter %/$(m).sv,$(ALL_RTL)) \
  $(wildcard $(dir $(filter %/$(m).sv,$(ALL_RTL)))$(m)_*.sv) $(HB)/$(call family_of,$(m))/$(m)_shim.cpp tb/dut.h scripts/verilate.sh | $(DEPS_OK) ; \
  scripts/verilate.sh $(m) $(dir $(filter %/$(m).sv,$(ALL_RTL))) $(B)/vobj $(HB)/$(call family_of,$(m))))

# Hardware cost (Yosys area) and the iCE40 flow; see synth/ and fpga/.
include synth/synth.mk
include fpga/fpga.mk

TB_BINS := $(addprefix tb_,$(FAMILIES))
# make verilate uses every core unless -j is given (make -jN verilate): one
# module's Verilator build per job slot. (make 4.3 shows a command line's
# -j to the makefile only after parsing, so the command line is read.)
NPROC := $(shell nproc 2>/dev/null || echo 2)
ifeq ($(MAKELEVEL),0)
ifneq ($(filter verilate,$(MAKECMDGOALS)),)
ifeq ($(filter -j% --jobs%,$(shell tr '\0' ' ' </proc/$$PPID/cmdline 2>/dev/null)),)
MAKEFLAGS += -j$(NPROC)
endif
endif
endif
verilate: $(TB_BINS) tools $(foreach f,$(FAMILIES),$(B)/tb_$(f).objs) $(HB)/.stamp

# Committed RTL of every registered unit (cohgen --list=configs).
rtl: $(B)/bin/cohgen
	scripts/gen-committed.sh rtl
check-generated: $(B)/bin/cohgen
	scripts/gen-committed.sh check $(B)/check
# No function of the generator, the models or the benches over 200 lines.
check-funcs:
	python3 scripts/check-funcs.py gen cmodel tb
# Platform files name no family (scripts/check-platform.allow: the exceptions).
check-platform:
	scripts/check-platform.sh

# ---- Criterion: one binary with every family's tests (one summary line) --
TEST_SRC := $(wildcard tb/test_*.c tb/*/test_*.c)  # with tb/test_util.c
$(B)/obj/tb/test_registry.o: CPPFLAGS += -DTEST_FAMILIES='$(foreach f,$(FAMILIES),FAMILY($(f)))'
$(B)/test_all: $(patsubst %.c,$(B)/obj/%.o,$(TEST_SRC)) $(ENGINE_OBJ) \
               $(foreach f,$(FAMILIES),$(B)/obj/$(f)_duts.o $($(f)_VLIBS)) $(B)/vrt/libvrt.a
	$(CC) $(CFLAGS) -o $@ $^ -lcriterion $(LDLIBS)
unit: $(B)/test_all verilate
	$(B)/test_all --color=never --jobs 2

lint: $(B)/bin/cohgen $(HB)/.stamp
	scripts/lint.sh $(ALL_RTL)
# Verilator and Icarus alone (make test gets both without a run of its own:
# make verilate's Verilator -Wall build fails on any warning, sim-iverilog
# compiles with Icarus -Wall; the Yosys half is synth-check)
lint-sim: $(B)/bin/cohgen $(HB)/.stamp
	LINT_YOSYS=0 scripts/lint.sh $(ALL_RTL)

# make test: the sample of every sweep list ('+' lines); make sweep-full
# (in make regress): every line.
sweep: verilate
	scripts/sweep.sh --sample $(B)/sweep $(foreach f,$(FAMILIES),$($(f)_SWEEP))
sweep-full: verilate
	scripts/sweep.sh $(B)/sweep-full $(foreach f,$(FAMILIES),$($(f)_SWEEP))

# make test: 1,500 cycles a configuration; sim-iverilog-long (make regress):
# 30,000
sim-iverilog: verilate
	IVL_CYCLES=1500 scripts/iverilog-replay.sh $(B)/iverilog $(FAMILIES)
sim-iverilog-long: verilate
	IVL_CYCLES=30000 scripts/iverilog-replay.sh $(B)/iverilog-long $(FAMILIES)

# The models, trace tools and generator under AddressSanitizer and UBSan.
# -O0 (after CFLAGS' -O2): 83 CPU seconds to compile every object against
# 126 at -O1 (measured), for shell_run's timing shells at half the speed
# (scripts/sanitize.sh runs them 40,000 cycles a stream).
SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -O0
# Each source is compiled once with the sanitizers (two at a time) and the
# four tools are linked from those objects.
SAN_MODEL_OBJ := $(patsubst %.c,$(B)/san/obj/%.o,$(MODEL_SRC))
SAN_BINS := $(addprefix $(B)/san/,cohmodel shell_run bench_model cohgen)
$(B)/san/obj/%.o: %.c $(HDRS) | $(DEPS_OK)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SAN) $(CPPFLAGS) -c $< -o $@
$(B)/san/cohmodel: $(B)/san/obj/cmodel/cohmodel.o $(SAN_MODEL_OBJ)
$(B)/san/shell_run: $(B)/san/obj/tb/shell_run.o $(SAN_MODEL_OBJ)
$(B)/san/bench_model: $(B)/san/obj/tb/bench_model.o $(SAN_MODEL_OBJ)
$(B)/san/cohgen: $(patsubst %.c,$(B)/san/obj/%.o,$(wildcard gen/*.c gen/*/*.c)) $(SAN_MODEL_OBJ)
$(SAN_BINS):
	$(CC) $(CFLAGS) $(SAN) $^ -o $@
# (make fuzz-replay links these objects too: flock keeps two steps of make
# test from compiling the same object at once)
sanitize: $(B)/bin/cohgen
	@mkdir -p $(B)/san
	flock $(B)/san/.build $(MAKE) --no-print-directory -j2 $(SAN_BINS)
	scripts/sanitize.sh $(B)/san

# make test: the tools and the Verilator builds of every module first, then
# the steps and the Criterion tests (scripts/test-steps.sh: TEST_JOBS at a
# time, the longest first), each step's time, then the Criterion tests'
# output, whose summary line comes last (read by CI). (The builds as a step
# beside the steps that need only the tools were measured slower on 2
# cores: 13 min 35 s against 12 min 5 s, every step's CPU time up by a
# fifth.)
TEST_FIRST := sweep synth-check formal sim-iverilog sanitize
TEST_ORDER = $(foreach s,$(TEST_FIRST),$(filter $(s),$(TEST_STEPS))) $(filter-out $(TEST_FIRST),$(TEST_STEPS))
test: | $(DEPS_OK)
	$(MAKE) --no-print-directory -j$(TEST_JOBS) verilate $(B)/test_all tools
	scripts/test-steps.sh $(B)/steps "$(TEST_JOBS)" $(TEST_ORDER) -- unit
test-steps: verilate
	scripts/test-steps.sh $(B)/steps "$(TEST_JOBS)" $(TEST_ORDER) --

regress: verilate $(REGRESS_STEPS)
	scripts/regress.sh

$(B)/bin/bench_model: $(B)/obj/tb/bench_model.o $(MODEL_OBJ)
	$(CC) $(CFLAGS) $^ -o $@
bench: verilate $(B)/bin/bench_model | $(BENCH_DEPS_OK)
	scripts/bench.sh

clean:
	rm -rf $(B) $(TB_BINS) $(foreach f,$(FAMILIES),tb_$(f)_fail.stim tb_$(f)_fail.vcd)

# Rules of fragments over every module, family and test source, read once
# all are known (a fragment names its define in LATE_RULES: mk/coverage.mk).
$(foreach r,$(LATE_RULES),$(eval $(value $(r))))
