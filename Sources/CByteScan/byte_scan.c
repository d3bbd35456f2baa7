// Everything is in include/byte_scan.h, as `static inline` functions the Swift compiler inlines.
// This file makes CByteScan a C target, so that SwiftPM rebuilds its users when the header changes.
#include "byte_scan.h"
