#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one key order of the suite (SPEC.md §4.4, §5.1): bytewise lexicographic, a proper prefix
/// first. `memcmp` instead of the generic `lexicographicallyPrecedes`, because sorting a
/// million keys is a third of a digest's time.
public enum ByteOrder {
    @inline(__always)
    public static func precedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        let n = min(a.count, b.count)
        let c = a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in n == 0 ? 0 : memcmp(pa.baseAddress!, pb.baseAddress!, n) }
        }
        return c != 0 ? c < 0 : a.count < b.count
    }

    /// The wrong reading of the prefix tie, for the mutants only (`*.prefix-last`): the same
    /// bytewise comparison, but a proper prefix sorts after the longer key. The reference never
    /// calls it unless such a mutant is switched on.
    static func prefixLastPrecedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        let n = min(a.count, b.count)
        for i in 0..<n where a[i] != b[i] { return a[i] < b[i] }
        return a.count > b.count
    }
}
