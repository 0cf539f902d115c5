/// The models of reconcile's two-fault cases the byte comparison cannot split (issue 23, item 4):
/// in both, a frame of another kind is also missing a member of that kind, so putting back the
/// kind changes which members the frame must have. Each model builds the case's input from the
/// set of faults switched on; `TwoFaultModel.audit` proves it is the committed case and that only
/// the earlier check's fault decides it.
extension ReconcileVectors {
    static func twoFaultModels() throws -> [TwoFaultModel] {
        // respond (R5.4-1): the request frame is decoded in full before its kind is refused.
        let ns = Namespace.messages
        let base = Array(sortedByKey(rows(ns, 0..<8))[1...6])
        let request = try ReplicaNamespace(namespace: ns, rows: base).request().tree
        let replica = replicaTree(ReplicaNamespace(namespace: ns, rows: base))
        // receive_digest (R5.7-5): the frame is decoded in full before its kind is refused.
        let (mine, theirs) = try digestPair()
        return [
            // First fault: a required member missing (a request without buckets); second: the
            // kind reconcile_resp. Both: a response without rows. Neither: the request itself.
            TwoFaultModel("reconcile/respond/order/response-frame-decoded-first", op: "respond", first: "missing", second: "kind") { s in
                let frame: CBOR
                switch (s.has("missing"), s.has("kind")) {
                case (true, true): frame = .object([("kind", .text("reconcile_resp")), ("namespace", .text("messages"))])
                case (true, false): frame = .object([("kind", .text("reconcile_req")), ("namespace", .text("messages"))])
                case (false, true): frame = ReconcileResponse(namespace: ns, rows: base).tree
                case (false, false): frame = request
                }
                return .object([("request", frame), ("replica", replica)])
            },
            // First fault: a required member missing (a digest frame without its digest); second:
            // the kind reconcile_resp. Both: a settings response without entries. Neither: the
            // sibling's digest frame.
            TwoFaultModel("reconcile/receive_digest/exchange/order/frame-decoded-before-kind", op: "receive_digest", first: "missing", second: "kind") { s in
                let frame: CBOR
                switch (s.has("missing"), s.has("kind")) {
                case (true, true): frame = .object([("kind", .text("reconcile_resp")), ("namespace", .text("settings"))])
                case (true, false): frame = .object([("kind", .text("state_digest"))])
                case (false, true): frame = ReconcileResponse(namespace: .settings, rows: []).tree
                case (false, false): frame = ReconcileFrame.digest(theirs).tree
                }
                return .object([("local", .bytes(mine.encoded())), ("frame", frame), ("reconciling", .bool(false))])
            },
        ]
    }
}
