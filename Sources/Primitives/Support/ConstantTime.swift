/// Comparisons whose running time does not depend on where two secrets differ.
public enum ConstantTime {
    /// True when both collections hold the same bytes. Runs over every byte of equal-length inputs
    /// (a length difference is not secret and returns early).
    public static func equal<A: Collection, B: Collection>(_ a: A, _ b: B) -> Bool
    where A.Element == UInt8, B.Element == UInt8 {
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for (x, y) in zip(a, b) { diff |= x ^ y }
        return diff == 0
    }
}
