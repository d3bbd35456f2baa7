#ifndef CELLAR_CLIBPQ_SHIM_H
#define CELLAR_CLIBPQ_SHIM_H

// Debian's libpq (PostgreSQL's client library) as it is: Swift calls every function CellarDatabase
// needs directly, so there are no wrappers yet. Any added later are prefixed `clibpq_`.

#include <libpq-fe.h>

#endif
