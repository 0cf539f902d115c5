/// The cases issue 23 withdrew because they could not test what they claimed (SPEC.md §2.1): a
/// second "fault" that was none, a count change that broke c̃ as well. Each keeps its id in its file's `withdrawn` list, with the reason and the id of
/// the case that replaces it; a generator never makes a withdrawn id again (`VectorFile.validate`).
enum Issue23Withdrawals {
    static let mldsaCountReason = "issue 23: the changed hint count also changed the hints a decoder without the count check reads, so c̃ failed too and such a decoder was rejected for the wrong reason"

    /// (format, id after `<format>/`, reason). The ML-DSA ids are the §9.5 classes in every
    /// format that carries them.
    static let all: [(String, String, String)] = {
        var out: [(String, String, String)] = [
            ("account_state", "decode/order/utf8-before-key-order",
             "issue 23: its second fault was none (the key ff sorts above \"b\", so the keys were in order); replaced by account_state/decode/order/bad-utf8-key-below-previous (the key 61 ff after \"b\": not UTF-8, and below \"b\")"),
            // Found by the two-fault audit (`conformance coverage`, issue 23 item 4).
            ("account_state", "open/order/decode-error-no-fallback",
             "issue 23: its second fault was none (with a sorted plaintext the seed key changes nothing: the blob opens under epoch 1), so it could not show an order; replaced by account_state/open/decode/v1-unsorted-no-fallback, the same input without the two-faults claim (it still pins that a decoding error is final)"),
            ("account_state", "open/fallback/v0-salt-hss1-undecodable-stale",
             "issue 23: its second fault was none (the unaccepted epoch 5 fails only the v1 attempt: with a decodable plaintext the v0 fallback opens the blob), so it could not show an order; replaced by account_state/open/fallback/v0-salt-hss1-undecodable-not-stale, the same input without the two-faults claim (it still pins that the fallback's decoding error is reported, not the stale epoch)"),
            ("account_state", "open/fallback/v0-salt-hss1-undecodable-auth-failed",
             "issue 23: its second fault was none (epoch 5 under another key fails only the v1 attempt: with a decodable plaintext the v0 fallback opens the blob), so it could not show an order; replaced by account_state/open/fallback/v0-salt-hss1-undecodable-not-auth-failed, the same input without the two-faults claim (it still pins that the fallback's decoding error is reported, not the v1 tag failure)"),
            ("pairing", "ensure_paired/order/wire-type-before-paired-type",
             "issue 23: its two faults (wire \"1\", paired \"false\") each give pairing_hello_invalid alone, so it could not show which member is read first; replaced by pairing/ensure_paired/paired/wire-and-paired-both-unreadable, the same input without the two-faults claim"),
            ("device_list", "advertisement_decode/read/only-comma",
             "issue 23: it claimed two faults, but its two empty entries are one fault with one code and the text's emptiness (step 1) is none, so no fault could be taken out alone; replaced by device_list/advertisement_decode/read/only-comma-not-empty, the same input without the two-faults claim (it still pins the order: a reader that drops empty entries first answers empty)"),
            ("envelope", "sender_cert_verify/order/malformed-before-signature",
             "issue 23: it claimed two faults, but its signature was good (the signed message does not cover an unknown member), so its one fault was the unknown member zz and a verifier that judges the signature first passed it too; replaced by envelope/sender_cert_verify/order/malformed-before-other-key (the same member zz in the certificate signed by another credential key, both_invalid alone)"),
        ]
        let mldsa: [(String, String)] = [
            ("signin", "cert_verify"), ("signin", "ladder"), ("envelope", "sender_cert_verify"),
            ("device_list", "credential_verify"), ("device_list", "list_verify"),
        ]
        for (format, op) in mldsa {
            let suffix = format == "device_list" ? DeviceListVectors.realKEMSuffix : ""
            for (old, new) in [("hint-count-decreasing", "hint-count-decreasing-same-hints"), ("hint-count-over-omega", "hint-count-over-omega-same-hints")] {
                out.append((format, "\(op)/sig-edge/mldsa-\(old)\(suffix)", "\(mldsaCountReason); replaced by \(format)/\(op)/sig-edge/mldsa-\(new)"))
            }
        }
        return out
    }()

    /// The withdrawn entries of one format's file.
    static func entries(_ format: String) -> [WithdrawnCase] {
        all.filter { $0.0 == format }.map { WithdrawnCase(id: "\($0.0)/\($0.1)", reason: $0.2) }
    }
}
