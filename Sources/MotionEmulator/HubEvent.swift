/// Report types of GET_REPORT / SET_REPORT requests (values of `enum uhid_report_type`).
public enum HIDReportType: UInt8, Sendable, Codable {
    case feature = 0, output = 1, input = 2
}

/// What the host (the kernel) asks of the virtual hub.
public enum HubEvent: Equatable, Sendable {
    /// UHID_GET_REPORT: request `requestID` for report `reportID` of `type`.
    case getReport(requestID: UInt32, reportID: UInt8, type: HIDReportType)
    /// UHID_SET_REPORT: request `requestID` writing `data` (report ID first) to report `reportID` of `type`.
    case setReport(requestID: UInt32, reportID: UInt8, type: HIDReportType, data: [UInt8])
}

/// What the virtual hub wants done; the I/O loop turns each into one uhid write.
public enum HubAction: Equatable, Sendable {
    /// UHID_INPUT2 with `report` (report ID first).
    case sendInput(report: [UInt8])
    /// UHID_GET_REPORT_REPLY: `error` 0 or an errno, `data` starting with the report ID.
    case replyGetReport(requestID: UInt32, error: UInt16, data: [UInt8])
    /// UHID_SET_REPORT_REPLY: `error` 0 or an errno.
    case replySetReport(requestID: UInt32, error: UInt16)
    /// The recording ended (no `--loop`) and every queued sample was delivered. Emitted once.
    case recordingEnded
}
