extension RecordingWarningKind {
    /// A device file's record or block whose checksum does not match (GT3X `log.bin` record, CWA
    /// data block): skipped, the rest of the file still read.
    public static let badChecksum = RecordingWarningKind(rawValue: "bad-checksum")
    /// A device file that ends inside a record or block (a download cut short), or a block whose
    /// fields do not hold together: dropped.
    public static let truncatedBlock = RecordingWarningKind(rawValue: "truncated-block")
    /// Bytes between a device file's records that belong to none (other than the zero padding
    /// ActiGraph documents): skipped to the next record.
    public static let strayBytes = RecordingWarningKind(rawValue: "stray-bytes")
    /// A device file's block whose time is not where the previous block's end says (a gap, or
    /// the clock set): kept at its own time; a step back is then the defect rule's
    /// (`backward-step` within 1 s, else an error).
    public static let timeJump = RecordingWarningKind(rawValue: "time-jump")
}
