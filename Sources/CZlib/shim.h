// CZlib: the system zlib (Debian zlib1g-dev), for gzip-compressed recordings and zip archives.
// Only MotionCore/Compression imports this module.
#ifndef MOTIONBATCH_CZLIB_SHIM_H
#define MOTIONBATCH_CZLIB_SHIM_H
#include <zlib.h>
#endif
