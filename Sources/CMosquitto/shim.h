// CMosquitto: the system library libmosquitto 2.0 (Debian libmosquitto-dev). Only MotionMQTT imports this module.
#ifndef MOTIONBATCH_CMOSQUITTO_SHIM_H
#define MOTIONBATCH_CMOSQUITTO_SHIM_H
#include <mosquitto.h>
#include <mqtt_protocol.h>
#endif
