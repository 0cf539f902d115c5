import FuzzCommon

private let target = FuzzTarget("testee_output")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { target.run(data, size) }
