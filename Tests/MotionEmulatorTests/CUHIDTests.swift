import CUHID
import Testing

/// The struct layout the C helpers rely on: type u32, then the packed union.
@Test func eventBuildersAndParsersAgreeWithTheUAPILayout() {
    let size = cuhid_event_size()
    #expect(size == 4 + 4 + 4096 + 256 - 8 + 8 || size > 4096)  // at least one 4096-byte payload
    let buf = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
    defer { buf.deallocate() }
    let report: [UInt8] = [1, 2, 3, 4]
    #expect(cuhid_build_input2(buf, report, report.count) == 0)
    #expect(cuhid_event_type(buf) == UInt32(CUHID_INPUT2.rawValue))
    #expect(buf.load(fromByteOffset: 4, as: UInt16.self) == 4)  // input2.size
    #expect(Array(UnsafeRawBufferPointer(start: buf + 6, count: 4)) == report)
    #expect(cuhid_build_input2(buf, report, cuhid_max_data_size() + 1) == -1)

    // A SET_REPORT as the kernel lays it out: id u32, rnum u8, rtype u8, size u16, data.
    memsetZero(buf, size)
    buf.storeBytes(of: UInt32(CUHID_SET_REPORT.rawValue), as: UInt32.self)
    buf.storeBytes(of: UInt32(77), toByteOffset: 4, as: UInt32.self)
    buf.storeBytes(of: UInt8(2), toByteOffset: 8, as: UInt8.self)
    buf.storeBytes(of: UInt8(CUHID_FEATURE_REPORT.rawValue), toByteOffset: 9, as: UInt8.self)
    buf.storeBytes(of: UInt16(3), toByteOffset: 10, as: UInt16.self)
    buf.storeBytes(of: UInt8(2), toByteOffset: 12, as: UInt8.self)
    buf.storeBytes(of: UInt8(9), toByteOffset: 14, as: UInt8.self)
    #expect(cuhid_request_id(buf) == 77 && cuhid_request_rnum(buf) == 2 && cuhid_request_rtype(buf) == 0)
    var len = 0
    let p = cuhid_event_data(buf, &len)
    #expect(len == 3 && p != nil && Array(UnsafeBufferPointer(start: p, count: len)) == [2, 0, 9])

    #expect(cuhid_build_get_report_reply(buf, 77, 5, report, 4) == 0)
    #expect(cuhid_event_type(buf) == UInt32(CUHID_GET_REPORT_REPLY.rawValue))
    #expect(buf.load(fromByteOffset: 4, as: UInt32.self) == 77 && buf.load(fromByteOffset: 8, as: UInt16.self) == 5
            && buf.load(fromByteOffset: 10, as: UInt16.self) == 4)
    cuhid_build_set_report_reply(buf, 78, 0)
    #expect(cuhid_event_type(buf) == UInt32(CUHID_SET_REPORT_REPLY.rawValue) && buf.load(fromByteOffset: 4, as: UInt32.self) == 78)
}

@Test func create2CarriesTheDescriptor() {
    let size = cuhid_event_size()
    let buf = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
    defer { buf.deallocate() }
    let desc: [UInt8] = [0x05, 0x20, 0x09, 0x01]
    #expect(cuhid_build_create2(buf, "test", desc, desc.count, 6, 0x1209, 1, 1) == 0)
    #expect(cuhid_event_type(buf) == UInt32(CUHID_CREATE2.rawValue))
    // name[128] phys[64] uniq[64] then rd_size u16 at 4 + 256.
    #expect(buf.load(fromByteOffset: 4 + 256, as: UInt16.self) == 4)
    #expect(String(cString: (buf + 4).assumingMemoryBound(to: CChar.self)) == "test")
    #expect(cuhid_build_create2(buf, "x", desc, cuhid_max_descriptor_size() + 1, 6, 0, 0, 0) == -1)
}

private func memsetZero(_ p: UnsafeMutableRawPointer, _ n: Int) {
    p.initializeMemory(as: UInt8.self, repeating: 0, count: n)
}
