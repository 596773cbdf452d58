# make coverage: Verilator line, branch and toggle coverage of every committed
# configuration named in COV_CONFIGS (default and fpga by default; `all` for
# every one) under make test's stimulus of it: the Criterion tests (every
# family's, in-process lockstep runs and the ./tb_<family> commands they
# start) and the Icarus replay step's ./tb_<family> run (1,500 cycles,
# seed 5). Those modules are Verilated again with coverage into $(CB)/vobj
# (scripts/verilate.sh, VCOV=1), the benches and the Criterion binary linked
# with them (the other configurations keep their normal objects) into $(CB),
# and run from $(CB)/run, a copy of the tree's top level made of links, so
# that the tests' ./tb_<family> are the coverage benches. Each process
# writes its counters at exit (tb/cov_hook.h); scripts/coverage.py merges
# them per module, prints the table, writes $(CB)/report/ (annotated
# sources, lcov .info, <module>.uncovered.txt) and checks the waivers
# (tb/coverage-waivers.txt) and floors (tb/coverage-floor.txt).
# docs/verification.md#coverage.
#   make coverage [COV_CONFIGS='default fpga'|all] [COV_WRITE_FLOORS=1]
#   make coverage-report   the table again from the last run's counters
CB          := $(B)/cov
COV_CONFIGS ?= default fpga

REGRESS_STEPS += coverage
.PHONY: coverage coverage-steps coverage-report cov-force

# The measured modules (COV_MODS), from the registry (cohgen --list=configs):
# make coverage computes them and runs the steps in a second make.
cov_mods = $$($(B)/bin/cohgen --list=configs | awk -v want=' $(COV_CONFIGS) ' \
  'want == " all " || index(want, " " $$4 " ") {printf " %s", $$3}')

# The rules over every module and family, read by the Makefile once the
# registry's module lists and the test sources are known (LATE_RULES).
LATE_RULES += COVERAGE_RULES
define COVERAGE_RULES
$(CB)/vrt/libvrt.a: scripts/vruntime.sh | $(DEPS_OK)
	scripts/vruntime.sh $(CB)/vrt
$(foreach m,$(ALL_MODS),$(eval $(CB)/vobj/$(m)/lib$(m).a: $(B)/vobj/$(m)/lib$(m).a tb/cov_hook.h ; \
  VCOV=1 scripts/verilate.sh $(m) $(dir $(filter %/$(m).sv,$(ALL_RTL))) $(CB)/vobj $(HB)/$(call family_of,$(m))))
# the binaries are linked again when the list changes ($(CB)/mods.txt)
$(CB)/mods.txt: cov-force
	@mkdir -p $(CB)
	@echo '$(strip $(COV_MODS))' >$@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
cov-force:
# The benches and the Criterion binary are linked from the inputs make
# knows for the normal ones (the families' fragments add objects to them),
# the measured modules' libraries swapped (scripts/coverage-link.sh).
define COV_FAMILY_RULES
$(CB)/tb_$(1): tb_$(1) $$(foreach m,$$(filter $$($(1)_MODS),$$(COV_MODS)),$(CB)/vobj/$$(m)/lib$$(m).a) $(CB)/vrt/libvrt.a $(CB)/mods.txt scripts/coverage-link.sh
	$(CC) $(CFLAGS) -o $$@ $$$$(scripts/coverage-link.sh tb_$(1) $(CB) $(COV_MODS)) $(LDLIBS)
endef
$(foreach f,$(FAMILIES),$(eval $(call COV_FAMILY_RULES,$(f))))
$(CB)/test_all: $(B)/test_all $(foreach m,$(COV_MODS),$(CB)/vobj/$(m)/lib$(m).a) $(CB)/vrt/libvrt.a $(CB)/mods.txt scripts/coverage-link.sh
	$(CC) $(CFLAGS) -o $@ $$(scripts/coverage-link.sh $(B)/test_all $(CB) $(COV_MODS)) -lcriterion $(LDLIBS)

coverage: verilate $(B)/test_all
	$(MAKE) --no-print-directory COV_MODS="$(cov_mods)" coverage-steps
coverage-steps: $(CB)/test_all $(addprefix $(CB)/tb_,$(FAMILIES))
	scripts/coverage-run.sh $(CB) $(COV_MODS)
	python3 scripts/coverage.py $(CB) $(COV_MODS)
coverage-report:
	python3 scripts/coverage.py $(CB) $(cov_mods)
endef
