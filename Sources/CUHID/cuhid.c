// Implementation of cuhid.h over <linux/uhid.h>.
#include "cuhid.h"

#include <linux/uhid.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

_Static_assert((int)CUHID_CREATE2 == (int)UHID_CREATE2, "uhid event numbers");
_Static_assert((int)CUHID_INPUT2 == (int)UHID_INPUT2, "uhid event numbers");
_Static_assert((int)CUHID_GET_REPORT == (int)UHID_GET_REPORT, "uhid event numbers");
_Static_assert((int)CUHID_GET_REPORT_REPLY == (int)UHID_GET_REPORT_REPLY, "uhid event numbers");
_Static_assert((int)CUHID_SET_REPORT == (int)UHID_SET_REPORT, "uhid event numbers");
_Static_assert((int)CUHID_SET_REPORT_REPLY == (int)UHID_SET_REPORT_REPLY, "uhid event numbers");
_Static_assert((int)CUHID_DESTROY == (int)UHID_DESTROY, "uhid event numbers");
_Static_assert((int)CUHID_FEATURE_REPORT == (int)UHID_FEATURE_REPORT, "uhid report types");
_Static_assert((int)CUHID_INPUT_REPORT == (int)UHID_INPUT_REPORT, "uhid report types");

size_t cuhid_event_size(void) { return sizeof(struct uhid_event); }
size_t cuhid_max_descriptor_size(void) { return HID_MAX_DESCRIPTOR_SIZE; }
size_t cuhid_max_data_size(void) { return UHID_DATA_MAX; }

int cuhid_build_create2(void *buf, const char *name, const uint8_t *desc, size_t desc_len,
                        uint16_t bus, uint32_t vendor, uint32_t product, uint32_t version) {
    struct uhid_event *ev = buf;
    if (desc_len > HID_MAX_DESCRIPTOR_SIZE) return -1;
    memset(ev, 0, sizeof(*ev));
    ev->type = UHID_CREATE2;
    strncpy((char *)ev->u.create2.name, name, sizeof(ev->u.create2.name) - 1);
    strncpy((char *)ev->u.create2.phys, "motionbatch-emulator", sizeof(ev->u.create2.phys) - 1);
    memcpy(ev->u.create2.rd_data, desc, desc_len);
    ev->u.create2.rd_size = (uint16_t)desc_len;
    ev->u.create2.bus = bus;
    ev->u.create2.vendor = vendor;
    ev->u.create2.product = product;
    ev->u.create2.version = version;
    ev->u.create2.country = 0;
    return 0;
}

void cuhid_build_destroy(void *buf) {
    struct uhid_event *ev = buf;
    memset(ev, 0, sizeof(*ev));
    ev->type = UHID_DESTROY;
}

int cuhid_build_input2(void *buf, const uint8_t *data, size_t len) {
    struct uhid_event *ev = buf;
    if (len > UHID_DATA_MAX) return -1;
    memset(ev, 0, offsetof(struct uhid_event, u) + sizeof(ev->u.input2.size));
    ev->type = UHID_INPUT2;
    ev->u.input2.size = (uint16_t)len;
    memcpy(ev->u.input2.data, data, len);
    return 0;
}

int cuhid_build_get_report_reply(void *buf, uint32_t id, uint16_t err, const uint8_t *data, size_t len) {
    struct uhid_event *ev = buf;
    if (len > UHID_DATA_MAX) return -1;
    memset(ev, 0, sizeof(*ev));
    ev->type = UHID_GET_REPORT_REPLY;
    ev->u.get_report_reply.id = id;
    ev->u.get_report_reply.err = err;
    ev->u.get_report_reply.size = (uint16_t)len;
    if (len) memcpy(ev->u.get_report_reply.data, data, len);
    return 0;
}

void cuhid_build_set_report_reply(void *buf, uint32_t id, uint16_t err) {
    struct uhid_event *ev = buf;
    memset(ev, 0, sizeof(*ev));
    ev->type = UHID_SET_REPORT_REPLY;
    ev->u.set_report_reply.id = id;
    ev->u.set_report_reply.err = err;
}

uint32_t cuhid_event_type(const void *buf) { return ((const struct uhid_event *)buf)->type; }

uint32_t cuhid_request_id(const void *buf) {
    const struct uhid_event *ev = buf;
    switch (ev->type) {
    case UHID_GET_REPORT: return ev->u.get_report.id;
    case UHID_SET_REPORT: return ev->u.set_report.id;
    default: return 0;
    }
}

uint8_t cuhid_request_rnum(const void *buf) {
    const struct uhid_event *ev = buf;
    switch (ev->type) {
    case UHID_GET_REPORT: return ev->u.get_report.rnum;
    case UHID_SET_REPORT: return ev->u.set_report.rnum;
    default: return 0;
    }
}

uint8_t cuhid_request_rtype(const void *buf) {
    const struct uhid_event *ev = buf;
    switch (ev->type) {
    case UHID_GET_REPORT: return ev->u.get_report.rtype;
    case UHID_SET_REPORT: return ev->u.set_report.rtype;
    case UHID_OUTPUT: return ev->u.output.rtype;
    default: return 0;
    }
}

const uint8_t *cuhid_event_data(const void *buf, size_t *len) {
    const struct uhid_event *ev = buf;
    switch (ev->type) {
    case UHID_SET_REPORT:
        *len = ev->u.set_report.size > UHID_DATA_MAX ? UHID_DATA_MAX : ev->u.set_report.size;
        return ev->u.set_report.data;
    case UHID_OUTPUT:
        *len = ev->u.output.size > UHID_DATA_MAX ? UHID_DATA_MAX : ev->u.output.size;
        return ev->u.output.data;
    default:
        *len = 0;
        return NULL;
    }
}

int cuhid_termination_signalfd(void) {
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGINT);
    sigaddset(&mask, SIGTERM);
    if (sigprocmask(SIG_BLOCK, &mask, NULL) != 0) return -1;
    return signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
}

int cuhid_read_signal(int fd) {
    struct signalfd_siginfo info;
    ssize_t n = read(fd, &info, sizeof(info));
    if (n != (ssize_t)sizeof(info)) return -1;
    return (int)info.ssi_signo;
}
