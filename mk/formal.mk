# Formal checks (scripts/formal.sh): every unit configuration of tb/formal.txt
# proved by k-induction or bounded model checking with yosys-smtbmc and z3,
# and the negative controls of tb/formal-controls.txt. A new unit adds its
# configurations and one control per property group to those files, and
# marks one control a configuration with '+' for make test's sample.
.PHONY: formal formal-full formal-deep formal-long
TEST_STEPS    += formal
REGRESS_STEPS += formal-full formal-deep formal-long

# make test: every configuration proved, the sample of the controls run, the
# others applied (each edit still changes the RTL; every group has one).
formal: $(B)/bin/cohgen | $(DEPS_OK)
	scripts/formal.sh --sample tb/formal.txt $(B)/formal tb/formal-controls.txt
# make regress: every negative control run.
formal-full: $(B)/bin/cohgen | $(DEPS_OK)
	scripts/formal.sh tb/formal.txt $(B)/formal-full tb/formal-controls.txt

# Larger configurations (more GPUs, slots, ways and sets; line mode; one way).
formal-deep: $(B)/bin/cohgen | $(DEPS_OK)
	scripts/formal.sh tb/formal-deep.txt $(B)/formal-deep

# Bounded runs too slow for make test (a model whose every step costs the
# solver seconds), with their own negative controls.
formal-long: $(B)/bin/cohgen | $(DEPS_OK)
	scripts/formal.sh tb/formal-long.txt $(B)/formal-long tb/formal-long-controls.txt
