// CLibIIO: the system library libiio 0.24 (Debian libiio-dev). Only MotionIIO imports this module.
#ifndef MOTIONBATCH_CLIBIIO_SHIM_H
#define MOTIONBATCH_CLIBIIO_SHIM_H
#include <iio.h>
#endif
