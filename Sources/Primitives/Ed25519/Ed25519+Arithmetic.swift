extension Ed25519 {
    /// Group and scalar arithmetic on public values, for building Ed25519 edge-case signatures
    /// (small-order and mixed-order keys, forged-looking R values, out-of-range S). Package-only:
    /// the vector generator (`Sources/Vectors/SignatureEdges`) and the tests use it; nothing that
    /// handles a secret goes through here, and everything is variable time.
    package enum Arithmetic {
        /// L = 2^252 + 27742317777372353535851937790883648493, 32 bytes little-endian.
        package static let order: [UInt8] = [
            0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
        ]

        /// A little-endian integer of at most 64 bytes, reduced mod L (32 bytes).
        package static func reduce(_ bytes: [UInt8]) -> [UInt8] {
            precondition(bytes.count <= 64)
            let wide = bytes + [UInt8](repeating: 0, count: 64 - bytes.count)
            var out = [UInt8](repeating: 0, count: 32)
            wide.withUnsafeBytes { w in out.withUnsafeMutableBytes { Scalar(reducingWide: w.baseAddress!).write(to: $0.baseAddress!) } }
            return out
        }

        /// (a·b + c) mod L for 32-byte little-endian a, b, c (each reduced first).
        package static func mulAdd(_ a: [UInt8], _ b: [UInt8], _ c: [UInt8]) -> [UInt8] {
            let (ra, rb, rc) = (reduce(a), reduce(b), reduce(c))
            var out = [UInt8](repeating: 0, count: 32)
            ra.withUnsafeBytes { pa in
                rb.withUnsafeBytes { pb in
                    rc.withUnsafeBytes { pc in
                        out.withUnsafeMutableBytes {
                            Scalar.mulAdd(Scalar(bytes: pa.baseAddress!), Scalar(bytes: pb.baseAddress!), Scalar(bytes: pc.baseAddress!))
                                .write(to: $0.baseAddress!)
                        }
                    }
                }
            }
            return out
        }

        /// Adds two little-endian 32-byte integers without reduction (the carry out of bit 255 is
        /// dropped; callers keep the sum below 2^256).
        package static func addUnreduced(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: 32)
            var carry = 0
            for i in 0..<32 {
                let v = Int(a[i]) + Int(b[i]) + carry
                out[i] = UInt8(v & 0xff)
                carry = v >> 8
            }
            return out
        }

        /// k = SHA-512(R || A || M) mod L over the bytes as given (RFC 8032 §5.1.7 step 2).
        package static func challenge(r: [UInt8], a: [UInt8], message: [UInt8]) -> [UInt8] {
            var h = SHA512()
            r.withUnsafeBytes { h.update($0) }
            a.withUnsafeBytes { h.update($0) }
            message.withUnsafeBytes { h.update($0) }
            var digest = [UInt8](repeating: 0, count: 64)
            digest.withUnsafeMutableBytes { h.finalize(into: $0.baseAddress!) }
            return reduce(digest)
        }

        /// [a]P + [b]B for scalars a, b < 2^253 (32 bytes each).
        static func doubleMul(_ a: [UInt8], _ p: EdwardsPoint, _ b: [UInt8]) -> EdwardsPoint {
            a.withUnsafeBytes { pa in
                b.withUnsafeBytes { pb in BasepointTable.doubleScalarMulVartime(pa.baseAddress!, p, pb.baseAddress!).extended }
            }
        }
    }

    /// A curve point for the edge-case generator: any point, small-order and mixed-order ones
    /// included. Package-only, variable time.
    package struct Point: Sendable {
        let p: EdwardsPoint

        init(_ p: EdwardsPoint) { self.p = p }

        /// Decodes under [R9.1-3] (aliases accepted); nil when the bytes are not a point.
        package init?(decoding bytes: [UInt8]) {
            guard bytes.count == 32, let d = bytes.withUnsafeBytes({ EdwardsPoint.decode($0.baseAddress!) }) else { return nil }
            p = d.point
        }

        package static let identity = Point(.identity)

        /// [s]B for a 32-byte scalar (reduced mod L first).
        package static func base(times s: [UInt8]) -> Point {
            Point(Arithmetic.doubleMul([UInt8](repeating: 0, count: 32), .identity, Arithmetic.reduce(s)))
        }

        /// [s]P for a 32-byte scalar s < 2^253, not reduced mod L (so a small-order component is
        /// multiplied by s itself).
        package func times(_ s: [UInt8]) -> Point {
            precondition(s.count == 32 && s[31] & 0xe0 == 0)
            return Point(Arithmetic.doubleMul(s, p, [UInt8](repeating: 0, count: 32)))
        }

        /// The canonical 32-byte encoding (RFC 8032 §5.1.2).
        package var encoded: [UInt8] { p.encoded }
        package var timesCofactor: Point { Point(p.timesCofactor) }
        package var isIdentity: Bool { p.isIdentity }
        /// [8]P is the identity: P is one of the 8 points of order 1, 2, 4 or 8.
        package var isSmallOrder: Bool { p.timesCofactor.isIdentity }
        /// [L]P is the identity: P has no small-order component.
        package var isTorsionFree: Bool {
            // L = 8·((L - 5)/8) + 5 would need unreduced scalars above 2^253; instead use
            // [L]P = [L - 1]P + P with L - 1 < 2^253.
            var lMinusOne = Arithmetic.order
            lMinusOne[0] -= 1
            return (times(lMinusOne).p + p).isIdentity
        }

        package static func + (a: Point, b: Point) -> Point { Point(a.p + b.p) }
        package static func - (a: Point, b: Point) -> Point { Point(a.p - b.p) }
        package static prefix func - (a: Point) -> Point { Point(a.p.negated) }
        package func sameAs(_ q: Point) -> Bool { p.sameAs(q.p) }
    }
}
