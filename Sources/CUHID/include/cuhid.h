// CUHID: a few C functions that build and parse Linux `struct uhid_event` (<linux/uhid.h>) so that
// Swift only handles plain byte buffers, pointers and lengths (the struct is a packed union of
// 4096-byte arrays, which Swift would import as huge tuples).
//
// Every event buffer is `cuhid_event_size()` bytes; write/read it whole on /dev/uhid.
#ifndef CUHID_H
#define CUHID_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Event types (mirror `enum uhid_event_type`).
enum cuhid_event_type {
    CUHID_DESTROY = 1,
    CUHID_START = 2,
    CUHID_STOP = 3,
    CUHID_OPEN = 4,
    CUHID_CLOSE = 5,
    CUHID_OUTPUT = 6,
    CUHID_GET_REPORT = 9,
    CUHID_GET_REPORT_REPLY = 10,
    CUHID_CREATE2 = 11,
    CUHID_INPUT2 = 12,
    CUHID_SET_REPORT = 13,
    CUHID_SET_REPORT_REPLY = 14,
};

/// Report types carried in GET_REPORT/SET_REPORT `rtype` (mirror `enum uhid_report_type`).
enum cuhid_report_type {
    CUHID_FEATURE_REPORT = 0,
    CUHID_OUTPUT_REPORT = 1,
    CUHID_INPUT_REPORT = 2,
};

/// sizeof(struct uhid_event): the size of every event buffer.
size_t cuhid_event_size(void);
/// Largest report descriptor UHID_CREATE2 accepts (HID_MAX_DESCRIPTOR_SIZE).
size_t cuhid_max_descriptor_size(void);
/// Largest report payload of INPUT2 / GET_REPORT_REPLY / SET_REPORT (UHID_DATA_MAX).
size_t cuhid_max_data_size(void);

/// Fills `ev` with UHID_CREATE2. `name` is truncated to 127 bytes. Returns 0, or -1 when
/// `desc_len` exceeds cuhid_max_descriptor_size().
int cuhid_build_create2(void *ev, const char *name, const uint8_t *desc, size_t desc_len,
                        uint16_t bus, uint32_t vendor, uint32_t product, uint32_t version);
/// Fills `ev` with UHID_DESTROY.
void cuhid_build_destroy(void *ev);
/// Fills `ev` with UHID_INPUT2 carrying `len` bytes (report ID first when the device uses IDs).
/// Returns 0, or -1 when `len` exceeds cuhid_max_data_size().
int cuhid_build_input2(void *ev, const uint8_t *data, size_t len);
/// Fills `ev` with UHID_GET_REPORT_REPLY for request `id`; `err` 0 or an errno; `data` starts
/// with the report ID. Returns 0, or -1 when `len` is too large.
int cuhid_build_get_report_reply(void *ev, uint32_t id, uint16_t err, const uint8_t *data, size_t len);
/// Fills `ev` with UHID_SET_REPORT_REPLY for request `id`; `err` 0 or an errno.
void cuhid_build_set_report_reply(void *ev, uint32_t id, uint16_t err);

/// The event's type (`ev->type`).
uint32_t cuhid_event_type(const void *ev);
/// Request id of UHID_GET_REPORT / UHID_SET_REPORT (0 for other types).
uint32_t cuhid_request_id(const void *ev);
/// Report number (report ID) of UHID_GET_REPORT / UHID_SET_REPORT.
uint8_t cuhid_request_rnum(const void *ev);
/// Report type (enum cuhid_report_type) of UHID_GET_REPORT / UHID_SET_REPORT.
uint8_t cuhid_request_rtype(const void *ev);
/// Payload of UHID_SET_REPORT (report ID first) or UHID_OUTPUT; sets `*len` (0 for other types).
const uint8_t *cuhid_event_data(const void *ev, size_t *len);

/// Blocks SIGINT and SIGTERM for the calling thread (the emulator is single-threaded) and returns
/// a non-blocking signalfd (`signalfd(2)`) that becomes readable when one arrives, or -1 with errno.
int cuhid_termination_signalfd(void);
/// Reads one pending signal from `fd` (from cuhid_termination_signalfd); returns its number or -1.
int cuhid_read_signal(int fd);

#ifdef __cplusplus
}
#endif

#endif
