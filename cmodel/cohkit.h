/*
 * cohkit: the model library (libcohkit.a, libcohkit.so) built from cmodel/.
 * Version of the interface, and the brackets every public header puts around
 * its declarations. See docs/model-api.md.
 *
 * Versioning. The soname is libcohkit.so.<MAJOR>. MAJOR is raised by any
 * change that breaks a program built against an earlier release: a function
 * removed, renamed or its signature changed, a public struct's layout or
 * size changed (a model's configuration, state, statistics, port or shell
 * struct, cohkit_unit_desc, ...), an enum value renumbered or a macro that
 * sizes a struct changed.
 * MINOR is raised by compatible additions (a model, a function, a unit in
 * the registry, a field appended to a struct only the library allocates) and
 * by changes of a model's outputs for the same inputs (a corrected reading
 * of a paper, listed in docs/paper-notes.md). PATCH is raised by fixes that
 * change no interface and no model output.
 *
 * Names. Every exported function and object, and every type, macro and
 * inline function of an installed header, begins with cohkit_ (the
 * platform: the unit registry) or with its family, the name of its folder
 * of cmodel/, followed by the unit (<family>_<unit>_...), in either case;
 * `make lib` fails on any other (scripts/lib-check.sh, docs/model-api.md).
 */
#ifndef COHKIT_H
#define COHKIT_H

#define COHKIT_VERSION_MAJOR 3
#define COHKIT_VERSION_MINOR 4
#define COHKIT_VERSION_PATCH 0

/* One number per release: MAJOR * 10000 + MINOR * 100 + PATCH. */
#define COHKIT_VERSION_ENCODE(major, minor, patch) ((major) * 10000 + (minor) * 100 + (patch))
#define COHKIT_VERSION \
    COHKIT_VERSION_ENCODE(COHKIT_VERSION_MAJOR, COHKIT_VERSION_MINOR, COHKIT_VERSION_PATCH)

/*
 * COHKIT_BEGIN_DECLS / COHKIT_END_DECLS enclose the declarations of every
 * public header. They give the declarations C linkage for C++ callers and,
 * with GCC or Clang, default visibility: the library is compiled with
 * -fvisibility=hidden, so a function or object is exported exactly when a
 * public header declares it, and every other non-static symbol stays inside
 * the library. One pair per header instead of a macro per declaration: a
 * new model's header cannot export half of its API by forgetting one
 * annotation, and `make lib` fails if the exported set and the declared set
 * differ (scripts/lib-check.sh).
 */
#if defined(__GNUC__) || defined(__clang__)
#define COHKIT_VISIBLE_PUSH_ _Pragma("GCC visibility push(default)")
#define COHKIT_VISIBLE_POP_ _Pragma("GCC visibility pop")
#else
#define COHKIT_VISIBLE_PUSH_
#define COHKIT_VISIBLE_POP_
#endif
#ifdef __cplusplus
#define COHKIT_BEGIN_DECLS COHKIT_VISIBLE_PUSH_ extern "C" {
#define COHKIT_END_DECLS } COHKIT_VISIBLE_POP_
#else
#define COHKIT_BEGIN_DECLS COHKIT_VISIBLE_PUSH_
#define COHKIT_END_DECLS COHKIT_VISIBLE_POP_
#endif

COHKIT_BEGIN_DECLS

/* COHKIT_VERSION of the library loaded at run time. A program compiled
 * against headers of another MAJOR must not use it. */
int cohkit_version(void);
/* "MAJOR.MINOR.PATCH" of the library loaded at run time. */
const char *cohkit_version_string(void);

COHKIT_END_DECLS

#endif
