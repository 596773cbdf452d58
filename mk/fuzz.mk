# Fuzzing of every parser the kit has (tb/fuzz/, docs/verification.md,
# "Fuzzing"): one binary holds every harness, selected by --harness=NAME;
# the harnesses and their input bounds are listed in tb/fuzz/harnesses.txt,
# each with its committed seed corpus tb/fuzz/corpus/NAME/.
#   make fuzz           every harness under libFuzzer (clang, ASan, UBSan),
#                       FUZZ_SECONDS each (FUZZ_HARNESSES: some of them);
#                       a crash, hang, leak or broken promise fails it, its
#                       input saved under build/fuzz/NAME/ (part of make regress)
#   make fuzz-replay    every committed corpus file through the same harnesses
#                       built with $(CC) under ASan and UBSan (no clang; make test)
.PHONY: fuzz fuzz-replay
FUZZ_SECONDS   ?= 60
FUZZ_HARNESSES ?=
FUZZ_CC        ?= clang
TEST_STEPS     += fuzz-replay
REGRESS_STEPS  += fuzz

# The harnesses and what they call: the models, the generator but its main,
# the lockstep engine, and the benches' family sources as an archive (a
# harness links the hooks it calls, nothing else).
FUZZ_SRC     := $(filter-out tb/fuzz/replay_main.c,$(wildcard tb/fuzz/*.c))
FUZZ_LIB_SRC := $(MODEL_SRC) $(filter-out gen/cohgen.c,$(wildcard gen/*.c gen/*/*.c)) tb/lockstep.c tb/compose_rtl.c
FUZZ_TB_SRC  := $(filter-out tb/fuzz/%,$(foreach f,$(wildcard tb/*/*.c),$(if $(findstring /test_,$(f)),,$(f))))
FUZZ_DEPS    := tb/fuzz/harnesses.def cmodel/cohmodel.c gen/cohgen.c

# ---- make fuzz: everything built with clang, coverage-instrumented
FZ := $(B)/fuzz
FUZZ_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -O1 -g -fno-omit-frame-pointer \
               -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
FUZZ_DEPS_OK := $(FZ)/.deps-ok
$(FUZZ_DEPS_OK): scripts/install-deps.sh
	@mkdir -p $(FZ)
	@scripts/install-deps.sh --fuzz --check >/dev/null || scripts/install-deps.sh --fuzz
	@touch $@
$(FZ)/obj/%.o: %.c $(HDRS) | $(FUZZ_DEPS_OK)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(CPPFLAGS) -c $< -o $@
$(patsubst %.c,$(FZ)/obj/%.o,$(FUZZ_SRC)): $(FUZZ_DEPS)
$(FZ)/libtb.a: $(patsubst %.c,$(FZ)/obj/%.o,$(FUZZ_TB_SRC))
	rm -f $@ && ar rcs $@ $^
$(FZ)/fuzz: $(patsubst %.c,$(FZ)/obj/%.o,$(FUZZ_SRC) $(FUZZ_LIB_SRC)) $(FZ)/libtb.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $^ -o $@ -lm -pthread
fuzz: $(FZ)/fuzz
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh $< $(FZ) $(FUZZ_HARNESSES)

# ---- make fuzz-replay: the sanitizer objects of make sanitize ($(B)/san/obj)
FUZZ_SAN_OBJ := $(patsubst %.c,$(B)/san/obj/%.o,$(FUZZ_SRC) tb/fuzz/replay_main.c)
$(FUZZ_SAN_OBJ): $(FUZZ_DEPS)
$(B)/san/libtb-fuzz.a: $(patsubst %.c,$(B)/san/obj/%.o,$(FUZZ_TB_SRC))
	rm -f $@ && ar rcs $@ $^
$(B)/san/fuzz_replay: $(FUZZ_SAN_OBJ) $(patsubst %.c,$(B)/san/obj/%.o,$(FUZZ_LIB_SRC)) $(B)/san/libtb-fuzz.a
	$(CC) $(CFLAGS) $(SAN) $^ -o $@ -lm -pthread
fuzz-replay: | $(DEPS_OK)
	@mkdir -p $(B)/san
	flock $(B)/san/.build $(MAKE) --no-print-directory -j2 $(B)/san/fuzz_replay
	scripts/fuzz.sh --replay $(B)/san/fuzz_replay $(FZ) $(FUZZ_HARNESSES)
