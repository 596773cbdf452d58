# Seeded random system programs (scripts/sysprog.sh): each family with a
# system claim lists its runs in tb/<family>/sysprog.txt (model, separate
# checker, and controls the checker must catch).
#   make sysprog         every entry's programs (1,000 a family; part of make regress)
#   make sysprog-sample  4 programs of each entry and 20 of each control (make test)
.PHONY: sysprog sysprog-sample
SYSPROG_LISTS = $(sort $(wildcard tb/*/sysprog.txt))
TEST_STEPS    += sysprog-sample
REGRESS_STEPS += sysprog
sysprog-sample: verilate
	scripts/sysprog.sh --count 4 --controls 20 $(B)/sysprog-sample $(SYSPROG_LISTS)
sysprog: verilate
	scripts/sysprog.sh $(B)/sysprog $(SYSPROG_LISTS)
