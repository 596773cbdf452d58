/*
 * The Spandex LLC's port words: an index per port of spandex_llc_ports.def
 * (SPANDEX_LLC_P_<name>) and the layout of its configuration
 * (spandex_port_words.h: where each port lies in the shell's and the
 * benches' uint64_t arrays, the data ports' words).
 *
 * cohkit: internal header (not installed): shared by the Spandex model's
 * own sources.
 */
#ifndef SPANDEX_LLC_PORT_H
#define SPANDEX_LLC_PORT_H

#include <stdint.h>

#include "spandex_llc.h"
#include "spandex_port_words.h"
#include "unit.h"

enum {
#define SPANDEX_LLC_PORT(dir, name, w) SPANDEX_LLC_P_##name,
#include "spandex_llc_ports.def"
#undef SPANDEX_LLC_PORT
    SPANDEX_LLC_P_COUNT
};
_Static_assert(SPANDEX_LLC_P_COUNT <= SPANDEX_PORTS_MAX, "SPANDEX_PORTS_MAX below the port count");

typedef spandex_ports spandex_llc_ports;

static inline void spandex_llc_ports_of(const spandex_llc_cfg *c, spandex_llc_ports *p)
{
    spandex_llc_geom geom, *g = &geom;
    spandex_llc_geom_of(c, g);
    spandex_ports_begin(p, g->word_bits, g->words);
#define SPANDEX_LLC_PORT(dir, name, w) \
    spandex_ports_add(p, SPANDEX_LLC_P_##name, COHKIT_PORT_##dir == COHKIT_PORT_IN, (unsigned)(w));
#include "spandex_llc_ports.def"
#undef SPANDEX_LLC_PORT
}

#endif
