// floor-reader: the least a Swift reader does per wake-up on an IIO buffer (one `poll`, one
// `read`, one store), for the kernel tests' CPU comparison (scripts/kernel-tests, tests 55 and
// 58): built with the same flags as `motionbatch`, it measures what the guest's emulated CPU
// charges a Swift binary for the loop alone, beside `iio_readdev` (C, libiio) and
// `motionbatch capture`. Not shipped: the caller enables the buffer through sysfs.
//
// Usage: floor-reader /dev/iio:deviceN   (stops on SIGINT or SIGTERM; prints the bytes read)
import Glibc

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    let usage = "usage: floor-reader /dev/iio:deviceN\n"
    _ = usage.withCString { write(2, $0, strlen($0)) }
    exit(64)
}
let fd = open(arguments[1], O_RDONLY | O_NONBLOCK)
guard fd >= 0 else {
    perror("floor-reader: open \(arguments[1])")
    exit(1)
}
/// Bytes read and the last byte seen: the one store per wake-up.
var total = 0
var last: UInt8 = 0
let capacity = 1 << 16
let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
signal(SIGINT) { _ in _exit(0) }
signal(SIGTERM) { _ in _exit(0) }
while true {
    let woke = poll(&descriptor, 1, -1)
    if woke < 0 {
        if errno == EINTR { continue }
        perror("floor-reader: poll")
        exit(1)
    }
    let n = read(fd, buffer, capacity)
    if n > 0 {
        total &+= n
        last = buffer.load(as: UInt8.self)
    } else if n < 0, errno != EAGAIN {
        perror("floor-reader: read")
        exit(1)
    }
}
