/*
 * The Spandex translation unit's port words: an index per port of
 * spandex_tuhw_ports.def (SPANDEX_TUHW_P_<name>) and the layout of its
 * configuration (spandex_port_words.h: where each port lies in the shell's
 * and the benches' uint64_t arrays, the data ports' words).
 *
 * cohkit: internal header (not installed).
 */
#ifndef SPANDEX_TUHW_PORT_H
#define SPANDEX_TUHW_PORT_H

#include <stdint.h>

#include "spandex_tuhw.h"
#include "spandex_port_words.h"
#include "unit.h"

enum {
#define SPANDEX_TUHW_PORT(dir, name, w) SPANDEX_TUHW_P_##name,
#include "spandex_tuhw_ports.def"
#undef SPANDEX_TUHW_PORT
    SPANDEX_TUHW_P_COUNT
};
_Static_assert(SPANDEX_TUHW_P_COUNT <= SPANDEX_PORTS_MAX, "SPANDEX_PORTS_MAX below the port count");

typedef spandex_ports spandex_tuhw_ports;

static inline void spandex_tuhw_ports_of(const spandex_tuhw_cfg *c, spandex_tuhw_ports *p)
{
    spandex_tuhw_geom geom, *g = &geom;
    spandex_tuhw_geom_of(c, g);
    spandex_ports_begin(p, g->word_bits, g->words);
#define SPANDEX_TUHW_PORT(dir, name, w) \
    spandex_ports_add(p, SPANDEX_TUHW_P_##name, COHKIT_PORT_##dir == COHKIT_PORT_IN, (unsigned)(w));
#include "spandex_tuhw_ports.def"
#undef SPANDEX_TUHW_PORT
}

#endif
