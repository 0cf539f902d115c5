import Primitives

/// Every hybrid edge item for one signer and one format (SPEC.md §9): each Ed25519 class with a
/// genuine ML-DSA-65 half, each ML-DSA-65 class with a genuine Ed25519 half, and two items where
/// both halves sit on an edge. `message(A)` is the format's signed message for Ed25519 key A (a
/// DeviceList signs its account id; a certificate does not depend on the key).
enum HybridEdges {
    /// The pairs whose both halves are broken in ways a lenient verifier accepts.
    static let both: [(Ed25519EdgeClass, MLDSAEdgeClass)] = [(.sPlusL, .hintUnsorted), (.cofactoredOnlyR, .zOutOfRange)]

    static func all(ed25519Seed: [UInt8], mldsa: MLDSA65.PrivateKey, message: ([UInt8]) -> [UInt8]) throws -> [HybridEdge] {
        let realA = try Ed25519.PrivateKey(seed: ed25519Seed).publicKey.rawRepresentation
        var mldsaCache: [[UInt8]: [UInt8]] = [:]
        func genuineMLDSA(_ m: [UInt8]) throws -> [UInt8] {
            if let s = mldsaCache[m] { return s }
            let s = try mldsa.deterministicSignature(for: m)
            mldsaCache[m] = s
            return s
        }
        let realMessage = message(realA)
        var hintFreeCache: (signature: [UInt8], polynomial: Int)?
        func hintFree() throws -> (signature: [UInt8], polynomial: Int) {
            if let h = hintFreeCache { return h }
            let h = try MLDSAEdgeGenerator.hintFreeSignature(key: mldsa, message: realMessage)
            hintFreeCache = h
            return h
        }
        let realEd = try Ed25519EdgeGenerator.make(.control, seed: ed25519Seed, message: realMessage)
        var out: [HybridEdge] = []
        for c in Ed25519EdgeClass.allCases {
            let a = Ed25519EdgeGenerator.publicKey(c, signerKey: realA)
            let m = message(a)
            let ed = try Ed25519EdgeGenerator.make(c, seed: ed25519Seed, message: m)
            out.append(try item("ed25519/\(c.rawValue)", ed: ed, mldsaHalf: try genuineMLDSA(m), mldsaClass: nil, key: mldsa.publicKey,
                                rules: c.rules, summary: c.summary, ownKey: c.ownKey))
        }
        for c in MLDSAEdgeClass.allCases {
            let ml = try MLDSAEdgeGenerator.make(c, key: mldsa, message: realMessage, genuine: try genuineMLDSA(realMessage), hintFree: hintFree)
            out.append(try item("mldsa/\(c.rawValue)", ed: realEd, mldsaHalf: ml.signature, mldsaClass: c, key: mldsa.publicKey,
                                rules: c.rules, summary: c.summary, ownKey: false))
        }
        for (e, p) in both {
            let ed = try Ed25519EdgeGenerator.make(e, seed: ed25519Seed, message: realMessage)
            let ml = try MLDSAEdgeGenerator.make(p, key: mldsa, message: realMessage, genuine: try genuineMLDSA(realMessage), hintFree: hintFree)
            out.append(try item("both/\(e.rawValue)+\(p.rawValue)", ed: ed, mldsaHalf: ml.signature, mldsaClass: p, key: mldsa.publicKey,
                                rules: e.rules + p.rules + ["R9.3-2"],
                                summary: "Ed25519 half: \(e.summary); ML-DSA-65 half: \(p.summary)", ownKey: false))
        }
        return out
    }

    static func item(_ name: String, ed: Ed25519Edge, mldsaHalf: [UInt8], mldsaClass: MLDSAEdgeClass?, key: MLDSA65.PublicKey,
                     rules: [String], summary: String, ownKey: Bool) throws -> HybridEdge {
        let signature = ed.signature + mldsaHalf
        let edKey = try Ed25519.PublicKey(rawRepresentation: ed.publicKey)
        let hybrid = HybridSignature.PublicKey(ed25519: edKey, mldsa: key)
        var failure: HybridSignature.Failure?
        do { try hybrid.verify(signature, for: ed.message) } catch { failure = error }
        var flags: [String] = []
        let edSuite = edKey.isValidSignature(ed.signature, for: ed.message)
        if ed.edgeClass != .control {
            for v in StockEd25519Verifier.allCases where v.accepts(publicKey: ed.publicKey, signature: ed.signature, message: ed.message) != edSuite {
                flags.append("\(edSuite ? "rejected-by" : "accepted-by"):\(v.rawValue)")
            }
        }
        if let mldsaClass, !mldsaClass.changesLength {
            for v in LenientMLDSAVerifier.allCases where v.accepts(publicKey: key, signature: mldsaHalf, message: ed.message) {
                flags.append("accepted-by:\(v.rawValue)")
            }
        }
        // The claims the classes make, checked against the computed verdict.
        let mldsaOK = mldsaClass == nil
        let expected: HybridSignature.Failure? = mldsaClass?.changesLength == true ? .wrongLength
            : (ed.edgeClass.validUnderSuite, mldsaOK) == (true, true) ? nil
            : (ed.edgeClass.validUnderSuite, mldsaOK) == (false, true) ? .ed25519Invalid
            : (ed.edgeClass.validUnderSuite, mldsaOK) == (true, false) ? .mldsaInvalid : .bothInvalid
        guard failure == expected else {
            throw StateDigestVectors.GeneratorCheckFailed(description: "hybrid edge \(name): expected \(String(describing: expected)), verified as \(String(describing: failure))")
        }
        return HybridEdge(name: name, ed25519PublicKey: ed.publicKey, message: ed.message, signature: signature, failure: failure,
                          rules: rules, summary: summary, stockFlags: flags, ownKey: ownKey)
    }
}
