import FuzzCommon

private let target = FuzzTarget("settle")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { target.run(data, size) }
