/// Which SPEC.md rules each `signin` case pins (§2.3): a `rule:<id>` flag per rule, plus
/// `two-faults` on every case that breaks two rules to fix which error wins. Most cases take their
/// rules from where they sit (op and group); the generator adds them here in one place, after the
/// cases are built, so the mapping can be read as one table. Cases built with explicit `rule:`
/// flags (the edge and order groups) keep them.
extension SignInVectors {
    /// The §8.2 rule a malformed-encoding variant pins, from the code it expects and its name.
    static func decodingRules(_ name: String, _ code: String) -> [String] {
        if code.hasPrefix("cbor_") { return ["R8.2-1"] }
        if name.hasPrefix("type-") { return ["R8.2-3"] }
        if name == "top-level-array" || name == "top-level-bytes" || name == "integer-key" { return ["R8.2-2"] }
        if name == "unknown-member" || name.hasSuffix("unknown-member") || name == "type-member" { return ["R8.2-4"] }
        if code == "signin_approval_partial" { return ["R8.8-1", "R8.8-2"] }
        return ["R8.2-5"]
    }

    /// Rules of the message a decoder reads (its table).
    static func messageRules(_ op: String) -> [String] {
        switch op {
        case "cert_decode", "cert_encode", "cert_issue": return ["R8.1-5"]
        case "lookup_decode", "lookup_encode": return ["R8.3-1"]
        case "request_decode", "request_encode": return ["R8.4-1"]
        case "ack_decode", "ack_encode": return ["R8.7-1"]
        case "approval_decode", "approval_encode": return ["R8.8-1"]
        default: return []
        }
    }

    /// The ladder ids (besides the `order/` group) whose two failures fix the rung order.
    static let ladderTwoFaults: [String: [String]] = [
        "rung2/no-pinned-key-and-cert-malformed": ["R8.5-5"],
        "rung2/expired-and-mldsa-broken": ["R8.5-5"],
        "rung2/mldsa-broken-and-phone-mismatch": ["R8.6-1"],
        "rung3/no-own-cert-and-timestamp-out": ["R8.6-1"],
        "rung4/mismatch-and-timestamp-out": ["R8.6-1"],
    ]

    static func rules(op: String, group: String, name: String, expected: VectorCase.Expected) -> [String] {
        let code: String? = { if case .error(let e) = expected { return e.rawValue }; return nil }()
        let path = "\(group)/\(name)"
        switch (op, group) {
        case ("phone_id", "valid"): return ["R8.1-1", "R8.9-6"]
        case ("phone_id", "invalid"): return ["R8.1-2"]
        case ("cert_issue", "valid"): return ["R8.1-5", "R8.1-6", "R8.1-7", "R8.9-6", "R8.9-7", "R9.2-5"]
        case ("cert_issue", "invalid"): return name == "seed-31-bytes" ? ["R8.9-7"] : ["R8.9-2", "R8.1-5"]
        case ("cert_encode", "valid"): return ["R8.1-5", "R8.1-6", "R8.9-6", "R8-2"] + (name == "extreme-times" ? ["R8.1-8"] : [])
        case ("cert_encode", "invalid"):
            switch name {
            case "expires-negative": return ["R8.9-1", "R2.2-3"]
            case "sig-missing": return ["R8.9-1", "R2.2-1"]
            default: return ["R8.9-2", "R8.1-5"]
            }
        case (_, "valid") where op.hasSuffix("_decode"): return messageRules(op) + ["R8-3", "R8.9-6"]
        case (_, "malformed") where op.hasSuffix("_decode"):
            return decodingRules(name, code ?? "") + messageRules(op) + (name == "grant-null" ? ["R8.8-3"] : [])
                + (name.hasPrefix("grant-") && name != "grant-null" && name != "grant-missing" ? ["R8.8-6"] : [])
                + (name == "reject-with-seed" ? ["R8.8-1"] : [])
        case ("cert_verify", "valid"): return ["R8.5-3", "R8.5-4", "R8.9-6"]
        case ("cert_verify", "expiry"): return ["R8.5-4"]
        case ("cert_verify", "key"):
            switch name {
            case "none-pinned": return ["R8.5-1"]
            case "none-pinned-and-malformed": return ["R8.5-5", "R8.5-1"]
            default: return ["R8.1-3"]
            }
        case ("cert_verify", "signature"):
            if name == "expired-and-mldsa-broken" { return ["R8.5-5", "R8.5-3"] }
            if name == "signed-without-domain" || name == "phone-id-changed-after-signing" { return ["R8.5-3", "R8.1-6"] }
            if name == "pinned-ed25519-not-a-point" { return ["R8.5-3", "R8.1-4"] }
            return ["R8.5-3", "R9.3-2"]
        case ("cert_verify", "malformed"): return ["R8.5-2"]
        case ("lookup_encode", _), ("ack_encode", _):
            return messageRules(op) + (group == "valid" ? ["R8.9-6"] : code == "input_missing_field" || code == "input_bad_type" ? ["R8.9-1"] : ["R8.9-2"])
                + (path == "valid/unicode" ? ["R8.7-2"] : [])
        case ("request_encode", "valid"):
            switch name {
            case "unicode-model": return ["R8.4-1", "R8.2-7"]
            case "model-64-bytes", "model-1-byte": return ["R8.4-1", "R8.4-3"]
            case "cert-opaque": return ["R8.4-1", "R8.4-2"]
            case "timestamp-zero", "timestamp-max": return ["R8.4-1", "R8-2"]
            default: return ["R8.4-1", "R8.9-6"]
            }
        case ("request_encode", "invalid"):
            switch name {
            case "timestamp-string-not-digits": return ["R8.9-1", "R2.2-3"]
            case "cert-missing": return ["R8.9-1", "R2.2-1"]
            case "model-65-bytes", "model-empty", "model-63-chars-65-bytes": return ["R8.9-2", "R8.4-3"]
            default: return ["R8.9-2", "R8.4-1"]
            }
        case ("ack_decode", "valid") where name == "unicode": return ["R8.7-1", "R8.7-2"]
        case (_, "order") where op.hasSuffix("_encode"): return ["R8.9-3"]
        case ("approval_decode", "order"): return name == "grant-inner-before-seed" ? ["R8.8-5"] : ["R8.8-2", "R8.2-4"]
        case ("approval_encode", "valid"): return name == "reject" ? ["R8.8-4", "R8.9-6"] : ["R8.8-1", "R8.8-6", "R8.9-6"]
        case ("approval_encode", "invalid"): return name == "seed-31-bytes" ? ["R8.9-2"] : ["R8.9-9", "R8.8-1"]
        case ("approval_admits", "approve"):
            switch name {
            case "before-minting": return ["R8.8-9", "R8.8-7"]
            default: return ["R8.8-7", "R8.8-8"]
            }
        case ("approval_admits", "reject"): return ["R8.8-7", "R8.8-9"]
        case ("approval_admits", "malformed"): return ["R8.8-7"] + (name == "grant-null" ? ["R8.8-3"] : ["R8.8-1"])
        case ("approval_admits", "order"): return ["R8.9-4"]
        case ("ladder", "accept"):
            var r = ["R8.6-1", "R8.9-6", "R8.9-8"]
            if name.hasPrefix("timestamp-") { r += ["R8.6-6", "R8.6-7"] }
            if name == "own-cert-expired" { r += ["R8.6-8"] }
            if name == "own-cert-is-the-request-cert" { r += ["R8.6-5", "R8.6-9"] }
            if name == "cert-one-second-before-expiry" { r += ["R8.5-4"] }
            return r
        case ("ladder", "rung1"): return ["R8-1", "R8.6-2", "R8.9-8"] + decodingRules(name, code ?? "")
        case ("ladder", "rung2"):
            var r = ["R8-1", "R8.6-3"]
            if let extra = ladderTwoFaults[path] { r += extra }
            if name == "no-pinned-key" { r += ["R8.5-1"] }
            if name.hasPrefix("expired") { r += ["R8.5-4"] }
            if name.hasPrefix("cert-") { r += ["R8.5-2"] }
            if name == "pinned-ed25519-not-a-point" { r += ["R8.1-4"] }
            return r
        case ("ladder", "rung3"): return ["R8-1", "R8.6-4"] + (ladderTwoFaults[path] ?? [])
        case ("ladder", "rung4"): return ["R8-1", "R8.6-5"] + (ladderTwoFaults[path] ?? [])
        case ("ladder", "rung5"): return ["R8-1", "R8.6-6"] + (name == "timestamp-max" || name == "timestamp-zero" ? ["R8.6-7"] : [])
        case ("ladder", "input"): return ["R8.9-8"] + (name == "pinned-key-wrong-length" ? ["R8.1-3"] : name == "now-negative" ? ["R2.2-3", "R8.9-1"] : ["R2.2-1", "R8.9-1"])
        default: return []
        }
    }

    /// Appends each case's rule flags (and `two-faults`), without duplicates, keeping explicit ones.
    static func addRuleFlags(_ cases: inout [VectorCase]) {
        for i in cases.indices {
            let parts = cases[i].id.split(separator: "/", maxSplits: 3).map(String.init)
            guard parts.count == 4 else { continue }
            let (op, group, name) = (parts[1], parts[2], parts[3])
            var flags = cases[i].flags
            for r in rules(op: op, group: group, name: name, expected: cases[i].expected) where !flags.contains("rule:\(r)") {
                flags.append("rule:\(r)")
            }
            let twoFaults = group == "order" || ladderTwoFaults["\(group)/\(name)"] != nil || (op == "cert_verify" && (name == "none-pinned-and-malformed" || name == "expired-and-mldsa-broken"))
            if twoFaults && !flags.contains("two-faults") { flags.append("two-faults") }
            cases[i].flags = flags
        }
    }
}
