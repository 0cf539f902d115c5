/// One piece of ML-DSA-65 edge material: a changed signature and the message it claims to sign.
struct MLDSAEdge: Sendable {
    let edgeClass: MLDSAEdgeClass
    /// The ML-DSA-65 half (3,309 bytes except for `short` and `long`).
    let signature: [UInt8]
    let message: [UInt8]
}
