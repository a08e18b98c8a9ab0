import MotionSystem

/// Whether a sensor can be captured now, and if not why and what fixes it. Checked fresh at
/// every start and on every capture error (see ``AccessProbe``); never cached.
public enum AccessState: Hashable, Sendable {
    /// The kernel has no IIO subsystem (`/sys/bus/iio` missing) or the context could not be opened.
    case noIIOSubsystem
    /// No device with that name or id.
    case deviceAbsent(device: String)
    /// A file needed for capture cannot be opened or written.
    case permissionDenied(device: String, path: String)
    /// Another reader holds the buffer (`EBUSY`).
    case busy(device: String)
    /// Ready to capture.
    case available
    /// The device disappeared during capture (`ENODEV`).
    case lost(device: String)
    /// The board running iiod (`ip:` URI) could not be reached.
    case unreachable(uri: String)
    /// The connection to the board running iiod broke during capture.
    case disconnected(uri: String)

    /// Whether the state means the device (or the board) went away during a capture.
    public var isLoss: Bool {
        switch self {
        case .lost, .disconnected: true
        default: false
        }
    }

    /// The errors of a remote (iiod) context that mean the connection is gone, not the device.
    public static let connectionErrors: Set<Errno> = [.connectionReset, .connectionRefused, .brokenPipe, .notConnected,
                                                      .hostUnreachable, .timedOut, .ioError]

    /// Stable machine-readable name (used in `--json`).
    public var name: String {
        switch self {
        case .noIIOSubsystem: "no-iio-subsystem"
        case .deviceAbsent: "device-absent"
        case .permissionDenied: "permission-denied"
        case .busy: "busy"
        case .available: "available"
        case .lost: "lost"
        case .unreachable: "unreachable"
        case .disconnected: "disconnected"
        }
    }

    /// What is wrong, in one sentence.
    public var message: String {
        switch self {
        case .noIIOSubsystem: "No IIO subsystem: /sys/bus/iio does not exist."
        case .deviceAbsent(let d): "No IIO device named '\(d)'."
        case .permissionDenied(let d, let p): "Permission denied for \(d): cannot open or write \(p)."
        case .busy(let d): "\(d) is busy: another reader holds its buffer."
        case .available: "Available."
        case .lost(let d): "\(d) was removed during capture."
        case .unreachable(let u): "Cannot reach iiod at \(u)."
        case .disconnected(let u): "The connection to iiod at \(u) was lost during capture."
        }
    }

    /// What the user can do about it.
    public var remedy: String {
        switch self {
        case .noIIOSubsystem:
            "Load the IIO core and the sensor's driver (e.g. `modprobe industrialio hid-sensor-accel-3d`), or use --uri ip:HOST for a board running iiod."
        case .deviceAbsent:
            "Run `motionbatch devices` to list the devices; check the driver is loaded and the sensor is connected."
        case .permissionDenied:
            "Run as root, or install the udev rule (`scripts/install.sh` puts it in /usr/local/lib/udev/rules.d, the Debian package in /lib/udev/rules.d; by hand: this text as /etc/udev/rules.d/60-motionbatch-iio.rules), add yourself to group 'iio' (`sudo groupadd -f iio; sudo usermod -aG iio $USER`), log in again and run `sudo udevadm control --reload && sudo udevadm trigger -s iio`:\n" + AccessState.udevRule
        case .busy:
            "Stop the other reader (see `fuser -v /dev/iio:device*`) and try again."
        case .available: ""
        case .lost:
            "Check the sensor's connection and driver (`dmesg`), then start again."
        case .unreachable, .disconnected:
            "On the board, check that iiod runs (`systemctl status iiod`, or start `iiod`) and listens on TCP port 30431 (or the port in the URI), that the network reaches it (`ping`), and that no firewall blocks the port; `iio_info -u URI` tests the connection."
        }
    }

    /// A udev rule giving group `iio` read/write access to the motion IIO devices (accelerometer,
    /// gyroscope, step counter, activity; not ADCs) and to the sysfs
    /// attributes a capture writes (buffer, scan elements' `_en`, sampling frequency, timestamp
    /// clock, scale): the rule of `contrib/udev/60-motionbatch-iio.rules`, which `scripts/install.sh`
    /// and the Debian package install (a test keeps the two equal).
    public static let udevRule = """
        ACTION!="remove", SUBSYSTEM=="iio", KERNEL=="iio:device*", GOTO="motionbatch_iio_check"
        GOTO="motionbatch_iio_end"
        LABEL="motionbatch_iio_check"
        TEST=="in_accel_x_raw", GOTO="motionbatch_iio"
        TEST=="scan_elements/in_accel_x_en", GOTO="motionbatch_iio"
        TEST=="in_anglvel_x_raw", GOTO="motionbatch_iio"
        TEST=="scan_elements/in_anglvel_x_en", GOTO="motionbatch_iio"
        TEST=="in_steps_input", GOTO="motionbatch_iio"
        TEST=="in_activity_still_input", GOTO="motionbatch_iio"
        TEST=="in_activity_walking_input", GOTO="motionbatch_iio"
        TEST=="in_activity_jogging_input", GOTO="motionbatch_iio"
        TEST=="in_activity_running_input", GOTO="motionbatch_iio"
        GOTO="motionbatch_iio_end"
        LABEL="motionbatch_iio"
        GROUP="iio", MODE="0660", \\
          RUN+="/bin/sh -c 'cd /sys%p || exit 1; bad=; for f in buffer/* buffer0/* scan_elements/*_en *sampling_frequency current_timestamp_clock *_scale; do [ -e $$f ] || continue; chgrp iio $$f && chmod g+w $$f || bad=$$bad,$$f; done; [ -z $$bad ] && exit 0; echo motionbatch-udev: %k: not given to group iio: $${bad#,} >&2; logger -p daemon.warning -t motionbatch-udev %k: not given to group iio: $${bad#,} 2>/dev/null; exit 1'"
        LABEL="motionbatch_iio_end"
        """

    /// The state that explains a failed call on `device`, given the fresh probe taken after it
    /// (`probed`, nil where none could be taken: remote contexts). A probe that found a problem is
    /// the answer. A probe that found the device present and accessible leaves only what the
    /// error itself can mean about access: `EACCES`/`EPERM` (a file the probe does not check) and
    /// `EBUSY`; a missing file (`ENOENT`/`ENODEV`) is then an attribute, not the device. Without
    /// a probe the errno is mapped by ``from(errno:device:path:duringCapture:)``.
    /// - Returns: nil when the failure is a plain error, not an access problem.
    /// For a remote context (`remoteURI`), a connection error is ``disconnected(uri:)`` during a
    /// capture and ``unreachable(uri:)`` before one.
    public static func explaining(_ error: SystemError?, device: String, probed: AccessState?, duringCapture: Bool,
                                  remoteURI: String? = nil) -> AccessState? {
        if let p = probed, p != .available { return p }
        guard let e = error else { return nil }
        if let uri = remoteURI, connectionErrors.contains(e.errno) {
            return duringCapture ? .disconnected(uri: uri) : .unreachable(uri: uri)
        }
        if probed == .available {
            switch e.errno {
            case .permissionDenied, .notPermitted, .busy: break
            default: return nil
            }
        }
        return from(errno: e.errno, device: device, path: e.subject, duringCapture: duringCapture)
    }

    /// Maps a failed call's errno to the state it reveals, for `device` and the file involved.
    /// `EACCES`/`EPERM` → permission denied; `EBUSY` → busy; `ENODEV`/`ENXIO` → lost while
    /// capturing (`duringCapture`) or absent before; `ENOENT` → absent device, or no IIO
    /// subsystem when the context itself failed (`device` nil). Other codes return nil
    /// (a plain error, not an access problem).
    public static func from(errno code: Errno, device: String?, path: String?, duringCapture: Bool) -> AccessState? {
        switch code {
        case .permissionDenied, .notPermitted: return .permissionDenied(device: device ?? "IIO", path: path ?? "/dev/iio:device*")
        case .busy: return .busy(device: device ?? "device")
        case .noDevice, .noDeviceOrAddress:
            guard let d = device else { return .noIIOSubsystem }
            return duringCapture ? .lost(device: d) : .deviceAbsent(device: d)
        case .noEntry:
            guard let d = device else { return .noIIOSubsystem }
            return duringCapture ? .lost(device: d) : .deviceAbsent(device: d)
        default: return nil
        }
    }
}
