# Model library: libcohkit.a and libcohkit.so.MAJOR.MINOR from every model in
# cmodel/ (functional cores, timing shells, trace readers, unit registry),
# public headers, pkg-config file, examples. See docs/model-api.md.
#   make lib                          build/lib/: the libraries, checked
#   make install PREFIX=... [DESTDIR=...] [LIBDIR=...] [INCLUDEDIR=...]
#   make uninstall PREFIX=...
#   make examples                     build the examples against an installed
#                                     tree and check them against cohmodel

.PHONY: lib install uninstall examples

# One source of truth for the version: cmodel/cohkit.h.
cohkit_ver = $(shell sed -n 's/^.define COHKIT_VERSION_$(1) \([0-9][0-9]*\)$$/\1/p' cmodel/cohkit.h)
COHKIT_MAJOR := $(call cohkit_ver,MAJOR)
COHKIT_MINOR := $(call cohkit_ver,MINOR)
COHKIT_PATCH := $(call cohkit_ver,PATCH)
COHKIT_SONAME := libcohkit.so.$(COHKIT_MAJOR)
COHKIT_REAL   := libcohkit.so.$(COHKIT_MAJOR).$(COHKIT_MINOR)

# Every cmodel/*.c except programs (a file defining main()).
LIB_MAIN_RE := ^int[[:space:]]+main[[:space:]]*[(]
LIB_MAINS := $(shell grep -lE '$(LIB_MAIN_RE)' cmodel/*.c cmodel/*/*.c)
LIB_SRC   := $(filter-out $(LIB_MAINS),$(wildcard cmodel/*.c cmodel/*/*.c))
LIB_OBJ   := $(patsubst cmodel/%.c,$(B)/lib/obj/%.o,$(LIB_SRC))
LIB_HDRS  := $(wildcard cmodel/*.h cmodel/*.def cmodel/*/*.h cmodel/*/*.def)
# Installed: every header but the internal ones (marked "cohkit: internal
# header": the composition service and what is built on it, adapters' helpers: docs/model-api.md), and the .def
# tables a public header includes (a unit's port table; not units.def, which
# names internal symbols).
LIB_INT   := $(shell grep -l 'cohkit: internal header' cmodel/*.h cmodel/*/*.h)
LIB_PUB_H := $(filter-out $(LIB_INT),$(wildcard cmodel/*.h cmodel/*/*.h))
LIB_PUB   := $(LIB_PUB_H) \
             $(sort $(foreach d,$(shell sed -n 's/^ *.include "\([a-z0-9_]*[.]def\)".*/\1/p' $(LIB_PUB_H)),\
               $(wildcard cmodel/$(d) cmodel/*/$(d))))
# Every exported name begins with one of these and '_': the platform's, and
# each family's (a folder of cmodel/).
LIB_PREFIXES := cohkit $(notdir $(patsubst %/,%,$(wildcard cmodel/*/)))
LIB_A     := $(B)/lib/libcohkit.a
LIB_SO    := $(B)/lib/$(COHKIT_REAL)
# Checked to be exported in any case: the platform's entry points, and what
# a family adds in mk/<family>.mk (the rest: whatever the public headers
# declare, checked, and what each family's example links, make examples).
LIB_REQUIRED += cohkit_version cohkit_version_string cohkit_unit_registry cohkit_unit_find \
                cohkit_unit_tools cohkit_unit_cfg_parse cohkit_unit_layout_of

# Position-independent (the static library may go into a user's shared
# object, e.g. a simulator's Python module); only what a public header
# declares is visible (cmodel/cohkit.h). The model objects of the main build
# are compiled so (the Makefile's MODEL_PIC) and are the library's objects.
$(B)/lib/obj/%.o: $(B)/obj/cmodel/%.o
	@mkdir -p $(dir $@)
	cp $< $@

# The static library is one relocatable object with the hidden symbols made
# local: a program linking it statically sees the same interface as one
# using the shared library, and no internal name can clash with its own.
$(LIB_A): $(LIB_OBJ)
	$(LD) -r -o $(B)/lib/cohkit.o $^
	objcopy --localize-hidden $(B)/lib/cohkit.o
	rm -f $@ && ar rcs $@ $(B)/lib/cohkit.o && rm -f $(B)/lib/cohkit.o

# (a build of an earlier major version leaves no libcohkit.so.<old> behind)
$(LIB_SO): $(LIB_OBJ)
	rm -f $(B)/lib/libcohkit.so.*
	$(CC) -shared -Wl,-soname,$(COHKIT_SONAME) -Wl,--no-undefined -o $@ $^
	ln -sf $(COHKIT_REAL) $(B)/lib/$(COHKIT_SONAME)
	ln -sf $(COHKIT_SONAME) $(B)/lib/libcohkit.so

$(B)/lib/.checked: $(LIB_A) $(LIB_SO) $(LIB_HDRS) scripts/lib-check.sh
	CC="$(CC)" CXX="$(CXX)" scripts/lib-check.sh $(B)/lib/check $(LIB_A) $(LIB_SO) \
	  $(COHKIT_SONAME) "$(LIB_REQUIRED)" "$(LIB_PUB)" "$(LIB_INT)" "$(LIB_PREFIXES)" $(LIB_OBJ)
	@touch $@

lib: $(B)/lib/.checked

# Installation. $(1) DESTDIR, $(2) prefix, $(3) libdir, $(4) includedir.
define LIB_INSTALL
	install -d $(1)$(3) $(1)$(3)/pkgconfig $(1)$(4)/cohkit
	install -m 644 $(LIB_A) $(1)$(3)/
	install -m 755 $(LIB_SO) $(1)$(3)/
	ln -sf $(COHKIT_REAL) $(1)$(3)/$(COHKIT_SONAME)
	ln -sf $(COHKIT_SONAME) $(1)$(3)/libcohkit.so
	install -m 644 $(LIB_PUB) $(1)$(4)/cohkit/
	printf '%s\n' 'prefix=$(2)' 'libdir=$(3)' 'includedir=$(4)' '' 'Name: cohkit' \
	  'Description: golden models of multi-GPU coherence blocks (functional cores, timing shells)' \
	  'Version: $(COHKIT_MAJOR).$(COHKIT_MINOR).$(COHKIT_PATCH)' \
	  'Cflags: -I$${includedir}' 'Libs: -L$${libdir} -lcohkit' > $(1)$(3)/pkgconfig/cohkit.pc
endef
define LIB_UNINSTALL
	rm -f $(1)$(3)/libcohkit.a $(1)$(3)/$(COHKIT_REAL) $(1)$(3)/$(COHKIT_SONAME) \
	  $(1)$(3)/libcohkit.so $(1)$(3)/pkgconfig/cohkit.pc
	rm -f $(addprefix $(1)$(4)/cohkit/,$(notdir $(LIB_PUB)))
	-rmdir $(1)$(4)/cohkit 2>/dev/null
endef

PREFIX     ?= /usr/local
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
install: lib
	$(call LIB_INSTALL,$(DESTDIR),$(PREFIX),$(LIBDIR),$(INCLUDEDIR))
uninstall:
	$(call LIB_UNINSTALL,$(DESTDIR),$(PREFIX),$(LIBDIR),$(INCLUDEDIR))

# Examples, built the way a user builds them: against an installed tree found
# through pkg-config, once with the shared and once with the static library.
STAGE := $(CURDIR)/$(B)/stage
EX_PC := PKG_CONFIG_PATH=$(STAGE)/lib/pkgconfig pkg-config
EX_BIN := $(B)/examples
CXXFLAGS_EX := -std=c++11 -Wall -Wextra -Werror -O2 -g

$(B)/stage/.installed: $(B)/lib/.checked
	rm -rf $(B)/stage
	$(call LIB_INSTALL,,$(STAGE),$(STAGE)/lib,$(STAGE)/include)
	@touch $@

# Every examples/*.c is built against the shared and the static library,
# every examples/*.cpp against the shared one.
EX_C   := $(notdir $(basename $(wildcard examples/*.c)))
EX_CXX := $(notdir $(basename $(wildcard examples/*.cpp)))
EX_SPECS := $(foreach e,$(EX_C),$(EX_BIN)/$(e):shared $(EX_BIN)/$(e)_static:static) \
            $(foreach e,$(EX_CXX),$(EX_BIN)/$(e)_cpp:shared)

$(EX_BIN)/%_static: examples/%.c $(B)/stage/.installed
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $$($(EX_PC) --cflags cohkit) $< -o $@ \
	  -Wl,-Bstatic $$($(EX_PC) --static --libs cohkit) -Wl,-Bdynamic
$(EX_BIN)/%_cpp: examples/%.cpp $(B)/stage/.installed
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_EX) $$($(EX_PC) --cflags cohkit) $< -o $@ $$($(EX_PC) --libs cohkit)
$(EX_BIN)/%: examples/%.c $(B)/stage/.installed
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $$($(EX_PC) --cflags cohkit) $< -o $@ $$($(EX_PC) --libs cohkit)

examples: $(B)/bin/cohmodel $(patsubst %:shared,%,$(patsubst %:static,%,$(EX_SPECS)))
	LD_LIBRARY_PATH=$(STAGE)/lib scripts/example-check.sh $(B)/examples/run $(B)/bin/cohmodel \
	  $(COHKIT_SONAME) $(EX_SPECS)
	rm -rf $(B)/destdir
	$(call LIB_INSTALL,$(B)/destdir,/opt/cohkit,/opt/cohkit/lib,/opt/cohkit/include)
	scripts/example-check.sh --destdir $(B)/destdir /opt/cohkit $(COHKIT_REAL) \
	  "$(notdir $(LIB_PUB))"
	$(call LIB_UNINSTALL,$(B)/destdir,/opt/cohkit,/opt/cohkit/lib,/opt/cohkit/include)
	@left=$$(find $(B)/destdir -type f -o -type l); [ -z "$$left" ] || \
	  { echo "examples: uninstall left $$left"; exit 1; }
	@echo "examples: DESTDIR install and uninstall of /opt/cohkit: complete and clean"

TEST_STEPS += examples
