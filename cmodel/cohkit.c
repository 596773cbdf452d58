/* Version of the model library (cmodel/cohkit.h). */
#include "cohkit.h"

#define COHKIT_STR_(x) #x
#define COHKIT_STR(x) COHKIT_STR_(x)

int cohkit_version(void) { return COHKIT_VERSION; }

const char *cohkit_version_string(void)
{
    return COHKIT_STR(COHKIT_VERSION_MAJOR) "." COHKIT_STR(COHKIT_VERSION_MINOR) "." COHKIT_STR(
        COHKIT_VERSION_PATCH);
}
