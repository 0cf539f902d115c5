import FuzzCommon

private let target = FuzzTarget("device_advertisement")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { target.run(data, size) }
