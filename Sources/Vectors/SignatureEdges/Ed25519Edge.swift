/// One piece of Ed25519 edge material: a key, a 64-byte signature and the message it is over.
struct Ed25519Edge: Sendable {
    let edgeClass: Ed25519EdgeClass
    /// A, the 32 bytes a verifier is given (the signer's key unless the class brings its own).
    let publicKey: [UInt8]
    /// R || S.
    let signature: [UInt8]
    let message: [UInt8]
}
