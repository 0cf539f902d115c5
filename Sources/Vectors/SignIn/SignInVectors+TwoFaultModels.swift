/// The models of signin's two-fault cases the byte comparison cannot split (issue 23, item 4): a
/// request is signed and carries its certificate, so putting back one fault rewrites the
/// signature, lengths and offsets around the other. Each model builds the case's input from the
/// set of faults switched on; `TwoFaultModel.audit` proves it is the committed case and that only
/// the earlier check's fault decides it.
extension SignInVectors {
    static func twoFaultModels(_ f: SignInFixtures) throws -> [TwoFaultModel] {
        let (now, pinned, own) = (f.now, f.pinned, f.ownCert.encoded)
        let m = requestMalformations(try f.request(cert: f.requestCert.encoded, timestamp: now))
        @Sendable func zz(_ t: CBOR) -> CBOR { MalformedEncodings.replacing(t, "zz", with: .unsigned(1)) }
        return [
            // §8.6: rung 4 (the certificate is for another number) before rung 5 (a timestamp
            // 121 s ahead). Neither: the genuine certificate at now.
            TwoFaultModel("signin/ladder/rung4/mismatch-and-timestamp-out", op: "ladder", first: "number", second: "clock") { s in
                let cert = s.has("number") ? f.requestCertOtherNumber : f.requestCert
                let request = try f.request(cert: cert.encoded, timestamp: s.has("clock") ? now + 121 : now).encoded
                return ladderInput(request: request, pinned: pinned, own: own, now: now)
            },
            // §8.6: rung 1 (an unknown member zz in the request) before rung 2 (an empty
            // certificate). Neither: the genuine request.
            TwoFaultModel("signin/ladder/order/rung1-before-rung2", op: "ladder", first: "unknown", second: "cert") { s in
                let tree = try f.request(cert: s.has("cert") ? [] : f.requestCert.encoded, timestamp: now).tree
                return ladderInput(request: CBORWriter.encode(s.has("unknown") ? zz(tree) : tree), pinned: pinned, own: own, now: now)
            },
            // §8.2: step 3 (the tag signin_ack) before step 4 (an unknown member zz).
            TwoFaultModel("signin/request_decode/order/tag-before-unknown", op: "request_decode", first: "tag", second: "unknown") { s in
                let tree = s.has("tag") ? m.replacing("type", with: .text("signin_ack")) : m.tree
                return .object([("encoded", .bytes(CBORWriter.encode(s.has("unknown") ? zz(tree) : tree)))])
            },
        ]
    }
}
