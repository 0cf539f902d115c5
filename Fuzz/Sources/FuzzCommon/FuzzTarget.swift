import Conformance
import Vectors
#if canImport(Glibc)
import Glibc
#endif

/// One libFuzzer target: the surface's check on every input the engine makes. A finding is
/// printed (what failed, the input in hex) and then the process traps, which libFuzzer records as
/// a crash with the input saved, exactly as it records a trap inside the decoder itself.
public final class FuzzTarget: Sendable {
    public let surface: FuzzSurface

    public init(_ name: String) {
        guard let s = ConformanceFuzzSurfaces.named(name) else { fatalError("no fuzz surface named \(name)") }
        surface = s
    }

    public func run(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        if let finding = surface.run(bytes) {
            let line = Array("FINDING \(finding)\n".utf8)
            _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            fatalError("fuzz_\(surface.name): \(finding.what)")
        }
        return 0
    }
}
